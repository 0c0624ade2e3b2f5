/// <reference types="node" />
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { dashboardCardsSchema } from '@protocol/contracts';
import sharedEl from '@protocol/contracts/i18n/el.json';
import sharedEn from '@protocol/contracts/i18n/en.json';
import { describe, expect, it, vi } from 'vitest';
import coreEl from '../i18n/el.json';
import coreEn from '../i18n/en.json';
import shellPartsEl from './shell/i18n/el.json';
import shellPartsEn from './shell/i18n/en.json';

// What the shell has: the first page's texts and the shell's own (app/shell/i18n).
const shellEl = { ...coreEl, ...shellPartsEl };
const shellEn = { ...coreEn, ...shellPartsEn };

import { dashboardCards, menuEntries } from '../lib/feature.ts';
import { features } from './features.ts';

// The shell catalogs the declarations bring with them, in the order they register.
const registered = vi.hoisted(() => [] as { el: Record<string, unknown>; en: Record<string, unknown> }[]);
vi.mock('../i18n/index.ts', () => ({
  registerCatalogs: (catalogs: (typeof registered)[number]) => registered.push(catalogs),
}));

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

  it('has every text of the menu, tiles, /new entries, launcher and search groups in both languages with the shell', () => {
    const lookup = (catalogs: Record<string, unknown>[], key: string) =>
      catalogs.some((catalog) => {
        let node: unknown = catalog;
        for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
        return typeof node === 'string';
      });
    const keys = features.flatMap((feature) => [
      ...(feature.menu ?? []).map((entry) => entry.label),
      ...(feature.tiles ?? []).flatMap((tile) => [tile.label, tile.description]),
      ...(feature.create ?? []).flatMap((entry) => [entry.label, entry.description]),
      ...(feature.launcher ?? []).flatMap((app) => [app.label, app.description]),
      ...(feature.search ?? []).map((group) => group.label),
    ]);
    for (const [language, base] of [
      ['el', [shellEl, sharedEl]],
      ['en', [shellEn, sharedEn]],
    ] as const) {
      const catalogs = [...base, ...registered.map((catalog) => catalog[language])];
      expect(
        keys.filter((key) => !lookup(catalogs, key)),
        language,
      ).toEqual([]);
    }
  });

  it('draws every card the server answers on the dashboard, each card once', () => {
    const cards = dashboardCards(features);
    expect(new Set(cards.map((card) => card.key)).size).toBe(cards.length);
    const drawn = new Set(cards.map((card) => card.reads));
    expect(Object.keys(dashboardCardsSchema.shape).filter((key) => !drawn.has(key as never))).toEqual([]);
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
      'onlineForms',
      'traders',
      'water',
      'users',
      'finance',
      'settings',
    ]);
  });
});

describe('the menu offers only what its pages let the operator use', () => {
  it('shows each menu entry only to those its page lets in: the entry needs the permission of the route it opens', () => {
    const routes = features.flatMap((feature) => feature.routes ?? []);
    const pattern = (path: string) => new RegExp(`^/${path.replace(/:[^/]+/g, '[^/]+')}$`);
    const entries = menuEntries(features).flatMap((entry) => [entry, ...(entry.children ?? [])]);
    const mismatched = entries.flatMap((entry) => {
      const route =
        routes.find((candidate) => `/${candidate.path}` === entry.path) ??
        routes.find((candidate) => pattern(candidate.path).test(entry.path));
      if (!route) return [`${entry.key}: no page at ${entry.path}`];
      return route.requires && route.requires !== entry.requires
        ? [`${entry.key}: menu ${entry.requires}, page ${route.requires}`]
        : [];
    });
    expect(mismatched).toEqual([]);
  });
});
