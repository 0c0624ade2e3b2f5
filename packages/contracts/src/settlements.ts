import { z } from 'zod';
import { idSchema } from './db.ts';
import type { EntityCatalog } from './list.ts';
import { Decimal, roundCents, sum } from './money.ts';
import { booleanField, numberField, requiredText, rowId, textField } from './settings-fields.ts';
import { isoDaySchema } from './time.ts';

/**
 * Settlements (ρυθμίσεις οφειλών, spec §3 Settlement: nr, date, amount, kind, discount,
 * installments): a consumer's debts closed into a down payment and instalments, each a debt of its
 * own with a due date and an RF code. The category (a settings table) bounds the plan; the plan is
 * computed by the server (platform/domain/settlements.ts), for the screen's preview and the save alike.
 */

export const settlementErrors = {
  /** Spec §8 'Settlement installment amount outside the category's min and max'. */
  instalmentOutOfRange: 'settlements.error.instalment_out_of_range',
  tooManyInstalments: 'settlements.error.too_many_instalments',
  downPaymentTooLow: 'settlements.error.down_payment_too_low',
  downPaymentTooHigh: 'settlements.error.down_payment_too_high',
  discountTooHigh: 'settlements.error.discount_too_high',
  categoryInactive: 'settlements.error.category_inactive',
  notPending: 'settlements.error.not_pending',
  notCancellable: 'settlements.error.not_cancellable',
  codeTaken: 'settlements.error.code_taken',
} as const;

/** 0 pending (until the down payment is paid), 1 active, 9 cancelled (spec §3). */
export const settlementStatuses = { pending: 0, active: 1, cancelled: 9 } as const;
const statusValues = Object.values(settlementStatuses) as number[];

const MONEY = /^\d{1,10}(\.\d{1,2})?$/;
const PERCENT = /^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/;
const money = z.string().trim().regex(MONEY, 'validation.decimal_number');
const percent = z.string().trim().regex(PERCENT, 'validation.percentage');
const isoDate = isoDaySchema('validation.day');

// ----- Categories (a settings table) -----

export const settlementCategorySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  description: z.string(),
  minInstalment: z.string(),
  maxInstalment: z.string(),
  maxInstalments: z.number().int(),
  minDownPaymentPercent: z.string(),
  /** Days between instalments; 0: monthly, on the day of the settlement. */
  intervalDays: z.number().int(),
  /** Missed instalments tolerated before cancellation. */
  toleranceInstalments: z.number().int(),
  /** Days past its due date after which an unpaid instalment counts as missed. */
  toleranceDays: z.number().int(),
  waiveInterest: z.boolean(),
  /** The largest discount on the debts (%), e.g. for paying in few instalments. */
  discountPercent: z.string(),
  active: z.boolean(),
});
export type SettlementCategory = z.infer<typeof settlementCategorySchema>;

export const settlementCategoryRowSchema = z
  .object({
    id: rowId,
    code: z.string().trim().min(1).max(12),
    description: requiredText(200),
    minInstalment: money,
    maxInstalment: money,
    maxInstalments: z.number().int().min(1).max(120),
    minDownPaymentPercent: percent,
    intervalDays: z.number().int().min(0).max(365),
    toleranceInstalments: z.number().int().min(0).max(120),
    toleranceDays: z.number().int().min(0).max(365),
    waiveInterest: z.boolean(),
    discountPercent: percent,
    active: z.boolean(),
  })
  .superRefine((row, ctx) => {
    const both = MONEY.test(row.minInstalment) && MONEY.test(row.maxInstalment);
    if (both && new Decimal(row.maxInstalment).lt(row.minInstalment)) {
      ctx.addIssue({
        code: 'custom',
        path: ['maxInstalment'],
        message: 'validation.min_value',
        params: { value: row.minInstalment },
      });
    }
  });
export type SettlementCategoryRow = z.infer<typeof settlementCategoryRowSchema>;

export const settlementCategoriesCatalog = {
  entity: 'settlementCategories',
  titleKey: 'settlements.categories.title',
  defaultSort: { field: 'code', desc: false },
  fields: [
    textField('code', 'settlements.categories.code', 90),
    textField('description', 'settlements.categories.description', 220),
    numberField('minInstalment', 'settlements.categories.minInstalment', 110, { type: 'money' }),
    numberField('maxInstalment', 'settlements.categories.maxInstalment', 110, { type: 'money' }),
    numberField('maxInstalments', 'settlements.categories.maxInstalments', 100),
    numberField('minDownPaymentPercent', 'settlements.categories.minDownPaymentPercent', 110, {
      type: 'money',
      amount: 'percent',
    }),
    numberField('intervalDays', 'settlements.categories.intervalDays', 110),
    numberField('toleranceInstalments', 'settlements.categories.toleranceInstalments', 110),
    numberField('toleranceDays', 'settlements.categories.toleranceDays', 110),
    booleanField('waiveInterest', 'settlements.categories.waiveInterest'),
    numberField('discountPercent', 'settlements.categories.discountPercent', 100, {
      type: 'money',
      amount: 'percent',
    }),
    booleanField('active', 'settlements.categories.active'),
  ],
} as const satisfies EntityCatalog;

type CategoryDefault = Omit<SettlementCategory, 'id' | 'active'>;

/**
 * What a new company gets: the ΔΕΥΑ's usual "ρύθμιση έως 12 / 24 / 48 δόσεις", longer plans asking a
 * larger down payment and larger instalments, the short one waiving the overdue interest.
 */
export const defaultSettlementCategories: CategoryDefault[] = [
  {
    code: '12',
    description: 'Ρύθμιση έως 12 δόσεις',
    minInstalment: '20.00',
    maxInstalment: '5000.00',
    maxInstalments: 12,
    minDownPaymentPercent: '10.00',
    intervalDays: 0,
    toleranceInstalments: 1,
    toleranceDays: 30,
    waiveInterest: true,
    discountPercent: '0.00',
  },
  {
    code: '24',
    description: 'Ρύθμιση έως 24 δόσεις',
    minInstalment: '30.00',
    maxInstalment: '5000.00',
    maxInstalments: 24,
    minDownPaymentPercent: '20.00',
    intervalDays: 0,
    toleranceInstalments: 1,
    toleranceDays: 30,
    waiveInterest: false,
    discountPercent: '0.00',
  },
  {
    code: '48',
    description: 'Ρύθμιση έως 48 δόσεις',
    minInstalment: '50.00',
    maxInstalment: '5000.00',
    maxInstalments: 48,
    minDownPaymentPercent: '30.00',
    intervalDays: 0,
    toleranceInstalments: 2,
    toleranceDays: 30,
    waiveInterest: false,
    discountPercent: '0.00',
  },
];

// ----- The plan -----

/**
 * A settlement's amounts: the debts, their interest unless the category waives it, the discount
 * (half-up to the cent), the total and the least down payment the category allows (its % of the
 * total, half-up). The server's plan bounds the down payment with it and the screen suggests it, so
 * both apply one rule.
 */
export function settlementAmounts(
  debts: readonly string[],
  interest: string,
  discountPercent: string,
  category: Pick<SettlementCategory, 'waiveInterest' | 'minDownPaymentPercent'>,
) {
  const debtsTotal = sum(debts);
  const charged = category.waiveInterest ? new Decimal(0) : new Decimal(interest);
  const gross = debtsTotal.plus(charged);
  const discount = roundCents(gross.times(discountPercent).div(100));
  const total = gross.minus(discount);
  const minDown = roundCents(total.times(category.minDownPaymentPercent).div(100));
  return { debtsTotal, interest: charged, discount, total, minDown };
}

export interface PlanLine {
  /** 0 for the down payment, then 1…N. */
  number: number;
  dueDate: string;
  amount: string;
}

export interface Plan {
  debtsTotal: string;
  interest: string;
  discount: string;
  /** What the consumer owes under the settlement: debts + interest − discount. */
  total: string;
  downPayment: string;
  lines: PlanLine[];
}

// ----- A settlement -----

export const settlementPreviewSchema = z.object({
  consumerId: idSchema,
  categoryId: idSchema,
  debtIds: z.array(idSchema).min(1).max(500),
  discountPercent: percent,
  downPayment: money,
  instalments: z.number().int().min(1).max(120),
});
export type SettlementPreviewRequest = z.infer<typeof settlementPreviewSchema>;

export const saveSettlementSchema = settlementPreviewSchema.extend({
  comments: z.string().trim().max(1000).nullable().default(null),
});
export type SaveSettlement = z.infer<typeof saveSettlementSchema>;

export const planSchema = z.object({
  debtsTotal: z.string(),
  interest: z.string(),
  discount: z.string(),
  total: z.string(),
  downPayment: z.string(),
  lines: z.array(z.object({ number: z.number().int(), dueDate: isoDate, amount: z.string() })),
});

export const settlementInstalmentSchema = z.object({
  number: z.number().int(),
  debtId: z.number().int(),
  dueDate: z.string(),
  amount: z.string(),
  paid: z.string(),
  rfCode: z.string(),
  /** open, paid (in full), cancelled (with the settlement). */
  state: z.enum(['open', 'paid', 'missed', 'cancelled']),
});
export type SettlementInstalment = z.infer<typeof settlementInstalmentSchema>;

export const settlementSchema = z.object({
  id: z.number().int(),
  nr: z.number().int(),
  year: z.number().int(),
  date: z.string(),
  status: z
    .number()
    .int()
    .refine((v) => statusValues.includes(v)),
  consumerId: z.number().int(),
  consumerCode: z.string(),
  consumerName: z.string().nullable(),
  categoryId: z.number().int(),
  categoryDescription: z.string(),
  debtsTotal: z.string(),
  interest: z.string(),
  discountPercent: z.string(),
  discount: z.string(),
  amount: z.string(),
  downPayment: z.string(),
  installments: z.number().int(),
  comments: z.string().nullable(),
  activatedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  debts: z.array(
    z.object({ id: z.number().int(), description: z.string(), dueDate: z.string(), remaining: z.string() }),
  ),
  lines: z.array(settlementInstalmentSchema),
});
export type Settlement = z.infer<typeof settlementSchema>;

export const settlementListItemSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  date: z.string(),
  status: z.number().int(),
  consumerId: z.number().int(),
  consumerCode: z.string(),
  consumerName: z.string().nullable(),
  category: z.string(),
  amount: z.string(),
  installments: z.number().int(),
});
export type SettlementListItem = z.infer<typeof settlementListItemSchema>;

export const settlementsCatalog = {
  entity: 'settlements',
  titleKey: 'settlements.list.title',
  defaultSort: { field: 'date', desc: true },
  fields: [
    textField('number', 'settlements.list.number', 110, { filters: ['eq'] }),
    {
      id: 'date',
      type: 'date',
      labelKey: 'settlements.list.date',
      sortable: true,
      filters: ['gte', 'lte'],
      exportable: true,
      width: 120,
    },
    {
      id: 'status',
      type: 'enum',
      labelKey: 'settlements.list.status',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: statusValues.map((v) => ({ value: String(v), labelKey: `settlements.status_${v}` })),
      width: 130,
    },
    textField('consumerCode', 'settlements.list.consumerCode', 130, { paddedCode: true }),
    textField('consumerName', 'settlements.list.consumerName', 240),
    textField('category', 'settlements.list.category', 200),
    {
      id: 'amount',
      type: 'money',
      labelKey: 'settlements.list.amount',
      sortable: true,
      filters: ['gte', 'lte'],
      exportable: true,
      width: 120,
    },
    numberField('installments', 'settlements.list.installments', 100),
  ],
} as const satisfies EntityCatalog;
