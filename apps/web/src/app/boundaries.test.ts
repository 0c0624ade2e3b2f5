/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Import boundaries of the web app. A feature (features/<name>/) is one business area: it may use
 * app/, components/, lib/ and i18n/, never another feature; what two features share moves to
 * components/ (or app/). Shared code knows no feature, and the shell reaches a feature only through
 * its declaration (feature.ts/feature.tsx), so its pages stay lazy chunks.
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
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((match) =>
    path
      .relative(SRC, path.resolve(path.dirname(file), match[1] as string))
      .split(path.sep)
      .join('/'),
  );
}

const featureOf = (file: string) => /^features\/([^/]+)\//.exec(file)?.[1];

function boundaryViolations(): string[] {
  const violations: string[] = [];
  for (const full of sourceFiles(SRC)) {
    const file = path.relative(SRC, full).split(path.sep).join('/');
    const own = featureOf(file);
    for (const target of importsOf(full)) {
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

  it('no feature imports another feature, and shared code imports no feature', () => {
    expect(boundaryViolations()).toEqual([]);
  });
});
