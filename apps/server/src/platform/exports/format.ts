/**
 * Turning raw list values into what an export shows. Knows no business entity: only the column types.
 * Amounts are read and written by the money engine of contracts (decimalText, amountString,
 * formatAmount), never as binary floats.
 * Dates are the utility's calendar days (UTILITY_TIME_ZONE), whatever the server's zone is.
 */
import {
  type AmountKind,
  amountString,
  decimalText,
  formatAmount,
  UTILITY_TIME_ZONE,
} from '@protocol/contracts';

export type ExportLanguage = 'el' | 'en';
export type ExportColumnType = 'text' | 'number' | 'money' | 'date' | 'enum' | 'boolean' | 'reference';

const texts = {
  el: {
    yes: 'Ναι',
    no: 'Όχι',
    page: (n: number, of: number) => `Σελίδα ${n} / ${of}`,
    pageWord: 'Σελίδα',
    pageOf: '/',
    exported: 'Εξαγωγή',
    rows: 'Εγγραφές',
  },
  en: {
    yes: 'Yes',
    no: 'No',
    page: (n: number, of: number) => `Page ${n} of ${of}`,
    pageWord: 'Page',
    pageOf: 'of',
    exported: 'Exported',
    rows: 'Rows',
  },
} as const;

export function exportTexts(language: ExportLanguage) {
  return texts[language] ?? texts.el;
}

export interface DayParts {
  year: number;
  month: number;
  day: number;
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

function dayFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    dayFormatters.set(timeZone, formatter);
  }
  return formatter;
}

interface DateTimeParts extends DayParts {
  hour: number;
  minute: number;
  second: number;
}

/** The wall clock of `date` in `timeZone` through Intl: exact, but slow (microseconds a call). */
function intlParts(date: Date, timeZone: string): DateTimeParts {
  const parts: Record<string, number> = {};
  for (const part of dayFormatter(timeZone).formatToParts(date)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const HOUR = 3_600_000;
/** Per zone, its offset from UTC (ms) in each UTC hour met, or null where the offset changes in it. */
const hourOffsets = new Map<string, Map<number, number | null>>();

/** How far the wall clock of `timeZone` is ahead of UTC at `time` (whole seconds). */
function offsetAt(time: number, timeZone: string): number {
  const p = intlParts(new Date(time), timeZone);
  const wall = new Date(0);
  wall.setUTCFullYear(p.year, p.month - 1, p.day);
  wall.setUTCHours(p.hour, p.minute, p.second, 0);
  return wall.getTime() - Math.floor(time / 1000) * 1000;
}

/**
 * The wall clock of `date` in `timeZone`. An export formats a date per row: the zone's offset is read
 * through Intl once per UTC hour (the same at its first and last second: no change of offset within
 * it, as no zone changes twice in an hour), then each date is plain arithmetic on it.
 */
function zonedParts(date: Date, timeZone: string): DateTimeParts {
  const time = date.getTime();
  const hour = Math.floor(time / HOUR);
  let offsets = hourOffsets.get(timeZone);
  if (!offsets || offsets.size > 100_000) {
    offsets = new Map();
    hourOffsets.set(timeZone, offsets);
  }
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const first = offsetAt(hour * HOUR, timeZone);
    offset = first === offsetAt(hour * HOUR + HOUR - 1000, timeZone) ? first : null;
    offsets.set(hour, offset);
  }
  if (offset === null) return intlParts(date, timeZone);
  const wall = new Date(time + offset);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The calendar day of a date value: a `YYYY-MM-DD` string is taken as it is (no zone shift);
 * a Date or an ISO date-time string is the day it is in `timeZone`. Anything else: null.
 */
export function toDay(value: unknown, timeZone = UTILITY_TIME_ZONE): DayParts | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') {
    const only = DATE_ONLY.exec(value.trim());
    if (only) return { year: Number(only[1]), month: Number(only[2]), day: Number(only[3]) };
    const parsed = new Date(value);
    return Number.isNaN(parsed.getTime()) ? null : zonedParts(parsed, timeZone);
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : zonedParts(value, timeZone);
  return null;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

export function formatDay(day: DayParts): string {
  return `${pad2(day.day)}/${pad2(day.month)}/${String(day.year).padStart(4, '0')}`;
}

/** DD/MM/YYYY, or '' when the value is empty; a string that is no date is shown as it is. */
export function formatDate(value: unknown, timeZone = UTILITY_TIME_ZONE): string {
  const day = toDay(value, timeZone);
  if (day) return formatDay(day);
  return value === null || value === undefined ? '' : String(value);
}

/** DD/MM/YYYY H:mm:ss (spec §9, headers) of a moment, in `timeZone`. */
export function formatDateTime(at: Date, timeZone = UTILITY_TIME_ZONE): string {
  const p = zonedParts(at, timeZone);
  return `${formatDay(p)} ${p.hour}:${pad2(p.minute)}:${pad2(p.second)}`;
}

function separators(language: ExportLanguage) {
  return language === 'en' ? { group: ',', decimal: '.' } : { group: '.', decimal: ',' };
}

/** A plain number for people: digits as given (no grouping, so codes and years stay readable). */
export function formatNumber(value: unknown, language: ExportLanguage): string {
  const text = decimalText(value);
  if (text === null) return value === null || value === undefined ? '' : String(value);
  return numberText(text).replace('.', separators(language).decimal);
}

/** A decimal's text without the sign of a zero ("-0.0" → "0.0"). */
const numberText = (text: string) => (/^-[0.]*$/.test(text) ? text.slice(1) : text);

export function formatBoolean(value: unknown, language: ExportLanguage): string {
  if (value === null || value === undefined || value === '') return '';
  const t = exportTexts(language);
  if (typeof value === 'boolean') return value ? t.yes : t.no;
  if (value === 'true' || value === 1) return t.yes;
  if (value === 'false' || value === 0) return t.no;
  return String(value);
}

/** Text of a text/enum/reference value: strings as they are, objects by their label or name. */
export function formatText(value: unknown, language: ExportLanguage, timeZone = UTILITY_TIME_ZONE): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return formatBoolean(value, language);
  if (value instanceof Date) return formatDate(value, timeZone);
  if (Array.isArray(value)) {
    return value
      .map((item) => formatText(item, language, timeZone))
      .filter(Boolean)
      .join(', ');
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of ['label', 'name', 'title', 'description', 'code', 'id']) {
      const field = record[key];
      if (typeof field === 'string' || typeof field === 'number') return String(field);
    }
    return '';
  }
  return String(value);
}

/**
 * What a cell shows in the text formats (pdf, docx): every type formatted for people, decimals by the
 * one formatter of the screens (formatAmount) for their kind.
 */
export function formatCell(
  value: unknown,
  type: ExportColumnType,
  language: ExportLanguage,
  timeZone = UTILITY_TIME_ZONE,
  amount: AmountKind = 'money',
): string {
  if (value === null || value === undefined) return '';
  switch (type) {
    case 'date':
      return formatDate(value, timeZone);
    case 'money':
      return formatAmount(value, amount, language);
    case 'number':
      return formatNumber(value, language);
    case 'boolean':
      return formatBoolean(value, language);
    default:
      return formatText(value, language, timeZone);
  }
}

/** The cell as a data file writes it (csv): like formatCell, but numbers and money machine-readable. */
export function formatDataCell(
  value: unknown,
  type: ExportColumnType,
  language: ExportLanguage,
  timeZone = UTILITY_TIME_ZONE,
  amount: AmountKind = 'money',
): string {
  if (value === null || value === undefined) return '';
  if (type === 'money' || type === 'number') {
    const text = decimalText(value);
    if (text === null) return formatText(value, language, timeZone);
    return type === 'money' ? amountString(text, amount) : numberText(text);
  }
  return formatCell(value, type, language, timeZone);
}

// Characters XML 1.0 (xlsx, docx) cannot hold: C0 controls other than tab, LF and CR; U+FFFE/U+FFFF;
// and lone surrogates.
const XML_INVALID =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to drop
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text safe for an XML-based file: drops the characters XML cannot hold. */
export function cleanText(text: string): string {
  return text.replace(XML_INVALID, '');
}
