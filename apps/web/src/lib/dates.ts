import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/el';
import i18n from 'i18next';

/** Spec §5/§9: dates are shown DD/MM/YYYY, and DD/MM/YYYY H:mm:ss in page headers. */
export const DATE_FORMAT = 'DD/MM/YYYY';
export const DATE_TIME_FORMAT = 'DD/MM/YYYY H:mm:ss';

/** A dayjs date in the interface language (Greek month and day names on Greek pages). */
export function localDate(value?: string | Date): Dayjs {
  return dayjs(value).locale(i18n.language === 'en' ? 'en' : 'el');
}

export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = dayjs(value);
  return date.isValid() ? date.format(DATE_FORMAT) : '';
}

export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = dayjs(value);
  return date.isValid() ? date.format(DATE_TIME_FORMAT) : '';
}
