import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoOverHttp } from '../support/demo.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

/**
 * Issue 32 item 8: the demo as `npm start` leaves it is not empty — the water and finance cards of the
 * dashboard for those whose areas they summarize (not for the protocol clerk), each opening its list,
 * and the case folders, the submissions and the finance documents lists with rows.
 */
const DEMO_PASSWORD = 'Demo-2026!';
const LANGUAGES = [
  { locale: 'el-GR', prefix: '', lang: 'el' },
  { locale: 'en-GB', prefix: '/en', lang: 'en' },
] as const;
let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
  await seedDemoOverHttp(e2e);
}, 300_000);
afterAll(async () => {
  await e2e?.close();
});

async function dashboardOf(username: string, language: (typeof LANGUAGES)[number]) {
  const { context, page } = await e2e.newPage({ locale: language.locale });
  await openSignedIn(
    page,
    username,
    username === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD,
    language.prefix || '/',
  );
  await page.getByTestId('dashboard-cards').waitFor();
  return { context, page };
}

const text = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent()) ?? '';
const rows = (page: Page) => page.getByTestId('data-table-row');

describe('issue 32 item 8: the demo dashboard and lists', () => {
  for (const [username, language] of [
    ['gnikolaou', LANGUAGES[0]],
    ['eantoniou', LANGUAGES[1]],
  ] as const) {
    it(`shows ${username} the water and finance cards in ${language.lang}, each opening its list`, async () => {
      const { context, page } = await dashboardOf(username, language);
      const el = language.lang === 'el';
      await page.getByTestId('dashboard-water').waitFor();
      expect(await text(page, 'dashboard-water-count')).toBe('6');
      expect(await text(page, 'dashboard-water')).toContain(el ? 'Υπηρεσία ύδρευσης' : 'Water service');
      // The demo's open debts: what the partly paid, unpaid and settled consumers still owe, in euros.
      expect(await text(page, 'dashboard-water-debts')).toMatch(
        el ? /Ανοιχτές οφειλές.*\d+,\d{2} €/ : /Open debts.*\d+\.\d{2} €/,
      );
      expect(await text(page, 'dashboard-water-run')).toContain(
        el ? 'Περίοδος 2/2026 · Ολοκληρώθηκε10/09/2026' : 'Period 2/2026 · Done10/09/2026',
      );
      // The readings left: the water clerk reads meters; the accountant does not (no readouts:read).
      if (username === 'gnikolaou')
        expect(await text(page, 'dashboard-water-readouts')).toMatch(
          el ? /Ενδείξεις που λείπουν.*Τρέχουσα περίοδος/ : /Readings still to take.*Current period/,
        );
      else expect(await page.getByTestId('dashboard-water-readouts').count()).toBe(0);
      // Today's documents of the accountant: 186.00 + 43.40 − 43.40 (its credit note) + 49.60.
      expect(await text(page, 'dashboard-finance-count')).toBe('4');
      expect(await text(page, 'dashboard-finance')).toContain(el ? 'σύνολο 235,60 €' : 'total 235.60 €');
      expect(await text(page, 'dashboard-finance-unsent')).toMatch(/4$/);
      await shot(page, `dashboard-demo-${username}-${language.lang}`);

      await page.getByTestId('dashboard-finance-link').click();
      await page.waitForURL(/\/finance\/documents\?/);
      await expect.poll(() => rows(page).count()).toBe(4);
      await page.goBack();
      await page.getByTestId('dashboard-water-link').click();
      await page.waitForURL(/\/consumers\?/);
      await expect.poll(() => rows(page).count()).toBe(6);
      await context.close();
    });
  }

  for (const language of LANGUAGES) {
    it(`shows the protocol clerk no water or finance card in ${language.lang}`, async () => {
      const { context, page } = await dashboardOf('mpapadopoulou', language);
      await page.getByTestId('dashboard-cases').waitFor();
      expect(await page.getByTestId('dashboard-water').count()).toBe(0);
      expect(await page.getByTestId('dashboard-finance').count()).toBe(0);
      await shot(page, `dashboard-demo-mpapadopoulou-${language.lang}`);
      await context.close();
    });
  }

  it('fills the case folders, the submissions and the finance documents lists', async () => {
    const { context, page } = await dashboardOf('admin', LANGUAGES[0]);
    for (const [path, expected, name] of [
      ['/cases', 'Διαρροές δικτύου ύδρευσης Άνω Πόλης', 'cases'],
      ['/online_forms/submissions', 'Δήλωση βλάβης / διαρροής', 'submissions'],
      ['/finance/documents', 'Τεχνική Κατασκευαστική ΑΕ', 'finance-documents'],
    ] as const) {
      await page.goto(path);
      await expect.poll(() => rows(page).count()).toBeGreaterThanOrEqual(3);
      expect((await rows(page).allTextContents()).join(' ')).toContain(expected);
      await shot(page, `demo-${name}-el`);
    }
    await page.goto('/en/online_forms/submissions');
    await expect.poll(() => rows(page).count()).toBe(3);
    await shot(page, 'demo-submissions-en');
    await context.close();
  });
});
