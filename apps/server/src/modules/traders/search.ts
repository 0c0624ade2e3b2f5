import { searchTraderSchema } from '@protocol/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import { defineSearchSource, newestMatches, RECENT_WINDOW } from '../../platform/search/search.ts';
import { traders } from './traders.schema.ts';

/** Traders of the company by name, ΑΦΜ or code, newest first (see `newestMatches`). */
export const traderSearchSource = defineSearchSource({
  key: 'traderDTOList',
  permission: 'traders:read',
  indexes: 'traders',
  item: searchTraderSchema,
  find: ({ db, companyId, text, limit }) => {
    const fields = { id: traders.id, fullname: traders.fullname, vatnumber: traders.vatnumber };
    const newest = db
      .select({ ...fields, searchVector: traders.searchVector })
      .from(traders)
      .where(eq(traders.companyId, companyId))
      .orderBy(desc(traders.id))
      .limit(RECENT_WINDOW)
      .as('newest');
    return newestMatches(
      limit,
      () =>
        db
          .select({ id: newest.id, fullname: newest.fullname, vatnumber: newest.vatnumber })
          .from(newest)
          .where(text.matches(newest.searchVector))
          .orderBy(desc(newest.id))
          .limit(limit),
      () =>
        db
          .select(fields)
          .from(traders)
          .where(and(sql`${traders.companyId} + 0 = ${companyId}`, text.matches(traders.searchVector)))
          .orderBy(sql`${traders.id} + 0 DESC`)
          .limit(limit),
    );
  },
});
