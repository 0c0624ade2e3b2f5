import { codeKey } from '@protocol/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { date, index, integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { customFieldsColumn } from '../../platform/custom-fields/custom-fields.ts';
import { tsvector } from '../../platform/search/tsvector.ts';
import { companyIdColumn } from '../companies/companies.schema.ts';
import { addresses, departments } from '../settings/settings-tables.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import {
  waterAreas,
  waterBuildings,
  waterConnectionTypes,
  waterInvoicePolicies,
  waterPipeDiameters,
  waterPropertyUsages,
  waterRoutes,
  waterSectors,
  waterSewerageIndicators,
  waterSpecialRegulations,
} from './parametrics.schema.ts';

/**
 * Spec §3 Consumer (καταναλωτής): one water connection of a company, known by its encoding code
 * (`code`, the spec's displaycode, as the preview shows it: padded parts joined by the separator).
 * The code is unique per company by a unique index, so two saves of one code end in one consumer.
 */
export const waterConsumers = pgTable(
  'water_consumers',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    code: text('code').notNull(),
    // The level values the code was built from (those the definition uses).
    sectorId: integer('sector_id').references(() => waterSectors.id),
    routeId: integer('route_id').references(() => waterRoutes.id),
    routePosition: integer('route_position'),
    departmentId: integer('department_id').references(() => departments.id),
    areaId: integer('area_id').references(() => waterAreas.id),
    addressId: integer('address_id').references(() => addresses.id),
    buildingId: integer('building_id').references(() => waterBuildings.id),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => traders.id),
    liableId: integer('liable_id').references(() => traders.id),
    receiverId: integer('receiver_id').references(() => traders.id),
    supplyAddress: text('supply_address').notNull(),
    supplyPostalCode: text('supply_postal_code'),
    mailingAddress: text('mailing_address'),
    propertyUsageId: integer('property_usage_id').references(() => waterPropertyUsages.id),
    connectionTypeId: integer('connection_type_id').references(() => waterConnectionTypes.id),
    sewerageIndicatorId: integer('sewerage_indicator_id').references(() => waterSewerageIndicators.id),
    pipeDiameterId: integer('pipe_diameter_id').references(() => waterPipeDiameters.id),
    invoicePolicyId: integer('invoice_policy_id').references(() => waterInvoicePolicies.id),
    specialRegulationId: integer('special_regulation_id').references(() => waterSpecialRegulations.id),
    specialFrom: date('special_from', { mode: 'string' }),
    specialTo: date('special_to', { mode: 'string' }),
    applicationDate: date('application_date', { mode: 'string' }),
    connectionDate: date('connection_date', { mode: 'string' }),
    contractDate: date('contract_date', { mode: 'string' }),
    disconnectionDate: date('disconnection_date', { mode: 'string' }),
    /** Spec §3 status: 0 pending, 1 active, 9 cancel. */
    status: smallint('status').notNull().default(0),
    notes: text('notes'),
    customFields: customFieldsColumn(),
    // Greek-normalised copies the list filters and sorts on (see traders.schema.ts).
    codeNorm: text('code_norm').generatedAlwaysAs(sql`norm_text(code)`),
    /** The code without separators and padding (contracts' codeKey): what a person types matches it. */
    codeKey: text('code_key').generatedAlwaysAs(
      sql`regexp_replace(norm_text(code), '[[:space:][:punct:]]', '', 'g')`,
    ),
    supplyAddressNorm: text('supply_address_norm').generatedAlwaysAs(sql`norm_text(supply_address)`),
    /** The global search's vector of the code and the supply address (kept by a trigger, migration 0016). */
    searchVector: tsvector('search_vector'),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('water_consumers_code_unique').on(t.companyId, t.code),
    index('water_consumers_code_norm_trgm').using('gin', t.codeNorm.op('gin_trgm_ops')),
    index('water_consumers_code_key_trgm').using('gin', t.codeKey.op('gin_trgm_ops')),
    // The list's default order (code): a page of a filtered list walks it and stops after 50 rows.
    index('water_consumers_code_norm_sort').on(t.companyId, t.codeNorm, t.id),
    index('water_consumers_supply_address_norm_trgm').using('gin', t.supplyAddressNorm.op('gin_trgm_ops')),
    index('water_consumers_route_idx').on(t.routeId, t.routePosition),
    index('water_consumers_owner_idx').on(t.ownerId),
    index('water_consumers_liable_idx').on(t.liableId),
    index('water_consumers_receiver_idx').on(t.receiverId),
    index('water_consumers_search_idx').using('gin', t.searchVector).with({ fastupdate: false }),
  ],
);

/**
 * The consumer whose code is the one a person typed, however it was typed: with or without the
 * separators and the padding of the stored code (codeKey: "01001101" is "01-001-  101").
 */
export const consumerCodeIs = (typed: string): SQL =>
  sql`${waterConsumers.codeKey} = norm_text(${codeKey(typed)})`;
