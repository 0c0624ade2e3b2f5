import { z } from 'zod';
import { idParamSchema, idSchema } from './db.ts';
import { isoDaySchema } from './time.ts';
import { meterConsumption, swapConsumption } from './water-meters.ts';

/*
 * Readouts (καταμετρήσεις): the reading periods of a route, the readings of its meters
 * and the arithmetic and checks that decide the consumption of each one. The arithmetic is pure
 * and shared: the grid shows it as the operator types, the server applies it when it saves.
 */

/** Spec §3 reading source. */
export const readingSources = { entry: 1, smartville: 2, driveBy: 3, file: 4 } as const;
/** Spec §3/§4 entry states of a route's period (negative ones are only shown in lists). */
export const periodStates = { new: 0, editing: 1, finalized: 9 } as const;
/** Why a meter could not be read. */
export const unableReasons = { closed: 1, noAccess: 2, broken: 3 } as const;
export const unableReasonIds = Object.values(unableReasons) as number[];

/**
 * How a consumption was reached: a plain difference, one of the explanations of a lower reading, or
 * `lower` — a lower reading nothing on the meter explains, taken with the reader's reason (a meter
 * changed unrecorded, a misread last time): counted as no consumption until a supervisor reviews it.
 */
export type ConsumptionBasis = 'normal' | 'rollover' | 'reverse' | 'swap' | 'correction' | 'lower';
/** A lower reading taken with a reason: it waits in the review list. */
export const LOWER_READING_FLAG = 'lower_reading';
/** What sends a reading to the review list (abnormal consumption, an unexplained lower reading). */
export const readingFlags = ['above_average', 'zero_active', 'too_large', LOWER_READING_FLAG] as const;
export type ReadingFlag = (typeof readingFlags)[number];
/**
 * Set at period close on a meter left without a reading that has no history to estimate from: it
 * stays in the review list until a correction gives it a reading, and billing has nothing to bill.
 */
export const NO_ESTIMATE_FLAG = 'no_estimate';
/** A flagged reading's review: 0 none needed, 1 waiting, 2 accepted as it is. */
export const reviewStates = { none: 0, pending: 1, accepted: 2 } as const;

/** The general settings that hold the thresholds of the checks, with their defaults. */
export const READOUT_MULTIPLE_SETTING = 'readouts.abnormal_multiple';
export const READOUT_MAX_SETTING = 'readouts.max_consumption';
export interface ReadoutThresholds {
  /** A consumption above this multiple of the consumer's seasonal average is flagged. */
  multiple: number;
  /** A consumption above this many m³ in one period is impossible for a connection: flagged. */
  maxConsumption: number;
}
export const defaultThresholds: ReadoutThresholds = { multiple: 3, maxConsumption: 2000 };

/** The meter a reading is taken on, and what was read before it. */
export interface MeterContext {
  digits: number;
  direction: 1 | -1;
  /** The previous reading on this meter (its initial reading when it had none). */
  previous: number;
  /**
   * Set when the meter was swapped since the previous readout: the old meter's previous readout
   * and final reading. The new meter's initial reading is then `previous`.
   */
  swap?: { oldPrevious: number; oldFinal: number; oldDigits: number } | null;
}

export interface Consumption {
  /** Cubic metres, or null when a lower reading has no explanation (refused). */
  value: number | null;
  basis: ConsumptionBasis | null;
}

/**
 * The consumption of a reading: across a swap (old meter to its final reading, new one from its
 * initial), on a reverse meter (counting down), across a rollover of the meter's digits, or plain.
 */
export function readingConsumption(meter: MeterContext, current: number): Consumption {
  if (meter.swap) {
    const value = swapConsumption({
      oldPrevious: meter.swap.oldPrevious,
      oldFinal: meter.swap.oldFinal,
      newInitial: meter.previous,
      newCurrent: current,
      oldDigits: meter.swap.oldDigits,
      newDigits: meter.digits,
    });
    return { value, basis: value === null ? null : 'swap' };
  }
  const value = meterConsumption(meter.previous, current, meter.digits, meter.direction);
  if (value === null) return { value: null, basis: null };
  if (meter.direction === -1) return { value, basis: 'reverse' };
  return { value, basis: current < meter.previous ? 'rollover' : 'normal' };
}

/**
 * The consumption of a reading after an estimate: measured from the estimated reading, so it may be
 * below zero (the estimate was too high) down to minus the estimate, and billing settles it.
 */
export function correctedConsumption(meter: MeterContext, current: number, estimate: number): Consumption {
  const plain = readingConsumption(meter, current);
  if (plain.value !== null) return plain;
  const back = meter.direction === 1 ? current - meter.previous : meter.previous - current;
  return back < 0 && back >= -estimate ? { value: back, basis: 'correction' } : plain;
}

/**
 * The consumer's average for the season: the mean of its consumptions in the same period of
 * earlier years, else of every earlier period; null with no history.
 */
export function seasonalAverage(history: readonly { period: number; consumption: number }[], period: number) {
  const same = history.filter((h) => h.period === period);
  const basis = same.length > 0 ? same : history;
  if (basis.length === 0) return null;
  return Math.round(basis.reduce((sum, h) => sum + h.consumption, 0) / basis.length);
}

/** The flags of a consumption that send it to the review list. */
export function consumptionFlags(
  consumption: number,
  ctx: { average: number | null; active: boolean },
  thresholds: ReadoutThresholds,
): ReadingFlag[] {
  const flags: ReadingFlag[] = [];
  if (consumption > thresholds.maxConsumption) flags.push('too_large');
  else if (ctx.average !== null && ctx.average > 0 && consumption > ctx.average * thresholds.multiple)
    flags.push('above_average');
  if (consumption === 0 && ctx.active) flags.push('zero_active');
  return flags;
}

/**
 * The estimate of a missing reading at period close: the same period of last year when there was
 * one, otherwise the average daily consumption times the period's days; null with no history.
 */
export function estimateConsumption(input: {
  sameLastYear: number | null;
  history: readonly { consumption: number; days: number }[];
  days: number;
}): number | null {
  if (input.sameLastYear !== null) return input.sameLastYear;
  const days = input.history.reduce((sum, h) => sum + h.days, 0);
  if (days <= 0) return null;
  const total = input.history.reduce((sum, h) => sum + h.consumption, 0);
  return Math.round((total / days) * input.days);
}

/** The reading an estimated consumption stands for on a meter (rolling over its digits). */
export function estimatedReading(previous: number, consumption: number, digits: number, direction: 1 | -1) {
  const dial = 10 ** digits;
  return (((previous + direction * consumption) % dial) + dial) % dial;
}

// ----- Periods -----

const pad = (n: number) => String(n).padStart(2, '0');
/** The first and last day of period `period` (1-based) of `year`. */
export function periodDates(year: number, period: number, months: number) {
  const firstMonth = (period - 1) * months + 1;
  const lastMonth = firstMonth + months - 1;
  const lastDay = new Date(Date.UTC(year, lastMonth, 0)).getUTCDate();
  return { fromDate: `${year}-${pad(firstMonth)}-01`, toDate: `${year}-${pad(lastMonth)}-${pad(lastDay)}` };
}

/** A periodicity row (spec §3): `months` per period from period `startperiod` of `startyear` on. */
export interface PeriodicityInForce {
  months: number;
  startyear: number;
  startperiod: number;
}

/**
 * The months per period of `year`'s period `period` when a company has several periodicity rows: the
 * row with the latest start at or before that period (each row counts its periods in its own
 * months), else the earliest row (the history before the first row followed it); null with no row.
 */
export function monthsInForce(
  rows: readonly PeriodicityInForce[],
  at: { year: number; period: number },
): number | null {
  const firstMonth = (year: number, period: number, months: number) => year * 12 + (period - 1) * months;
  const byStart = [...rows].sort(
    (a, b) =>
      firstMonth(a.startyear, a.startperiod, a.months) - firstMonth(b.startyear, b.startperiod, b.months),
  );
  const inForce = byStart.findLast(
    (r) => firstMonth(r.startyear, r.startperiod, r.months) <= firstMonth(at.year, at.period, r.months),
  );
  return (inForce ?? byStart[0])?.months ?? null;
}

/** Days from one ISO day to another (both counted as calendar days, no time zone involved). */
export function daysBetween(from: string, to: string) {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

const greekOrdinals = ['Α΄', 'Β΄', 'Γ΄', 'Δ΄', 'Ε΄', 'ΣΤ΄', 'Ζ΄', 'Η΄', 'Θ΄', 'Ι΄', 'ΙΑ΄', 'ΙΒ΄'];
const greekMonths = [
  'Ιανουάριος',
  'Φεβρουάριος',
  'Μάρτιος',
  'Απρίλιος',
  'Μάιος',
  'Ιούνιος',
  'Ιούλιος',
  'Αύγουστος',
  'Σεπτέμβριος',
  'Οκτώβριος',
  'Νοέμβριος',
  'Δεκέμβριος',
];
const greekSpans: Record<number, string> = { 2: 'δίμηνο', 3: 'τρίμηνο', 4: 'τετράμηνο', 6: 'εξάμηνο' };
const englishSpans: Record<number, string> = {
  2: 'two-month period',
  3: 'quarter',
  4: 'four-month period',
  6: 'half',
};
const englishOrdinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

/** The name a ΔΕΥΑ gives a period: "Α΄ τετράμηνο 2026", "Μάρτιος 2026", "Έτος 2026". */
export function periodName(year: number, period: number, months: number, lang: 'el' | 'en' = 'el') {
  if (months === 12) return lang === 'el' ? `Έτος ${year}` : `Year ${year}`;
  if (months === 1) {
    const month =
      lang === 'el'
        ? greekMonths[period - 1]
        : new Date(Date.UTC(year, period - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
    return `${month} ${year}`;
  }
  return lang === 'el'
    ? `${greekOrdinals[period - 1]} ${greekSpans[months]} ${year}`
    : `${englishOrdinal(period)} ${englishSpans[months]} ${year}`;
}

/**
 * A period name as a bill keeps it (Greek, as printed) in `lang`: "Β΄ τετράμηνο 2026" is "2nd
 * four-month period 2026" in English; a name it does not recognise is returned as it is.
 */
export function periodNameIn(name: string, lang: 'el' | 'en'): string {
  if (lang === 'el') return name;
  const year = /^(.+) (\d{4})$/.exec(name);
  if (!year?.[1] || !year[2]) return name;
  const [head, y] = [year[1], Number(year[2])];
  if (head === 'Έτος') return periodName(y, 1, 12, lang);
  const month = greekMonths.indexOf(head);
  if (month >= 0) return periodName(y, month + 1, 1, lang);
  const [ordinal, span] = head.split(' ');
  const period = greekOrdinals.indexOf(ordinal ?? '');
  const months = Object.entries(greekSpans).find(([, word]) => word === span)?.[0];
  return period >= 0 && months ? periodName(y, period + 1, Number(months), lang) : name;
}

// ----- API shapes -----

const isoDay = isoDaySchema();
const year = z.coerce.number().int().min(1900).max(2999);
const period = z.coerce.number().int().min(1).max(12);

/** `?companyid&routeId&year&period` of the grid, the sheet and the review list. */
export const routePeriodQuerySchema = z.object({
  companyid: idParamSchema.optional(),
  routeId: idParamSchema,
  year,
  period,
});

/** A route's period as the grid shows it. */
export const routePeriodSchema = z.object({
  id: z.number().int().nullable(),
  routeId: z.number().int(),
  year: z.number().int(),
  period: z.number().int(),
  months: z.number().int(),
  name: z.string(),
  fromDate: z.string(),
  toDate: z.string(),
  state: z.number().int(),
  defuser: z.string().nullable(),
  defdate: z.string().nullable(),
  /** Who holds the route and period now (an import, a billing run): entry answers 409 meanwhile. */
  heldBy: z.string().nullable(),
});
export type RoutePeriod = z.infer<typeof routePeriodSchema>;

/** One meter of the route, in route order, with its reading of the period if any. */
export const readoutRowSchema = z.object({
  consumerId: z.number().int(),
  code: z.string(),
  ownerName: z.string().nullable(),
  supplyAddress: z.string(),
  active: z.boolean(),
  meterId: z.number().int().nullable(),
  serialNumber: z.string().nullable(),
  digits: z.number().int().nullable(),
  direction: z.number().int().nullable(),
  locationNotes: z.string().nullable(),
  previousReading: z.number().int().nullable(),
  previousDate: z.string().nullable(),
  swap: z
    .object({ oldPrevious: z.number().int(), oldFinal: z.number().int(), oldDigits: z.number().int() })
    .nullable(),
  /** The previous reading was an estimate: this period's actual reading corrects it. */
  previousEstimate: z.object({ readingId: z.number().int(), consumption: z.number().int() }).nullable(),
  average: z.number().int().nullable(),
  reading: z
    .object({
      id: z.number().int(),
      reading: z.number().int().nullable(),
      readOn: z.string(),
      source: z.number().int(),
      consumption: z.number().int().nullable(),
      basis: z.string().nullable(),
      unableReason: z.number().int().nullable(),
      note: z.string().nullable(),
      flags: z.array(z.string()),
      review: z.number().int(),
      estimated: z.boolean(),
      updatedBy: z.string().nullable(),
    })
    .nullable(),
});
export type ReadoutRow = z.infer<typeof readoutRowSchema>;

export const readoutSheetSchema = z.object({
  period: routePeriodSchema,
  thresholds: z.object({ multiple: z.number(), maxConsumption: z.number() }),
  rows: z.array(readoutRowSchema),
});
export type ReadoutSheet = z.infer<typeof readoutSheetSchema>;

const optionalNote = z
  .string()
  .trim()
  .max(500)
  .nullish()
  .transform((v) => (v ? v : null));

/** One reading saved from the grid or the phone: a reading, or a reason it could not be taken. */
export const saveReadingSchema = z
  .object({
    routeId: idSchema,
    year: z.number().int().min(1900).max(2999),
    period: z.number().int().min(1).max(12),
    consumerId: idSchema,
    reading: z.number().int().min(0).max(999_999_999).nullable(),
    readOn: isoDay,
    unableReason: z
      .number()
      .int()
      .refine((v) => unableReasonIds.includes(v), 'validation.invalid')
      .nullish()
      .transform((v) => v ?? null),
    note: optionalNote,
    /** A key the client makes once per reading, so a resend after a lost answer adds nothing. */
    idempotencyKey: z.string().trim().min(8).max(80).nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.reading === null && v.unableReason === null)
      ctx.addIssue({ code: 'custom', path: ['reading'], message: 'validation.required' });
  });
export type SaveReading = z.input<typeof saveReadingSchema>;

/** A flagged reading's review: accept it as it is, or correct it to another reading. */
export const reviewReadingSchema = z.object({
  action: z.enum(['accept', 'correct']),
  reading: z.number().int().min(0).max(999_999_999).nullish(),
  note: optionalNote,
});

export const reviewItemSchema = z.object({
  readingId: z.number().int(),
  consumerId: z.number().int(),
  code: z.string(),
  ownerName: z.string().nullable(),
  serialNumber: z.string().nullable(),
  previousReading: z.number().int().nullable(),
  reading: z.number().int().nullable(),
  consumption: z.number().int().nullable(),
  average: z.number().int().nullable(),
  flags: z.array(z.string()),
  review: z.number().int(),
  note: z.string().nullable(),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

/** A company's smartville connection as shown: its address and whether a key is kept (never the key). */
export const smartvilleSettingsSchema = z.object({ url: z.string().nullable(), hasKey: z.boolean() });
export type SmartvilleSettings = z.infer<typeof smartvilleSettingsSchema>;

/** The smartville connection saved: an http(s) address, and the API key (kept as it was when omitted). */
export const saveSmartvilleSchema = z.object({
  url: z
    .string()
    .trim()
    .max(500)
    .refine((v) => /^https?:\/\/[^\s/]+/i.test(v), 'readouts.smartville.url'),
  apiKey: z.string().trim().min(8).max(200).nullish(),
});
