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

/** Which modules each module's code (its tests aside) imports: its api.ts, its tables, anything. */
function moduleGraph(): Map<string, Set<string>> {
  const graph = new Map(moduleNames.map((name) => [name, new Set<string>()]));
  for (const owner of moduleNames) {
    for (const file of filesUnder(path.join(modulesDir, owner))) {
      if (file.endsWith('.test.ts')) continue;
      for (const target of importsOf(file)) {
        const [other] = path.relative(modulesDir, target).split(path.sep);
        if (other && other !== owner && moduleNames.includes(other)) graph.get(owner)?.add(other);
      }
    }
  }
  return graph;
}

/** The groups of modules that import each other round a cycle (Tarjan's strongly connected components). */
function moduleCycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (stack.includes(to))
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = member === node ? undefined : stack.pop())
      group.push(member);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles.sort();
}

describe('module boundaries', () => {
  it('finds a cycle planted among modules, and none where there is none', () => {
    const graph = (edges: [string, string][]) => {
      const map = new Map<string, Set<string>>();
      for (const [from, to] of edges) {
        map.set(from, (map.get(from) ?? new Set()).add(to));
        if (!map.has(to)) map.set(to, new Set());
      }
      return map;
    };
    expect(
      moduleCycles(
        graph([
          ['billing', 'payments'],
          ['payments', 'water'],
          ['water', 'billing'],
        ]),
      ),
    ).toEqual([['billing', 'payments', 'water']]);
    expect(
      moduleCycles(
        graph([
          ['billing', 'payments'],
          ['payments', 'water'],
          ['billing', 'water'],
        ]),
      ),
    ).toEqual([]);
  });

  it('has modules that depend on each other one way only (users and companies still round a cycle)', () => {
    // The company's administrators (users) and the users' companies (membership) are still read on
    // both sides; every other cycle is gone, and none may come back.
    expect(moduleCycles(moduleGraph())).toEqual([['companies', 'users']]);
  });

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
