import { z } from 'zod';
import { idSchema } from './db.ts';
import { amountFromText, Decimal } from './money.ts';
import { isoDaySchema } from './time.ts';

/**
 * The consumer's account: its ledger (debit, credit, running balance), its debts (the unpaid
 * parts of finalized bills, charges and settlement instalments, each payable by its RF code), payments
 * at the cashier and from the banks, and overdue interest shown apart from the debts.
 */

/** Spec §3 transaction kinds the account uses besides the bills' 1 and 4. */
export const accountTransactionKinds = {
  periodCharge: 1,
  prepaid: 2,
  prepay: 3,
  altered: 4,
  extraCharge: 5,
  serviceprepay: 16,
  prepayReturn: 17,
  misc: 99,
} as const;

export const cashierMethods = ['cash', 'card', 'transfer', 'cheque', 'bank'] as const;
export type CashierMethod = (typeof cashierMethods)[number];

/** What a debt stands for: a bill, a charge, a settlement's instalment. */
export const debtSources = ['bill', 'charge', 'instalment'] as const;
export type DebtSource = (typeof debtSources)[number];
/**
 * open: payable; settled: closed into a settlement; cancelled: an instalment of a cancelled settlement;
 * credited: a bill's debt closed by the bill's credit (what was paid of it is the consumer's credit).
 */
export const debtStatuses = ['open', 'settled', 'cancelled', 'credited'] as const;
export type DebtStatus = (typeof debtStatuses)[number];

/** The kinds of ledger line, each a catalog text (`payments.entry.<type>`). */
export const entryTypes = [
  'bill',
  'charge',
  'instalment',
  'payment',
  'prepayment',
  'prepayReturn',
  'settled',
  'reopened',
  'cancelled',
  'creditApplied',
  'credit',
] as const;
export type EntryType = (typeof entryTypes)[number];

export const paymentsErrors = {
  noDebts: 'payments.error.no_debts',
  debtNotOpen: 'payments.error.debt_not_open',
  notConsumerDebt: 'payments.error.not_consumer_debt',
  nothingToReturn: 'payments.error.nothing_to_return',
  badAmount: 'payments.error.bad_amount',
  creditInSettlement: 'payments.error.credit_in_settlement',
} as const;

const money = z.string().regex(/^-?\d+\.\d{2}$/);
const isoDate = isoDaySchema();

export const debtSchema = z.object({
  id: z.number().int(),
  consumerId: z.number().int(),
  source: z.enum(debtSources),
  description: z.string(),
  issueDate: isoDate,
  dueDate: isoDate,
  amount: money,
  paid: money,
  remaining: money,
  rfCode: z.string(),
  status: z.enum(debtStatuses),
  /** Overdue interest to the day asked, when enabled; never part of `remaining`. */
  interest: money,
});
export type Debt = z.infer<typeof debtSchema>;

export const ledgerEntrySchema = z.object({
  id: z.number().int(),
  date: isoDate,
  type: z.enum(entryTypes),
  /** Spec §3 transaction kind, where the line is one (1, 2, 3, 4, 5, 16, 17, 99). */
  kind: z.number().int().nullable(),
  description: z.string(),
  debit: money,
  credit: money,
  balance: money,
  paymentId: z.number().int().nullable(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const accountHolderSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  ownerName: z.string(),
  vatNumber: z.string().nullable(),
  supplyAddress: z.string(),
});
export type AccountHolder = z.infer<typeof accountHolderSchema>;

export const consumerAccountSchema = z.object({
  consumer: accountHolderSchema,
  entries: z.array(ledgerEntrySchema),
  debts: z.array(debtSchema),
  /** Debit minus credit of the whole ledger (negative: the consumer is in credit). */
  balance: money,
  /** The open debts' remaining parts. */
  due: money,
  interest: money,
  interestEnabled: z.boolean(),
  asOf: isoDate,
});
export type ConsumerAccount = z.infer<typeof consumerAccountSchema>;

/** A consumer and its open debts, as the debt search finds them. */
export const consumerDebtsSchema = z.object({
  consumer: accountHolderSchema,
  debts: z.array(debtSchema),
  due: money,
  interest: money,
});
export type ConsumerDebts = z.infer<typeof consumerDebtsSchema>;

const amountInput = z
  .string()
  .trim()
  .regex(/^\d{1,10}([.,]\d{1,2})?$/, { message: 'validation.payments_amount' })
  .transform((v) => amountFromText(v, 'money') as string)
  .refine((v) => new Decimal(v).gt(0), { message: 'validation.payments_amount' });

export const recordPaymentSchema = z.object({
  consumerId: idSchema,
  method: z.enum(cashierMethods),
  amount: amountInput,
  /** The debts the cashier chose, paid in this order; empty: the oldest first. */
  debtIds: z.array(idSchema).max(500).default([]),
  /** A prepayment (spec kinds 2, 3, 16) instead of a payment of debts. */
  prepaymentKind: z
    .union([z.literal(2), z.literal(3), z.literal(16)])
    .nullable()
    .default(null),
  reference: z.string().trim().max(100).nullable().default(null),
  note: z.string().trim().max(500).nullable().default(null),
});
export type RecordPayment = z.input<typeof recordPaymentSchema>;

export const prepayReturnSchema = z.object({
  consumerId: idSchema,
  method: z.enum(cashierMethods),
  amount: amountInput,
  note: z.string().trim().max(500).nullable().default(null),
});

export const paymentSchema = z.object({
  id: z.number().int(),
  consumerId: z.number().int(),
  consumerCode: z.string(),
  ownerName: z.string(),
  kind: z.number().int().nullable(),
  method: z.enum(cashierMethods),
  amount: money,
  unallocated: money,
  date: isoDate,
  cashier: z.string(),
  receiptYear: z.number().int(),
  receiptNumber: z.number().int(),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  allocations: z.array(
    z.object({ debtId: z.number().int(), description: z.string(), rfCode: z.string(), amount: money }),
  ),
});
export type Payment = z.infer<typeof paymentSchema>;

/** The general settings (parName) of overdue interest. */
export const interestSettings = {
  enabled: 'pay.interest_enabled',
  rate: 'pay.interest_rate',
  graceDays: 'pay.interest_grace_days',
} as const;

export const daySummarySchema = z.object({
  date: isoDate,
  cashier: z.string(),
  receipts: z.array(
    z.object({
      id: z.number().int(),
      receiptYear: z.number().int(),
      receiptNumber: z.number().int(),
      consumerCode: z.string(),
      ownerName: z.string(),
      kind: z.number().int().nullable(),
      method: z.enum(cashierMethods),
      amount: money,
    }),
  ),
  byMethod: z.array(z.object({ method: z.enum(cashierMethods), count: z.number().int(), total: money })),
  count: z.number().int(),
  total: money,
});
export type DaySummary = z.infer<typeof daySummarySchema>;

/** The public balance lookup: both the consumer code and the owner's ΑΦΜ, or nothing is looked up. */
export const balanceLookupSchema = z.object({
  code: z.string().trim().min(1).max(40),
  vatNumber: z
    .string()
    .trim()
    .regex(/^(EL|GR)?\s*\d{8,9}$/i, { message: 'validation.payments_vat' }),
});
export type BalanceLookup = z.input<typeof balanceLookupSchema>;

/** What the public page shows: open bills only, with nothing that names or locates the consumer. */
export const publicBalanceSchema = z.object({
  bills: z.array(
    z.object({ description: z.string(), dueDate: isoDate, remaining: money, rfCode: z.string() }),
  ),
  due: money,
});
export type PublicBalance = z.infer<typeof publicBalanceSchema>;
