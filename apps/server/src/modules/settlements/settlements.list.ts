import { type SettlementListItem, settlementsCatalog } from '@protocol/contracts';
import { count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { settlementCategories, settlements } from './settlements.schema.ts';

export const settlementsOfCompany = (companyId: number): SQL => eq(settlements.companyId, companyId);

const number = sql<string>`${settlements.nr} || '/' || ${settlements.year}`;

/** The settlements list (GET /api/settlements/search) on the list engine. */
export function settlementsList(db: Db) {
  const columns = {
    id: settlements.id,
    number,
    date: settlements.date,
    status: settlements.status,
    consumerId: settlements.consumerId,
    consumerCode: waterConsumers.code,
    consumerName: traders.fullname,
    category: settlementCategories.description,
    amount: settlements.amount,
    installments: settlements.installments,
  };
  return defineList<SettlementListItem>({
    catalog: settlementsCatalog,
    columns: {
      ...columns,
      consumerCode: { value: waterConsumers.code, normalized: waterConsumers.codeNorm },
      consumerName: { value: traders.fullname, normalized: traders.fullnameNorm },
      date: { day: sql`${settlements.date}` },
    },
    id: settlements.id,
    async fetch(where, orderBy, limit, offset) {
      return db
        .select(columns)
        .from(settlements)
        .innerJoin(waterConsumers, eq(waterConsumers.id, settlements.consumerId))
        .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
        .innerJoin(settlementCategories, eq(settlementCategories.id, settlements.categoryId))
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset);
    },
    async count(where) {
      // Inner joins to one row each: the count runs over the page's own rows.
      const [row] = await db
        .select({ n: count() })
        .from(settlements)
        .innerJoin(waterConsumers, eq(waterConsumers.id, settlements.consumerId))
        .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
        .innerJoin(settlementCategories, eq(settlementCategories.id, settlements.categoryId))
        .where(where);
      return row?.n ?? 0;
    },
  });
}
