/**
 * What a water bill is on the wire: its charges, its lines, its VAT per rate and its totals. The
 * computation (computeBill) is the server's, in apps/server/src/platform/domain/billing.ts.
 */

/** What a bill line charges; the VAT settings give a rate per charge. */
export const billCharges = [
  'waterFixed',
  'sewerageFixed',
  'water',
  'sewerage',
  'specialFee',
  'resource',
  'environmental',
  'discount',
  'extra',
  'previousBalance',
] as const;
export type BillCharge = (typeof billCharges)[number];
/** The charges a discount policy can touch (not the extras nor the previous balance). */
export const discountableCharges = [
  'waterFixed',
  'sewerageFixed',
  'water',
  'sewerage',
  'specialFee',
  'resource',
  'environmental',
] as const;
export type DiscountableCharge = (typeof discountableCharges)[number];
/** The charges whose VAT rate the pricing policy sets (a discount takes its charge's rate). */
export const vatCharges = [
  'waterFixed',
  'sewerageFixed',
  'water',
  'sewerage',
  'specialFee',
  'resource',
  'environmental',
  'extra',
] as const;
export type VatCharge = (typeof vatCharges)[number];

/** Spec §3: 1 yearly, 2 monthly. */
export type DiscountCalculation = 1 | 2;
/** Spec §3: 1 fixed, 2 percent. */
export type DiscountAmountType = 1 | 2;
/** Spec §3: 1 reduction, −1 surcharge. */
export type DiscountReduction = 1 | -1;

/** A discount policy (εκπτωτική πολιτική): social tariffs and surcharges as data. */
export interface DiscountPolicy {
  id: number;
  description: string;
  fromdate: string;
  todate: string | null;
  reduction: DiscountReduction;
  amountType: DiscountAmountType;
  calculation: DiscountCalculation;
  /** Percent (amountType 2) or € per year or month (amountType 1, by `calculation`). */
  amount: string;
  /** The charges it touches; a fixed amount goes on the first one's VAT rate. */
  charges: DiscountableCharge[];
  /** The special regulations whose consumers are eligible. */
  specialRegulationIds: number[];
}

export interface BillLine {
  charge: BillCharge;
  /** Free text: the fee's, the discount policy's, the transaction's or the earlier bill's; else ''. */
  description: string;
  /** The band (1, 2, …) of a water consumption line. */
  band: number | null;
  /** The days of a tariff's part when the tariff changed inside the period; else null. */
  from: string | null;
  to: string | null;
  /** The charge a discount line reduces (or surcharges). */
  target: DiscountableCharge | null;
  /** m³ (or days) the price applies to; null for a lump sum. */
  quantity: string | null;
  price: string | null;
  /** Net amount, rounded half-up to the cent. */
  amount: string;
  vatPercent: string;
  /** The tariff, discount, transaction or bill the line comes from. */
  sourceId: number | null;
}

export interface VatBreakdown {
  vatPercent: string;
  net: string;
  vat: string;
}

export interface ComputedBill {
  consumption: string;
  /** The consumption charged: the minimum when the measured one is below it. */
  billedConsumption: string;
  lines: BillLine[];
  vat: VatBreakdown[];
  net: string;
  vatTotal: string;
  /** net + VAT of this period. */
  current: string;
  previousBalance: string;
  /** current + previous balance: what the consumer pays. */
  total: string;
}
