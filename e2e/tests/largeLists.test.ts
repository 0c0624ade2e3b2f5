import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

// A list larger than the exact-count limit says its total is an estimate; a filtered one that is
// small again counts exactly.
let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
  // 1,500 operators: 1,200 Παπαδόπουλος, 300 Ζαχαρίου.
  await e2e.sql(`
    INSERT INTO users (username, firstname, lastname, kind, createuser)
    SELECT 'bulk' || g, 'Όνομα ' || g, CASE WHEN g <= 300 THEN 'Ζαχαρίου' ELSE 'Παπαδόπουλος' END, 2, 'e2e'
    FROM generate_series(1, 1500) g`);
  await e2e.sql('ANALYZE users');
});
afterAll(async () => {
  await e2e?.close();
});

async function openOperators(page: Page, prefix = '') {
  await openSignedIn(page, 'admin', ADMIN_PASSWORD, `${prefix}/users`);
  await page.getByTestId('data-table-row').first().waitFor();
}

describe('the total of a large list', () => {
  it('is "about N" above the limit and exact once a filter brings it under', async () => {
    const { context, page } = await e2e.newPage();
    await openOperators(page);
    const total = page.getByTestId('table-total');
    await expect.poll(() => total.getAttribute('data-estimated')).toBe('true');
    expect(await total.textContent()).toMatch(/^Σύνολο: περίπου \d+ εγγραφές$/);
    expect(Number(await total.getAttribute('data-total'))).toBeGreaterThan(1000);
    expect(await page.getByTestId('table-range').textContent()).toMatch(/^1–50 από περίπου \d+$/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await total.scrollIntoViewIfNeeded();
    await shot(page, 'largeLists-about-el', { fullPage: false });

    await page.getByTestId('filter-lastname').fill('ζαχαριου');
    await expect.poll(() => total.textContent()).toBe('Σύνολο: 300 εγγραφές');
    expect(await total.getAttribute('data-estimated')).toBeNull();
    await total.scrollIntoViewIfNeeded();
    await shot(page, 'largeLists-exact-el', { fullPage: false });
    await context.close();
  });

  it('in English', async () => {
    const { context, page } = await e2e.newPage({ locale: 'en-GB' });
    await openOperators(page, '/en');
    const total = page.getByTestId('table-total');
    await expect.poll(() => total.textContent()).toMatch(/^Total: about \d+ records$/);
    expect(await page.getByTestId('table-range').textContent()).toMatch(/^1–50 of about \d+$/);
    await total.scrollIntoViewIfNeeded();
    await shot(page, 'largeLists-about-en', { fullPage: false });
    await context.close();
  });
});
