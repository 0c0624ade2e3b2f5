import type {
  BankDateFormat,
  BankFileSummary,
  BankLayoutField,
  BankLineReason,
  BankLineStatus,
  CashierMethod,
  DebtSource,
  DebtStatus,
  EntryType,
} from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
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
import { billingBills } from '../billing/billing.schema.ts';
import { companyIdColumn } from '../companies/companies.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';

const consumerId = () =>
  integer('consumer_id')
    .notNull()
    .references(() => waterConsumers.id);

/**
 * A payable item of a consumer (οφειλή): a finalized bill's own amount (net + VAT of its period; the
 * earlier bills it carries stay debts of their own), a charge, or a settlement's instalment. Each has
 * its RF code; `paid` is the sum of its allocations, kept beside it so a row lock serialises payers.
 */
export const paymentsDebts = pgTable(
  'payments_debts',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    consumerId: consumerId(),
    source: text('source').$type<DebtSource>().notNull(),
    billId: integer('bill_id').references(() => billingBills.id),
    /** Spec §3 kind of the ledger line that raised it (1, 4, 5, 99; null for an instalment). */
    kind: smallint('kind'),
    description: text('description').notNull(),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    amount: moneyColumn('amount').notNull(),
    paid: moneyColumn('paid').notNull().default('0'),
    rfCode: text('rf_code'),
    status: text('status').$type<DebtStatus>().notNull().default('open'),
    /** The settlement (the settlements module's key) an instalment belongs to, or that closed this debt. */
    settlementKey: text('settlement_key'),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('payments_debts_bill').on(t.billId),
    uniqueIndex('payments_debts_rf_code').on(t.rfCode),
    index('payments_debts_consumer_idx').on(t.consumerId, t.status, t.dueDate, t.id),
    index('payments_debts_settlement_idx').on(t.companyId, t.settlementKey),
  ],
);

/** The gapless receipt series: one counter row per company and year (the finance series' pattern). */
export const paymentsReceiptCounters = pgTable(
  'payments_receipt_counters',
  {
    companyId: companyIdColumn(),
    year: integer('year').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.year] })],
);

/**
 * A payment (είσπραξη) with its receipt number: at the cashier or from a bank file's line. A
 * prepayment carries its spec kind (2, 3, 16), a prepayment's return 17 (money out).
 */
export const paymentsPayments = pgTable(
  'payments_payments',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    consumerId: consumerId(),
    kind: smallint('kind'),
    method: text('method').$type<CashierMethod>().notNull(),
    amount: moneyColumn('amount').notNull(),
    /** What no debt took: the consumer's credit. */
    unallocated: moneyColumn('unallocated').notNull().default('0'),
    date: date('date', { mode: 'string' }).notNull(),
    cashier: text('cashier').notNull(),
    receiptYear: integer('receipt_year').notNull(),
    receiptNumber: integer('receipt_number').notNull(),
    reference: text('reference'),
    note: text('note'),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('payments_payments_receipt').on(t.companyId, t.receiptYear, t.receiptNumber),
    index('payments_payments_consumer_idx').on(t.consumerId, t.date),
    index('payments_payments_day_idx').on(t.companyId, t.date, t.cashier),
  ],
);

/** What a payment paid of which debt. */
export const paymentsAllocations = pgTable(
  'payments_allocations',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => paymentsPayments.id, { onDelete: 'cascade' }),
    debtId: integer('debt_id')
      .notNull()
      .references(() => paymentsDebts.id),
    amount: moneyColumn('amount').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
  },
  (t) => [
    index('payments_allocations_debt_idx').on(t.debtId),
    index('payments_allocations_payment_idx').on(t.paymentId),
  ],
);

/**
 * The consumer's ledger (καρτέλα), append only: every debt raised, payment, settlement closing or
 * reopening writes its lines here, so the running balance is a window sum over one index.
 */
export const paymentsEntries = pgTable(
  'payments_entries',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    consumerId: consumerId(),
    date: date('date', { mode: 'string' }).notNull(),
    type: text('type').$type<EntryType>().notNull(),
    kind: smallint('kind'),
    description: text('description').notNull(),
    debit: moneyColumn('debit').notNull().default('0'),
    credit: moneyColumn('credit').notNull().default('0'),
    debtId: integer('debt_id').references(() => paymentsDebts.id),
    paymentId: integer('payment_id').references(() => paymentsPayments.id),
    settlementKey: text('settlement_key'),
    createdate: timestamp('createdate', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payments_entries_consumer_idx').on(t.consumerId, t.date, t.id)],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * The layouts of the banks' payment files, as data (a settings table): CSV with columns, or the fixed
 * width records Greek banks send, with the record type of the detail lines and the amount's format.
 */
export const paymentsBankLayouts = pgTable(
  'payments_bank_layouts',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    code: text('code').notNull(),
    descr: text('descr').notNull(),
    format: text('format').$type<'csv' | 'fixed'>().notNull(),
    /** CSV: the separator; fixed: unused. */
    separator: text('separator').notNull().default(';'),
    headerLines: smallint('header_lines').notNull().default(0),
    /** Fixed width: only lines starting with this are payments (e.g. "2"); empty: all. */
    recordPrefix: text('record_prefix').notNull().default(''),
    /** Amount in cents without a decimal point (fixed-width files) or with one. */
    amountInCents: boolean('amount_in_cents').notNull().default(false),
    /** The decimal mark is a comma (1.234,56). */
    decimalComma: boolean('decimal_comma').notNull().default(false),
    /** The date's pattern (contracts bankDateFormats). */
    dateFormat: text('date_format').$type<BankDateFormat>().notNull().default('YYYY-MM-DD'),
    fields: jsonb('fields').$type<BankLayoutField[]>().notNull(),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('payments_bank_layouts_code').on(t.companyId, t.code)],
);

/**
 * An imported bank file: its job and the counts of its report. The uploaded bytes wait in `content`
 * for the job (which may run on another node) and are dropped when it ends.
 */
export const paymentsBankFiles = pgTable(
  'payments_bank_files',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    layoutId: integer('layout_id')
      .notNull()
      .references(() => paymentsBankLayouts.id),
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key'),
    jobId: integer('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    state: text('state').$type<'queued' | 'running' | 'done' | 'failed'>().notNull().default('queued'),
    error: text('error'),
    content: bytea('content'),
    summary: jsonb('summary').$type<BankFileSummary>(),
    ...auditColumns(),
  },
  (t) => [index('payments_bank_files_company_idx').on(t.companyId, t.id)],
);

/**
 * A line of a bank file (contracts bankLineStatuses). Unique by the bank's reference within the
 * company among the lines that took money or wait for it, so a file imported twice adds nothing: its
 * lines are kept as `duplicate` for the report. A malformed line (`invalid`) may lack any field.
 */
export const paymentsBankLines = pgTable(
  'payments_bank_lines',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    fileId: integer('file_id')
      .notNull()
      .references(() => paymentsBankFiles.id, { onDelete: 'cascade' }),
    lineNo: integer('line_no').notNull(),
    bankReference: text('bank_reference'),
    rfCode: text('rf_code'),
    amount: moneyColumn('amount'),
    date: date('date', { mode: 'string' }),
    payer: text('payer'),
    status: text('status').$type<BankLineStatus>().notNull(),
    reason: text('reason').$type<BankLineReason>(),
    raw: text('raw').notNull().default(''),
    consumerId: integer('consumer_id').references(() => waterConsumers.id),
    paymentId: integer('payment_id').references(() => paymentsPayments.id),
  },
  (t) => [
    uniqueIndex('payments_bank_lines_reference')
      .on(t.companyId, t.bankReference)
      .where(sql`status NOT IN ('duplicate', 'invalid')`),
    index('payments_bank_lines_file_idx').on(t.fileId, t.lineNo),
    index('payments_bank_lines_unmatched_idx').on(t.companyId, t.date).where(sql`status = 'unmatched'`),
  ],
);
