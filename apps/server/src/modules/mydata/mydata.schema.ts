import type { AadeError, MydataMappings, MydataSource } from '@protocol/contracts';

export type { MydataSource };

import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  pgView,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { moneyColumn } from '../../platform/money-column.ts';
import { companies, companyIdColumn } from '../companies/companies.schema.ts';

/** One row per company: where to send and how documents translate into myDATA's codes. */
export const mydataSettings = pgTable('mydata_settings', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  environment: text('environment').notNull().default('test'),
  testUrl: text('test_url').notNull(),
  productionUrl: text('production_url').notNull(),
  branch: smallint('branch').notNull().default(0),
  mappings: jsonb('mappings').$type<MydataMappings>().notNull(),
  /**
   * The demo company's (SEED_DEMO): while it has no AADE credentials, its test-environment documents go
   * to the local stand-in for AADE a demo installation runs on loopback, never to the real AADE.
   */
  localAade: boolean('local_aade').notNull().default(false),
  ...auditColumns(),
});

/**
 * A document's transmission to AADE, one row per document from its first attempt, keyed by its
 * source and its id there (so no foreign key: the id is a finance document's or a bill's). MARKs are
 * `bigint` in AADE's terms (xs:long) and kept as text: they are identifiers, never summed. The
 * unique index on (company, mark) lets the global search find a document by its MARK.
 */
export const mydataTransmissions = pgTable(
  'mydata_transmissions',
  {
    source: text('source').$type<MydataSource>().notNull().default('document'),
    documentId: integer('document_id').notNull(),
    companyId: companyIdColumn(),
    state: text('state').notNull(),
    uid: text('uid').notNull(),
    /** The type sent (a water bill to a consumer with an ΑΦΜ goes as the mapping's type, not its series'). */
    invoiceType: text('invoice_type'),
    mark: text('mark'),
    qrUrl: text('qr_url'),
    authenticationCode: text('authentication_code'),
    cancellationMark: text('cancellation_mark'),
    errors: jsonb('errors').$type<AadeError[]>().notNull().default(sql`'[]'::jsonb`),
    attempts: integer('attempts').notNull().default(0),
    /** The company's highest MARK before the last send: AADE is asked from there after a timeout. */
    reconcileFrom: text('reconcile_from').notNull().default('0'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.documentId] }),
    index('mydata_transmissions_state_idx').on(t.companyId, t.state),
    uniqueIndex('mydata_transmissions_mark_uq').on(t.companyId, t.mark),
    index('mydata_transmissions_uid_idx').on(t.uid),
  ],
);

/**
 * The documents and bills myDATA concerns (finalized, of a series with a myDATA type) that have no
 * transmission yet, kept by triggers (migration 0029) on finance_documents, billing_bills,
 * finance_series and mydata_transmissions: the dashboard card counts them by company here instead
 * of reading every finalized bill against its transmission.
 */
export const mydataUnsent = pgTable(
  'mydata_unsent',
  {
    source: text('source').$type<MydataSource>().notNull(),
    documentId: integer('document_id').notNull(),
    companyId: companyIdColumn(),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.documentId] }),
    index('mydata_unsent_company_idx').on(t.companyId),
  ],
);

/**
 * What myDATA concerns, finance documents and water bills alike (finalized, of a series with a
 * myDATA type) with their transmission state; a view (migration 0022) for the list and the card.
 */
export const mydataDocuments = pgView('mydata_documents', {
  /** `d<id>` or `b<id>`: unique across the two sources, the list's last sort key. */
  key: text('key').notNull(),
  source: text('source').$type<MydataSource>().notNull(),
  id: integer('id').notNull(),
  companyId: integer('company_id').notNull(),
  seriesCode: text('series_code').notNull(),
  number: integer('number'),
  year: integer('year'),
  date: date('date', { mode: 'string' }).notNull(),
  invoiceType: text('invoice_type'),
  traderName: text('trader_name'),
  traderNameNorm: text('trader_name_norm'),
  gross: moneyColumn('gross').notNull(),
  state: text('state').notNull(),
  mark: text('mark'),
  errors: jsonb('errors').$type<AadeError[]>(),
}).existing();
