import { utilityDay, utilityTime } from '@protocol/contracts';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/el';
import i18n from 'i18next';

/** Spec §5/§9: dates are shown DD/MM/YYYY. */
export const DATE_FORMAT = 'DD/MM/YYYY';

/** A dayjs date in the interface language (Greek month and day names on Greek pages). */
export function localDate(value?: string | Date): Dayjs {
  return dayjs(value).locale(i18n.language === 'en' ? 'en' : 'el');
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const shownDay = (isoDay: string) => isoDay.replace(ISO_DAY, '$3/$2/$1');
const instant = (value: string | Date) => {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/**
 * DD/MM/YYYY. A calendar day (YYYY-MM-DD) is shown as it is; an instant as its day in the utility's
 * time zone, so every operator sees the registration day of the protocol book, wherever the browser is.
 */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  if (typeof value === 'string' && ISO_DAY.test(value)) return shownDay(value);
  const date = instant(value);
  return date ? shownDay(utilityDay(date)) : '';
}

/** DD/MM/YYYY H:mm:ss of an instant, in the utility's time zone (Europe/Athens). */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = instant(value);
  return date ? `${shownDay(utilityDay(date))} ${utilityTime(date)}` : '';
}
