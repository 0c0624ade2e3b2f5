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
import { type RowTable, rowTableColumns } from '../../platform/row-table/table.ts';
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

const accountColumns = rowTableColumns(
  financeAccounts.id,
  {
    code: financeAccounts.code,
    descr: financeAccounts.descr,
    kind: financeAccounts.kind,
    aggregate: financeAccounts.aggregate,
    active: financeAccounts.active,
  },
  ['code', 'descr', 'kind', 'aggregate', 'active'],
  {
    mask: {
      read: sql<string>`coalesce((SELECT s.account_mask FROM finance_settings s WHERE s.company_id = ${sql.raw('"finance_accounts"."company_id"')}), ${DEFAULT_ACCOUNT_MASK})`,
    },
  },
);

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
  ...accountColumns,
  // An account's parent is listed by the account's code: the parent's is a prefix of it.
  listColumns: { ...accountColumns.listColumns, parentCode: financeAccounts.code },
  catalog: accountsCatalog,
  orderBy: [asc(financeAccounts.code)],
  toItem: accountItem,
  toListItem: accountItem,
  ownedBy: (companyId) => eq(financeAccounts.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
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

const serviceColumns = rowTableColumns(
  financeServices.id,
  {
    code: financeServices.code,
    descr: financeServices.descr,
    unit: financeServices.unit,
    price: financeServices.price,
    vatPercent: financeServices.vatPercent,
    vatCategory: financeServices.vatCategory,
    accountId: financeServices.accountId,
    active: financeServices.active,
  },
  ['code', 'descr', 'unit', 'price', 'vatPercent', 'accountCode', 'active'],
  {
    accountCode: {
      read: sql<
        string | null
      >`(SELECT a.code FROM finance_accounts a WHERE a.id = ${sql.raw('"finance_services"."account_id"')})`,
    },
  },
);

export const servicesTable: RowTable<ServiceRow, Service, Service> = {
  entity: 'financeService',
  table: financeServices,
  id: financeServices.id,
  ...serviceColumns,
  catalog: servicesCatalog,
  orderBy: [asc(financeServices.code)],
  toItem: identity,
  toListItem: identity,
  ownedBy: (companyId) => eq(financeServices.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  uniqueKey: 'finance.error.duplicateCode',
  async check(tx, companyId, rows) {
    const errors: FieldError[] = [];
    checkUnique(rows, errors);
    await checkAccounts(tx, companyId ?? -1, rows, errors);
    if (errors.length > 0) throw badRequest(errors);
  },
};

const warehouseColumns = rowTableColumns(
  financeWarehouses.id,
  {
    code: financeWarehouses.code,
    descr: financeWarehouses.descr,
    type: financeWarehouses.type,
    active: financeWarehouses.active,
  },
  ['code', 'descr', 'type', 'active'],
);

export const warehousesTable: RowTable<WarehouseRow, Warehouse, Warehouse> = {
  entity: 'financeWarehouse',
  table: financeWarehouses,
  id: financeWarehouses.id,
  ...warehouseColumns,
  catalog: warehousesCatalog,
  orderBy: [asc(financeWarehouses.code)],
  toItem: identity,
  toListItem: identity,
  ownedBy: (companyId) => eq(financeWarehouses.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  uniqueKey: 'finance.error.duplicateCode',
  async check(_tx, _companyId, rows) {
    const errors: FieldError[] = [];
    checkUnique(rows, errors);
    if (errors.length > 0) throw badRequest(errors);
  },
};

const itemStock = sql`(SELECT coalesce(sum(m.quantity), 0) FROM finance_stock_moves m WHERE m.item_id = ${sql.raw('"finance_items"."id"')})`;
const itemColumns = rowTableColumns(
  financeItems.id,
  {
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
    active: financeItems.active,
  },
  [
    'code',
    'descr',
    'barcode',
    'cpv',
    'unit',
    'purchasePrice',
    'salePrice',
    'quantity',
    'group1',
    'group2',
    'group3',
    'group4',
    'active',
  ],
  // The stock: read as text to the thousandth, listed as the number it is (sorted as one).
  { quantity: { read: sql<string>`${itemStock}::numeric(14,3)::text`, list: itemStock } },
);

export const itemsTable: RowTable<ItemRow, Item, Item> = {
  entity: 'financeItem',
  table: financeItems,
  id: financeItems.id,
  ...itemColumns,
  catalog: itemsCatalog,
  orderBy: [asc(financeItems.code)],
  toItem: identity,
  toListItem: identity,
  ownedBy: (companyId) => eq(financeItems.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
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

const seriesColumns = rowTableColumns(
  financeSeries.id,
  {
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
  ['code', 'descr', 'kind', 'autonr', 'printype', 'checkdates', 'mydataType', 'active'],
);

export const seriesTable: RowTable<SeriesRow, Series, Series> = {
  entity: 'financeSeries',
  table: financeSeries,
  id: financeSeries.id,
  ...seriesColumns,
  catalog: seriesCatalog,
  orderBy: [asc(financeSeries.seqnr), asc(financeSeries.code)],
  toItem: identity,
  toListItem: identity,
  ownedBy: (companyId) => eq(financeSeries.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
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
