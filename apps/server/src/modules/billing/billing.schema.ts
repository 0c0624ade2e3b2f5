import type { BillCharge, DiscountableCharge, PricingPolicy } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { jobs } from '../../platform/jobs/jobs.schema.ts';
import { moneyColumn } from '../../platform/money-column.ts';
import { companyIdColumn } from '../companies/companies.schema.ts';
import { financeSeries } from '../finance/finance.schema.ts';
import { waterPropertyUsages, waterRoutes } from '../water/parametrics.schema.ts';

/**
 * Pricing policies (τιμολογιακές πολιτικές) per property usage and validity. The bands, fixed charges,
 * fees and VAT choices are small lists always read and saved with their policy, validated by the
 * contract's save schema, hence jsonb beside the policy rather than child tables.
 */
export const billingPricingPolicies = pgTable(
  'billing_pricing_policies',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    description: text('description').notNull(),
    propertyUsageId: integer('property_usage_id')
      .notNull()
      .references(() => waterPropertyUsages.id),
    fromdate: date('fromdate', { mode: 'string' }).notNull(),
    todate: date('todate', { mode: 'string' }),
    baseMonths: smallint('base_months').notNull().default(4),
    fixedCharges: jsonb('fixed_charges').$type<PricingPolicy['fixedCharges']>().notNull(),
    bands: jsonb('bands').$type<PricingPolicy['bands']>().notNull(),
    sewerageMode: text('sewerage_mode').$type<PricingPolicy['sewerageMode']>().notNull(),
    sewerageValue: numeric('sewerage_value', { precision: 14, scale: 4 }).notNull().default('0'),
    sewerageIndicatorIds: integer('sewerage_indicator_ids').array().notNull().default(sql`'{}'`),
    specialFees: jsonb('special_fees').$type<PricingPolicy['specialFees']>().notNull(),
    /** Charge → vat_percentages.id. */
    vat: jsonb('vat').$type<Record<string, number>>().notNull(),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [index('billing_pricing_policies_company_idx').on(t.companyId, t.propertyUsageId)],
);

/** Discount policies (εκπτωτικές πολιτικές): social tariffs and surcharges, by special regulation. */
export const billingDiscountPolicies = pgTable(
  'billing_discount_policies',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    description: text('description').notNull(),
    fromdate: date('fromdate', { mode: 'string' }).notNull(),
    todate: date('todate', { mode: 'string' }),
    /** Spec §3: 1 reduction, −1 surcharge. */
    reduction: smallint('reduction').notNull(),
    /** Spec §3: 1 fixed, 2 percent. */
    amountType: smallint('amount_type').notNull(),
    /** Spec §3: 1 yearly, 2 monthly. */
    calculation: smallint('calculation').notNull(),
    amount: moneyColumn('amount').notNull(),
    charges: text('charges').array().$type<DiscountableCharge[]>().notNull(),
    specialRegulationIds: integer('special_regulation_ids').array().notNull(),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [index('billing_discount_policies_company_idx').on(t.companyId)],
);

/**
 * A billing run (εκκαθάριση): a period over some routes, done by a background job. Its totals are read
 * back from the bills that carry its id, so a rerun that recomputes them reports the same sums.
 */
export const billingRuns = pgTable(
  'billing_runs',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    year: integer('year').notNull(),
    period: smallint('period').notNull(),
    /** What the operator chose: all, sectors or routes, with the ids; `routeIds` is what it meant. */
    scope: text('scope').$type<'all' | 'sectors' | 'routes'>().notNull(),
    ids: integer('ids').array().notNull().default(sql`'{}'`),
    routeIds: integer('route_ids').array().notNull(),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    state: text('state').$type<'queued' | 'running' | 'done' | 'failed'>().notNull().default('queued'),
    jobId: integer('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    error: text('error'),
    ...auditColumns(),
  },
  (t) => [index('billing_runs_company_idx').on(t.companyId, t.year, t.period)],
);

/**
 * The routes a run bills. While the run is active its rows are, and the partial unique index keeps a
 * second run of an overlapping scope out (two runs never interleave on one route's period).
 */
export const billingRunRoutes = pgTable(
  'billing_run_routes',
  {
    runId: integer('run_id')
      .notNull()
      .references(() => billingRuns.id, { onDelete: 'cascade' }),
    companyId: companyIdColumn(),
    routeId: integer('route_id')
      .notNull()
      .references(() => waterRoutes.id),
    year: integer('year').notNull(),
    period: smallint('period').notNull(),
    active: boolean('active').notNull().default(true),
  },
  (t) => [
    uniqueIndex('billing_run_routes_active').on(t.companyId, t.routeId, t.year, t.period).where(sql`active`),
    index('billing_run_routes_run_idx').on(t.runId),
  ],
);

/**
 * A consumer's bill (λογαριασμός). Unique per consumer, period and kind (corrected bills aside), so a
 * billing run upserts (`ON CONFLICT … WHERE replaces_id IS NULL DO UPDATE … WHERE entry_state IN (0, 1)`)
 * and a rerun creates nothing twice nor touches a finalized bill. The number comes from the finance series at finalize (gapless, counter row).
 * Its company, consumer and run have no foreign keys: their checks (a query and a row lock each, per
 * bill) were a third of a run's writing of bills. Statement triggers keep their guarantees, once per
 * statement (migration 0037): each exists, locked as the keys' checks lock them; deleting a company
 * deletes its bills, deleting a run unlinks them, a consumer with bills cannot be deleted.
 */
export const billingBills = pgTable(
  'billing_bills',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    consumerId: integer('consumer_id').notNull(),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    periodLabel: text('period_label').notNull(),
    /** Spec §3 transaction kind: 1 period charge, 4 altered (a credit of a finalized bill). */
    kind: smallint('kind').notNull().default(1),
    /** A credit's corrected bill: a finalized bill is never edited, it is credited (kind 4). */
    correctsId: integer('corrects_id').references((): AnyPgColumn => billingBills.id),
    /** Why the credit was issued (required with `correctsId`). */
    reason: text('reason'),
    /**
     * A corrected bill (kind 1, issued after its credit): the credited bill it replaces. Kept apart
     * from `correctsId`, which says "this is a credit" to every reader (myDATA, payments, the card).
     */
    replacesId: integer('replaces_id').references((): AnyPgColumn => billingBills.id),
    /** Spec §3: −2 carried into a later bill, 0 new, 1 editing, 9 finalized. */
    entryState: smallint('entry_state').notNull().default(0),
    /** Spec §3: 0 hold, 1 send, 2 sent, 9 completed. */
    sendStatus: smallint('send_status').notNull().default(0),
    seriesId: integer('series_id').references(() => financeSeries.id),
    number: integer('number'),
    year: integer('year'),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    previousReading: integer('previous_reading'),
    previousDate: date('previous_reading_date', { mode: 'string' }),
    currentReading: integer('current_reading'),
    currentDate: date('current_reading_date', { mode: 'string' }),
    consumption: numeric('consumption', { precision: 14, scale: 3 }).notNull(),
    billedConsumption: numeric('billed_consumption', { precision: 14, scale: 3 }).notNull(),
    net: moneyColumn('net').notNull(),
    vatTotal: moneyColumn('vat_total').notNull(),
    previousBalance: moneyColumn('previous_balance').notNull(),
    total: moneyColumn('total').notNull(),
    /** What has been paid of it (payments writes it); unpaid bills carry into the next one. */
    paid: moneyColumn('paid').notNull().default('0'),
    /** The VAT breakdown per rate, as computed with the lines. */
    vatBreakdown: jsonb('vat_breakdown')
      .$type<{ vatPercent: string; net: string; vat: string }[]>()
      .notNull(),
    /** ISO 11649 payment code, from the company and the bill's id. */
    rfCode: text('rf_code'),
    /** The run that last computed it (null for a bill saved on its own). */
    runId: integer('run_id'),
    /** How it goes out once queued (send status 1): e-mailed, or printed for the post. */
    sendMethod: text('send_method').$type<'email' | 'print'>(),
    /** The address it was (or is to be) mailed to: the receiver's, else the owner's. */
    sendTo: text('send_to'),
    /** Set in its own commit just before the SMTP call: set while still status 1, the mail is uncertain. */
    sendAttemptedAt: timestamp('send_attempted_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The mail server's refusal (then the bill goes to print) or why the last try failed. */
    sendError: text('send_error'),
    /** The e-mail batch or print file that took it last. */
    dispatchId: integer('dispatch_id').references((): AnyPgColumn => billingDispatches.id, {
      onDelete: 'set null',
    }),
    ...auditColumns(),
  },
  (t) => [
    // The period's bill a run upserts; a corrected bill of the period stands beside it, outside.
    uniqueIndex('billing_bills_consumer_period_kind')
      .on(t.consumerId, t.periodFrom, t.kind)
      .where(sql`replaces_id IS NULL`),
    uniqueIndex('billing_bills_rf_code').on(t.rfCode),
    // The next four are partial: a run writes 100,000 drafts whose credit, replaced bill, number and
    // dispatch are all null, and a null entry in each would be four index insertions a bill for nothing.
    // Every reader looks them up by a value, which the predicate admits.
    // A bill is credited once, even by two operators at the same moment.
    uniqueIndex('billing_bills_corrects').on(t.correctsId).where(sql`corrects_id IS NOT NULL`),
    // A credited bill is replaced once, even by two administrators at the same moment.
    uniqueIndex('billing_bills_replaces').on(t.replacesId).where(sql`replaces_id IS NOT NULL`),
    uniqueIndex('billing_bills_number').on(t.seriesId, t.year, t.number).where(sql`number IS NOT NULL`),
    index('billing_bills_company_period_idx').on(t.companyId, t.periodFrom, t.consumerId),
    index('billing_bills_run_idx').on(t.runId),
    index('billing_bills_dispatch_idx').on(t.dispatchId, t.sendStatus).where(sql`dispatch_id IS NOT NULL`),
  ],
);

/**
 * A sending of bills (spec §3 send status): an e-mail batch over a run, a run's route or chosen bills,
 * or a route's merged PDF for the post (its file in the storage adapter). Each is done by a
 * background job; the bills it took point back at it.
 */
export const billingDispatches = pgTable(
  'billing_dispatches',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    kind: text('kind').$type<'email' | 'print'>().notNull(),
    runId: integer('run_id').references(() => billingRuns.id, { onDelete: 'set null' }),
    routeId: integer('route_id').references(() => waterRoutes.id),
    jobId: integer('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    state: text('state').$type<'queued' | 'running' | 'done' | 'failed'>().notNull().default('queued'),
    /** E-mails accepted by the mail server, or bills in the printed file. */
    bills: integer('bills').notNull().default(0),
    /** E-mails the mail server refused (those bills went to print). */
    refused: integer('refused').notNull().default(0),
    fileKey: text('file_key'),
    fileSize: integer('file_size'),
    error: text('error'),
    ...auditColumns(),
  },
  (t) => [index('billing_dispatches_company_idx').on(t.companyId, t.runId)],
);

/**
 * A bill's lines, in the order computed; money numeric, rounded half-up to the cent per line. Keyed
 * by bill and position, with no id of their own: a run writes a million of them, and a serial id
 * would cost each a sequence value and a second index. For the same reason `bill_id` has no foreign
 * key: its check (a query and a row lock per line) was most of the cost of a run's lines. Statement
 * triggers keep both its guarantees instead, once per statement (migration 0034): every line's bill
 * exists, locked as the key's check locks it, and deleting a bill deletes its lines.
 */
export const billingBillLines = pgTable(
  'billing_bill_lines',
  {
    billId: integer('bill_id').notNull(),
    position: smallint('position').notNull(),
    charge: text('charge').$type<BillCharge>().notNull(),
    description: text('description').notNull().default(''),
    band: smallint('band'),
    fromDate: date('from_date', { mode: 'string' }),
    toDate: date('to_date', { mode: 'string' }),
    target: text('target').$type<DiscountableCharge>(),
    quantity: numeric('quantity', { precision: 14, scale: 3 }),
    price: numeric('price', { precision: 14, scale: 4 }),
    amount: moneyColumn('amount').notNull(),
    vatPercent: numeric('vat_percent', { precision: 5, scale: 2 }).notNull(),
    sourceId: integer('source_id'),
  },
  (t) => [primaryKey({ name: 'billing_bill_lines_pkey', columns: [t.billId, t.position] })],
);
