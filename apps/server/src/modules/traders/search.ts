import { searchTraderSchema } from '@protocol/contracts';
import { and, desc, eq } from 'drizzle-orm';
import { defineSearchSource } from '../../platform/search/search.ts';
import { traders } from './traders.schema.ts';

/** Traders of the company by name, ΑΦΜ or code. */
export const traderSearchSource = defineSearchSource({
  key: 'traderDTOList',
  permission: 'traders:read',
  indexes: 'traders',
  item: searchTraderSchema,
  find: ({ db, companyId, text, limit }) =>
    db
      .select({ id: traders.id, fullname: traders.fullname, vatnumber: traders.vatnumber })
      .from(traders)
      .where(and(eq(traders.companyId, companyId), text.matches(traders.searchVector)))
      .orderBy(desc(traders.id))
      .limit(limit),
});
