import {
  amountString,
  type BillCharge,
  type BillLine,
  type ComputedBill,
  Decimal,
  type DiscountableCharge,
  type DiscountPolicy,
  moneyString,
  roundCents,
  sum,
  type VatCharge,
  vatByRate,
} from '@protocol/contracts';

/**
 * The bill of one consumer for one period, computed from plain data: the same function serves the
 * "try it" panel, the stored bills and the billing runs, which load the policies once and call it per
 * consumer. Every line is rounded half-up to the cent; VAT follows the water bill's rule (per rate, on
 * the sum of that rate's lines: contracts `vatByRate`); the total is the exact sum of the lines, the
 * VAT and the previous balance. Only the server computes bills: the web shows what it answers.
 */

export interface TariffBand {
  /** The band's upper limit in m³ per base period; null for the last band (and above). */
  upTo: string | null;
  /** €/m³ before VAT, up to four decimals. */
  price: string;
}

export interface TariffFixedCharge {
  charge: 'waterFixed' | 'sewerageFixed';
  /** Only for consumers with this pipe diameter; null for every other diameter. */
  pipeDiameterId: number | null;
  /** € per base period before VAT. */
  amount: string;
}

export interface TariffSpecialFee {
  description: string;
  /** € per base period before VAT. */
  amount: string;
}

/** A pricing policy (τιμολογιακή πολιτική) as the computation needs it. */
export interface Tariff {
  id: number;
  description: string;
  fromdate: string;
  todate: string | null;
  /** The months the bands, fixed charges and fees are set for (usually 4); other periods scale. */
  baseMonths: number;
  fixedCharges: TariffFixedCharge[];
  bands: TariffBand[];
  /** Sewerage: a percent of the water consumption value, or € per m³, or none. */
  sewerageMode: 'percent' | 'perCubicMetre' | 'none';
  sewerageValue: string;
  /** The sewerage indicators whose consumers pay sewerage (connected ones). */
  sewerageIndicatorIds: number[];
  specialFees: TariffSpecialFee[];
  /** VAT percent per charge, from the VAT settings (e.g. 13 on water, 24 on the rest). */
  vat: Record<VatCharge, string>;
}

export interface BillConsumer {
  pipeDiameterId: number | null;
  sewerageIndicatorId: number | null;
  specialRegulationId: number | null;
  specialFrom: string | null;
  specialTo: string | null;
}

export interface BillInput {
  /** The period, both days included, and its months (the periodicity). */
  period: { from: string; to: string; months: number };
  /** m³ measured in the period, up to three decimals. */
  consumption: string;
  consumer: BillConsumer;
  /** The pricing policies of the consumer's property usage (any validity; those of the period apply). */
  tariffs: Tariff[];
  /** The invoice policy's charges per m³ and its minimum consumption per period (m³). */
  invoicePolicy: { resourceTax: string; envTax: string; minConsumption: number };
  discounts: DiscountPolicy[];
  /** Unbilled extra charges (kind 5 lifecycle transactions), net of VAT. */
  extraCharges: { transactionId: number; date: string; description: string; amount: string }[];
  /** Unpaid earlier bills, as they stand (VAT included, no VAT again). */
  previousBalance: { billId: number; description: string; amount: string }[];
}

/** A bill that cannot be computed (no tariff for some day of the period); the key is a catalog text. */
export class BillingError extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, string> = {},
  ) {
    super(key);
  }
}

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) =>
  Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)) / DAY_MS;
const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** Days from `from` to `to`, both included. */
export const daysInclusive = (from: string, to: string) => dayNumber(to) - dayNumber(from) + 1;

const q3 = (value: Decimal) => value.toDecimalPlaces(3, Decimal.ROUND_HALF_UP);
const text3 = (value: Decimal) => amountString(value, 'quantity');
const percentText = (value: string) => amountString(value, 'percent');

interface Segment {
  tariff: Tariff;
  from: string;
  to: string;
  days: number;
}

/** The period cut where the tariff changes; every day must have exactly one tariff (the latest start wins). */
function segmentsOf(input: BillInput): Segment[] {
  const first = dayNumber(input.period.from);
  const last = dayNumber(input.period.to);
  if (last < first) throw new BillingError('billing.error.period_order');
  // A day's tariff can change only where some tariff starts or ends: look at those days, not at each.
  const starts = new Set([first]);
  for (const tariff of input.tariffs) {
    const from = dayNumber(tariff.fromdate);
    const after = tariff.todate === null ? last + 1 : dayNumber(tariff.todate) + 1;
    for (const day of [from, after]) if (day > first && day <= last) starts.add(day);
  }
  const days = [...starts].sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (const [i, start] of days.entries()) {
    const end = (days[i + 1] ?? last + 1) - 1;
    const iso = isoOf(start);
    const tariff = input.tariffs
      .filter((t) => t.fromdate <= iso && (t.todate === null || t.todate >= iso))
      .sort((a, b) => (a.fromdate < b.fromdate ? 1 : a.fromdate > b.fromdate ? -1 : b.id - a.id))[0];
    if (!tariff) throw new BillingError('billing.error.no_tariff', { date: iso });
    const current = segments.at(-1);
    if (current && current.tariff.id === tariff.id) {
      current.to = isoOf(end);
      current.days += end - start + 1;
    } else segments.push({ tariff, from: iso, to: isoOf(end), days: end - start + 1 });
  }
  return segments;
}

/** Splits `total` over the segments by days, to three decimals, the last taking the remainder. */
function splitByDays(total: Decimal, segments: Segment[], totalDays: number): Decimal[] {
  let left = total;
  return segments.map((segment, i) => {
    if (i === segments.length - 1) return left;
    const part = q3(total.times(segment.days).dividedBy(totalDays));
    left = left.minus(part);
    return part;
  });
}

interface LineExtras {
  description?: string;
  band?: number;
  segment?: { from: string; to: string } | null;
  target?: DiscountableCharge;
  quantity?: Decimal;
  price?: string;
}

function line(
  charge: BillCharge,
  amount: Decimal,
  vatPercent: string,
  sourceId: number | null,
  { description = '', band, segment, target, quantity, price }: LineExtras = {},
): BillLine {
  return {
    charge,
    description,
    band: band ?? null,
    from: segment?.from ?? null,
    to: segment?.to ?? null,
    target: target ?? null,
    quantity: quantity === undefined ? null : text3(quantity),
    price: price ?? null,
    amount: moneyString(amount),
    vatPercent: percentText(vatPercent),
    sourceId,
  };
}

/** The lines of one tariff segment: fixed charges, fees and bands scaled by `factor`, then sewerage. */
function segmentLines(
  segment: Segment,
  factor: Decimal,
  consumption: Decimal,
  consumer: BillConsumer,
  dated: boolean,
): BillLine[] {
  const segmentDays = dated ? { from: segment.from, to: segment.to } : null;
  const { tariff } = segment;
  const lines: BillLine[] = [];
  const paysSewerage =
    consumer.sewerageIndicatorId !== null &&
    tariff.sewerageIndicatorIds.includes(consumer.sewerageIndicatorId);
  for (const charge of ['waterFixed', 'sewerageFixed'] as const) {
    if (charge === 'sewerageFixed' && !paysSewerage) continue;
    const rows = tariff.fixedCharges.filter((f) => f.charge === charge);
    const fixed =
      rows.find((f) => f.pipeDiameterId !== null && f.pipeDiameterId === consumer.pipeDiameterId) ??
      rows.find((f) => f.pipeDiameterId === null);
    if (fixed && !new Decimal(fixed.amount).isZero()) {
      lines.push(
        line(charge, new Decimal(fixed.amount).times(factor), tariff.vat[charge], tariff.id, {
          segment: segmentDays,
        }),
      );
    }
  }
  // Bands: each limit scaled to this segment's share of the period; the last band is open.
  let lower = new Decimal(0);
  let waterValue = new Decimal(0);
  for (const [i, band] of tariff.bands.entries()) {
    const upper = band.upTo === null ? null : q3(new Decimal(band.upTo).times(factor));
    const inBand = Decimal.max(0, Decimal.min(consumption, upper ?? consumption).minus(lower));
    if (inBand.gt(0)) {
      const bandLine = line('water', inBand.times(band.price), tariff.vat.water, tariff.id, {
        band: i + 1,
        segment: segmentDays,
        quantity: inBand,
        price: amountString(band.price, 'price'),
      });
      waterValue = waterValue.plus(bandLine.amount);
      lines.push(bandLine);
    }
    if (upper === null || consumption.lte(upper)) break;
    lower = upper;
  }
  if (paysSewerage && tariff.sewerageMode !== 'none') {
    const value = new Decimal(tariff.sewerageValue);
    const amount =
      tariff.sewerageMode === 'percent' ? waterValue.times(value).dividedBy(100) : consumption.times(value);
    if (!amount.isZero()) {
      const perCubicMetre = tariff.sewerageMode === 'perCubicMetre';
      lines.push(
        line('sewerage', amount, tariff.vat.sewerage, tariff.id, {
          segment: segmentDays,
          ...(perCubicMetre
            ? { quantity: consumption, price: amountString(value, 'price') }
            : { price: amountString(value, 'percent') }),
        }),
      );
    }
  }
  for (const fee of tariff.specialFees) {
    const amount = new Decimal(fee.amount).times(factor);
    if (!amount.isZero()) {
      lines.push(
        line('specialFee', amount, tariff.vat.specialFee, tariff.id, {
          description: fee.description,
          segment: segmentDays,
        }),
      );
    }
  }
  return lines;
}

/** The days of the period the consumer's special regulation covers (0 when none or another one). */
function eligibleDays(policy: DiscountPolicy, input: BillInput): number {
  const { consumer, period } = input;
  if (
    consumer.specialRegulationId === null ||
    !policy.specialRegulationIds.includes(consumer.specialRegulationId)
  ) {
    return 0;
  }
  const starts = [period.from, policy.fromdate, consumer.specialFrom ?? period.from];
  const ends = [period.to, policy.todate ?? period.to, consumer.specialTo ?? period.to];
  const from = starts.sort().at(-1) as string;
  const to = ends.sort()[0] as string;
  return to < from ? 0 : daysInclusive(from, to);
}

/** Discount (or surcharge) lines: per touched charge and VAT rate for a percent, one line for a fixed sum. */
function discountLines(
  lines: BillLine[],
  input: BillInput,
  periodDays: number,
  vatOf: Record<VatCharge, string>,
) {
  const result: BillLine[] = [];
  for (const policy of input.discounts) {
    const days = eligibleDays(policy, input);
    if (days === 0 || policy.charges.length === 0) continue;
    const share = new Decimal(days).dividedBy(periodDays);
    const sign = -policy.reduction;
    if (policy.amountType === 2) {
      for (const charge of policy.charges) {
        const touched = lines.filter((l) => l.charge === charge);
        for (const rate of [...new Set(touched.map((l) => l.vatPercent))]) {
          const base = sum(touched.filter((l) => l.vatPercent === rate).map((l) => l.amount));
          const amount = base.times(policy.amount).dividedBy(100).times(share).times(sign);
          if (!roundCents(amount).isZero()) {
            result.push(
              line('discount', amount, rate, policy.id, {
                description: policy.description,
                target: charge,
                price: percentText(policy.amount),
              }),
            );
          }
        }
      }
    } else {
      const months =
        policy.calculation === 1 ? new Decimal(input.period.months).dividedBy(12) : input.period.months;
      const amount = new Decimal(policy.amount).times(months).times(share).times(sign);
      const first = policy.charges[0] as DiscountableCharge;
      if (!roundCents(amount).isZero()) {
        result.push(
          line('discount', amount, vatOf[first], policy.id, {
            description: policy.description,
            target: first,
          }),
        );
      }
    }
  }
  return result;
}

export function computeBill(input: BillInput): ComputedBill {
  const periodDays = daysInclusive(input.period.from, input.period.to);
  const segments = segmentsOf(input);
  const measured = q3(new Decimal(input.consumption));
  if (measured.lt(0)) throw new BillingError('billing.error.negative_consumption');
  const minimum = new Decimal(input.invoicePolicy.minConsumption);
  const billed = Decimal.max(measured, minimum);
  const parts = splitByDays(billed, segments, periodDays);
  const lines: BillLine[] = [];
  const latest = (segments.at(-1) as Segment).tariff;
  for (const [i, segment] of segments.entries()) {
    const share = new Decimal(segment.days).dividedBy(periodDays);
    const factor = new Decimal(input.period.months).dividedBy(segment.tariff.baseMonths).times(share);
    lines.push(...segmentLines(segment, factor, parts[i] as Decimal, input.consumer, segments.length > 1));
  }
  for (const [charge, rate] of [
    ['resource', input.invoicePolicy.resourceTax],
    ['environmental', input.invoicePolicy.envTax],
  ] as const) {
    if (!new Decimal(rate).isZero() && billed.gt(0)) {
      const price = amountString(rate, 'price');
      lines.push(line(charge, billed.times(rate), latest.vat[charge], null, { quantity: billed, price }));
    }
  }
  lines.push(...discountLines(lines, input, periodDays, latest.vat));
  for (const extra of input.extraCharges) {
    const description = extra.description;
    lines.push(
      line('extra', new Decimal(extra.amount), latest.vat.extra, extra.transactionId, { description }),
    );
  }
  const vat = vatByRate(
    lines.map((l) => ({ net: l.amount, vatPercent: l.vatPercent })),
    'waterBill',
  ).map((rate) => ({ vatPercent: rate.vatPercent, net: moneyString(rate.net), vat: moneyString(rate.vat) }));
  // The earlier bills' unpaid amounts already hold their VAT: added to the total, outside the breakdown.
  const previous = input.previousBalance.map((b) =>
    line('previousBalance', new Decimal(b.amount), '0', b.billId, { description: b.description }),
  );
  const net = sum(vat.map((v) => v.net));
  const vatTotal = sum(vat.map((v) => v.vat));
  const previousBalance = sum(previous.map((p) => p.amount));
  return {
    consumption: text3(measured),
    billedConsumption: text3(billed),
    lines: [...lines, ...previous],
    vat,
    net: moneyString(net),
    vatTotal: moneyString(vatTotal),
    current: moneyString(net.plus(vatTotal)),
    previousBalance: moneyString(previousBalance),
    total: moneyString(net.plus(vatTotal).plus(previousBalance)),
  };
}
