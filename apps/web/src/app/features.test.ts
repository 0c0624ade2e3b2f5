/// <reference types="node" />
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { menuEntries } from './feature.ts';
import { features } from './features.ts';

// The shell catalogs some declarations bring are not what this test reads.
vi.mock('../i18n/index.ts', () => ({ registerCatalogs: () => undefined }));

const FEATURES = path.resolve(import.meta.dirname, '../features');
// The sign-in frame: its pages are the router's own (app/router.tsx), not the shell's.
const NOT_IN_SHELL = ['auth'];

describe('the features list', () => {
  it('names every feature folder once, by its declaration', () => {
    const list = readFileSync(path.join(import.meta.dirname, 'features.ts'), 'utf8');
    for (const folder of readdirSync(FEATURES)) {
      if (NOT_IN_SHELL.includes(folder)) continue;
      const declaration = ['feature.ts', 'feature.tsx'].find((file) =>
        existsSync(path.join(FEATURES, folder, file)),
      );
      expect(declaration, `features/${folder} declares itself in feature.ts(x)`).toBeDefined();
      expect(list, `app/features.ts lists features/${folder}`).toContain(
        `../features/${folder}/${declaration}`,
      );
    }
    expect(new Set(features.map((feature) => feature.key)).size).toBe(features.length);
  });

  it('declares each path once, and menu entries under entries that exist', () => {
    const paths = features.flatMap((feature) => (feature.routes ?? []).map((route) => route.path));
    expect(paths.filter((item, index) => paths.indexOf(item) !== index)).toEqual([]);
    const menu = menuEntries(features);
    const keys = menu.flatMap((entry) => [entry.key, ...(entry.children ?? []).map((child) => child.key)]);
    expect(keys.filter((item, index) => keys.indexOf(item) !== index)).toEqual([]);
    // Spec §2's order; the water service (issue 15) after the traders its consumers are.
    expect(menu.map((entry) => entry.key)).toEqual([
      'dashboard',
      'new-document',
      'inbox',
      'outbox',
      'book-summary',
      'cases',
      'traders',
      'water',
      'users',
      'settings',
    ]);
  });
});
