import { type BillListItem, billsCatalog } from '@protocol/contracts';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { listSource } from '../../platform/list/source.ts';
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { waterRoutes } from '../water/parametrics.schema.ts';
import { billingBills } from './billing.schema.ts';

export const billsOfCompany = (companyId: number): SQL => eq(billingBills.companyId, companyId);

/** The bills list (GET /api/billing/bills/search, the /invoices screen) on the list engine. */
export function billsList(db: Db) {
  const columns = {
    id: billingBills.id,
    consumerId: billingBills.consumerId,
    code: waterConsumers.code,
    ownerName: traders.fullname,
    periodLabel: billingBills.periodLabel,
    periodFrom: billingBills.periodFrom,
    routeCode: waterRoutes.code,
    entryState: billingBills.entryState,
    sendStatus: billingBills.sendStatus,
    number: billingBills.number,
    consumption: billingBills.billedConsumption,
    total: billingBills.total,
    dueDate: billingBills.dueDate,
    defuser: billingBills.defuser,
    defdate: billingBills.defdate,
  };
  return defineList<BillListItem>({
    catalog: billsCatalog,
    columns: {
      ...columns,
      code: { value: waterConsumers.code, normalized: waterConsumers.codeNorm, key: waterConsumers.codeKey },
      ownerName: { value: traders.fullname, normalized: traders.fullnameNorm },
      periodFrom: { day: sql`${billingBills.periodFrom}` },
      dueDate: { day: sql`${billingBills.dueDate}` },
    },
    id: billingBills.id,
    ...listSource(db, () =>
      db
        .select(columns)
        .from(billingBills)
        .innerJoin(waterConsumers, eq(waterConsumers.id, billingBills.consumerId))
        .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
        .leftJoin(waterRoutes, eq(waterRoutes.id, waterConsumers.routeId))
        .$dynamic(),
    ),
  });
}
