import { searchTraderSchema } from '@protocol/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import { builtSelect } from '../../db/prepared.ts';
import {
  defineSearchSource,
  matchesWords,
  newestMatches,
  RECENT_WINDOW,
} from '../../platform/search/search.ts';
import { traders } from './traders.schema.ts';

const fields = { id: traders.id, fullname: traders.fullname, vatnumber: traders.vatnumber };
const companyId = sql.placeholder('companyId');
const limit = sql.placeholder('limit');

const recent = builtSelect((db) => {
  const newest = db
    .select({ ...fields, searchVector: traders.searchVector })
    .from(traders)
    .where(eq(traders.companyId, companyId))
    .orderBy(desc(traders.id))
    .limit(RECENT_WINDOW)
    .as('newest');
  return db
    .select({ id: newest.id, fullname: newest.fullname, vatnumber: newest.vatnumber })
    .from(newest)
    .where(matchesWords(newest.searchVector))
    .orderBy(desc(newest.id))
    .limit(limit)
    .$dynamic();
});

const all = builtSelect((db) =>
  db
    .select(fields)
    .from(traders)
    .where(and(sql`${traders.companyId} + 0 = ${companyId}`, matchesWords(traders.searchVector)))
    .orderBy(sql`${traders.id} + 0 DESC`)
    .limit(limit)
    .$dynamic(),
);

/** Traders of the company by name, ΑΦΜ or code, newest first (see `newestMatches`). */
export const traderSearchSource = defineSearchSource({
  key: 'traderDTOList',
  permission: 'traders:read',
  indexes: 'traders',
  item: searchTraderSchema,
  find: ({ db, companyId, text, limit }) => {
    const values = { companyId, words: text.words, limit };
    return newestMatches(
      limit,
      () => recent(db, values),
      () => all(db, values),
    );
  },
});
