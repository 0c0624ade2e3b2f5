import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  customType,
  date,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { companies, companyIdColumn } from '../companies/companies.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { waterMeters } from '../water/meters.schema.ts';
import { waterRoutes } from '../water/parametrics.schema.ts';

/**
 * A reading period of one route (spec §4 entry states 0 new, 1 editing, 9 finalized with
 * defuser/defdate). `heldBy`/`heldUntil` is the lock an import or a billing run takes: entry to the
 * route and period answers 409 while it is held; the lease ends by itself so nothing waits forever.
 */
export const readoutRoutePeriods = pgTable(
  'readout_route_periods',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    routeId: integer('route_id')
      .notNull()
      .references(() => waterRoutes.id),
    year: integer('year').notNull(),
    period: smallint('period').notNull(),
    months: smallint('months').notNull(),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
    state: smallint('state').notNull().default(0),
    heldBy: text('held_by'),
    heldUntil: timestamp('held_until', { withTimezone: true, mode: 'date' }),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('readout_route_periods_unique').on(t.companyId, t.routeId, t.year, t.period)],
);

/**
 * A meter's reading in a route's period (spec §3 reading source 1 entry, 2 smartville, 3 drive-by,
 * 4 file). The consumption is stored as it was computed (with how: normal, rollover, reverse,
 * swap) so billing reads it as checked. A finalized period's reading changes only by a correction:
 * the original stays, `supersededAt` set, and the new row points at it (`replacesId`).
 */
export const readoutReadings = pgTable(
  'readout_readings',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    routePeriodId: integer('route_period_id')
      .notNull()
      .references(() => readoutRoutePeriods.id),
    consumerId: integer('consumer_id')
      .notNull()
      .references(() => waterConsumers.id),
    meterId: integer('meter_id').references(() => waterMeters.id),
    reading: integer('reading'),
    readOn: date('read_on', { mode: 'string' }).notNull(),
    source: smallint('source').notNull(),
    unableReason: smallint('unable_reason'),
    note: text('note'),
    previousReading: integer('previous_reading'),
    consumption: integer('consumption'),
    basis: text('basis'),
    flags: text('flags').array().notNull().default(sql`'{}'::text[]`),
    review: smallint('review').notNull().default(0),
    estimated: boolean('estimated').notNull().default(false),
    /** The earlier period's estimate this actual reading settles (billing settles the difference). */
    correctsId: integer('corrects_id').references((): AnyPgColumn => readoutReadings.id),
    replacesId: integer('replaces_id').references((): AnyPgColumn => readoutReadings.id),
    supersededAt: timestamp('superseded_at', { withTimezone: true, mode: 'date' }),
    idempotencyKey: text('idempotency_key'),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('readout_readings_current')
      .on(t.routePeriodId, t.consumerId)
      .where(sql`superseded_at IS NULL`),
    uniqueIndex('readout_readings_idempotency').on(t.companyId, t.idempotencyKey),
    index('readout_readings_consumer_idx').on(t.consumerId, t.readOn),
  ],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * A readings file uploaded for an import job (handheld CSV/Excel, drive-by AMR), on the storage
 * adapter (platform/imports/files.ts: `content` only for files uploaded before migration 0029); the
 * row goes when the job ends.
 */
export const readoutImportFiles = pgTable('readout_import_files', {
  id: serial('id').primaryKey(),
  companyId: companyIdColumn(),
  storageKey: text('storage_key'),
  content: bytea('content'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A company's smartville connection (smart meters, spec §3 reading source 2): the REST service's
 * address and its API key, sealed with the installation's key (platform/secrets.ts).
 */
export const readoutSmartville = pgTable('readout_smartville', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  apiKey: text('api_key').notNull(),
  ...auditColumns(),
});
