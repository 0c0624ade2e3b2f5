import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appModules } from '../app.ts';

/**
 * The shape every module keeps (README "Adding a module"): a module is its folder plus one line in
 * app.ts; it uses another module only through that module's `api.ts` (functions) or its
 * `*.schema.ts` (tables, for foreign keys and joins), never its services or routes; the platform
 * knows no module.
 */
const src = path.resolve(import.meta.dirname, '..');
const modulesDir = path.join(src, 'modules');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : name.endsWith('.ts') ? [full] : [];
  });
}

/** The relative imports of a file (import … from, export … from, import()), resolved to paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.[^']+)'/g)].map((m) => m[1] as string);
  return specifiers.map((specifier) => path.resolve(path.dirname(file), specifier));
}

const moduleNames = readdirSync(modulesDir).filter((name) =>
  statSync(path.join(modulesDir, name)).isDirectory(),
);

describe('module boundaries', () => {
  it('declares every module folder in its index.ts and lists it once in app.ts', () => {
    expect(appModules.map((m) => m.name).sort()).toEqual([...moduleNames].sort());
  });

  it('reaches another module only through its api.ts or its tables', () => {
    const violations: string[] = [];
    for (const owner of moduleNames) {
      for (const file of filesUnder(path.join(modulesDir, owner))) {
        for (const target of importsOf(file)) {
          const relative = path.relative(modulesDir, target);
          const [other, ...rest] = relative.split(path.sep);
          if (relative.startsWith('..') || other === owner || !other || !moduleNames.includes(other))
            continue;
          const inside = rest.join('/');
          if (inside === 'api.ts' || inside.endsWith('.schema.ts')) continue;
          violations.push(`${path.relative(src, file)} → modules/${relative}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps the database layer (db/) free of modules and of the app: the composition root hands it the modules', () => {
    const dbDir = path.join(src, 'db');
    const app = path.join(src, 'app.ts');
    const violations = filesUnder(dbDir)
      .filter((file) => !file.endsWith('.test.ts'))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => target.startsWith(`${modulesDir}${path.sep}`) || target === app)
          .map((target) => `${path.relative(src, file)} → ${path.relative(src, target)}`),
      );
    expect(violations).toEqual([]);
  });

  it('keeps the platform free of modules (its tests may use a module’s api.ts)', () => {
    const violations = filesUnder(path.join(src, 'platform')).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(`${modulesDir}${path.sep}`))
        .filter((target) => !(file.endsWith('.test.ts') && target.endsWith(`${path.sep}api.ts`)))
        .filter((target) => !(file.endsWith('.test.ts') && target.endsWith('.schema.ts')))
        .map((target) => `${path.relative(src, file)} → ${path.relative(src, target)}`),
    );
    expect(violations).toEqual([]);
  });
});
