import DecimalBase from 'decimal.js';
import { z } from 'zod';

/**
 * The money engine, shared by the server and the web app: decimal arithmetic only (decimal.js, never
 * binary floats); amounts travel as decimal strings ("1234.56") and are read (`parseDecimal`,
 * `amountFromText`) and written for people (`formatAmount`, `formatMoney`) here only; every amount is
 * rounded half-up to the cent, totals are exact sums of rounded amounts, and VAT is rounded by the
 * rule of the document's kind (`documentVatRounding`: per line or per rate).
 */

/** A decimal with enough precision for any sum of numeric(14,4) × numeric(14,3); ties round away from 0. */
export const Decimal = DecimalBase.clone({ precision: 40, rounding: DecimalBase.ROUND_HALF_UP });
export type Decimal = DecimalBase;

/** Money columns: numeric(14,2). */
export const MONEY_SCALE = 2;
/** Quantities: numeric(14,3) — m³, kg and metres need three decimals, pieces none. */
export const QUANTITY_SCALE = 3;
/** Unit prices: numeric(14,4) — tariffs such as 0.4250 €/m³ are set to the tenth of a cent. */
export const PRICE_SCALE = 4;

/** Half-up to the cent (ties away from zero: 0.125 → 0.13, −0.125 → −0.13). */
export function roundCents(value: DecimalBase.Value): Decimal {
  return new Decimal(value).toDecimalPlaces(MONEY_SCALE, DecimalBase.ROUND_HALF_UP);
}

/** The exact sum of amounts. */
export function sum(values: readonly DecimalBase.Value[]): Decimal {
  return values.reduce<Decimal>((total, value) => total.plus(value), new Decimal(0));
}

/** The wire form of an amount: a plain decimal string with exactly two decimals. */
export function moneyString(value: DecimalBase.Value): string {
  return amountString(value, 'money');
}

const PLAIN = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

/**
 * The plain decimal text of a stored or computed value: a decimal string ("12.5", "+12" → "12",
 * ".5" → "0.5"), a finite number (never in exponent form: 1e-7 → "0.0000001"), a bigint or a Decimal;
 * null for anything else. What a person typed ("12,50") is read by parseDecimal instead.
 */
export function decimalText(value: unknown): string | null {
  if (typeof value === 'bigint') return value.toString();
  if (DecimalBase.isDecimal(value)) return value.isFinite() ? value.toFixed() : null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    const text = String(value);
    return /e/i.test(text) ? new Decimal(value).toFixed() : text;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!PLAIN.test(text)) return null;
  const unsigned = text.replace(/^\+/, '');
  const negative = unsigned.startsWith('-');
  const [whole = '', fraction = ''] = (negative ? unsigned.slice(1) : unsigned).split('.');
  return `${negative ? '-' : ''}${whole.replace(/^0+(?=\d)/, '') || '0'}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A number as typed by a person, in Greek ("1.234,56", "1234,5") or international ("1,234.56",
 * "1234.56") writing; null when it is not a number. With both separators the last one is the
 * decimal point; a single separator is the decimal point ("1.5" and "1,5" are one and a half)
 * unless it repeats ("1.234.567"), which only thousands do.
 */
export function parseDecimal(input: string): Decimal | null {
  let text = input.trim().replace(/\s|€/g, '');
  if (!/^-?[\d.,]+$/.test(text)) return null;
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    const [thousands, point] = lastComma > lastDot ? ['.', ','] : [',', '.'];
    text = text.split(thousands).join('').replace(point, '.');
  } else if (lastComma >= 0 || lastDot >= 0) {
    const separator = lastComma >= 0 ? ',' : '.';
    const parts = text.split(separator);
    if (parts.length === 2) text = text.replace(separator, '.');
    else if (parts.slice(1).every((part) => part.length === 3)) text = parts.join('');
    else return null;
  }
  if (!/^-?\d+(\.\d+)?$/.test(text)) return null;
  return new Decimal(text);
}

/** An amount for people: "1.234,56" in Greek, "1,234.56" in English, always two decimals. */
export function formatMoney(
  value: DecimalBase.Value,
  language: 'el' | 'en' = 'el',
  scale = MONEY_SCALE,
): string {
  const fixed = new Decimal(value).toFixed(scale, DecimalBase.ROUND_HALF_UP);
  const negative = fixed.startsWith('-');
  const [whole = '0', fraction] = (negative ? fixed.slice(1) : fixed).split('.');
  const [group, point] = language === 'el' ? ['.', ','] : [',', '.'];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? '-' : ''}${grouped}${fraction ? point + fraction : ''}`;
}

/** A quantity or price for people: no trailing zeros beyond `minScale` ("2,000" → "2", "150,0000" → "150,00"). */
export function formatDecimal(value: DecimalBase.Value, language: 'el' | 'en' = 'el', minScale = 0): string {
  const decimal = new Decimal(value);
  return formatMoney(decimal, language, Math.max(minScale, decimal.decimalPlaces()));
}

/** A stored rate or percentage without trailing zeros, as it was typed: "0.0500" → "0.05", "24.00" → "24". */
export function trimmedDecimal(value: DecimalBase.Value): string {
  return new Decimal(value).toFixed();
}

/**
 * A stored decimal as a person types it into a field: at least `minScale` decimals, no trailing
 * zeros beyond them ("200.0000" → "200,00", "0.4250" → "0,425"), no grouping, the locale's point.
 */
export function editableDecimal(value: string, language: 'el' | 'en', minScale = MONEY_SCALE): string {
  const decimal = parseDecimal(value);
  if (!decimal) return value;
  const text = decimal.toFixed(Math.max(minScale, decimal.decimalPlaces()));
  return language === 'el' ? text.replace('.', ',') : text;
}

/**
 * What a decimal is, which decides how it is written for people: money to the cent, a unit price
 * (tariffs: €/m³ to the tenth of a cent) with 2–4 decimals, a percentage with 2, a quantity (m³, kg)
 * with as many as it has, up to 3.
 */
export const amountKinds = ['money', 'price', 'percent', 'quantity'] as const;
export type AmountKind = (typeof amountKinds)[number];

/** The decimals each kind keeps on the wire and in the database (numeric(14,2), (14,4), (5,2), (14,3)). */
export const amountScales: Record<AmountKind, number> = {
  money: MONEY_SCALE,
  price: PRICE_SCALE,
  percent: MONEY_SCALE,
  quantity: QUANTITY_SCALE,
};

/** The wire form of an amount of a kind, half-up to its scale: "12.5" → "12.50", 1.005 → "1.01", −0.001 → "0.00". */
export function amountString(value: DecimalBase.Value, kind: AmountKind = 'money'): string {
  const decimal = DecimalBase.isDecimal(value) ? value : new Decimal(value);
  const text = decimal.toFixed(amountScales[kind], DecimalBase.ROUND_HALF_UP);
  // A negative amount that rounds to nothing is written "0.00", never "-0.00".
  return text.startsWith('-') && /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/**
 * An amount as a spreadsheet cell holds it: a binary double, which cannot be avoided there. It is
 * rounded to its kind's scale in decimal first and converted once, here; null when it is no number.
 */
export function spreadsheetNumber(value: unknown, kind: AmountKind | 'number'): number | null {
  const text = decimalText(value);
  if (text === null) return null;
  const number = Number(kind === 'number' ? text : amountString(text, kind));
  return Number.isFinite(number) ? number : null;
}

/**
 * The one way an amount, rate or quantity is written on a screen, an export or a PDF: the locale's
 * separators ("1.135,30" in Greek, "1,135.30" in English), decimal arithmetic only. A value that is
 * not a number comes back as it is, so a bad row never hides what it holds.
 */
export function formatAmount(value: unknown, kind: AmountKind, language: 'el' | 'en' = 'el'): string {
  if (value === null || value === undefined || value === '') return '';
  const text = decimalText(value);
  if (text === null) return String(value);
  switch (kind) {
    case 'money':
      return formatMoney(text, language);
    case 'price':
      return formatDecimal(new Decimal(text).toDecimalPlaces(PRICE_SCALE), language, MONEY_SCALE);
    case 'percent':
      return formatMoney(text, language, MONEY_SCALE);
    case 'quantity':
      return formatDecimal(new Decimal(text).toDecimalPlaces(QUANTITY_SCALE), language);
  }
}

/** The wire form of a decimal a person typed for a kind ("1.135,3" → "1135.30"), or null when it is no number. */
export function amountFromText(text: string, kind: AmountKind): string | null {
  const decimal = parseDecimal(text);
  if (!decimal || decimal.decimalPlaces() > amountScales[kind]) return null;
  return decimal.toFixed(amountScales[kind]);
}

/**
 * A decimal string of at most `scale` decimals that numeric(14,scale) holds, optionally within
 * [min, max]; numbers are accepted too (JSON clients) and read through their text, never as floats.
 * Answered with exactly `scale` decimals ("1" → "1.000", "-0" → "0.000"), by string operations: every
 * request of the API checks its amounts here, and a decimal.js value per field cost more than the rest.
 */
export const decimalString = (
  scale: number,
  options: { min?: string; max?: string; positive?: boolean } = {},
) => {
  const pattern = new RegExp(`^(-?)(\\d{1,${14 - scale}})(?:\\.(\\d{1,${scale}}))?$`);
  // At most 14 digits on either side: a double orders such decimals exactly as they are ordered.
  const min = options.min === undefined ? undefined : Number(options.min);
  const max = options.max === undefined ? undefined : Number(options.max);
  return z.union([z.string(), z.number()]).transform((value, ctx) => {
    const text = String(value).trim();
    const match = pattern.exec(text);
    if (!match) {
      ctx.addIssue({ code: 'custom', message: 'validation.decimal_number' });
      return z.NEVER;
    }
    const number = Number(text);
    if (min !== undefined && number < min) {
      ctx.addIssue({ code: 'custom', message: 'validation.negative' });
      return z.NEVER;
    }
    if (options.positive && number <= 0) {
      ctx.addIssue({ code: 'custom', message: 'validation.positive' });
      return z.NEVER;
    }
    if (max !== undefined && number > max) {
      ctx.addIssue({ code: 'custom', message: 'validation.percentage' });
      return z.NEVER;
    }
    const [, sign = '', whole = '0', fraction = ''] = match;
    return `${number === 0 ? '' : sign}${whole.replace(/^0+(?=\d)/, '')}.${fraction.padEnd(scale, '0')}`;
  });
};

/** An amount on the wire: "12.30". */
export const moneySchema = decimalString(MONEY_SCALE);

// ----- VAT and taxes -----

/** Spec §3 tax kinds: 1 tax, 2 stamp, 3 withholding, 4 recycling tax, 5 interest income, 6 interest charge. */
export const taxKinds = [1, 2, 3, 4, 5, 6] as const;
export type TaxKind = (typeof taxKinds)[number];

/**
 * How a tax moves the amount payable. A withholding (3) is kept back by the customer and paid to the
 * tax office, so it lowers what the customer pays; the others (another tax, stamp duty, the recycling
 * fee, interest) are charged on top of the gross.
 */
export const TAX_SIGN: Record<TaxKind, 1 | -1> = { 1: 1, 2: 1, 3: -1, 4: 1, 5: 1, 6: 1 };

export interface LineInput {
  /** Quantity, up to 3 decimals. */
  quantity: DecimalBase.Value;
  /** Unit price before VAT, up to 4 decimals. */
  price: DecimalBase.Value;
  /** Discount in percent of quantity × price (0–100). */
  discount?: DecimalBase.Value;
  /** VAT percentage, e.g. 24. */
  vatPercent: DecimalBase.Value;
}

export interface LineAmounts {
  /** quantity × price − discount, half-up to the cent. */
  net: Decimal;
  /** The discount's amount: quantity × price − net (so that gross − discount = net exactly). */
  discountAmount: Decimal;
  /** net × VAT%, half-up to the cent. */
  vat: Decimal;
  /** net + vat. */
  total: Decimal;
}

const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A decimal as a whole number of units of its last digit: "12.345" → 12345n at scale 3. */
function unitsOf(value: DecimalBase.Value): { units: bigint; scale: number } {
  const text = typeof value === 'string' && PLAIN_DECIMAL.test(value) ? value : new Decimal(value).toFixed();
  const [, sign = '', whole = '0', fraction = ''] = PLAIN_DECIMAL.exec(text) ?? [];
  return { units: BigInt(`${sign}${whole}${fraction}`), scale: fraction.length };
}

/** `units` at `scale` in cents, half-up (ties away from zero), as `roundCents`. */
function centsOf(units: bigint, scale: number): bigint {
  if (scale <= MONEY_SCALE) return units * 10n ** BigInt(MONEY_SCALE - scale);
  const divisor = 10n ** BigInt(scale - MONEY_SCALE);
  const magnitude = units < 0n ? -units : units;
  const cents = (magnitude * 2n + divisor) / (divisor * 2n);
  return units < 0n ? -cents : cents;
}

const decimalOfCents = (cents: bigint): Decimal => {
  const magnitude = (cents < 0n ? -cents : cents).toString().padStart(3, '0');
  return new Decimal(`${cents < 0n ? '-' : ''}${magnitude.slice(0, -2)}.${magnitude.slice(-2)}`);
};

/** net (in cents) × VAT% / 100, half-up to the cent: the one VAT rounding of every kind of document. */
function vatCents(netCents: bigint, vatPercent: { units: bigint; scale: number }): bigint {
  return centsOf(netCents * vatPercent.units, MONEY_SCALE + vatPercent.scale + 2);
}

/** The VAT of a net amount at a rate, half-up to the cent (12.50 at 24% → 3.00; 0.125 → 0.13 rounds away from 0). */
export function vatOf(net: DecimalBase.Value, vatPercent: DecimalBase.Value): Decimal {
  const amount = unitsOf(net);
  return decimalOfCents(vatCents(centsOf(amount.units, amount.scale), unitsOf(vatPercent)));
}

/**
 * Where a document's VAT is rounded to the cent: on each line, the rate's VAT being the sum of its
 * lines' (`perLine`), or once per rate on the sum of that rate's net amounts (`perRate`). The two can
 * differ by a cent or so per rate; which one applies is a property of the kind of document.
 */
export type VatRounding = 'perLine' | 'perRate';

/**
 * The VAT rule of each kind of document (README "Money"): finance documents round per line (each of
 * their lines goes to myDATA with its own VAT), water bills per rate (they print a breakdown by rate,
 * and a bill has many small lines at one rate).
 */
export const documentVatRounding = {
  financeDocument: 'perLine',
  waterBill: 'perRate',
} as const satisfies Record<string, VatRounding>;
export type VatDocumentKind = keyof typeof documentVatRounding;

export interface VatRate {
  /** The rate with two decimals ("24.00"). */
  vatPercent: string;
  net: Decimal;
  vat: Decimal;
}

/** A document's VAT per rate, the highest rate first, rounded by its kind's rule (whole cents, BigInt). */
export function vatByRate(
  lines: readonly { net: DecimalBase.Value; vatPercent: DecimalBase.Value }[],
  kind: VatDocumentKind,
): VatRate[] {
  const perLine = documentVatRounding[kind] === 'perLine';
  const rates = new Map<bigint, { percent: { units: bigint; scale: number }; net: bigint; vat: bigint }>();
  for (const line of lines) {
    const percent = unitsOf(line.vatPercent);
    // Keyed by the rate in ten-thousandths, so "24", "24.0" and "24.00" are one rate.
    const key =
      percent.scale <= 4
        ? percent.units * 10n ** BigInt(4 - percent.scale)
        : centsOf(percent.units, percent.scale) * 100n;
    const amount = unitsOf(line.net);
    const net = centsOf(amount.units, amount.scale);
    const entry = rates.get(key) ?? { percent, net: 0n, vat: 0n };
    entry.net += net;
    if (perLine) entry.vat += vatCents(net, percent);
    rates.set(key, entry);
  }
  return [...rates.entries()]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([, { percent, net, vat }]) => ({
      vatPercent: decimalOfCents(centsOf(percent.units, percent.scale)).toFixed(MONEY_SCALE),
      net: decimalOfCents(net),
      vat: decimalOfCents(perLine ? vat : vatCents(net, percent)),
    }));
}

/**
 * One line's amounts: each rounded half-up to the cent on the line. Computed exactly in whole units
 * (BigInt) rather than with decimal.js, whose operations cost most of an invoice's arithmetic.
 */
export function lineAmounts(line: LineInput): LineAmounts {
  const quantity = unitsOf(line.quantity);
  const price = unitsOf(line.price);
  const discount = unitsOf(line.discount ?? 0);
  const vatPercent = unitsOf(line.vatPercent);
  const gross = quantity.units * price.units;
  const grossScale = quantity.scale + price.scale;
  // gross × (100 − discount) / 100, and net × VAT% / 100: the divisions by 100 are two more decimals.
  const kept = 100n * 10n ** BigInt(discount.scale) - discount.units;
  const net = centsOf(gross * kept, grossScale + discount.scale + 2);
  const vat = vatCents(net, vatPercent);
  return {
    net: decimalOfCents(net),
    discountAmount: decimalOfCents(centsOf(gross, grossScale) - net),
    vat: decimalOfCents(vat),
    total: decimalOfCents(net + vat),
  };
}

export interface TaxInput {
  kind: TaxKind;
  /** A percentage of the document's net; null when the amount is given. */
  percent?: DecimalBase.Value | null;
  /** A fixed amount; used when there is no percentage. */
  amount?: DecimalBase.Value | null;
}

export interface DocumentTotals {
  lines: LineAmounts[];
  /** Each tax's amount (rounded half-up to the cent), in the order given. */
  taxes: Decimal[];
  net: Decimal;
  discount: Decimal;
  vat: Decimal;
  /** net + vat. */
  gross: Decimal;
  /** The taxes charged on top (all kinds but withholding). */
  taxesCharged: Decimal;
  /** The withholdings. */
  withheld: Decimal;
  /** gross + taxesCharged − withheld: what the customer pays. */
  payable: Decimal;
}

/** A tax's amount: its percentage of the net, half-up to the cent, or its fixed amount. */
export function taxAmount(tax: TaxInput, net: DecimalBase.Value): Decimal {
  if (tax.percent !== null && tax.percent !== undefined) {
    return roundCents(new Decimal(net).times(tax.percent).dividedBy(100));
  }
  return roundCents(tax.amount ?? 0);
}

/** A finance document's amounts: lines and their VAT rounded one by one, totals their exact sums. */
export function documentTotals(lines: readonly LineInput[], taxes: readonly TaxInput[] = []): DocumentTotals {
  const amounts = lines.map(lineAmounts);
  const net = sum(amounts.map((a) => a.net));
  const vat = sum(
    vatByRate(
      amounts.map((a, i) => ({ net: a.net, vatPercent: lines[i]?.vatPercent ?? 0 })),
      'financeDocument',
    ).map((rate) => rate.vat),
  );
  const taxValues = taxes.map((tax) => taxAmount(tax, net));
  const signed = (sign: 1 | -1) => sum(taxValues.filter((_, i) => TAX_SIGN[taxes[i]?.kind ?? 1] === sign));
  const taxesCharged = signed(1);
  const withheld = signed(-1);
  const gross = net.plus(vat);
  return {
    lines: amounts,
    taxes: taxValues,
    net,
    discount: sum(amounts.map((a) => a.discountAmount)),
    vat,
    gross,
    taxesCharged,
    withheld,
    payable: gross.plus(taxesCharged).minus(withheld),
  };
}
