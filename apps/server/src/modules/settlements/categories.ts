import {
  defaultSettlementCategories,
  type SettlementCategory,
  type SettlementCategoryRow,
  settlementCategoriesCatalog,
  settlementErrors,
} from '@protocol/contracts';
import { asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { SYSTEM_USER } from '../../platform/audit-columns.ts';
import type { RowTable } from '../../platform/row-table/table.ts';
import { settlementCategories as t } from './settlements.schema.ts';

const columns = {
  id: t.id,
  code: t.code,
  description: t.description,
  minInstalment: t.minInstalment,
  maxInstalment: t.maxInstalment,
  maxInstalments: t.maxInstalments,
  minDownPaymentPercent: t.minDownPaymentPercent,
  intervalDays: t.intervalDays,
  toleranceInstalments: t.toleranceInstalments,
  toleranceDays: t.toleranceDays,
  waiveInterest: t.waiveInterest,
  discountPercent: t.discountPercent,
  active: t.active,
};
const { id: _id, ...listColumns } = columns;

/** The settlement categories, a settings table saved as a whole (row table). */
export const categoriesTable: RowTable<SettlementCategoryRow, SettlementCategory, SettlementCategory> = {
  entity: 'settlements.categories',
  table: t,
  id: t.id,
  catalog: settlementCategoriesCatalog,
  select: columns,
  orderBy: [asc(t.code), asc(t.id)],
  toItem: (raw) => raw as unknown as SettlementCategory,
  toListItem: (raw) => raw as unknown as SettlementCategory,
  listColumns,
  ownedBy: (companyId) => eq(t.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  values: ({ id: _row, ...row }) => row,
  uniqueKey: settlementErrors.codeTaken,
};

/** A new company's categories: the usual 12, 24 and 48 instalments. */
export async function seedSettlementCategories(tx: Tx, companyId: number, username = SYSTEM_USER) {
  await tx
    .insert(t)
    .values(defaultSettlementCategories.map((c) => ({ ...c, companyId, createuser: username })))
    .onConflictDoNothing();
}
