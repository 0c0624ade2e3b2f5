import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  date,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { companyIdColumn } from '../companies/companies.schema.ts';
import { waterConsumers } from './consumers.schema.ts';
import { waterMeterTypes } from './parametrics.schema.ts';
/** Water meters (υδρομετρητές) of a company: the serial number is unique in the company. */
export const waterMeters = pgTable(
  'water_meters',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    serialNumber: text('serial_number').notNull(),
    meterTypeId: integer('meter_type_id').references(() => waterMeterTypes.id),
    /** Spec §3 meter kind: 1 analog, 2 digital, 3 AMR. */
    kind: smallint('kind').notNull(),
    /** Spec §3 direction: 1 normal, -1 reverse. */
    direction: smallint('direction').notNull().default(1),
    diameter: text('diameter'),
    digits: smallint('digits').notNull(),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('water_meters_serial_unique').on(t.companyId, t.serialNumber)],
);

/**
 * A meter's time on a consumer: installed with its initial reading, removed with its final one.
 * A consumer has at most one meter on, and a meter is on at most one consumer (partial indexes).
 */
export const waterMeterInstallations = pgTable(
  'water_meter_installations',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    consumerId: integer('consumer_id')
      .notNull()
      .references(() => waterConsumers.id),
    meterId: integer('meter_id')
      .notNull()
      .references(() => waterMeters.id),
    installedOn: date('installed_on', { mode: 'string' }).notNull(),
    initialReading: integer('initial_reading').notNull(),
    removedOn: date('removed_on', { mode: 'string' }),
    finalReading: integer('final_reading'),
    ...auditColumns(),
  },
  (t) => [
    index('water_meter_installations_consumer_idx').on(t.consumerId, t.installedOn),
    uniqueIndex('water_meter_installations_consumer_on').on(t.consumerId).where(sql`removed_on IS NULL`),
    uniqueIndex('water_meter_installations_meter_on').on(t.meterId).where(sql`removed_on IS NULL`),
    // A meter's whole history (and its foreign key: deleting a meter must not scan every installation).
    index('water_meter_installations_meter_idx').on(t.meterId, t.installedOn),
  ],
);

/**
 * A consumer's transactions (spec §3 transaction kinds): the lifecycle ones (11 stop, 12 reconnect,
 * 13 pull off, 14 replacement, 15 water meter replacement, 99 misc) with their date, readings and
 * comments, and the extra charges (kind 5) they bring, each its own row pointing at its lifecycle
 * transaction, with `billedOn` left empty until billing takes it into a bill.
 */
export const waterConsumerTransactions = pgTable(
  'water_consumer_transactions',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    consumerId: integer('consumer_id')
      .notNull()
      .references(() => waterConsumers.id),
    kind: smallint('kind').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    parentId: integer('parent_id').references((): AnyPgColumn => waterConsumerTransactions.id),
    /** The reading of the consumer's meter on the date (a removed meter's final reading). */
    reading: integer('reading'),
    /** The meter's reading before this one, kept for the consumption across a swap. */
    previousReading: integer('previous_reading'),
    meterId: integer('meter_id').references(() => waterMeters.id),
    /** Kind 15: the new meter and its initial reading. */
    newMeterId: integer('new_meter_id').references(() => waterMeters.id),
    newReading: integer('new_reading'),
    /** Kind 5: the amount, to two decimals. */
    amount: numeric('amount', { precision: 12, scale: 2 }),
    comments: text('comments'),
    billedOn: date('billed_on', { mode: 'string' }),
    ...auditColumns(),
  },
  (t) => [
    index('water_consumer_transactions_consumer_idx').on(t.consumerId, t.date),
    index('water_consumer_transactions_unbilled_idx').on(t.companyId, t.kind).where(sql`billed_on IS NULL`),
  ],
);
