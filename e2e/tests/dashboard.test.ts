import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

// The dashboard's cards open the lists that show what they count; its dates are the utility's.

const DEMO_PASSWORD = 'Demo-2026!';
let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

async function signedIn(username: string, options: { timezoneId?: string } = {}) {
  const { context, page } = await e2e.newPage(options);
  await openSignedIn(page, username, username === 'admin' ? ADMIN_PASSWORD : DEMO_PASSWORD);
  await page.getByTestId('dashboard-cards').waitFor();
  return { context, page };
}

const figure = async (page: Page, testId: string) =>
  Number(await page.getByTestId(`${testId}-count`).textContent());

const rowTexts = (page: Page) =>
  page.getByTestId('data-table-row').evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));

/** Follows a card's link and checks the list behind it shows as many rows as the card said. */
async function follow(page: Page, linkTestId: string, expected: number) {
  await page.getByTestId(linkTestId).click();
  await page.waitForURL(/\/document\?/);
  await page.getByTestId('data-table').waitFor();
  await expect.poll(async () => (await rowTexts(page)).length).toBe(expected);
  return new URL(page.url());
}

describe('the dashboard', () => {
  it("leads a read-only operator from 'charged to me' to the documents charged to them", async () => {
    const { context, page } = await signedIn('gnikolaou');
    const charged = await figure(page, 'dashboard-charged');
    expect(charged).toBeGreaterThan(0);
    const url = await follow(page, 'dashboard-charged-link', charged);
    expect(url.searchParams.get('chargedUserId')).toMatch(/^eq\(\d+\)$/);
    expect((await rowTexts(page)).join(' ')).toContain('Αίτηση νέας σύνδεσης ύδρευσης');
    await context.close();
  });

  it("leads from today's registrations, in all books and in one, to the same documents", async () => {
    const { context, page } = await signedIn('admin');
    const today = await figure(page, 'dashboard-today');
    expect(today).toBeGreaterThan(0);
    const all = await follow(page, 'dashboard-today-link', today);
    expect(all.searchParams.get('protocolDate')).toMatch(/^eq\(\d{4}-\d{2}-\d{2}\)$/);
    expect(all.searchParams.get('protocolBook')).toBeNull();

    await page.goBack();
    const book = page.locator('[data-testid^="dashboard-today-book-"]').first();
    const inBook = Number((await book.locator('p').last().textContent()) ?? '');
    const one = await follow(page, (await book.getAttribute('data-testid')) ?? '', inBook);
    expect(one.searchParams.get('protocolBook')).toMatch(/^eq\(.+\)$/);

    await page.goBack();
    await page.getByTestId('dashboard-cases-link').click();
    await page.waitForURL('**/cases');
    await context.close();
  });

  it("greets a browser in UTC with Athens' day when Athens is already on the next one", async () => {
    // Monday 23/11/2026 23:30 in UTC is Tuesday 24/11 01:30 in Athens (EET, UTC+2).
    const { context, page } = await e2e.newPage({ timezoneId: 'UTC' });
    await page.clock.setFixedTime(new Date('2026-11-23T23:30:00Z'));
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/');
    await page.getByTestId('dashboard-greeting').waitFor();
    expect(await page.evaluate(() => new Date().getDate())).toBe(23);
    await expect.poll(() => page.getByText(/Σήμερα είναι/).textContent()).toContain('Τρίτη 24/11/2026');
    await context.close();
  });

  it('is shown in both languages and both themes', async () => {
    const { context, page } = await signedIn('admin');
    await page.getByTestId('dashboard-chart').locator('svg').first().waitFor();
    await shot(page, 'dashboard-cards-el-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('topbar-theme').click();
    await shot(page, 'dashboard-cards-el-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.goto('/en');
    await page.getByTestId('dashboard-chart').locator('svg').first().waitFor();
    expect(await page.getByTestId('dashboard-charged').textContent()).toContain('Charged to me');
    await shot(page, 'dashboard-cards-en-dark');
    await page.getByTestId('topbar-theme').click();
    await shot(page, 'dashboard-cards-en-light');
    await context.close();
  });
});
