/// <reference types="node" />
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Import boundaries of the web app, pointing one way: app → features → components, lib, i18n. A
 * feature (features/<name>/) is one business area: it may use components/, lib/ and i18n/, never
 * another feature nor app/ (the shell provides what a feature needs of it: the company, the user,
 * the language, the list of features, through lib/'s contexts); what two features share moves to
 * components/ or lib/. Shared code knows neither a feature nor app/, and the shell reaches a feature
 * only through its declaration (feature.ts/feature.tsx), so its pages stay lazy chunks.
 */
const SRC = path.resolve(import.meta.dirname, '..');
// The sign-in frame (login, logout, change password) is loaded by the router and shell themselves.
// The sign-in pages, and the public online form (outside the shell, lazily).
const SHELL_MAY_IMPORT = /^features\/(auth|onlineForms\/public|payments\/public)\//;
const DECLARATION = /^features\/[^/]+\/feature\.tsx?$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Source-relative paths (features/x/y.ts) of the relative imports of a file. */
function importsOf(file: string, root = SRC): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((match) =>
    path
      .relative(root, path.resolve(path.dirname(file), match[1] as string))
      .split(path.sep)
      .join('/'),
  );
}

const featureOf = (file: string) => /^features\/([^/]+)\//.exec(file)?.[1];

function boundaryViolations(root = SRC): string[] {
  const violations: string[] = [];
  for (const full of sourceFiles(root)) {
    const file = path.relative(root, full).split(path.sep).join('/');
    const own = featureOf(file);
    for (const target of importsOf(full, root)) {
      // main.tsx, the entry, mounts the app.
      if (target.startsWith('app/') && !file.startsWith('app/') && file !== 'main.tsx') {
        violations.push(`${file} imports ${target} (app/ is the top: nothing below imports it)`);
      }
      const other = featureOf(target);
      if (!other) continue;
      if (own) {
        if (other !== own) violations.push(`${file} imports ${target} (another feature)`);
      } else if (file.startsWith('app/')) {
        if (!DECLARATION.test(target) && !SHELL_MAY_IMPORT.test(target)) {
          violations.push(`${file} imports ${target} (not the feature's declaration)`);
        }
      } else {
        violations.push(`${file} imports ${target} (shared code must not know a feature)`);
      }
    }
  }
  return violations;
}

describe('web import boundaries', () => {
  it('finds the imports it checks', () => {
    expect(importsOf(path.join(SRC, 'app/router.tsx')).length).toBeGreaterThan(3);
  });

  it('no feature imports another feature or app/, and shared code imports neither', () => {
    expect(boundaryViolations()).toEqual([]);
  });

  it('fails on planted violations, side-effect imports included', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'web-boundaries-'));
    const plant = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    try {
      plant('app/company.tsx', 'export const company = 1;\n');
      plant('features/b/page.tsx', 'export const b = 1;\n');
      plant(
        'features/a/page.tsx',
        "import { company } from '../../app/company.tsx';\nimport '../b/page.tsx';\n",
      );
      plant('lib/api.ts', "import '../app/company.tsx';\n");
      expect(boundaryViolations(root).sort()).toEqual([
        'features/a/page.tsx imports app/company.tsx (app/ is the top: nothing below imports it)',
        'features/a/page.tsx imports features/b/page.tsx (another feature)',
        'lib/api.ts imports app/company.tsx (app/ is the top: nothing below imports it)',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
