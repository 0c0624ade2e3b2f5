import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '../..');

/** The top-level keys of every catalog (web app and contracts): the namespaces a raw key starts with. */
function catalogNamespaces(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/^(el|en)\.json$/.test(entry.name) && full.split(path.sep).includes('i18n')) {
        for (const key of Object.keys(JSON.parse(readFileSync(full, 'utf8')))) found.add(key);
      }
    }
  };
  walk(path.join(root, 'apps/web/src'));
  walk(path.join(root, 'packages/contracts/src/i18n'));
  return [...found];
}

export const CATALOG_NAMESPACES = catalogNamespaces();

// The end of a file name or a host name, not a key's last part.
const NOT_A_KEY_END =
  /^(pdf|csv|xlsx?|xml|json|png|jpe?g|zip|txt|docx?|gz|html?|gr|com|org|net|eu|io|local)$/i;

/**
 * The strings of `texts` that look like catalog keys: dotted words (`jobs.kind.billing.run`) whose
 * first word is a namespace of the catalogs. Parts of e-mail addresses, URLs and paths (an `@`, `/`,
 * `:` or word character next to them), file and host names (x.pdf, deya.gr) and numbers (1.135,30)
 * are not keys.
 */
export function rawKeysIn(
  texts: readonly string[],
  namespaces: readonly string[] = CATALOG_NAMESPACES,
): string[] {
  const known = new Set(namespaces);
  const found = new Set<string>();
  const candidate = /[a-z][a-zA-Z0-9]*(?:\.[a-zA-Z0-9_]+)+/g;
  for (const text of texts) {
    for (const match of text.matchAll(candidate)) {
      const key = match[0];
      const before = text[(match.index ?? 0) - 1] ?? '';
      const after = text[(match.index ?? 0) + key.length] ?? '';
      if (/[\w@/:\-.]/.test(before) || /[\w@/-]/.test(after)) continue;
      const parts = key.split('.');
      if (!known.has(parts[0] as string) || NOT_A_KEY_END.test(parts.at(-1) as string)) continue;
      found.add(key);
    }
  }
  return [...found];
}

/**
 * What a reader sees of the page: the text of its visible elements and the titles and aria-labels
 * of visible elements. Text inside `<code>` is a key shown on purpose (a setting's name beside its
 * meaning) and is left out.
 */
export function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const skip = 'code, script, style, noscript, template';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim();
      if (!parent || !text || parent.closest(skip)) continue;
      if (!parent.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      texts.push(text);
    }
    for (const element of document.querySelectorAll('[title], [aria-label]')) {
      if (element.closest(skip) || !element.checkVisibility({ visibilityProperty: true })) continue;
      for (const name of ['title', 'aria-label']) {
        const value = element.getAttribute(name)?.trim();
        if (value) texts.push(value);
      }
    }
    return texts;
  });
}

/** The raw catalog keys the page shows now. */
export async function rawKeysOn(page: Page): Promise<string[]> {
  return rawKeysIn(await visibleTexts(page));
}

/** Fails with the keys and the page's address when the page shows a raw catalog key. */
export async function expectNoRawKeys(page: Page, where = ''): Promise<void> {
  const keys = await rawKeysOn(page);
  if (keys.length > 0) {
    throw new Error(`Raw catalog keys on ${page.url()}${where ? ` (${where})` : ''}: ${keys.join(', ')}`);
  }
}
