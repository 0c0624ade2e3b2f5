import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/** Every el.json of the repository with its en.json beside it. */
function catalogFolders(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) catalogFolders(full, found);
    else if (entry.name === 'el.json' && full.includes(`${path.sep}i18n${path.sep}`)) found.push(dir);
  }
  return found;
}

const keys = (node: unknown, prefix = ''): string[] =>
  node && typeof node === 'object'
    ? Object.entries(node).flatMap(([k, v]) => keys(v, `${prefix}${k}.`))
    : [prefix.slice(0, -1)];

const folders = [...catalogFolders(path.join(root, 'apps')), ...catalogFolders(path.join(root, 'packages'))];

describe('translation catalogs', () => {
  it('are found in the app and the contracts', () => {
    expect(folders.length).toBeGreaterThanOrEqual(3);
  });

  it.each(folders.map((f) => [path.relative(root, f)]))(
    '%s: Greek and English have the same keys',
    (folder) => {
      const read = (lang: string) =>
        JSON.parse(readFileSync(path.join(root, folder, `${lang}.json`), 'utf8'));
      const el = keys(read('el')).sort();
      const en = keys(read('en')).sort();
      expect(
        el.filter((k) => !en.includes(k)),
        'only in el',
      ).toEqual([]);
      expect(
        en.filter((k) => !el.includes(k)),
        'only in en',
      ).toEqual([]);
      for (const lang of ['el', 'en']) {
        const empty = keys(read(lang)).filter((k) => {
          const value = k
            .split('.')
            .reduce<unknown>((n, part) => (n as Record<string, unknown>)[part], read(lang));
          return typeof value !== 'string' || value.trim() === '';
        });
        expect(empty, `empty texts in ${lang}`).toEqual([]);
      }
    },
  );
});
