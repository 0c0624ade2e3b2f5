import { codeFitsMask, type FinanceSettings } from '@protocol/contracts';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import {
  financeAccounts,
  financeItems,
  financeSettings,
  financeStockMoves,
  financeWarehouses,
} from './finance.schema.ts';

/** Sets the mask, refused while an account code would no longer fit it. */
export async function saveFinanceSettings(
  db: Db,
  principal: Principal,
  companyId: number,
  input: FinanceSettings,
  requestId: string,
): Promise<FinanceSettings> {
  return db.transaction(async (tx) => {
    const codes = await tx
      .select({ code: financeAccounts.code })
      .from(financeAccounts)
      .where(eq(financeAccounts.companyId, companyId))
      .orderBy(asc(financeAccounts.code));
    const misfit = codes.find((row) => !codeFitsMask(row.code, input.accountMask));
    if (misfit) {
      throw badRequest([
        { field: 'accountMask', key: 'finance.error.maskMisfit', params: { code: misfit.code } },
      ]);
    }
    await tx
      .insert(financeSettings)
      .values({ companyId, accountMask: input.accountMask, createuser: principal.username })
      .onConflictDoUpdate({
        target: financeSettings.companyId,
        set: { accountMask: input.accountMask, ...updatedBy(principal.username) },
      });
    await recordAudit(tx, {
      entity: 'financeSettings',
      entityId: companyId,
      action: 'update',
      companyId,
      user: principal,
      requestId,
    });
    return input;
  });
}

/** An item's stock per warehouse, from the moves its documents wrote; an item of the company in use. */
export async function itemStock(db: Db, companyId: number, itemId: number) {
  const [item] = await db
    .select({ companyId: financeItems.companyId })
    .from(financeItems)
    .where(eq(financeItems.id, itemId));
  if (!item || item.companyId !== companyId) throw notFound();
  return db
    .select({
      warehouseId: financeWarehouses.id,
      warehouseDescr: financeWarehouses.descr,
      quantity: sql<string>`sum(${financeStockMoves.quantity})::numeric(14,3)::text`,
    })
    .from(financeStockMoves)
    .innerJoin(financeWarehouses, eq(financeWarehouses.id, financeStockMoves.warehouseId))
    .where(eq(financeStockMoves.itemId, itemId))
    .groupBy(financeWarehouses.id, financeWarehouses.descr)
    .orderBy(asc(financeWarehouses.descr));
}

/** The company's stock: every item and warehouse its documents moved, with the quantity there. */
export async function companyStock(db: Db, companyId: number) {
  return db
    .select({
      itemId: financeItems.id,
      code: financeItems.code,
      descr: financeItems.descr,
      unit: financeItems.unit,
      warehouseId: financeWarehouses.id,
      warehouseDescr: financeWarehouses.descr,
      quantity: sql<string>`sum(${financeStockMoves.quantity})::numeric(14,3)::text`,
    })
    .from(financeStockMoves)
    .innerJoin(financeItems, eq(financeItems.id, financeStockMoves.itemId))
    .innerJoin(financeWarehouses, eq(financeWarehouses.id, financeStockMoves.warehouseId))
    .where(eq(financeStockMoves.companyId, companyId))
    .groupBy(financeItems.id, financeWarehouses.id)
    .orderBy(asc(financeItems.code), asc(financeWarehouses.descr));
}
