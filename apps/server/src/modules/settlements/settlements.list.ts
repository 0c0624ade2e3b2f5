import { type SettlementListItem, settlementsCatalog } from '@protocol/contracts';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { listSource } from '../../platform/list/source.ts';
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
      consumerCode: {
        value: waterConsumers.code,
        normalized: waterConsumers.codeNorm,
        key: waterConsumers.codeKey,
      },
      consumerName: { value: traders.fullname, normalized: traders.fullnameNorm },
      date: { day: sql`${settlements.date}` },
    },
    id: settlements.id,
    ...listSource(db, () =>
      db
        .select(columns)
        .from(settlements)
        .innerJoin(waterConsumers, eq(waterConsumers.id, settlements.consumerId))
        .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
        .innerJoin(settlementCategories, eq(settlementCategories.id, settlements.categoryId))
        .$dynamic(),
    ),
  });
}
