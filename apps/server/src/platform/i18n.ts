import type { Language } from '@protocol/contracts';
import bankEl from '@protocol/contracts/i18n/bank/el.json' with { type: 'json' };
import bankEn from '@protocol/contracts/i18n/bank/en.json' with { type: 'json' };
import billingEl from '@protocol/contracts/i18n/billing/el.json' with { type: 'json' };
import billingEn from '@protocol/contracts/i18n/billing/en.json' with { type: 'json' };
import coreEl from '@protocol/contracts/i18n/el.json' with { type: 'json' };
import coreEn from '@protocol/contracts/i18n/en.json' with { type: 'json' };
import importsEl from '@protocol/contracts/i18n/imports/el.json' with { type: 'json' };
import importsEn from '@protocol/contracts/i18n/imports/en.json' with { type: 'json' };
import listsEl from '@protocol/contracts/i18n/lists/el.json' with { type: 'json' };
import listsEn from '@protocol/contracts/i18n/lists/en.json' with { type: 'json' };
import mydataEl from '@protocol/contracts/i18n/mydata/el.json' with { type: 'json' };
import mydataEn from '@protocol/contracts/i18n/mydata/en.json' with { type: 'json' };
import paymentsEl from '@protocol/contracts/i18n/payments/el.json' with { type: 'json' };
import paymentsEn from '@protocol/contracts/i18n/payments/en.json' with { type: 'json' };
import pdfEl from '@protocol/contracts/i18n/pdf/el.json' with { type: 'json' };
import pdfEn from '@protocol/contracts/i18n/pdf/en.json' with { type: 'json' };
import protocolEl from '@protocol/contracts/i18n/protocol/el.json' with { type: 'json' };
import protocolEn from '@protocol/contracts/i18n/protocol/en.json' with { type: 'json' };
import readoutsEl from '@protocol/contracts/i18n/readouts/el.json' with { type: 'json' };
import readoutsEn from '@protocol/contracts/i18n/readouts/en.json' with { type: 'json' };
import settlementsEl from '@protocol/contracts/i18n/settlements/el.json' with { type: 'json' };
import settlementsEn from '@protocol/contracts/i18n/settlements/en.json' with { type: 'json' };
import waterEl from '@protocol/contracts/i18n/water/el.json' with { type: 'json' };
import waterEn from '@protocol/contracts/i18n/water/en.json' with { type: 'json' };

/**
 * The server's texts come from the catalogs it shares with the web app (packages/contracts/src/i18n):
 * error and validation messages, the labels of list fields that exports write as headers, and the
 * texts of the PDF toolkit (page footers, company details).
 */
type Catalog = { [key: string]: string | Catalog };
const catalogs: Record<Language, Catalog[]> = {
  el: [
    coreEl,
    listsEl,
    protocolEl,
    pdfEl,
    waterEl,
    readoutsEl,
    billingEl,
    mydataEl,
    paymentsEl,
    settlementsEl,
    bankEl,
    importsEl,
  ],
  en: [
    coreEn,
    listsEn,
    protocolEn,
    pdfEn,
    waterEn,
    readoutsEn,
    billingEn,
    mydataEn,
    paymentsEn,
    settlementsEn,
    bankEn,
    importsEn,
  ],
};

function lookup(language: Language, key: string): string | undefined {
  for (const catalog of catalogs[language]) {
    let node: string | Catalog | undefined = catalog;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node === 'string') return node;
  }
  return undefined;
}

export function translate(
  language: Language,
  key: string,
  params: Record<string, string | number> = {},
): string {
  const template = lookup(language, key) ?? lookup('el', key) ?? key;
  const text = template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
  // A param that is itself a key (a status's label) is written `$t({{from}})`, nested as i18next does.
  return text.replace(/\$t\(([\w.]+)\)/g, (_, nested: string) => translate(language, nested));
}

/** The caller's language: the locale cookie first, then Accept-Language, Greek by default. */
export function requestLanguage(
  cookieLocale: string | undefined,
  acceptLanguage: string | undefined,
): Language {
  if (cookieLocale === 'en' || cookieLocale === 'el') return cookieLocale;
  const first = acceptLanguage?.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'el';
}
