import type { Language } from '@protocol/contracts';
import sharedEl from '@protocol/contracts/i18n/el.json';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import el from './el.json';

/**
 * What the first page needs: the shell's texts and the messages shared with the server (errors,
 * validation). Every feature brings its own catalog with its lazy chunk (registerCatalogs), so the
 * sign-in page does not download the texts of screens it never shows.
 */
export const resources = {
  el: { translation: { ...el, ...sharedEl } },
} as const;

let englishLoaded: Promise<void> | undefined;
/**
 * The English shell texts are a chunk of their own: the sign-in page downloads only its language
 * (Greek is always there, as the fallback).
 */
export function loadEnglish(): Promise<void> {
  englishLoaded ??= Promise.all([import('./en.json'), import('@protocol/contracts/i18n/en.json')]).then(
    ([shell, shared]) => {
      i18n.addResourceBundle('en', 'translation', { ...shell.default, ...shared.default }, true, false);
    },
  );
  return englishLoaded;
}

type Catalog = Record<string, unknown>;

/** Adds a feature's texts in both languages (deep-merged, so namespaces may span catalogs). */
export function registerCatalogs(catalogs: { el: Catalog; en: Catalog }): void {
  i18n.addResourceBundle('el', 'translation', catalogs.el, true, true);
  i18n.addResourceBundle('en', 'translation', catalogs.en, true, true);
}

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
  if (i18n.language !== lang) {
    const ready = lang === 'en' ? loadEnglish() : Promise.resolve();
    void ready.then(() => i18n.changeLanguage(lang));
  }
  applyDocumentLanguage(lang);
}

export default i18n;
