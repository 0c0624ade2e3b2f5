import {
  type InvoicePolicy,
  type InvoicePolicyRow,
  invoicePoliciesCatalog,
  trimmedDecimal,
  type WaterCoded,
  type WaterCodedRow,
  type WaterCodedTable,
  type WaterMeterType,
  type WaterMeterTypeRow,
  type WaterRoute,
  type WaterRouteRow,
  type WaterSpecialRegulation,
  type WaterSpecialRegulationRow,
  waterCodedCatalogs,
  waterMeterTypesCatalog,
  waterRoutesCatalog,
  waterSpecialRegulationsCatalog,
} from '@protocol/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.ts';
import { badRequest } from '../../platform/errors.ts';
import { type RowTable, rowTableColumns } from '../../platform/row-table/table.ts';
import { periodicities } from '../settings/settings-tables.schema.ts';
import {
  waterAreas,
  waterBuildings,
  waterConnectionTypes,
  waterInvoicePolicies,
  waterMeterTypes,
  waterPipeDiameters,
  waterPropertyUsages,
  waterRoutes,
  waterSectors,
  waterSewerageIndicators,
  waterSpecialRegulations,
} from './parametrics.schema.ts';

const identity = <T>(raw: Record<string, unknown>) => raw as T;

/** The code + description tables by their route code. */
export const codedTables = {
  sectors: waterSectors,
  areas: waterAreas,
  buildings: waterBuildings,
  propertyUsages: waterPropertyUsages,
  connectionTypes: waterConnectionTypes,
  sewerageIndicators: waterSewerageIndicators,
  pipeDiameters: waterPipeDiameters,
} as const satisfies Record<WaterCodedTable, unknown>;

type CodedSqlTable = (typeof codedTables)[WaterCodedTable];

/** The code, description and active flag every coded table has. */
const coded = (
  t: CodedSqlTable | typeof waterRoutes | typeof waterMeterTypes | typeof waterSpecialRegulations,
) => ({
  code: t.code,
  description: t.description,
  active: t.active,
});

const owned = (t: { companyId: AnyPgColumn }) => (companyId: number | undefined) =>
  eq(t.companyId, companyId ?? -1);

export function codedTable(code: WaterCodedTable): RowTable<WaterCodedRow, WaterCoded, WaterCoded> {
  const t: CodedSqlTable = codedTables[code];
  return {
    entity: `water.${code}`,
    table: t,
    id: t.id,
    catalog: waterCodedCatalogs[code],
    ...rowTableColumns(t.id, coded(t), ['code', 'description', 'active']),
    orderBy: [asc(t.code), asc(t.id)],
    toItem: identity,
    toListItem: identity,
    ownedBy: owned(t),
    ownerValues: (companyId) => ({ companyId }),
    uniqueKey: 'error.water_code_taken',
  };
}

/** Ids among `ids` that are not rows of the company in `table`. */
async function foreignIds(
  tx: Tx,
  table: typeof waterSectors | typeof periodicities,
  companyId: number | undefined,
  ids: number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const mine = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.companyId, companyId ?? -1), inArray(table.id, ids)));
  const known = new Set(mine.map((r) => r.id));
  return new Set(ids.filter((id) => !known.has(id)));
}

const sectorCode = sql<string>`(SELECT s.code FROM water_sectors s WHERE s.id = ${sql.raw('"water_routes"."sector_id"')})`;

export const routesTable: RowTable<WaterRouteRow, WaterRoute, WaterRoute> = {
  entity: 'water.routes',
  table: waterRoutes,
  id: waterRoutes.id,
  catalog: waterRoutesCatalog,
  ...rowTableColumns(
    waterRoutes.id,
    { ...coded(waterRoutes), sectorId: waterRoutes.sectorId, readingOrder: waterRoutes.readingOrder },
    ['sectorCode', 'code', 'description', 'readingOrder', 'active'],
    { sectorCode: { read: sectorCode } },
  ),
  orderBy: [sectorCode, asc(waterRoutes.readingOrder), asc(waterRoutes.code), asc(waterRoutes.id)],
  toItem: identity,
  toListItem: identity,
  ownedBy: owned(waterRoutes),
  ownerValues: (companyId) => ({ companyId }),
  uniqueKey: 'error.water_code_taken',
  /** A route lies in a sector of the same company. */
  async check(tx, companyId, rows) {
    const foreign = await foreignIds(tx, waterSectors, companyId, [...new Set(rows.map((r) => r.sectorId))]);
    const errors = rows.flatMap((row, index) =>
      foreign.has(row.sectorId)
        ? [{ field: `${index}.sectorId`, key: 'validation.invalid', params: {} }]
        : [],
    );
    if (errors.length > 0) throw badRequest(errors);
  },
};

export const meterTypesTable: RowTable<WaterMeterTypeRow, WaterMeterType, WaterMeterType> = {
  entity: 'water.meterTypes',
  table: waterMeterTypes,
  id: waterMeterTypes.id,
  catalog: waterMeterTypesCatalog,
  ...rowTableColumns(
    waterMeterTypes.id,
    {
      ...coded(waterMeterTypes),
      meterKind: waterMeterTypes.meterKind,
      diameter: waterMeterTypes.diameter,
      digits: waterMeterTypes.digits,
    },
    ['code', 'description', 'meterKind', 'diameter', 'digits', 'active'],
  ),
  orderBy: [asc(waterMeterTypes.code), asc(waterMeterTypes.id)],
  toItem: identity,
  toListItem: identity,
  ownedBy: owned(waterMeterTypes),
  ownerValues: (companyId) => ({ companyId }),
  uniqueKey: 'error.water_code_taken',
};

export const specialRegulationsTable: RowTable<
  WaterSpecialRegulationRow,
  WaterSpecialRegulation,
  WaterSpecialRegulation
> = {
  entity: 'water.specialRegulations',
  table: waterSpecialRegulations,
  id: waterSpecialRegulations.id,
  catalog: waterSpecialRegulationsCatalog,
  ...rowTableColumns(
    waterSpecialRegulations.id,
    { ...coded(waterSpecialRegulations), requiredDocuments: waterSpecialRegulations.requiredDocuments },
    ['code', 'description', 'requiredDocuments', 'active'],
  ),
  orderBy: [asc(waterSpecialRegulations.code), asc(waterSpecialRegulations.id)],
  toItem: identity,
  toListItem: identity,
  ownedBy: owned(waterSpecialRegulations),
  ownerValues: (companyId) => ({ companyId }),
  uniqueKey: 'error.water_code_taken',
};

// numeric(12,4) reads as '0.0500': the policy shows the rate as typed, without trailing zeros.
const rate = (value: unknown) => trimmedDecimal(value as string);
const toPolicy = (raw: Record<string, unknown>): InvoicePolicy => ({
  ...(raw as InvoicePolicy),
  envtax: rate(raw.envtax),
  resourcetax: rate(raw.resourcetax),
});

export const invoicePoliciesTable: RowTable<InvoicePolicyRow, InvoicePolicy, InvoicePolicy> = {
  entity: 'water.invoicePolicies',
  table: waterInvoicePolicies,
  id: waterInvoicePolicies.id,
  catalog: invoicePoliciesCatalog,
  select: {
    id: waterInvoicePolicies.id,
    description: waterInvoicePolicies.description,
    fromdate: waterInvoicePolicies.fromdate,
    todate: waterInvoicePolicies.todate,
    bonusdays: waterInvoicePolicies.bonusdays,
    expiredays: waterInvoicePolicies.expiredays,
    minConsumption: waterInvoicePolicies.minConsumption,
    envtax: waterInvoicePolicies.envtax,
    resourcetax: waterInvoicePolicies.resourcetax,
    periodicityId: waterInvoicePolicies.periodicityId,
    active: waterInvoicePolicies.active,
  },
  orderBy: [asc(waterInvoicePolicies.fromdate), asc(waterInvoicePolicies.id)],
  toItem: toPolicy,
  toListItem: toPolicy,
  listColumns: {
    description: waterInvoicePolicies.description,
    fromdate: waterInvoicePolicies.fromdate,
    todate: waterInvoicePolicies.todate,
    bonusdays: waterInvoicePolicies.bonusdays,
    expiredays: waterInvoicePolicies.expiredays,
    minConsumption: waterInvoicePolicies.minConsumption,
    envtax: waterInvoicePolicies.envtax,
    resourcetax: waterInvoicePolicies.resourcetax,
    active: waterInvoicePolicies.active,
  },
  ownedBy: owned(waterInvoicePolicies),
  ownerValues: (companyId) => ({ companyId }),
  values: (row) => {
    const { id: _id, ...values } = row;
    return values;
  },
  uniqueKey: 'error.names_not_unique',
  /** The periodicity is one of the company's. */
  async check(tx, companyId, rows) {
    const ids = [...new Set(rows.map((r) => r.periodicityId))];
    const foreign = await foreignIds(tx, periodicities, companyId, ids);
    const errors = rows.flatMap((row, index) =>
      foreign.has(row.periodicityId)
        ? [{ field: `${index}.periodicityId`, key: 'validation.invalid', params: {} }]
        : [],
    );
    if (errors.length > 0) throw badRequest(errors);
  },
};
