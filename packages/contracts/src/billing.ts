import { z } from 'zod';
import {
  type BillLine,
  billCharges,
  type DiscountPolicy,
  discountableCharges,
  vatCharges,
} from './billing-bill.ts';
import { idSchema } from './db.ts';
import type { EntityCatalog, FieldDef } from './list.ts';
import { amountString, Decimal, decimalString, moneyString, PRICE_SCALE, QUANTITY_SCALE } from './money.ts';
import { isoDaySchema } from './time.ts';

export * from './billing-bill.ts';
export * from './billing-runs.ts';
export * from './billing-send.ts';
export * from './rf.ts';

/*
 * Pricing policies (τιμολογιακές πολιτικές), discount policies (εκπτωτικές πολιτικές) and
 * the bills (λογαριασμοί) computed from them. Amounts travel as decimal strings.
 */

const isoDay = isoDaySchema('validation.day');
const text = (max: number) => z.string().trim().min(1).max(max);
const price = decimalString(PRICE_SCALE, { min: '0' });
const datesInOrder = (row: { fromdate: string; todate: string | null }, ctx: z.RefinementCtx) => {
  if (row.todate !== null && row.todate < row.fromdate) {
    ctx.addIssue({ code: 'custom', path: ['todate'], message: 'validation.dates_order' });
  }
};

// ----- Pricing policy -----

export const sewerageModes = ['percent', 'perCubicMetre', 'none'] as const;

/** POST/PUT /api/billing/pricing_policies: bands ascending, the last one open (no upper limit). */
export const savePricingPolicySchema = z
  .object({
    description: text(200),
    propertyUsageId: idSchema,
    fromdate: isoDay,
    todate: isoDay.nullable(),
    baseMonths: z.number().int().min(1).max(12),
    fixedCharges: z
      .array(
        z.object({
          charge: z.enum(['waterFixed', 'sewerageFixed']),
          pipeDiameterId: idSchema.nullable(),
          amount: price,
        }),
      )
      .max(40),
    bands: z
      .array(z.object({ upTo: decimalString(QUANTITY_SCALE, { positive: true }).nullable(), price }))
      .min(1)
      .max(12),
    sewerageMode: z.enum(sewerageModes),
    sewerageValue: price,
    sewerageIndicatorIds: z.array(idSchema).max(50),
    specialFees: z.array(z.object({ description: text(120), amount: price })).max(10),
    /** The VAT percentage (settings › VAT percentages) of each charge. */
    vat: z.object(
      Object.fromEntries(vatCharges.map((c) => [c, idSchema])) as Record<
        (typeof vatCharges)[number],
        typeof idSchema
      >,
    ),
    active: z.boolean(),
  })
  .superRefine((row, ctx) => {
    datesInOrder(row, ctx);
    row.bands.forEach((band, i) => {
      const last = i === row.bands.length - 1;
      if (last !== (band.upTo === null)) {
        ctx.addIssue({
          code: 'custom',
          path: ['bands', i, 'upTo'],
          message: 'validation.billing_last_band_open',
        });
      }
      const before = row.bands[i - 1]?.upTo;
      if (band.upTo !== null && before && Number(band.upTo) <= Number(before)) {
        ctx.addIssue({
          code: 'custom',
          path: ['bands', i, 'upTo'],
          message: 'validation.billing_bands_ascending',
        });
      }
    });
    if (row.sewerageMode === 'percent' && new Decimal(row.sewerageValue).gt(1000)) {
      ctx.addIssue({ code: 'custom', path: ['sewerageValue'], message: 'validation.percentage' });
    }
  });
export type SavePricingPolicy = z.infer<typeof savePricingPolicySchema>;
export type SavePricingPolicyInput = z.input<typeof savePricingPolicySchema>;

export const pricingPolicySchema = z.object({
  id: z.number().int(),
  description: z.string(),
  propertyUsageId: z.number().int(),
  propertyUsage: z.string(),
  fromdate: z.string(),
  todate: z.string().nullable(),
  baseMonths: z.number().int(),
  fixedCharges: z.array(
    z.object({
      charge: z.enum(['waterFixed', 'sewerageFixed']),
      pipeDiameterId: z.number().nullable(),
      amount: z.string(),
    }),
  ),
  bands: z.array(z.object({ upTo: z.string().nullable(), price: z.string() })),
  sewerageMode: z.enum(sewerageModes),
  sewerageValue: z.string(),
  sewerageIndicatorIds: z.array(z.number().int()),
  specialFees: z.array(z.object({ description: z.string(), amount: z.string() })),
  vat: z.record(z.string(), z.number().int()),
  active: z.boolean(),
});
export type PricingPolicy = z.infer<typeof pricingPolicySchema>;

// ----- Discount policy -----

export const saveDiscountPolicySchema = z
  .object({
    description: text(200),
    fromdate: isoDay,
    todate: isoDay.nullable(),
    reduction: z.union([z.literal(1), z.literal(-1)]),
    amountType: z.union([z.literal(1), z.literal(2)]),
    calculation: z.union([z.literal(1), z.literal(2)]),
    amount: decimalString(2, { positive: true }),
    charges: z.array(z.enum(discountableCharges)).min(1).max(discountableCharges.length),
    specialRegulationIds: z.array(idSchema).min(1).max(50),
    active: z.boolean(),
  })
  .superRefine((row, ctx) => {
    datesInOrder(row, ctx);
    if (row.amountType === 2 && new Decimal(row.amount).gt(100)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'validation.percentage' });
    }
  });
export type SaveDiscountPolicy = z.infer<typeof saveDiscountPolicySchema>;
export type SaveDiscountPolicyInput = z.input<typeof saveDiscountPolicySchema>;

export const discountPolicySchema = z.object({
  id: z.number().int(),
  description: z.string(),
  fromdate: z.string(),
  todate: z.string().nullable(),
  reduction: z.union([z.literal(1), z.literal(-1)]),
  amountType: z.union([z.literal(1), z.literal(2)]),
  calculation: z.union([z.literal(1), z.literal(2)]),
  amount: z.string(),
  charges: z.array(z.enum(discountableCharges)),
  specialRegulationIds: z.array(z.number().int()),
  active: z.boolean(),
});
export type DiscountPolicyItem = z.infer<typeof discountPolicySchema>;

/**
 * The glossary's social tariffs as discount policies: 50% off the consumption (never the fixed
 * charges) for large families, the disabled, kidney patients and single parents, 25% for three-child
 * families. `regulations` maps each to the company's special regulation id.
 */
export function socialTariffs(
  regulations: { POLY: number; AMEA: number; NEFRO: number; MONO: number; TRITEK: number },
  fromdate: string,
): DiscountPolicy[] {
  const policy = (id: number, description: string, amount: string, ids: number[]): DiscountPolicy => ({
    id,
    description,
    fromdate,
    todate: null,
    reduction: 1,
    amountType: 2,
    calculation: 2,
    amount,
    charges: ['water'],
    specialRegulationIds: ids,
  });
  return [
    policy(1, 'Κοινωνικό τιμολόγιο 50% (πολύτεκνοι, ΑμεΑ, νεφροπαθείς, μονογονεϊκές)', '50', [
      regulations.POLY,
      regulations.AMEA,
      regulations.NEFRO,
      regulations.MONO,
    ]),
    policy(2, 'Κοινωνικό τιμολόγιο 25% (τρίτεκνοι)', '25', [regulations.TRITEK]),
  ];
}

/**
 * A bill line as people read it ("Κατανάλωση – κλιμάκιο 2", "Έκπτωση: Πολύτεκνοι (Κατανάλωση νερού)"),
 * the same on the screens and the PDF; `t` is the caller's translate over the billing catalog.
 */
export function describeBillLine(
  line: Pick<BillLine, 'charge' | 'description' | 'band' | 'from' | 'to' | 'target' | 'amount'>,
  t: (key: string, params?: Record<string, string | number>) => string,
  formatDate: (iso: string) => string = (iso) => iso.split('-').reverse().join('/'),
): string {
  let text: string;
  if (line.charge === 'discount') {
    const kind = line.amount.startsWith('-') ? 'billing.line.reduction' : 'billing.line.surcharge';
    text = t(kind, { policy: line.description, charge: t(`billing.charge.${line.target ?? 'water'}`) });
  } else if (line.charge === 'water' && line.band !== null) {
    text = t('billing.line.band', { band: line.band });
  } else if (line.description && line.charge !== 'specialFee') {
    text = `${t(`billing.charge.${line.charge}`)}: ${line.description}`;
  } else {
    text = line.description || t(`billing.charge.${line.charge}`);
  }
  return line.from && line.to ? `${text} (${formatDate(line.from)}–${formatDate(line.to)})` : text;
}

// ----- The computation over the wire -----

const line = z.object({
  charge: z.enum(billCharges),
  description: z.string(),
  band: z.number().int().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  target: z.enum(discountableCharges).nullable(),
  quantity: z.string().nullable(),
  price: z.string().nullable(),
  amount: z.string(),
  vatPercent: z.string(),
  sourceId: z.number().int().nullable(),
});
export const computedBillSchema = z.object({
  consumption: z.string(),
  billedConsumption: z.string(),
  lines: z.array(line),
  vat: z.array(z.object({ vatPercent: z.string(), net: z.string(), vat: z.string() })),
  net: z.string(),
  vatTotal: z.string(),
  current: z.string(),
  previousBalance: z.string(),
  total: z.string(),
});

/** POST /api/billing/try: the bill a consumer would get for a consumption in a period. */
export const tryBillSchema = z
  .object({
    consumerId: idSchema,
    from: isoDay,
    to: isoDay,
    consumption: decimalString(QUANTITY_SCALE, { min: '0' }),
  })
  .superRefine((row, ctx) => {
    if (row.to < row.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.dates_order' });
  });
export type TryBillRequest = z.input<typeof tryBillSchema>;

// ----- Stored bills -----

/** Spec §3 entry states of a bill: 0 new, 1 editing, 9 finalized (−1/−2 mark carried balances). */
export const billEntryStates = { new: 0, editing: 1, finalized: 9 } as const;
/** Spec §3 send status: 0 hold, 1 send, 2 sent, 9 completed. */
export const billSendStatuses = { hold: 0, send: 1, sent: 2, completed: 9 } as const;
/** Spec §3 transaction kind of a period's bill. */
export const PERIOD_CHARGE_KIND = 1;
/** Spec §3 transaction kind 4 (altered): a credit of a finalized bill, never an edit of it. */
export const CREDIT_KIND = 4;

/** POST /api/billing/bills/:id/credit: why the finalized bill is credited (printed on the credit). */
export const creditBillSchema = z.object({ reason: text(500) });

/**
 * A credit of a bill: its lines are the bill's own lines negated (the previous balance it carried is
 * no charge of it and stays owed on its own bills), so net, VAT per rate and total are exactly the
 * bill's, negated, to the cent.
 */
export function creditLinesOf<L extends { charge: string; amount: string; quantity: string | null }>(
  lines: readonly L[],
): L[] {
  return lines
    .filter((l) => l.charge !== 'previousBalance')
    .map((l) => ({
      ...l,
      amount: moneyString(new Decimal(l.amount).negated()),
      quantity: l.quantity === null ? null : amountString(new Decimal(l.quantity).negated(), 'quantity'),
    }));
}

/** The credit's VAT breakdown: the bill's, negated (rates as printed). */
export function creditVatOf(vat: readonly { vatPercent: string; net: string; vat: string }[]) {
  return vat.map((v) => ({
    vatPercent: v.vatPercent,
    net: moneyString(new Decimal(v.net).negated()),
    vat: moneyString(new Decimal(v.vat).negated()),
  }));
}

/**
 * POST /api/billing/bills: computes and stores (or recomputes) the consumer's bill of a period with
 * the given readings; a finalized bill is never touched. Billing runs call the same service.
 */
export const saveBillSchema = z
  .object({
    consumerId: idSchema,
    from: isoDay,
    to: isoDay,
    periodLabel: text(60),
    previousReading: z.number().int().min(0).max(999_999_999).nullable(),
    previousDate: isoDay.nullable(),
    currentReading: z.number().int().min(0).max(999_999_999).nullable(),
    currentDate: isoDay.nullable(),
    consumption: decimalString(QUANTITY_SCALE, { min: '0' }),
    issueDate: isoDay,
  })
  .superRefine((row, ctx) => {
    if (row.to < row.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.dates_order' });
  });

export const billSchema = computedBillSchema.extend({
  id: z.number().int(),
  consumerId: z.number().int(),
  consumerCode: z.string(),
  ownerName: z.string(),
  supplyAddress: z.string(),
  periodFrom: z.string(),
  periodTo: z.string(),
  periodLabel: z.string(),
  kind: z.number().int(),
  entryState: z.number().int(),
  sendStatus: z.number().int(),
  series: z.string().nullable(),
  number: z.number().int().nullable(),
  year: z.number().int().nullable(),
  issueDate: z.string(),
  dueDate: z.string(),
  previousReading: z.number().int().nullable(),
  previousDate: z.string().nullable(),
  currentReading: z.number().int().nullable(),
  currentDate: z.string().nullable(),
  rfCode: z.string(),
  /** Who finalized it and when (spec defuser, defdate: an instant, ISO). */
  defuser: z.string().nullable(),
  defdate: z.string().nullable(),
  /** A credit (kind 4): the bill it credits, and why. */
  corrects: z.object({ id: z.number().int(), number: z.string(), issueDate: z.string() }).nullable(),
  reason: z.string().nullable(),
  /** The credit issued for this bill, if any. */
  creditedBy: z.object({ id: z.number().int(), number: z.string() }).nullable(),
  /** A corrected bill: the credited bill it replaces, and the credit that took it back. */
  replaces: z
    .object({ id: z.number().int(), number: z.string(), issueDate: z.string(), credit: z.string() })
    .nullable(),
  /** The corrected bill issued in this (credited) bill's place, if any. */
  replacedBy: z.object({ id: z.number().int(), number: z.string() }).nullable(),
});
export type Bill = z.infer<typeof billSchema>;

/**
 * GET /api/billing/bills/:id/correction: the corrected bill a credited bill would get (its period's
 * readings and tariffs as they are today, its extra charges copied), computed and stored nowhere;
 * POST there issues it, finalized and numbered in the water-bill series.
 */
export const billCorrectionSchema = computedBillSchema.extend({
  periodLabel: z.string(),
  previousReading: z.number().int().nullable(),
  previousDate: z.string().nullable(),
  currentReading: z.number().int().nullable(),
  currentDate: z.string().nullable(),
  issueDate: z.string(),
  dueDate: z.string(),
  /** The credited bill it replaces, with its own charges (net + VAT) to compare. */
  replaces: z.object({ id: z.number().int(), number: z.string(), current: z.string() }),
});
export type BillCorrection = z.infer<typeof billCorrectionSchema>;

/** GET /api/billing/consumers/:id/bills: a consumer's bill as the card's Bills tab lists it. */
export const consumerBillSchema = z.object({
  id: z.number().int(),
  periodFrom: z.string(),
  periodLabel: z.string(),
  billedConsumption: z.string(),
  total: z.string(),
  /** The earlier unpaid bills the total carries (not the bill's own charges: a credit leaves it out). */
  previousBalance: z.string(),
  entryState: z.number().int(),
  number: z.number().int().nullable(),
  year: z.number().int().nullable(),
  series: z.string().nullable(),
  dueDate: z.string(),
  kind: z.number().int(),
  sendStatus: z.number().int(),
  rfCode: z.string().nullable(),
  /** Who finalized it and when (an instant, ISO); null while it is not. */
  defuser: z.string().nullable(),
  defdate: z.string().nullable(),
  /** A credit's corrected bill. */
  correctsId: z.number().int().nullable(),
  /** The credit issued for this bill, if any (it cannot be credited again). */
  creditedById: z.number().int().nullable(),
  /** A corrected bill: the credited bill it replaces. */
  replacesId: z.number().int().nullable(),
  /** The corrected bill issued in this credited bill's place, if any. */
  replacedById: z.number().int().nullable(),
});
export type ConsumerBill = z.infer<typeof consumerBillSchema>;

// ----- The bills list (/invoices) -----

export const billListItemSchema = z.object({
  id: z.number().int(),
  consumerId: z.number().int(),
  code: z.string(),
  ownerName: z.string().nullable(),
  periodLabel: z.string(),
  periodFrom: z.string(),
  routeCode: z.string().nullable(),
  entryState: z.number().int(),
  sendStatus: z.number().int(),
  number: z.number().int().nullable(),
  consumption: z.string(),
  total: z.string(),
  dueDate: z.string(),
  defuser: z.string().nullable(),
  defdate: z.string().nullable(),
});
export type BillListItem = z.infer<typeof billListItemSchema>;

const billField = (
  id: string,
  type: FieldDef['type'],
  width: number,
  extra: Partial<FieldDef> = {},
): FieldDef => ({
  id,
  type,
  labelKey: `billing.bills.${id}`,
  sortable: true,
  filters: type === 'text' ? ['contains', 'eq'] : type === 'enum' ? ['eq'] : ['eq', 'gte', 'lte'],
  exportable: true,
  width,
  ...extra,
});

export const billsCatalog = {
  entity: 'bills',
  titleKey: 'billing.bills.title',
  defaultSort: { field: 'periodFrom', desc: true },
  fields: [
    billField('code', 'text', 150, { searchable: true, paddedCode: true }),
    billField('ownerName', 'text', 240, { searchable: true }),
    billField('periodLabel', 'text', 170, { periodName: true }),
    billField('periodFrom', 'date', 120),
    billField('routeCode', 'text', 110, { filters: ['eq'] }),
    billField('entryState', 'enum', 140, {
      options: [-2, 0, 1, 9].map((v) => ({ value: String(v), labelKey: `billing.entryState_${v}` })),
    }),
    billField('sendStatus', 'enum', 130, {
      options: [0, 1, 2, 9].map((v) => ({ value: String(v), labelKey: `billing.sendStatus_${v}` })),
    }),
    billField('number', 'number', 100),
    billField('consumption', 'number', 120),
    billField('total', 'money', 120),
    billField('dueDate', 'date', 120),
    billField('defuser', 'text', 140),
    // The instant of finalizing, filtered and shown as its day in the utility's calendar.
    billField('defdate', 'date', 130),
  ],
} as const satisfies EntityCatalog;
