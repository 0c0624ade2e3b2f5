import { z } from 'zod';

/**
 * The utility's calendar: protocol years, registration days, date filters and every date or time
 * shown are Greek time, whatever the zone of the server or of the operator's browser.
 */
export const UTILITY_TIME_ZONE = 'Europe/Athens';

let dayFormat: Intl.DateTimeFormat | undefined;
let timeFormat: Intl.DateTimeFormat | undefined;

/** The calendar day (YYYY-MM-DD) of an instant in the utility's time zone. */
export function utilityDay(at: Date): string {
  dayFormat ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: UTILITY_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return dayFormat.format(at);
}

/** The wall-clock time (H:mm:ss, 24-hour) of an instant in the utility's time zone. */
export function utilityTime(at: Date): string {
  timeFormat ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: UTILITY_TIME_ZONE,
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return timeFormat.format(at);
}

/**
 * Today (YYYY-MM-DD) in the utility's time zone: between midnight and 02:00/03:00 in Athens the UTC
 * day (`toISOString()`) is still yesterday. Every "today" of either side is this one.
 */
export const utilityToday = (): string => utilityDay(new Date());

/** The utility's calendar year of an instant (now by default): never the UTC or the browser's year. */
export const utilityYear = (at: Date = new Date()): number => Number(utilityDay(at).slice(0, 4));

/**
 * A real calendar date written YYYY-MM-DD (spec §5: dates are sent as YYYY-MM-DD): no 30 February,
 * no month 13, and no year 0, which PostgreSQL does not have.
 */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value.startsWith('0000')) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * The one schema of a calendar day in a request (body or query): a day that exists, else a 400 with
 * `message` (a screen that shows days as DD/MM/YYYY names its own). `z.iso.date` makes the OpenAPI
 * document say `format: date`; `isIsoDate` adds what its pattern allows and PostgreSQL refuses.
 */
export const isoDaySchema = (message = 'validation.date') =>
  z.iso.date({ message, abort: true }).refine(isIsoDate, message);
