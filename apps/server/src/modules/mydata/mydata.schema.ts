import type { AadeError, MydataMappings } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { companies } from '../companies/companies.schema.ts';
import { financeDocuments } from '../finance/finance.schema.ts';

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
  ...auditColumns(),
});

/**
 * A document's transmission to AADE, one row per document from its first attempt. MARKs are
 * `bigint` in AADE's terms (xs:long) and kept as text: they are identifiers, never summed. The
 * unique index on (company, mark) lets the global search find a document by its MARK.
 */
export const mydataTransmissions = pgTable(
  'mydata_transmissions',
  {
    documentId: integer('document_id')
      .primaryKey()
      .references(() => financeDocuments.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    state: text('state').notNull(),
    uid: text('uid').notNull(),
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
    index('mydata_transmissions_state_idx').on(t.companyId, t.state),
    uniqueIndex('mydata_transmissions_mark_uq').on(t.companyId, t.mark),
    index('mydata_transmissions_uid_idx').on(t.uid),
  ],
);
