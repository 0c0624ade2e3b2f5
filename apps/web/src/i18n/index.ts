import type { Language } from '@protocol/contracts';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import el from './el.json';
import en from './en.json';

export const resources = { el: { translation: el }, en: { translation: en } } as const;

/** Greek is the default and the fallback language (spec §1, §9). */
export function initI18n(lang: Language) {
  void i18n.use(initReactI18next).init({
    resources,
    lng: lang,
    fallbackLng: 'el',
    supportedLngs: ['el', 'en'],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  applyDocumentLanguage(lang);
  return i18n;
}

/**
 * `<html lang>` follows the language; with lang="el" upper-cased Greek drops its accents.
 * (dayjs takes the language where dates are formatted, lib/dates.ts, off the sign-in page.)
 */
export function applyDocumentLanguage(lang: Language): void {
  document.documentElement.lang = lang;
}

export function setLanguage(lang: Language): void {
  if (i18n.language !== lang) void i18n.changeLanguage(lang);
  applyDocumentLanguage(lang);
}

export default i18n;
