import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appModules } from '../../app.ts';
import { builtSelect } from '../../db/prepared.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { defineModule } from '../module.ts';
import { defineSearchSource, matchesWords, searchText } from './search.ts';

const settlements = builtSelect((db) =>
  db
    .select({ name: sql<string>`c.name` })
    .from(sql`(VALUES ('Κατανάλωση οικίας'), ('Άλλο')) AS c(name)`)
    .where(matchesWords(sql`to_tsvector('public.greek_unaccent', c.name)`))
    .limit(sql.placeholder('limit'))
    .$dynamic(),
);

/**
 * A later module (settlements, say) adds its list to GET /api/search by declaring a source: the route
 * and the other modules stay as they are. Its matching runs on the same Greek configuration.
 */
const settlementsModule = defineModule({
  name: 'fixture-settlements',
  search: [
    defineSearchSource({
      key: 'settlementDTOList',
      permission: 'traders:read',
      item: z.object({ name: z.string() }),
      find: ({ db, text, limit }) => settlements(db, { words: text.words, limit }),
    }),
  ],
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, [...appModules, settlementsModule]);
});
afterAll(async () => {
  await t?.close();
});

/** Whether the Greek configuration matches the text with what was typed, as the search does. */
const matches = async (text: string, typed: string) => {
  const [row] = await hit(t.database.db, { text, words: searchText(typed).words });
  return row?.hit;
};
const hit = builtSelect((db) =>
  db
    .select({
      hit: sql<boolean>`coalesce(${matchesWords(sql`to_tsvector('public.greek_unaccent', ${sql.placeholder('text')}::text)`)}, false)`,
    })
    .from(sql`(SELECT 1) AS one`)
    .$dynamic(),
);

describe('search registry', () => {
  it("answers a module's own list beside the others", async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/search?search=καταναλωσεις',
      headers: admin,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual([
      'caseDTOList',
      'consumerDTOList',
      'inboxDTOList',
      'mydataDTOList',
      'outboxDTOList',
      'settlementDTOList',
      'submissionDTOList',
      'traderDTOList',
    ]);
    expect(response.json().settlementDTOList).toEqual([{ name: 'Κατανάλωση οικίας' }]);
  });

  it('refuses two sources answering the same list', async () => {
    await expect(startTestApp({}, [...appModules, settlementsModule, settlementsModule])).rejects.toThrow(
      'Two search sources answer settlementDTOList',
    );
  });
});

describe('greek_unaccent matching', () => {
  it.each([
    ['Αίτηση', 'αιτηση'],
    ['Αίτηση', 'ΑΙΤΗΣΕΙΣ'],
    ['Αιτήσεις', 'αίτηση'],
    ['Οδός Ερμού', 'οδοσ'],
    ['ΟΔΟΣ ΕΡΜΟΥ', 'οδός'],
    ['Παπαδόπουλος', 'παπαδοπ'],
    ['Παπαδόπουλος', 'ΠΑΠΑΔΟΠΟΥΛΟΥ'],
    ['ύδρευσης', 'υδρευ'],
    ['ΑΦΜ 094014201', '0940'],
    ['Αίτηση σύνδεσης παροχής', 'ΑΙΤΗΣΕΙΣ συνδεσ παροχ'],
  ])('%s is found from %s', async (text, typed) => {
    expect(await matches(text, typed)).toBe(true);
  });

  it.each([
    ['Αίτηση', 'οδος'],
    ['Παπαδόπουλος', 'νικολαου'],
    ['Οδός Ερμού', 'οδος πατησιων'],
    ['Οδός Ερμού', '–/–'],
  ])('%s is not found from %s', async (text, typed) => {
    expect(await matches(text, typed)).toBe(false);
  });
});
