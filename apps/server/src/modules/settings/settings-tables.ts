import {
  type Address,
  type AddressRow,
  addressesCatalog,
  type Bank,
  type BankRow,
  banksCatalog,
  type CodedEntry,
  type CodedEntryRow,
  type CustomField,
  type CustomFieldRow,
  type CustomTable,
  type CustomTableRow,
  type CustomTableValue,
  type CustomTableValueRow,
  customFieldsCatalog,
  customTablesCatalog,
  customTableValuesCatalog,
  type Department,
  type DepartmentRow,
  departmentsCatalog,
  type EntityCatalog,
  type GeneralSetting,
  type GeneralSettingRow,
  generalSettingsCatalog,
  type Periodicity,
  type PeriodicityListItem,
  type PeriodicityRow,
  periodicityCatalog,
  trimmedDecimal,
  type VatPercentage,
  type VatPercentageRow,
  vatCategoriesCatalog,
  vatPercentagesCatalog,
  vatStatusesCatalog,
} from '@protocol/contracts';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { RowTable } from '../../platform/row-table/table.ts';
import { generalSettings } from './settings.schema.ts';
import {
  addresses,
  banks,
  customFields,
  customTables,
  customTableValues,
  departments,
  periodicities,
  vatCategories,
  vatPercentages,
  vatStatuses,
} from './settings-tables.schema.ts';

const none = () => undefined;
const noOwner = () => ({});
const identity = <T>(raw: Record<string, unknown>) => raw as T;

// ----- global tables -----

export const banksTable: RowTable<BankRow, Bank, Bank> = {
  entity: 'bank',
  table: banks,
  id: banks.id,
  catalog: banksCatalog,
  select: { id: banks.id, name: banks.name, bic: banks.bic, active: banks.active },
  orderBy: [asc(banks.name), asc(banks.id)],
  toItem: identity,
  toListItem: identity,
  listColumns: { name: banks.name, bic: banks.bic, active: banks.active },
  ownedBy: none,
  ownerValues: noOwner,
  values: (row) => ({ name: row.name, bic: row.bic, active: row.active }),
};

const percentage = (value: unknown) => trimmedDecimal(value as string);

export const vatPercentagesTable: RowTable<VatPercentageRow, VatPercentage, VatPercentage> = {
  entity: 'vatPercentage',
  table: vatPercentages,
  id: vatPercentages.id,
  catalog: vatPercentagesCatalog,
  select: {
    id: vatPercentages.id,
    code: vatPercentages.code,
    description: vatPercentages.description,
    percentage: vatPercentages.percentage,
    active: vatPercentages.active,
  },
  orderBy: [asc(vatPercentages.code), asc(vatPercentages.id)],
  toItem: (raw) => ({ ...(raw as VatPercentage), percentage: percentage(raw.percentage) }),
  toListItem: (raw) => ({ ...(raw as VatPercentage), percentage: percentage(raw.percentage) }),
  listColumns: {
    code: vatPercentages.code,
    description: vatPercentages.description,
    percentage: vatPercentages.percentage,
    active: vatPercentages.active,
  },
  ownedBy: none,
  ownerValues: noOwner,
  values: (row) => ({
    code: row.code,
    description: row.description,
    percentage: row.percentage,
    active: row.active,
  }),
};

function codedTable(
  entity: string,
  table: typeof vatCategories | typeof vatStatuses,
  catalog: EntityCatalog,
): RowTable<CodedEntryRow, CodedEntry, CodedEntry> {
  return {
    entity,
    table,
    id: table.id,
    catalog,
    select: { id: table.id, code: table.code, description: table.description, active: table.active },
    orderBy: [asc(table.code), asc(table.id)],
    toItem: identity,
    toListItem: identity,
    listColumns: { code: table.code, description: table.description, active: table.active },
    ownedBy: none,
    ownerValues: noOwner,
    values: (row) => ({ code: row.code, description: row.description, active: row.active }),
  };
}

export const vatCategoriesTable = codedTable('vatCategory', vatCategories, vatCategoriesCatalog);
export const vatStatusesTable = codedTable('vatStatus', vatStatuses, vatStatusesCatalog);

// ----- company tables -----

/** The ids of the rows of a company's table. */
async function companyIds(
  tx: Tx,
  table: typeof departments | typeof customTables,
  companyId: number | undefined,
): Promise<Set<number>> {
  const rows = await tx
    .select({ id: table.id })
    .from(table as PgTable)
    .where(eq(table.companyId, companyId ?? -1));
  return new Set(rows.map((row) => row.id as number));
}

// Correlated subqueries name their tables explicitly: Drizzle leaves columns unqualified in single-table queries.
const parentDescription = sql<
  string | null
>`(SELECT p.description FROM departments p WHERE p.id = ${sql.raw('"departments"."parent_id"')})`;

export const departmentsTable: RowTable<DepartmentRow, Department, Department> = {
  entity: 'department',
  table: departments,
  id: departments.id,
  catalog: departmentsCatalog,
  select: {
    id: departments.id,
    code: departments.code,
    description: departments.description,
    parentId: departments.parentId,
    parentDescription: parentDescription.as('parent_description'),
    active: departments.active,
  },
  orderBy: [asc(departments.code), asc(departments.id)],
  toItem: identity,
  toListItem: identity,
  listColumns: {
    code: departments.code,
    description: departments.description,
    parentDescription,
    active: departments.active,
  },
  ownedBy: (companyId) => eq(departments.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  values: (row) => ({
    code: row.code,
    description: row.description,
    parentId: row.parentId,
    active: row.active,
  }),
  /** A parent is a department of the same company, and the parents form no cycle. */
  async check(tx, companyId, rows) {
    const mine = await companyIds(tx, departments, companyId);
    const parentOf = new Map<number, number | null>();
    for (const row of rows) {
      if (row.parentId !== null && !mine.has(row.parentId)) throw notFound();
      if (row.id !== null) parentOf.set(row.id, row.parentId);
    }
    rows.forEach((row, index) => {
      const seen = new Set<number>();
      let current = row.id === null ? row.parentId : row.id;
      while (current !== null && current !== undefined) {
        if (seen.has(current)) {
          throw badRequest([{ field: `${index}.parentId`, key: 'validation.invalid', params: {} }]);
        }
        seen.add(current);
        current = parentOf.get(current) ?? null;
      }
    });
  },
};

export const addressesTable: RowTable<AddressRow, Address, Address> = {
  entity: 'address',
  table: addresses,
  id: addresses.id,
  catalog: addressesCatalog,
  select: {
    id: addresses.id,
    street: addresses.street,
    number: addresses.number,
    area: addresses.area,
    postalCode: addresses.postalCode,
    municipality: addresses.municipality,
  },
  orderBy: [asc(addresses.street), asc(addresses.number), asc(addresses.id)],
  toItem: identity,
  toListItem: identity,
  listColumns: {
    street: addresses.street,
    number: addresses.number,
    area: addresses.area,
    postalCode: addresses.postalCode,
    municipality: addresses.municipality,
  },
  ownedBy: (companyId) => eq(addresses.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  values: (row) => ({
    street: row.street,
    number: row.number,
    area: row.area,
    postalCode: row.postalCode,
    municipality: row.municipality,
  }),
};

const valueCount = sql<number>`(SELECT count(*)::int FROM custom_table_values v WHERE v.custom_table_id = ${sql.raw('"custom_tables"."id"')})`;

export const customTablesTable: RowTable<CustomTableRow, CustomTable, CustomTable> = {
  entity: 'customTable',
  table: customTables,
  id: customTables.id,
  catalog: customTablesCatalog,
  select: { id: customTables.id, name: customTables.name, valueCount: valueCount.as('value_count') },
  orderBy: [asc(customTables.name), asc(customTables.id)],
  toItem: identity,
  toListItem: identity,
  listColumns: { name: customTables.name, valueCount },
  ownedBy: (companyId) => eq(customTables.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  values: (row) => ({ name: row.name }),
};

const tableName = (table: 'custom_table_values' | 'custom_fields') =>
  sql<
    string | null
  >`(SELECT ct.name FROM custom_tables ct WHERE ct.id = ${sql.raw(`"${table}"."custom_table_id"`)})`;
const valueTableName = tableName('custom_table_values');

/** The values of one custom table: the owner is the custom table (checked to be the company's). */
export const customTableValuesTable: RowTable<
  CustomTableValueRow,
  CustomTableValue,
  CustomTableValue & { customTableName: string | null }
> = {
  entity: 'customTableValue',
  table: customTableValues,
  id: customTableValues.id,
  catalog: customTableValuesCatalog,
  select: {
    id: customTableValues.id,
    customTableId: customTableValues.customTableId,
    customTableName: valueTableName.as('custom_table_name'),
    description: customTableValues.description,
    order: customTableValues.order,
  },
  orderBy: [asc(customTableValues.order), asc(customTableValues.id)],
  toItem: (raw) => {
    const { customTableName: _name, ...item } = raw;
    return item as CustomTableValue;
  },
  toListItem: identity,
  listColumns: {
    customTableId: customTableValues.customTableId,
    customTableName: valueTableName,
    description: customTableValues.description,
    order: customTableValues.order,
  },
  ownedBy: (tableId) => eq(customTableValues.customTableId, tableId ?? -1),
  ownerValues: (tableId) => ({ customTableId: tableId }),
  values: (row) => ({ description: row.description, order: row.order }),
};

/** The values of the custom tables of a company (their /search list and exports). */
export const customTableValuesOfCompany = (companyId: number) =>
  inArray(
    customTableValues.customTableId,
    sql`(SELECT ${customTables.id} FROM ${customTables} WHERE ${customTables.companyId} = ${companyId})`,
  );

const fieldTableName = tableName('custom_fields');

export const customFieldsTable: RowTable<CustomFieldRow, CustomField, CustomField> = {
  entity: 'customField',
  table: customFields,
  id: customFields.id,
  catalog: customFieldsCatalog,
  select: {
    id: customFields.id,
    entity: customFields.entity,
    key: customFields.key,
    labelEl: customFields.labelEl,
    labelEn: customFields.labelEn,
    type: customFields.type,
    customTableId: customFields.customTableId,
    customTableName: fieldTableName.as('custom_table_name'),
    required: customFields.required,
    order: customFields.order,
  },
  orderBy: [asc(customFields.entity), asc(customFields.order), asc(customFields.id)],
  toItem: identity,
  toListItem: identity,
  listColumns: {
    entity: customFields.entity,
    key: customFields.key,
    labelEl: customFields.labelEl,
    labelEn: customFields.labelEn,
    type: customFields.type,
    customTableName: fieldTableName,
    required: customFields.required,
    order: customFields.order,
  },
  ownedBy: (companyId) => eq(customFields.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  values: (row) => ({
    entity: row.entity,
    key: row.key,
    labelEl: row.labelEl,
    labelEn: row.labelEn,
    type: row.type,
    customTableId: row.customTableId,
    required: row.required,
    order: row.order,
  }),
  /** A select field's values table is one of the company's. */
  async check(tx, companyId, rows) {
    const mine = await companyIds(tx, customTables, companyId);
    for (const row of rows) {
      if (row.customTableId !== null && !mine.has(row.customTableId)) throw notFound();
    }
  },
};

export const periodicityTable: RowTable<PeriodicityRow, Periodicity, PeriodicityListItem> = {
  entity: 'periodicity',
  table: periodicities,
  id: periodicities.id,
  catalog: periodicityCatalog,
  select: {
    id: periodicities.id,
    periodicityType: periodicities.periodicityType,
    periods: periodicities.periods,
    startyear: periodicities.startyear,
    startperiod: periodicities.startperiod,
  },
  orderBy: [desc(periodicities.startyear), asc(periodicities.startperiod), asc(periodicities.id)],
  toItem: (raw) => {
    const row = raw as PeriodicityListItem;
    return { ...row, periodicityType: { id: row.periodicityType } };
  },
  toListItem: identity,
  listColumns: {
    periodicityType: periodicities.periodicityType,
    periods: periodicities.periods,
    startyear: periodicities.startyear,
    startperiod: periodicities.startperiod,
  },
  ownedBy: (companyId) => eq(periodicities.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  values: (row) => ({
    periodicityType: row.periodicityType.id,
    periods: row.periods,
    startyear: row.startyear,
    startperiod: row.startperiod,
  }),
};

export const generalRowTable: RowTable<
  GeneralSettingRow,
  GeneralSetting,
  Omit<GeneralSetting, 'companyId'>
> = {
  entity: 'generalSetting',
  table: generalSettings,
  id: generalSettings.id,
  catalog: generalSettingsCatalog,
  select: {
    id: generalSettings.id,
    companyId: generalSettings.companyId,
    parName: generalSettings.parName,
    parValue: generalSettings.parValue,
  },
  orderBy: [asc(generalSettings.parName), asc(generalSettings.id)],
  toItem: identity,
  toListItem: (raw) => {
    const { companyId: _company, ...item } = raw;
    return item as Omit<GeneralSetting, 'companyId'>;
  },
  listColumns: { parName: generalSettings.parName, parValue: generalSettings.parValue },
  ownedBy: (companyId) => eq(generalSettings.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
  values: (row) => ({ parName: row.parName, parValue: row.parValue }),
};

/** The custom table of a company named in a path, or 404. */
export async function customTableOf(tx: Tx, companyId: number, tableId: number): Promise<number> {
  const [row] = await tx
    .select({ id: customTables.id })
    .from(customTables)
    .where(and(eq(customTables.id, tableId), eq(customTables.companyId, companyId)));
  if (!row) throw notFound();
  return row.id;
}
