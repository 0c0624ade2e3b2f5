import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
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
import { moneyColumn } from '../../platform/money-column.ts';
import { companies, companyIdColumn } from '../companies/companies.schema.ts';
import { traders } from '../traders/traders.schema.ts';

/*
 * Finance. Money is numeric(14,2); unit prices numeric(14,4) (tariffs such as 0.4250 €/m³);
 * quantities numeric(14,3) (m³, kg, metres); percentages numeric(5,2). Drizzle hands numerics over as
 * strings, which the service turns into decimals (contracts money.ts), never into binary floats.
 */

const money = (name: string) => moneyColumn(name).notNull().default('0');
const price = (name: string) => numeric(name, { precision: 14, scale: 4 }).notNull().default('0');
const quantity = (name: string) => numeric(name, { precision: 14, scale: 3 }).notNull();
const percent = (name: string) => numeric(name, { precision: 5, scale: 2 }).notNull().default('0');

/** One row per company: the accounting plan's mask (spec §5, at most 30 characters). */
export const financeSettings = pgTable('finance_settings', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  accountMask: text('account_mask').notNull(),
  ...auditColumns(),
});

/** The accounting plan (λογιστικό σχέδιο): kind 1 income, 2 expenses, 3 fund, 9 other; aggregate 0/1. */
export const financeAccounts = pgTable(
  'finance_accounts',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    code: text('code').notNull(),
    descr: text('descr').notNull(),
    kind: smallint('kind').notNull(),
    aggregate: smallint('aggregate').notNull().default(0),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('finance_accounts_code_uq').on(t.companyId, t.code)],
);

/** Services (υπηρεσίες) a document line may sell. */
export const financeServices = pgTable(
  'finance_services',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    code: text('code').notNull(),
    descr: text('descr').notNull(),
    unit: text('unit'),
    price: price('price'),
    vatPercent: percent('vat_percent'),
    vatCategory: smallint('vat_category'),
    accountId: integer('account_id').references(() => financeAccounts.id),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('finance_services_code_uq').on(t.companyId, t.code)],
);

/** Warehouses: type 1 normal, 2 consumables, 3 damaged, 4 other. */
export const financeWarehouses = pgTable(
  'finance_warehouses',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    code: text('code').notNull(),
    descr: text('descr').notNull(),
    type: smallint('type').notNull().default(1),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('finance_warehouses_code_uq').on(t.companyId, t.code)],
);

/** Warehouse items (είδη αποθήκης); their stock is the sum of their moves. */
export const financeItems = pgTable(
  'finance_items',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    code: text('code').notNull(),
    descr: text('descr').notNull(),
    barcode: text('barcode'),
    cpv: text('cpv'),
    unit: text('unit'),
    purchasePrice: price('purchase_price'),
    salePrice: price('sale_price'),
    vatPercent: percent('vat_percent'),
    accountId: integer('account_id').references(() => financeAccounts.id),
    warehouseId: integer('warehouse_id').references(() => financeWarehouses.id),
    group1: text('group1'),
    group2: text('group2'),
    group3: text('group3'),
    group4: text('group4'),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('finance_items_code_uq').on(t.companyId, t.code)],
);

/**
 * Document types and series (spec §3 'Document type and sequence settings'): autonr, seqnr, printype,
 * copies, checkdates, relseqid, plus the kind (a water bill is a kind, so billing issues its bills in
 * a series of this table) and the myDATA invoice type.
 */
export const financeSeries = pgTable(
  'finance_series',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    code: text('code').notNull(),
    descr: text('descr').notNull(),
    kind: text('kind').notNull(),
    autonr: boolean('autonr').notNull().default(true),
    seqnr: integer('seqnr').notNull().default(0),
    printype: smallint('printype').notNull().default(0),
    copies: smallint('copies').notNull().default(1),
    checkdates: boolean('checkdates').notNull().default(true),
    relseqid: integer('relseqid').references((): AnyPgColumn => financeSeries.id, { onDelete: 'set null' }),
    debitCredit: smallint('debit_credit').notNull().default(1),
    mydataType: text('mydata_type'),
    movesStock: boolean('moves_stock').notNull().default(false),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('finance_series_code_uq').on(t.companyId, t.code)],
);

/**
 * The running number of a series in one year, taken at finalize with `INSERT … ON CONFLICT DO UPDATE
 * SET last = last + 1 RETURNING last` (the protocol's counter row): the row lock serialises concurrent
 * finalizes and a failed one gives its number back, so numbers never skip or repeat. `lastDate` is the
 * latest finalized date, for checkdates.
 */
export const financeSeriesCounters = pgTable(
  'finance_series_counters',
  {
    seriesId: integer('series_id')
      .notNull()
      .references(() => financeSeries.id),
    year: integer('year').notNull(),
    last: integer('last').notNull().default(0),
    lastDate: date('last_date', { mode: 'string' }),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.year] })],
);

/**
 * Commercial documents (παραστατικά). Entry state 0 new, 1 editing, 9 finalized (immutable, numbered);
 * status 0 pending, 1 active, 9 cancel. Totals are the exact sums of the rounded lines.
 */
export const financeDocuments = pgTable(
  'finance_documents',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    seriesId: integer('series_id')
      .notNull()
      .references(() => financeSeries.id),
    number: integer('number'),
    year: integer('year'),
    date: date('date', { mode: 'string' }).notNull(),
    traderId: integer('trader_id').references(() => traders.id),
    paymentMethod: smallint('payment_method').notNull().default(3),
    entryState: smallint('entry_state').notNull().default(0),
    status: smallint('status').notNull().default(1),
    /** The document a credit note corrects. */
    relatedDocumentId: integer('related_document_id').references((): AnyPgColumn => financeDocuments.id),
    /** The document this one was transformed into (a source is transformed once). */
    transformedIntoId: integer('transformed_into_id').references((): AnyPgColumn => financeDocuments.id),
    net: money('net'),
    discount: money('discount'),
    vat: money('vat'),
    gross: money('gross'),
    taxesCharged: money('taxes_charged'),
    withheld: money('withheld'),
    payable: money('payable'),
    notes: text('notes'),
    ...auditColumns(),
  },
  (t) => [
    index('finance_documents_company_idx').on(t.companyId, t.date),
    uniqueIndex('finance_documents_number_uq').on(t.seriesId, t.year, t.number),
    index('finance_documents_trader_idx').on(t.traderId),
    check('finance_documents_numbered', sql`(${t.entryState} = 9) = (${t.number} IS NOT NULL)`),
  ],
);

/** A document's lines: a service or an item, rounded half-up to the cent on the line. */
export const financeDocumentLines = pgTable(
  'finance_document_lines',
  {
    id: serial('id').primaryKey(),
    documentId: integer('document_id')
      .notNull()
      .references(() => financeDocuments.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    serviceId: integer('service_id').references(() => financeServices.id),
    itemId: integer('item_id').references(() => financeItems.id),
    warehouseId: integer('warehouse_id').references(() => financeWarehouses.id),
    accountId: integer('account_id').references(() => financeAccounts.id),
    descr: text('descr').notNull(),
    quantity: quantity('quantity'),
    price: price('price'),
    discount: percent('discount'),
    vatPercent: percent('vat_percent'),
    net: money('net'),
    vat: money('vat'),
    total: money('total'),
  },
  (t) => [
    index('finance_document_lines_document_idx').on(t.documentId),
    check('finance_document_lines_one_kind', sql`(${t.serviceId} IS NULL) <> (${t.itemId} IS NULL)`),
  ],
);

/** A document's taxes by kind (1 tax, 2 stamp, 3 withholding, 4 recycling, 5 interest income, 6 interest charge). */
export const financeDocumentTaxes = pgTable(
  'finance_document_taxes',
  {
    id: serial('id').primaryKey(),
    documentId: integer('document_id')
      .notNull()
      .references(() => financeDocuments.id, { onDelete: 'cascade' }),
    kind: smallint('kind').notNull(),
    percent: numeric('percent', { precision: 7, scale: 4 }),
    amount: money('amount'),
  },
  (t) => [index('finance_document_taxes_document_idx').on(t.documentId)],
);

/** Stock moves, written only by finalizing documents: + in, − out, per item and warehouse. */
export const financeStockMoves = pgTable(
  'finance_stock_moves',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    itemId: integer('item_id')
      .notNull()
      .references(() => financeItems.id),
    warehouseId: integer('warehouse_id')
      .notNull()
      .references(() => financeWarehouses.id),
    documentId: integer('document_id')
      .notNull()
      .references(() => financeDocuments.id),
    quantity: quantity('quantity'),
  },
  (t) => [index('finance_stock_moves_item_idx').on(t.itemId, t.warehouseId)],
);

/**
 * Income certifications (βεβαιώσεις εσόδων): the receivables of a period's finalized documents per
 * income account. Entry state 0 new, 9 finalized (numbered per company and year, gapless).
 */
export const financeCertifications = pgTable(
  'finance_certifications',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    number: integer('number'),
    year: integer('year'),
    date: date('date', { mode: 'string' }).notNull(),
    periodFrom: date('period_from', { mode: 'string' }).notNull(),
    periodTo: date('period_to', { mode: 'string' }).notNull(),
    entryState: smallint('entry_state').notNull().default(0),
    documents: integer('documents').notNull().default(0),
    net: money('net'),
    vat: money('vat'),
    total: money('total'),
    notes: text('notes'),
    ...auditColumns(),
  },
  (t) => [
    index('finance_certifications_company_idx').on(t.companyId, t.date),
    uniqueIndex('finance_certifications_number_uq').on(t.companyId, t.year, t.number),
  ],
);

/** A certification's amounts per income account (null: lines without an account). */
export const financeCertificationLines = pgTable(
  'finance_certification_lines',
  {
    id: serial('id').primaryKey(),
    certificationId: integer('certification_id')
      .notNull()
      .references(() => financeCertifications.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').references(() => financeAccounts.id),
    documents: integer('documents').notNull(),
    net: money('net'),
    vat: money('vat'),
    total: money('total'),
  },
  (t) => [index('finance_certification_lines_cert_idx').on(t.certificationId)],
);

/** Which certification a document is in: its primary key certifies a document once. */
export const financeCertifiedDocuments = pgTable(
  'finance_certified_documents',
  {
    documentId: integer('document_id')
      .primaryKey()
      .references(() => financeDocuments.id),
    certificationId: integer('certification_id')
      .notNull()
      .references(() => financeCertifications.id, { onDelete: 'cascade' }),
  },
  (t) => [index('finance_certified_documents_cert_idx').on(t.certificationId)],
);

/** The running number of a company's certifications in one year (the counter-row pattern). */
export const financeCertificationCounters = pgTable(
  'finance_certification_counters',
  {
    companyId: companyIdColumn(),
    year: integer('year').notNull(),
    last: integer('last').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.year] })],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * An accounting plan file uploaded for its import job, on the storage adapter (platform/imports/files.ts:
 * `content` only for files uploaded before migration 0029); the row goes when the job ends.
 */
export const financeImportFiles = pgTable('finance_import_files', {
  id: serial('id').primaryKey(),
  companyId: companyIdColumn(),
  storageKey: text('storage_key'),
  content: bytea('content'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
