import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** The demo company's application for a connection in Ερμού street (documents.seed.ts). */
const SUBJECT = 'Αίτηση νέας σύνδεσης ύδρευσης για κατοικία στην οδό Ερμού 12';

const options = (page: Page) => page.getByTestId('global-search-panel').getByRole('option');
const selected = (page: Page) =>
  page.getByTestId('global-search-panel').locator('[role="option"][aria-selected="true"]').textContent();

describe('global search in the top bar', () => {
  it('searches with the keyboard from 3 characters and opens the result with Enter', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/');
    await page.getByTestId('dashboard-greeting').waitFor();
    const box = page.getByTestId('global-search');
    await box.focus();
    await page.keyboard.type('αι');
    await page.waitForTimeout(600);
    expect(await page.getByTestId('global-search-panel').count()).toBe(0);

    // Unaccented, upper case, an inflected form with a final σ: still the application.
    await page.keyboard.type('ΤΗΣΕΙΣ ΕΡΜΟΥ');
    await expect.poll(() => options(page).count()).toBe(1);
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(await selected(page)).toContain(SUBJECT);
    expect(await accessibilityViolations(page)).toEqual([]);

    // Esc closes the panel, ↓ opens it again; a second Esc clears the box.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('global-search-panel').count()).toBe(0);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => options(page).count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    expect(await box.inputValue()).toBe('');

    // Several results: ↓ and ↑ move the highlight, Enter opens the highlighted one.
    await page.keyboard.type('υδρευσ');
    await expect.poll(() => options(page).count()).toBeGreaterThan(1);
    const first = await selected(page);
    await page.keyboard.press('ArrowDown');
    expect(await selected(page)).not.toBe(first);
    await page.keyboard.press('ArrowUp');
    expect(await selected(page)).toBe(first);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/(document|cases|traders)\/\d+\/edit$/);
    expect(await box.inputValue()).toBe('');
    await expect.poll(() => page.getByTestId('global-search-panel').count()).toBe(0);
    await context.close();
  });

  it('opens a document found by its protocol number with a click', async () => {
    const { context, page } = await e2e.newPage({ locale: 'en' });
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/en');
    await page.getByTestId('dashboard-greeting').waitFor();
    await page.getByTestId('global-search').fill(SUBJECT.slice(0, 20));
    await expect.poll(() => options(page).count()).toBeGreaterThan(0);
    const text = (await options(page).first().textContent()) ?? '';
    const protocolId = /^(\d+\/\d{4})/.exec(text)?.[1];
    expect(protocolId, text).toBeDefined();
    await page.getByTestId('global-search').fill(protocolId as string);
    await expect.poll(() => options(page).first().textContent()).toContain(SUBJECT);
    await options(page).first().click();
    await page.waitForURL(/\/en\/document\/\d+\/edit$/);
    await expect
      .poll(() =>
        page.locator('textarea, input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
      )
      .toContain(SUBJECT);
    await context.close();
  });
});

describe('rebuilding the search index', () => {
  it('starts from the account menu, shows its progress in the jobs drawer and completes', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/');
    await page.getByTestId('dashboard-greeting').waitFor();
    await page.getByTestId('account-menu').click();
    await page.getByTestId('account-menu-reindex').click();
    await expect.poll(() => page.getByTestId('snackbar').first().textContent()).toContain('ευρετηρίου');
    await page.getByTestId('topbar-jobs').click();
    const drawer = page.getByTestId('jobs-drawer');
    await drawer.waitFor();
    await expect.poll(() => drawer.textContent()).toContain('Αναδημιουργία ευρετηρίου αναζήτησης');
    // The server's worker runs it: the drawer polls until it is done.
    await expect.poll(() => drawer.textContent(), { timeout: 30_000 }).toContain('Ολοκληρώθηκε');
    await shot(page, 'jobs-drawer-reindex-el');
    // The index answers as before.
    await page.keyboard.press('Escape');
    const box = page.getByTestId('global-search');
    await box.fill('αιτηση ερμου');
    await expect.poll(() => page.getByTestId('global-search-panel').textContent()).toContain('Ερμού');
    await context.close();
  });
});

describe('screenshots of the search panel in both languages and themes', () => {
  for (const lang of ['el', 'en'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      it(`${lang} ${theme}`, async () => {
        const { context, page } = await e2e.newPage();
        const host = new URL(e2e.baseUrl).hostname;
        await context.addCookies([
          { name: 'theme', value: theme, domain: host, path: '/' },
          { name: 'locale', value: lang, domain: host, path: '/' },
        ]);
        const prefix = lang === 'en' ? '/en' : '';
        await openSignedIn(page, 'admin', ADMIN_PASSWORD, prefix || '/');
        await page.getByTestId('dashboard-greeting').waitFor();
        await page.getByTestId('global-search').fill('υδρευση');
        await expect.poll(() => options(page).count()).toBeGreaterThan(1);
        await page.waitForTimeout(400);
        const panel = await page.getByTestId('global-search-panel').boundingBox();
        expect(panel?.height).toBeLessThanOrEqual(500);
        await shot(page, `search-panel-${lang}-${theme}`);
        await page.getByTestId('global-search').fill('zzzq');
        await expect.poll(() => page.getByTestId('global-search-panel').textContent()).toContain('zzzq');
        await shot(page, `search-panel-none-${lang}-${theme}`);
        // The jobs this operator started (the reindex above): the drawer and the page.
        await page.keyboard.press('Escape');
        await page.getByTestId('topbar-jobs').click();
        await expect
          .poll(() => page.getByTestId('jobs-drawer').textContent())
          .toContain(lang === 'el' ? 'Αναδημιουργία ευρετηρίου' : 'the search index');
        await page.waitForTimeout(400); // the drawer's slide in
        await shot(page, `jobs-drawer-${lang}-${theme}`);
        await page.goto(`${e2e.baseUrl}${prefix}/jobs`);
        await expect
          .poll(() => page.locator('main').textContent())
          .toContain(lang === 'el' ? 'Αναδημιουργία ευρετηρίου' : 'the search index');
        await shot(page, `jobs-page-${lang}-${theme}`);
        await context.close();
      });
    }
  }
});
