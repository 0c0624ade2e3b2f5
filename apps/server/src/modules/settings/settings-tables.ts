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
import { type RowTable, rowTableColumns } from '../../platform/row-table/table.ts';
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
  ...rowTableColumns(banks.id, { name: banks.name, bic: banks.bic, active: banks.active }, [
    'name',
    'bic',
    'active',
  ]),
  orderBy: [asc(banks.name), asc(banks.id)],
  toItem: identity,
  toListItem: identity,
  ownedBy: none,
  ownerValues: noOwner,
};

const percentage = (value: unknown) => trimmedDecimal(value as string);

export const vatPercentagesTable: RowTable<VatPercentageRow, VatPercentage, VatPercentage> = {
  entity: 'vatPercentage',
  table: vatPercentages,
  id: vatPercentages.id,
  catalog: vatPercentagesCatalog,
  ...rowTableColumns(
    vatPercentages.id,
    {
      code: vatPercentages.code,
      description: vatPercentages.description,
      percentage: vatPercentages.percentage,
      active: vatPercentages.active,
    },
    ['code', 'description', 'percentage', 'active'],
  ),
  orderBy: [asc(vatPercentages.code), asc(vatPercentages.id)],
  toItem: (raw) => ({ ...(raw as VatPercentage), percentage: percentage(raw.percentage) }),
  toListItem: (raw) => ({ ...(raw as VatPercentage), percentage: percentage(raw.percentage) }),
  ownedBy: none,
  ownerValues: noOwner,
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
    ...rowTableColumns(table.id, { code: table.code, description: table.description, active: table.active }, [
      'code',
      'description',
      'active',
    ]),
    orderBy: [asc(table.code), asc(table.id)],
    toItem: identity,
    toListItem: identity,
    ownedBy: none,
    ownerValues: noOwner,
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
  ...rowTableColumns(
    departments.id,
    {
      code: departments.code,
      description: departments.description,
      parentId: departments.parentId,
      active: departments.active,
    },
    ['code', 'description', 'parentDescription', 'active'],
    { parentDescription: { read: parentDescription } },
  ),
  orderBy: [asc(departments.code), asc(departments.id)],
  toItem: identity,
  toListItem: identity,
  ownedBy: (companyId) => eq(departments.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
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
  ...rowTableColumns(
    addresses.id,
    {
      street: addresses.street,
      number: addresses.number,
      area: addresses.area,
      postalCode: addresses.postalCode,
      municipality: addresses.municipality,
    },
    ['street', 'number', 'area', 'postalCode', 'municipality'],
  ),
  orderBy: [asc(addresses.street), asc(addresses.number), asc(addresses.id)],
  toItem: identity,
  toListItem: identity,
  ownedBy: (companyId) => eq(addresses.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
};

const valueCount = sql<number>`(SELECT count(*)::int FROM custom_table_values v WHERE v.custom_table_id = ${sql.raw('"custom_tables"."id"')})`;

export const customTablesTable: RowTable<CustomTableRow, CustomTable, CustomTable> = {
  entity: 'customTable',
  table: customTables,
  id: customTables.id,
  catalog: customTablesCatalog,
  ...rowTableColumns(customTables.id, { name: customTables.name }, ['name', 'valueCount'], {
    valueCount: { read: valueCount },
  }),
  orderBy: [asc(customTables.name), asc(customTables.id)],
  toItem: identity,
  toListItem: identity,
  ownedBy: (companyId) => eq(customTables.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
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
  ...rowTableColumns(
    customTableValues.id,
    { description: customTableValues.description, order: customTableValues.order },
    ['customTableId', 'customTableName', 'description', 'order'],
    {
      customTableId: { read: customTableValues.customTableId },
      customTableName: { read: valueTableName },
    },
  ),
  orderBy: [asc(customTableValues.order), asc(customTableValues.id)],
  toItem: (raw) => {
    const { customTableName: _name, ...item } = raw;
    return item as CustomTableValue;
  },
  toListItem: identity,
  ownedBy: (tableId) => eq(customTableValues.customTableId, tableId ?? -1),
  ownerValues: (tableId) => ({ customTableId: tableId }),
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
  ...rowTableColumns(
    customFields.id,
    {
      entity: customFields.entity,
      key: customFields.key,
      labelEl: customFields.labelEl,
      labelEn: customFields.labelEn,
      type: customFields.type,
      customTableId: customFields.customTableId,
      required: customFields.required,
      order: customFields.order,
    },
    ['entity', 'key', 'labelEl', 'labelEn', 'type', 'customTableName', 'required', 'order'],
    { customTableName: { read: fieldTableName } },
  ),
  orderBy: [asc(customFields.entity), asc(customFields.order), asc(customFields.id)],
  toItem: identity,
  toListItem: identity,
  ownedBy: (companyId) => eq(customFields.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
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
  ...rowTableColumns(
    generalSettings.id,
    { parName: generalSettings.parName, parValue: generalSettings.parValue },
    ['parName', 'parValue'],
    { companyId: { read: generalSettings.companyId } },
  ),
  orderBy: [asc(generalSettings.parName), asc(generalSettings.id)],
  toItem: identity,
  toListItem: (raw) => {
    const { companyId: _company, ...item } = raw;
    return item as Omit<GeneralSetting, 'companyId'>;
  },
  ownedBy: (companyId) => eq(generalSettings.companyId, companyId ?? -1),
  ownerValues: (companyId) => ({ companyId }),
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
