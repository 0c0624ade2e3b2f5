import {
  type Account,
  type AccountRow,
  accountsCatalog,
  codeFitsMask,
  codeLevel,
  DEFAULT_ACCOUNT_MASK,
  type FieldError,
  type Item,
  type ItemRow,
  itemsCatalog,
  parentCode,
  type Series,
  type SeriesRow,
  type Service,
  type ServiceRow,
  seriesCatalog,
  servicesCatalog,
  type Warehouse,
  type WarehouseRow,
  warehousesCatalog,
} from '@protocol/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest } from '../../platform/errors.ts';
import type { RowTable } from '../../platform/row-table/table.ts';
import {
  financeAccounts,
  financeItems,
  financeSeries,
  financeServices,
  financeSettings,
  financeWarehouses,
} from './finance.schema.ts';

/**
 * The finance master data as row tables (each saved whole, all or nothing): accounting plan,
 * services, warehouses, warehouse items and document series. The checks that need the database
 * (codes fit the mask, references are the company's, only analytic accounts take entries) run in the
 * save's transaction.
 */

const identity = <T>(raw: Record<string, unknown>) => raw as T;
const invalid = (field: string, key = 'validation.invalid'): FieldError => ({ field, key, params: {} });

/** The company's account mask (the default until it is set). */
export async function accountMaskOf(db: Db | Tx, companyId: number): Promise<string> {
  const [row] = await db
    .select({ mask: financeSettings.accountMask })
    .from(financeSettings)
    .where(eq(financeSettings.companyId, companyId));
  return row?.mask ?? DEFAULT_ACCOUNT_MASK;
}

/** Codes unique among the saved rows (the array is the whole table). */
function checkUnique(rows: { code: string }[], errors: FieldError[]) {
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    if (seen.has(row.code)) errors.push(invalid(`${index}.code`, 'finance.error.duplicateCode'));
    seen.add(row.code);
  });
}

/** The analytic accounts of the company among `ids` (only they take entries). */
async function checkAccounts(
  tx: Tx,
  companyId: number,
  rows: { accountId: number | null }[],
  errors: FieldError[],
) {
  const ids = [...new Set(rows.map((r) => r.accountId).filter((id): id is number => id !== null))];
  if (ids.length === 0) return;
  const found = await tx
    .select({ id: financeAccounts.id, aggregate: financeAccounts.aggregate })
    .from(financeAccounts)
    .where(and(eq(financeAccounts.companyId, companyId), inArray(financeAccounts.id, ids)));
  const analytic = new Set(found.filter((a) => a.aggregate === 0).map((a) => a.id));
  rows.forEach((row, index) => {
    if (row.accountId !== null && !analytic.has(row.accountId))
      errors.push(invalid(`${index}.accountId`, 'finance.error.analyticOnly'));
  });
}

const accountSelect = {
  id: financeAccounts.id,
  code: financeAccounts.code,
  descr: financeAccounts.descr,
  kind: financeAccounts.kind,
  aggregate: financeAccounts.aggregate,
  active: financeAccounts.active,
  mask: sql<string>`coalesce((SELECT s.account_mask FROM finance_settings s WHERE s.company_id = ${sql.raw('"finance_accounts"."company_id"')}), ${DEFAULT_ACCOUNT_MASK})`.as(
    'mask',
  ),
};

type AccountRaw = Omit<Account, 'parentCode' | 'level'> & { mask: string };

/** An account with its level and the code one level up (the hierarchy follows the code's prefixes). */
function accountItem(raw: Record<string, unknown>): Account {
  const { mask, ...row } = raw as AccountRaw;
  return { ...row, level: codeLevel(row.code, mask), parentCode: parentCode(row.code, mask) };
}

export const accountsTable: RowTable<AccountRow, Account, Account> = {
  entity: 'financeAccount',
  table: financeAccounts,
  id: financeAccounts.id,
  catalog: accountsCatalog,
  select: accountSelect,
  orderBy: [asc(financeAccounts.code)],
  toItem: accountItem,
  toListItem: accountItem,
  listColumns: {
    code: financeAccounts.code,
    descr: financeAccounts.descr,
    kind: financeAccounts.kind,
    aggregate: financeAccounts.aggregate,
    parentCode: financeAccounts.code,
    active: financeAccounts.active,
  },
  ownedBy: (companyId) => eq(financeAccounts.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  values: (row) => ({
    code: row.code,
    descr: row.descr,
    kind: row.kind,
    aggregate: row.aggregate,
    active: row.active,
  }),
  uniqueKey: 'finance.error.duplicateCode',
  async check(tx, companyId, rows) {
    const mask = await accountMaskOf(tx, companyId ?? -1);
    const errors: FieldError[] = [];
    checkUnique(rows, errors);
    rows.forEach((row, index) => {
      if (!codeFitsMask(row.code, mask))
        errors.push({ field: `${index}.code`, key: 'finance.error.codeMask', params: { mask } });
    });
    if (errors.length > 0) throw badRequest(errors);
  },
};

export const servicesTable: RowTable<ServiceRow, Service, Service> = {
  entity: 'financeService',
  table: financeServices,
  id: financeServices.id,
  catalog: servicesCatalog,
  select: {
    id: financeServices.id,
    code: financeServices.code,
    descr: financeServices.descr,
    unit: financeServices.unit,
    price: financeServices.price,
    vatPercent: financeServices.vatPercent,
    vatCategory: financeServices.vatCategory,
    accountId: financeServices.accountId,
    accountCode: sql<
      string | null
    >`(SELECT a.code FROM finance_accounts a WHERE a.id = ${sql.raw('"finance_services"."account_id"')})`.as(
      'account_code',
    ),
    active: financeServices.active,
  },
  orderBy: [asc(financeServices.code)],
  toItem: identity,
  toListItem: identity,
  listColumns: {
    code: financeServices.code,
    descr: financeServices.descr,
    unit: financeServices.unit,
    price: financeServices.price,
    vatPercent: financeServices.vatPercent,
    accountCode: sql`(SELECT a.code FROM finance_accounts a WHERE a.id = ${sql.raw('"finance_services"."account_id"')})`,
    active: financeServices.active,
  },
  ownedBy: (companyId) => eq(financeServices.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  values: (row) => ({
    code: row.code,
    descr: row.descr,
    unit: row.unit,
    price: row.price,
    vatPercent: row.vatPercent,
    vatCategory: row.vatCategory,
    accountId: row.accountId,
    active: row.active,
  }),
  uniqueKey: 'finance.error.duplicateCode',
  async check(tx, companyId, rows) {
    const errors: FieldError[] = [];
    checkUnique(rows, errors);
    await checkAccounts(tx, companyId ?? -1, rows, errors);
    if (errors.length > 0) throw badRequest(errors);
  },
};

export const warehousesTable: RowTable<WarehouseRow, Warehouse, Warehouse> = {
  entity: 'financeWarehouse',
  table: financeWarehouses,
  id: financeWarehouses.id,
  catalog: warehousesCatalog,
  select: {
    id: financeWarehouses.id,
    code: financeWarehouses.code,
    descr: financeWarehouses.descr,
    type: financeWarehouses.type,
    active: financeWarehouses.active,
  },
  orderBy: [asc(financeWarehouses.code)],
  toItem: identity,
  toListItem: identity,
  listColumns: {
    code: financeWarehouses.code,
    descr: financeWarehouses.descr,
    type: financeWarehouses.type,
    active: financeWarehouses.active,
  },
  ownedBy: (companyId) => eq(financeWarehouses.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  values: (row) => ({ code: row.code, descr: row.descr, type: row.type, active: row.active }),
  uniqueKey: 'finance.error.duplicateCode',
  async check(_tx, _companyId, rows) {
    const errors: FieldError[] = [];
    checkUnique(rows, errors);
    if (errors.length > 0) throw badRequest(errors);
  },
};

const itemQuantity = sql<string>`(SELECT coalesce(sum(m.quantity), 0)::numeric(14,3)::text FROM finance_stock_moves m WHERE m.item_id = ${sql.raw('"finance_items"."id"')})`;

export const itemsTable: RowTable<ItemRow, Item, Item> = {
  entity: 'financeItem',
  table: financeItems,
  id: financeItems.id,
  catalog: itemsCatalog,
  select: {
    id: financeItems.id,
    code: financeItems.code,
    descr: financeItems.descr,
    barcode: financeItems.barcode,
    cpv: financeItems.cpv,
    unit: financeItems.unit,
    purchasePrice: financeItems.purchasePrice,
    salePrice: financeItems.salePrice,
    vatPercent: financeItems.vatPercent,
    accountId: financeItems.accountId,
    warehouseId: financeItems.warehouseId,
    group1: financeItems.group1,
    group2: financeItems.group2,
    group3: financeItems.group3,
    group4: financeItems.group4,
    quantity: itemQuantity.as('quantity'),
    active: financeItems.active,
  },
  orderBy: [asc(financeItems.code)],
  toItem: identity,
  toListItem: identity,
  listColumns: {
    code: financeItems.code,
    descr: financeItems.descr,
    barcode: financeItems.barcode,
    cpv: financeItems.cpv,
    unit: financeItems.unit,
    purchasePrice: financeItems.purchasePrice,
    salePrice: financeItems.salePrice,
    quantity: sql`(SELECT coalesce(sum(m.quantity), 0) FROM finance_stock_moves m WHERE m.item_id = ${sql.raw('"finance_items"."id"')})`,
    group1: financeItems.group1,
    group2: financeItems.group2,
    group3: financeItems.group3,
    group4: financeItems.group4,
    active: financeItems.active,
  },
  ownedBy: (companyId) => eq(financeItems.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  values: (row) => ({
    code: row.code,
    descr: row.descr,
    barcode: row.barcode,
    cpv: row.cpv,
    unit: row.unit,
    purchasePrice: row.purchasePrice,
    salePrice: row.salePrice,
    vatPercent: row.vatPercent,
    accountId: row.accountId,
    warehouseId: row.warehouseId,
    group1: row.group1,
    group2: row.group2,
    group3: row.group3,
    group4: row.group4,
    active: row.active,
  }),
  uniqueKey: 'finance.error.duplicateCode',
  async check(tx, companyId, rows) {
    const errors: FieldError[] = [];
    checkUnique(rows, errors);
    await checkAccounts(tx, companyId ?? -1, rows, errors);
    const warehouseIds = [
      ...new Set(rows.map((r) => r.warehouseId).filter((id): id is number => id !== null)),
    ];
    const mine =
      warehouseIds.length === 0
        ? new Set<number>()
        : new Set(
            (
              await tx
                .select({ id: financeWarehouses.id })
                .from(financeWarehouses)
                .where(
                  and(
                    eq(financeWarehouses.companyId, companyId ?? -1),
                    inArray(financeWarehouses.id, warehouseIds),
                  ),
                )
            ).map((w) => w.id),
          );
    rows.forEach((row, index) => {
      if (row.warehouseId !== null && !mine.has(row.warehouseId))
        errors.push(invalid(`${index}.warehouseId`));
    });
    if (errors.length > 0) throw badRequest(errors);
  },
};

export const seriesTable: RowTable<SeriesRow, Series, Series> = {
  entity: 'financeSeries',
  table: financeSeries,
  id: financeSeries.id,
  catalog: seriesCatalog,
  select: {
    id: financeSeries.id,
    code: financeSeries.code,
    descr: financeSeries.descr,
    kind: financeSeries.kind,
    autonr: financeSeries.autonr,
    seqnr: financeSeries.seqnr,
    printype: financeSeries.printype,
    copies: financeSeries.copies,
    checkdates: financeSeries.checkdates,
    relseqid: financeSeries.relseqid,
    debitCredit: financeSeries.debitCredit,
    mydataType: financeSeries.mydataType,
    movesStock: financeSeries.movesStock,
    active: financeSeries.active,
  },
  orderBy: [asc(financeSeries.seqnr), asc(financeSeries.code)],
  toItem: identity,
  toListItem: identity,
  listColumns: {
    code: financeSeries.code,
    descr: financeSeries.descr,
    kind: financeSeries.kind,
    autonr: financeSeries.autonr,
    printype: financeSeries.printype,
    checkdates: financeSeries.checkdates,
    mydataType: financeSeries.mydataType,
    active: financeSeries.active,
  },
  ownedBy: (companyId) => eq(financeSeries.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  values: (row) => ({
    code: row.code,
    descr: row.descr,
    kind: row.kind,
    autonr: row.autonr,
    seqnr: row.seqnr,
    printype: row.printype,
    copies: row.copies,
    checkdates: row.checkdates,
    relseqid: row.relseqid,
    debitCredit: row.debitCredit,
    mydataType: row.mydataType,
    movesStock: row.movesStock,
    active: row.active,
  }),
  uniqueKey: 'finance.error.duplicateCode',
  /** The related series of credit notes is a kept series of the company with debit/credit 2. */
  async check(tx, companyId, rows) {
    const errors: FieldError[] = [];
    checkUnique(rows, errors);
    const mine = new Map(
      (
        await tx
          .select({ id: financeSeries.id })
          .from(financeSeries)
          .where(eq(financeSeries.companyId, companyId ?? -1))
      ).map((s) => [s.id, true]),
    );
    const kept = new Map(rows.filter((r) => r.id !== null).map((r) => [r.id as number, r]));
    rows.forEach((row, index) => {
      if (row.relseqid === null) return;
      const related = kept.get(row.relseqid);
      if (!mine.has(row.relseqid) || !related) errors.push(invalid(`${index}.relseqid`));
      else if (related.debitCredit !== 2)
        errors.push(invalid(`${index}.relseqid`, 'finance.error.relatedNotCredit'));
    });
    if (errors.length > 0) throw badRequest(errors);
  },
};
