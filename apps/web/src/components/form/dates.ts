import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { DATE_FORMAT } from '../../lib/dates.ts';

dayjs.extend(customParseFormat);

/** A date typed DD/MM/YYYY as sent (YYYY-MM-DD); one that cannot be read is sent as typed, for the contract to refuse. */
export function wireDate(value: string): string | null {
  const text = value.trim();
  if (!text) return null;
  const date = dayjs(text, DATE_FORMAT, true);
  return date.isValid() ? date.format('YYYY-MM-DD') : text;
}

/** Whether a date typed DD/MM/YYYY is a real day. */
export function isShownDate(value: string): boolean {
  return dayjs(value.trim(), DATE_FORMAT, true).isValid();
}
