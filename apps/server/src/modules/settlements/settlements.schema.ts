import { sql } from 'drizzle-orm';
import {
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
import { moneyColumn } from '../../platform/money-column.ts';
import { companyIdColumn } from '../companies/companies.schema.ts';
import { paymentsDebts } from '../payments/payments.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';

/*
 * Settlements (ρυθμίσεις οφειλών). The debts and instalments themselves live in the payments
 * module (its debts carry the settlement's key "settlement:<id>"); here are the categories, the
 * settlement with its plan, and which of payments' debts is which instalment.
 */

/** Settlement categories (a settings table): the limits of a plan. */
export const settlementCategories = pgTable(
  'settlement_categories',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    code: text('code').notNull(),
    description: text('description').notNull(),
    minInstalment: moneyColumn('min_instalment').notNull(),
    maxInstalment: moneyColumn('max_instalment').notNull(),
    maxInstalments: integer('max_instalments').notNull(),
    minDownPaymentPercent: numeric('min_down_payment_percent', { precision: 5, scale: 2 }).notNull(),
    intervalDays: integer('interval_days').notNull().default(0),
    toleranceInstalments: integer('tolerance_instalments').notNull().default(1),
    toleranceDays: integer('tolerance_days').notNull().default(30),
    waiveInterest: boolean('waive_interest').notNull().default(false),
    discountPercent: numeric('discount_percent', { precision: 5, scale: 2 }).notNull().default('0'),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('settlement_categories_code').on(t.companyId, t.code)],
);

/** The gapless numbers per company and year (the counter-row pattern of finance's series). */
export const settlementCounters = pgTable(
  'settlement_counters',
  {
    companyId: companyIdColumn(),
    year: integer('year').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.year] })],
);

/** What a settlement closed: each debt as it was (its remaining part), kept for the decision's PDF. */
export interface SettledDebt {
  id: number;
  description: string;
  dueDate: string;
  remaining: string;
}

/** Spec §3 Settlement: nr, date, amount, kind (the category), discount, installments; status 0/1/9. */
export const settlements = pgTable(
  'settlements',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    year: integer('year').notNull(),
    nr: integer('nr').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    status: smallint('status').notNull().default(0),
    consumerId: integer('consumer_id')
      .notNull()
      .references(() => waterConsumers.id),
    categoryId: integer('category_id')
      .notNull()
      .references(() => settlementCategories.id),
    debtsTotal: moneyColumn('debts_total').notNull(),
    interest: moneyColumn('interest').notNull(),
    discountPercent: numeric('discount_percent', { precision: 5, scale: 2 }).notNull(),
    discount: moneyColumn('discount').notNull(),
    amount: moneyColumn('amount').notNull(),
    downPayment: moneyColumn('down_payment').notNull(),
    installments: integer('installments').notNull(),
    debts: jsonb('debts').$type<SettledDebt[]>().notNull(),
    comments: text('comments'),
    activatedAt: timestamp('activated_at', { withTimezone: true, mode: 'date' }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('settlements_number').on(t.companyId, t.year, t.nr),
    index('settlements_consumer').on(t.consumerId),
    index('settlements_company_date').on(t.companyId, t.date),
    // The daily check reads the active settlements only.
    index('settlements_active').on(t.companyId).where(sql`status = 1`),
  ],
);

/** The down payment (number 0) and instalments 1…N: which debt of the payments module each is. */
export const settlementInstalments = pgTable(
  'settlement_instalments',
  {
    settlementId: integer('settlement_id')
      .notNull()
      .references(() => settlements.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    debtId: integer('debt_id')
      .notNull()
      .references(() => paymentsDebts.id),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    amount: moneyColumn('amount').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.settlementId, t.number] }),
    uniqueIndex('settlement_instalments_debt').on(t.debtId),
  ],
);
