import listsEl from '@protocol/contracts/i18n/lists/el.json' with { type: 'json' };
import listsEn from '@protocol/contracts/i18n/lists/en.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { appJobRegistry, appModules } from '../../app.ts';

/** The text at a dotted key of a catalog, or undefined. */
function textAt(catalog: object, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], catalog);
}

/**
 * The jobs page, its drawer, the bell and a job's notification name a job by `jobs.kind.<kind>` of
 * the lists catalog (web and server alike): a kind without it shows as a raw key.
 */
describe('job kinds', () => {
  const kinds = [...appJobRegistry(appModules).handlers.keys()];

  it('are gathered from every module that queues work', () => {
    expect(kinds).toEqual(expect.arrayContaining(['search.reindex', 'billing.run', 'mydata.transmit']));
  });

  it.each([
    ['el', listsEl],
    ['en', listsEn],
  ])('each has its name in the %s catalog', (_, catalog) => {
    const unnamed = kinds.filter((kind) => {
      const text = textAt(catalog, `jobs.kind.${kind}`);
      return typeof text !== 'string' || text.trim() === '';
    });
    expect(unnamed).toEqual([]);
  });
});
