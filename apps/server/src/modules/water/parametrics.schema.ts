import { boolean, date, index, integer, numeric, pgTable, serial, smallint, text } from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { companies, companyIdColumn } from '../companies/companies.schema.ts';
import { periodicities } from '../settings/settings-tables.schema.ts';

/*
 * The water service's parametric tables. A code is unique per company (per sector for
 * routes) through a deferred constraint in the migration, so a row-table save may swap two codes.
 */

const coded = () => ({
  id: serial('id').primaryKey(),
  companyId: companyIdColumn(),
  code: text('code').notNull(),
  description: text('description').notNull(),
  active: boolean('active').notNull().default(true),
  ...auditColumns(),
});

/** Sectors (τομείς): the parts of the network a utility divides its consumers into. */
export const waterSectors = pgTable('water_sectors', coded());

/** Routes (δρομολόγια): a sector's reading route; `readingOrder` orders the routes of a sector. */
export const waterRoutes = pgTable(
  'water_routes',
  {
    ...coded(),
    sectorId: integer('sector_id')
      .notNull()
      .references(() => waterSectors.id),
    readingOrder: integer('reading_order').notNull().default(0),
  },
  (t) => [index('water_routes_sector_idx').on(t.sectorId)],
);

/** Areas (περιοχές), e.g. the villages of the municipality. */
export const waterAreas = pgTable('water_areas', coded());
/** Buildings (κτίρια): apartment blocks whose flats share a connection. */
export const waterBuildings = pgTable('water_buildings', coded());
/** Property usages (χρήσεις ακινήτου): household, business, common areas, municipal … */
export const waterPropertyUsages = pgTable('water_property_usages', coded());
/** Connection types (τύποι παροχής). */
export const waterConnectionTypes = pgTable('water_connection_types', coded());
/** Sewerage indicators (ένδειξη αποχέτευσης): connected, not connected, septic tank … */
export const waterSewerageIndicators = pgTable('water_sewerage_indicators', coded());
/** Pipe diameters (διατομές παροχής). */
export const waterPipeDiameters = pgTable('water_pipe_diameters', coded());

/** Water meter types: make and model, kind (1 analog, 2 digital, 3 AMR), diameter, digits. */
export const waterMeterTypes = pgTable('water_meter_types', {
  ...coded(),
  meterKind: smallint('meter_kind').notNull(),
  diameter: text('diameter'),
  digits: smallint('digits').notNull(),
});

/** Special regulations (ειδικές ρυθμίσεις): social and special tariff categories and their documents. */
export const waterSpecialRegulations = pgTable('water_special_regulations', {
  ...coded(),
  requiredDocuments: text('required_documents'),
});

/** Invoice policies (spec §3): what billing applies to the consumers pointing at one. */
export const waterInvoicePolicies = pgTable(
  'water_invoice_policies',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    description: text('description').notNull(),
    fromdate: date('fromdate', { mode: 'string' }).notNull(),
    todate: date('todate', { mode: 'string' }),
    bonusdays: integer('bonusdays').notNull().default(0),
    expiredays: integer('expiredays').notNull().default(0),
    minConsumption: integer('min_consumption').notNull().default(0),
    envtax: numeric('envtax', { precision: 12, scale: 4 }).notNull().default('0'),
    resourcetax: numeric('resourcetax', { precision: 12, scale: 4 }).notNull().default('0'),
    periodicityId: integer('periodicity_id')
      .notNull()
      .references(() => periodicities.id),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [index('water_invoice_policies_company_idx').on(t.companyId)],
);

/** The consumer encoding code definition (spec §3), one per company. */
export const waterEncodingCodes = pgTable('water_encoding_codes', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  levels: smallint('levels').notNull(),
  level1: smallint('level1'),
  level2: smallint('level2'),
  level3: smallint('level3'),
  level4: smallint('level4'),
  level5: smallint('level5'),
  leveltable1: smallint('leveltable1'),
  leveltable2: smallint('leveltable2'),
  leveltable3: smallint('leveltable3'),
  leveltable4: smallint('leveltable4'),
  leveltable5: smallint('leveltable5'),
  cfieldid1: integer('cfieldid1'),
  cfieldid2: integer('cfieldid2'),
  cfieldid3: integer('cfieldid3'),
  cfieldid4: integer('cfieldid4'),
  cfieldid5: integer('cfieldid5'),
  separator: text('separator').notNull().default(''),
  ...auditColumns(),
});
