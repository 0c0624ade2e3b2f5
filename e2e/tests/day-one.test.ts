import { DEMO_OPERATORS } from '@protocol/server/demo-operators';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInApi } from '../support/api.ts';
import { seedDemoOverHttp } from '../support/demo.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { rawKeysOn } from '../support/keys.ts';
import { shot } from '../support/shot.ts';

/**
 * Issue 32: what a new operator meets on day one — the demo company as `npm start` leaves it (its
 * water service included), every menu entry of every demo account, and the texts of the screens in
 * Greek and English.
 */
let e2e: E2E;
const [protocolClerk, waterClerk] = DEMO_OPERATORS;
/** Every demo account of the README: the administrator and each role's operator. */
const ACCOUNTS = [
  { username: 'admin', password: ADMIN_PASSWORD },
  ...DEMO_OPERATORS.map(({ username, password }) => ({ username, password })),
];
const LANGUAGES = [
  { locale: 'el-GR', prefix: '', lang: 'el' },
  { locale: 'en-GB', prefix: '/en', lang: 'en' },
] as const;

beforeAll(async () => {
  e2e = await startE2E();
  await seedDemoOverHttp(e2e);
}, 300_000);
afterAll(async () => {
  await e2e?.close();
});

/**
 * Signed in as `username` in a fresh profile of the language, with every refused API call recorded,
 * on the dashboard or at `path` (opened first: a page loaded on the way is a whole app started).
 */
async function session(
  username: string,
  password: string,
  language: (typeof LANGUAGES)[number],
  path?: string,
) {
  const { context, page } = await e2e.newPage({ locale: language.locale });
  const refused: string[] = [];
  let inFlight = 0;
  page.on('request', () => inFlight++);
  page.on('requestfinished', () => inFlight--);
  page.on('requestfailed', () => inFlight--);
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (response.status() === 403 && url.pathname.startsWith('/api/')) {
      refused.push(`${new URL(page.url()).pathname} → ${url.pathname}`);
    }
  });
  await openSignedIn(page, username, password, `${language.prefix}${path ?? ''}` || '/');
  await page.getByTestId(path ? 'side-menu' : 'dashboard-greeting').waitFor();
  return { context, page, refused, requests: () => inFlight };
}

/**
 * Opens `path` inside the loaded app as a menu click does (React Router follows popstate; a full
 * load per entry would start the whole app again, a hundred times), then waits until its requests
 * have ended and none has started for 400 ms.
 */
async function openInApp(page: Page, requests: () => number, path: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  const deadline = Date.now() + 20_000;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (requests() > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 400) return;
  }
  throw new Error(`${path}: still loading after 20 s`);
}

async function menuPaths(page: Page): Promise<string[]> {
  const links = page.getByTestId('side-menu').locator('a[data-testid^="menu-"]');
  return [...new Set(await links.evaluateAll((all) => all.map((a) => a.getAttribute('href') ?? '')))];
}

/** What a person reads in a part of the page: its visible text, line by line (hidden text excluded). */
// biome-ignore lint/performance/useDomNodeTextContent: the visible text is what is checked, not the DOM's
const visibleText = (locator: Locator) => locator.innerText();
/** The page's main area as the operator reads it (the menu and top bar aside). */
const mainText = (page: Page) => visibleText(page.locator('main'));

/** Whether the main area shows more than a header (three lines or more) within 5 s. */
async function rendersBody(page: Page): Promise<boolean> {
  for (const deadline = Date.now() + 5_000; ; ) {
    if ((await mainText(page)).trim().split('\n').filter(Boolean).length >= 3) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('issue 32: day one', () => {
  for (const account of ACCOUNTS) {
    it(`issue 32 item 2: every menu entry of ${account.username} opens a page that works — no call refused (403), no blank page`, async () => {
      // The water clerk's walk in English too: the menu and its pages are the same in both languages.
      const languages = account.username === waterClerk.username ? LANGUAGES : LANGUAGES.slice(0, 1);
      for (const language of languages) {
        const { context, page, refused, requests } = await session(
          account.username,
          account.password,
          language,
        );
        const blank: string[] = [];
        const raw: string[] = [];
        for (const path of await menuPaths(page)) {
          await openInApp(page, requests, path);
          if ((await page.getByTestId('forbidden').count()) > 0) blank.push(`${path}: forbidden`);
          if ((await page.getByTestId('load-forbidden').count()) > 0) blank.push(`${path}: refused load`);
          // A page is more than its header: some text below it (a table, a form, an empty state). On
          // a busy machine it may still be rendering what its requests brought: give it 5 s.
          if (!(await rendersBody(page))) blank.push(`${path}: blank`);
          // Issue 32 item 1: words, never a catalog key (jobs.kind.billing.run).
          for (const key of await rawKeysOn(page)) raw.push(`${path}: ${key}`);
        }
        expect(refused, `${account.username} ${language.lang}`).toEqual([]);
        expect(blank, `${account.username} ${language.lang}`).toEqual([]);
        expect(raw, `${account.username} ${language.lang}`).toEqual([]);
        await context.close();
      }
    }, 400_000);
  }

  it('issue 32 item 1: jobs and their notifications are named in words (bell, drawer, pages), as are the general settings', async () => {
    const names = {
      el: { run: 'Εκκαθάριση λογαριασμών', deyaAa: 'Αριθμός της ΔΕΥΑ' },
      en: { run: 'Billing run', deyaAa: 'The utility’s number' },
    };
    for (const language of LANGUAGES) {
      const words = names[language.lang];
      // The demo's billing runs are the water clerk's jobs (seedDemoWaterService ran them as him).
      const { context, page } = await session(waterClerk.username, waterClerk.password, language, '/jobs');
      await expect.poll(() => mainText(page)).toContain(words.run);
      await page.getByTestId('topbar-jobs').click();
      const drawer = page.getByTestId('jobs-drawer');
      await expect.poll(() => visibleText(drawer)).toContain(words.run);
      await shot(page, `day-one-jobs-drawer-${language.lang}`, { fullPage: false });
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
      await shot(page, `day-one-jobs-${language.lang}`, { fullPage: false });
      await page.getByTestId('notification-bell').click();
      await expect.poll(() => visibleText(page.getByTestId('notification-panel'))).toContain(words.run);
      await shot(page, `day-one-bell-${language.lang}`, { fullPage: false });
      await page.keyboard.press('Escape');
      await page.goto(`${language.prefix}/notifications`);
      await expect.poll(() => mainText(page)).toContain(words.run);
      await shot(page, `day-one-notifications-${language.lang}`, { fullPage: false });
      await context.close();

      const settings = await session('admin', ADMIN_PASSWORD, language, '/settings/general_settings');
      await expect.poll(() => mainText(settings.page)).toContain(words.deyaAa);
      await shot(settings.page, `day-one-general-settings-${language.lang}`);
      await settings.context.close();
    }
  });

  it('issue 32 item 2: the bill terms open for the water clerk, filled, and a refused load says so in words', async () => {
    for (const language of LANGUAGES) {
      const { context, page, refused } = await session(waterClerk.username, waterClerk.password, language);
      await page.getByTestId('menu-water-invoice-policies').click();
      await page.getByTestId('invoice-policies-page').waitFor();
      await expect
        .poll(() => page.locator('[data-testid="invoice-policies-page"] table tbody tr').count())
        .toBeGreaterThan(0);
      expect(refused).toEqual([]);
      await shot(page, `day-one-bill-terms-${language.lang}`);
      // Were the server to refuse a screen's data, the screen says so instead of staying blank.
      await page.route('**/api/water_service/parametrics/periodicity*', (route) =>
        route.fulfill({
          status: 403,
          contentType: 'application/json',
          body: JSON.stringify({ status: 403, key: 'error.forbidden', params: {}, message: 'Forbidden' }),
        }),
      );
      await page.reload();
      const panel = page.getByTestId('load-forbidden');
      await expect
        .poll(() => panel.textContent())
        .toContain(
          language.lang === 'el'
            ? 'Δεν έχετε δικαίωμα να δείτε αυτά τα στοιχεία.'
            : 'You do not have the right to see this.',
        );
      await shot(page, `day-one-refused-load-${language.lang}`);
      await context.close();
    }
  });

  it('issue 32 item 3: the trader form of an operator lists the banks, VAT categories and VAT statuses', async () => {
    for (const language of LANGUAGES) {
      const { context, page, refused } = await session(
        waterClerk.username,
        waterClerk.password,
        language,
        '/traders/create',
      );
      await page.getByTestId('trader-vatnumber').waitFor();
      const options = (testId: string) => page.getByTestId(testId).locator('option').count();
      // The empty choice and the national lists' rows.
      await expect.poll(() => options('trader-vat_category')).toBeGreaterThan(2);
      await expect.poll(() => options('trader-vat_status')).toBeGreaterThan(2);
      await page.getByTestId('trader-bank-add').click();
      await expect
        .poll(() => page.getByTestId('trader-bank-bank-0').locator('option').count())
        .toBeGreaterThan(5);
      await page.getByTestId('trader-vat_category').selectOption({ index: 1 });
      await page.getByTestId('trader-vat_status').selectOption({ index: 1 });
      expect(refused).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `day-one-trader-form-${language.lang}`, { fullPage: false });
      await context.close();
    }
  });

  it('issue 32 item 6: dates hint ΗΗ/ΜΜ/ΕΕΕΕ on Greek pages and DD/MM/YYYY on English ones; MUI speaks the page language', async () => {
    for (const language of LANGUAGES) {
      const [hint, other] =
        language.lang === 'el' ? ['ΗΗ/ΜΜ/ΕΕΕΕ', 'DD/MM/YYYY'] : ['DD/MM/YYYY', 'ΗΗ/ΜΜ/ΕΕΕΕ'];
      const { context, page } = await session(
        waterClerk.username,
        waterClerk.password,
        language,
        '/consumers/create',
      );
      await page.getByTestId('consumer-form').waitFor();
      await expect.poll(() => mainText(page)).toContain(hint);
      expect(await mainText(page)).not.toContain(other);
      // The owner's picker is an Autocomplete: its 'Open' button in the page's language.
      const open = language.lang === 'el' ? 'Άνοιγμα' : 'Open';
      expect(await page.locator(`main [aria-label="${open}"]`).count()).toBeGreaterThan(0);
      expect(
        await page.locator(`main [aria-label="${language.lang === 'el' ? 'Open' : 'Άνοιγμα'}"]`).count(),
      ).toBe(0);
      await shot(page, `day-one-consumer-form-${language.lang}`, { fullPage: false });

      await page.goto(`${language.prefix}/finance/transformation`);
      await page.getByTestId('finance-transformation').waitFor();
      await expect.poll(() => mainText(page)).toContain(hint);
      expect(await mainText(page)).not.toContain(other);
      await shot(page, `day-one-transformation-${language.lang}`);

      // A demo consumer's meter dialog.
      const api = await signInApi(e2e, waterClerk.username, waterClerk.password);
      const [consumer] = (await api('GET', '/api/protocol/consumers/search?size=1')).body.content;
      await page.goto(`${language.prefix}/consumers/${consumer.id}/edit`);
      await page.getByRole('tab', { name: language.lang === 'el' ? 'Υδρομετρητές' : 'Meters' }).click();
      await page.getByTestId('meter-swap').click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => visibleText(dialog)).toContain(hint);
      expect(await visibleText(dialog)).not.toContain(other);
      // Once it has faded in.
      await expect.poll(() => dialog.evaluate((node) => getComputedStyle(node).opacity)).toBe('1');
      await shot(page, `day-one-meter-dialog-${language.lang}`, { fullPage: false });
      await context.close();
    }
  });

  it('issue 32 item 6: billing periods are named in the page language', async () => {
    for (const language of LANGUAGES) {
      const { context, page } = await session(
        waterClerk.username,
        waterClerk.password,
        language,
        '/invoices',
      );
      await expect
        .poll(() => mainText(page))
        .toContain(language.lang === 'el' ? 'τετράμηνο 2026' : 'four-month period 2026');
      if (language.lang === 'en') expect(await mainText(page)).not.toContain('τετράμηνο');
      await shot(page, `day-one-bills-periods-${language.lang}`, { fullPage: false });
      await context.close();
    }
  });

  it('issue 32 item 6: a public form shows its fields’ English labels under /en, the Greek ones otherwise', async () => {
    for (const language of LANGUAGES) {
      const { context, page } = await e2e.newPage({ locale: language.locale });
      await page.goto(`${language.prefix}/forms/dilosi-vlavis`);
      const [place, description] =
        language.lang === 'el'
          ? ['Σημείο (οδός, αριθμός, περιοχή)', 'Περιγραφή']
          : ['Place (street, number, area)', 'Description'];
      await expect.poll(() => visibleText(page.locator('body'))).toContain(place);
      expect(await visibleText(page.locator('body'))).toContain(description);
      await shot(page, `day-one-public-form-${language.lang}`);
      await context.close();
    }
  });

  it('issue 32 item 7: the menu tells the bill terms from the pricing policies, in both languages', async () => {
    for (const language of LANGUAGES) {
      const { context, page } = await session(waterClerk.username, waterClerk.password, language);
      const terms = await visibleText(page.getByTestId('menu-water-invoice-policies'));
      const pricing = await visibleText(page.getByTestId('menu-billing-pricing'));
      expect([terms, pricing]).toEqual(
        language.lang === 'el'
          ? ['Όροι λογαριασμών', 'Τιμολογιακές πολιτικές']
          : ['Bill terms', 'Pricing policies'],
      );
      await shot(page, `day-one-menu-${language.lang}`, { fullPage: false });
      await context.close();
    }
  });

  it('issue 32 item 7: a document has one actions menu (refresh in it); a new document’s book agrees with its hint', async () => {
    for (const language of LANGUAGES) {
      const { context, page } = await session(
        protocolClerk.username,
        protocolClerk.password,
        language,
        '/inbox',
      );
      await page.locator('main table tbody tr').first().click();
      await page.getByTestId('document-page').waitFor();
      expect(await page.getByTestId('appbar-actions').count()).toBe(0);
      await page.getByTestId('document-actions').click();
      await page.getByTestId('document-refresh').waitFor();
      const menu = page.getByTestId('document-actions-menu').locator('.MuiPaper-root');
      await expect.poll(() => menu.evaluate((node) => getComputedStyle(node).opacity)).toBe('1');
      await shot(page, `day-one-document-actions-${language.lang}`, { fullPage: false });
      await page.getByTestId('document-refresh').click();

      await page.goto(`${language.prefix}/document/create`);
      const type = page.getByTestId('document-type');
      await type.waitFor();
      // Whether a type registers automatically depends on the company's books: wait until they are
      // there (the types may arrive first, and every type would then read as not automatic).
      await expect.poll(() => page.getByTestId('document-book').locator('option').count()).toBeGreaterThan(1);
      const types = await type
        .locator('option')
        .evaluateAll((all) => all.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
      let automatic = 0;
      for (const value of types) {
        await type.selectOption(value);
        const book = page.getByTestId('document-book');
        const empty = await visibleText(book.locator('option').first());
        const hint = await visibleText(page.getByTestId('document-registration'));
        const auto = language.lang === 'el' ? /αυτόματα/i : /automatically/i;
        // The empty choice says what saving will do: what the hint under it says.
        expect(auto.test(empty), `${empty} / ${hint}`).toBe(auto.test(hint));
        if (auto.test(empty)) {
          automatic++;
          if (automatic === 1) await shot(page, `day-one-new-document-${language.lang}`, { fullPage: false });
        }
      }
      expect(automatic).toBeGreaterThan(0);
      await context.close();
    }
  });

  it('issue 32 item 7: billing runs name their routes sector-route', async () => {
    for (const language of LANGUAGES) {
      const { context, page } = await session(
        waterClerk.username,
        waterClerk.password,
        language,
        '/invoices/runs',
      );
      await expect.poll(() => page.getByTestId('billing-run-row').count()).toBeGreaterThan(0);
      const text = await visibleText(page.getByTestId('billing-runs'));
      expect(text).toMatch(/\b\d{2}-\d{3}\b/);
      await shot(page, `day-one-billing-runs-${language.lang}`, { fullPage: false });
      await context.close();
    }
  });

  it('issue 32 item 7: the bell names a notification’s sender as the notifications list does', async () => {
    const api = await signInApi(e2e, waterClerk.username, waterClerk.password);
    const list = (await api('GET', '/api/notification/search?size=50')).body.content as {
      senderName: string | null;
    }[];
    const sender = list.find((item) => item.senderName)?.senderName;
    expect(sender).toBeTruthy();
    for (const language of LANGUAGES) {
      const { context, page } = await session(
        waterClerk.username,
        waterClerk.password,
        language,
        '/notifications',
      );
      await expect.poll(() => mainText(page)).toContain(sender as string);
      await page.getByTestId('notification-bell').click();
      const panel = page.getByTestId('notification-panel');
      await expect.poll(() => visibleText(panel)).toContain(sender as string);
      await context.close();
    }
  });

  it('issue 32 item 7: the 404 page says plainly there is no such page, with a way home', async () => {
    for (const language of LANGUAGES) {
      const { context, page } = await session(protocolClerk.username, protocolClerk.password, language);
      await page.goto(`${language.prefix}/no-such-page`);
      const notFound = page.getByTestId('not-found');
      await expect
        .poll(() => visibleText(notFound))
        .toContain(
          language.lang === 'el'
            ? 'Δεν υπάρχει σελίδα σε αυτή τη διεύθυνση.'
            : 'There is no page at this address.',
        );
      expect(await visibleText(notFound)).not.toMatch(/σύμπαν|universe/);
      await notFound.getByRole('link').click();
      await page.getByTestId('dashboard-greeting').waitFor();
      await page.goto(`${language.prefix}/no-such-page`);
      await notFound.waitFor();
      await shot(page, `day-one-not-found-${language.lang}`);
      await context.close();
    }
  });
});
