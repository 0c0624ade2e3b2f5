import { rfCode } from '@protocol/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';
import { finalizedBill, newConsumer } from '../support/water.ts';

/**
 * The banks' payment files (issue 18) as the clerk uses them: a CSV of three RF payments — one paying
 * a bill, two of RF codes nobody issued — and a malformed line is imported; the report shows each
 * line's result and reason; an unmatched line is matched by hand to the consumer it belongs to, in
 * Greek, and the report and the list are seen in English too.
 */
let e2e: E2E;
let api: Api;
const consumers: number[] = [];
const bills: { total: string; rfCode: string }[] = [];

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
  for (const [code, lastname, firstname] of [
    ['891', 'Τραπεζίτου', 'Μαρίνα'],
    ['892', 'Καταθέτη', 'Στέλιος'],
  ] as const) {
    const consumerId = await newConsumer(api, {
      owner: { individual: true, lastname, firstname },
      parts: ['01', '001', code],
      supplyAddress: `Ερμού ${code}, Αγία Ελένη`,
    });
    consumers.push(consumerId);
    const bill = await finalizedBill(api, {
      consumerId,
      from: '2026-05-01',
      to: '2026-08-31',
      periodLabel: '05–08/2026',
      previousReading: 1000,
      previousDate: '2026-05-01',
      consumption: 22,
      currentDate: '2026-08-31',
      issueDate: '2026-09-10',
    });
    bills.push(bill);
  }
});

afterAll(async () => {
  await e2e?.close();
});

const comma = (amount: string) => amount.replace('.', ',');

/** How far a table (or the page) reaches past its box sideways: 0 when it fits the screen. */
const overflow = (page: Page, testId: string) =>
  page.evaluate((id) => {
    const region = document.querySelector(`[data-testid="${id}-region"]`) as HTMLElement;
    const page = document.documentElement;
    return Math.max(region.scrollWidth - region.clientWidth, page.scrollWidth - page.clientWidth);
  }, testId);

describe('bank files', () => {
  it('imports a bank file with one unmatched line and matches it by hand', async () => {
    const [paid, other] = bills as [{ total: string; rfCode: string }, { total: string; rfCode: string }];
    const file = [
      'Αναφορά;Ημερομηνία;RF;Ποσό;Πληρωτής',
      // References as long as the banks' own, so the report is seen at its real width.
      `E2E-20261125-0000001;25/11/2026;${paid.rfCode};${comma(paid.total)};Τραπεζίτου Μαρίνα του Γεωργίου`,
      // Paid with the RF code of a notice that was never issued: only a person can tell whose it is.
      `E2E-20261125-0000002;25/11/2026;${rfCode('0019999999999999')};${comma(other.total)};Καταθέτη Στέλιος`,
      'E2E-20261125-0000003;25/11/2026;RF18539007547034;δώδεκα;Λάθος γραμμή',
    ].join('\r\n');
    const { context, page } = await e2e.newPage();
    // A common office screen: every column of the report shows without scrolling sideways.
    await page.setViewportSize({ width: 1366, height: 768 });
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/payments/bank');
    await page.getByTestId('bank-header').waitFor();
    await page.getByTestId('bank-file').setInputFiles({
      name: 'πληρωμές-RF-25-11-2026.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(file, 'utf8'),
    });
    // The start button enabled, past MUI's 250 ms colour transition, before the picture.
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid="bank-start"]')?.disabled,
    );
    await page.waitForTimeout(300);
    await shot(page, 'bank-import-el');
    await page.getByTestId('bank-start').click();
    // The job ends and the report opens.
    const report = page.getByTestId('bank-report');
    await report.waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('bank-line').count()).toBe(3);
    expect(await page.getByTestId('bank-count-matched').textContent()).toBe('Αντιστοιχίστηκε: 1');
    expect(await page.getByTestId('bank-count-unmatched').textContent()).toBe('Χωρίς αντιστοίχιση: 1');
    expect(await page.getByTestId('bank-count-invalid').textContent()).toBe('Λανθασμένη γραμμή: 1');
    const lines = page.getByTestId('bank-line');
    expect(await lines.nth(0).textContent()).toContain('Εξόφλησε την οφειλή του RF');
    expect(await lines.nth(1).textContent()).toContain('Άγνωστος κωδικός RF');
    expect(await lines.nth(2).textContent()).toContain('Λανθασμένο ποσό');
    expect(await overflow(page, 'bank-lines')).toBe(0);
    await shot(page, 'bank-report-el');
    expect(await accessibilityViolations(page)).toEqual([]);

    // The unmatched line waits in the list, across files; the clerk finds the consumer and matches it.
    await page.goto('/payments/bank?tab=unmatched');
    const waiting = page.getByTestId('bank-unmatched-lines');
    await waiting.waitFor();
    await expect.poll(() => waiting.getByTestId('bank-line').count()).toBe(1);
    expect(await overflow(page, 'bank-unmatched-lines')).toBe(0);
    await shot(page, 'bank-unmatched-el');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('bank-match').click();
    const dialog = page.getByTestId('bank-match-dialog');
    await page.getByTestId('bank-match-search').fill('01-001-892');
    await dialog.getByRole('button', { name: 'Αναζήτηση' }).click();
    await dialog.getByTestId('bank-match-consumer').waitFor();
    await page.waitForTimeout(500); // the dialog's fade-in
    await shot(page, 'bank-match-dialog-el');
    await dialog.getByTestId('bank-match-pick').click();
    await page.getByTestId('bank-unmatched-none').waitFor();
    // The consumer's bill is paid: the debt search finds nothing open.
    const search = await api('GET', '/api/payments/debts?q=01-001-892');
    expect(search.status).toBe(404);
    await context.close();

    // In English: the report now shows the line matched by hand, and nothing waits.
    const en = await e2e.newPage({ locale: 'en-GB' });
    await en.page.setViewportSize({ width: 1366, height: 768 });
    await openSignedIn(en.page, 'admin', ADMIN_PASSWORD, '/en/payments/bank');
    await en.page.getByTestId('bank-files').waitFor();
    await shot(en.page, 'bank-import-en');
    await en.page.getByTestId('bank-files').getByRole('button', { name: 'Report' }).first().click();
    await en.page.getByTestId('bank-report').waitFor();
    await expect
      .poll(() => en.page.getByTestId('bank-count-manual').textContent())
      .toBe('Matched by hand: 1');
    expect(await en.page.getByTestId('bank-line').nth(2).textContent()).toContain('Malformed amount');
    expect(await overflow(en.page, 'bank-lines')).toBe(0);
    await shot(en.page, 'bank-report-en');
    expect(await accessibilityViolations(en.page)).toEqual([]);
    await en.page.goto('/en/payments/bank?tab=unmatched');
    await en.page.getByTestId('bank-unmatched-none').waitFor();
    await shot(en.page, 'bank-unmatched-en');
    await en.context.close();
  }, 240_000);

  it('shows the layouts as data and refuses one without an amount, in both languages', async () => {
    for (const [locale, prefix, message] of [
      ['el-GR', '', 'Η διάταξη πρέπει να ορίζει μία φορά'],
      ['en-GB', '/en', 'The layout must place the bank reference'],
    ] as const) {
      const { context, page } = await e2e.newPage({ locale });
      await openSignedIn(page, 'admin', ADMIN_PASSWORD, `${prefix}/payments/bank?tab=layouts`);
      await expect.poll(() => page.getByTestId('bank-layout-row').count()).toBe(2);
      await shot(page, `bank-layouts-${locale.slice(0, 2)}`);
      await page.getByTestId('bank-layout-row').nth(1).getByRole('button').click();
      const dialog = page.getByTestId('bank-layout-dialog');
      await dialog.waitFor();
      await page.waitForTimeout(500); // the dialog's fade-in
      await shot(page, `bank-layout-fixed-${locale.slice(0, 2)}`);
      const amountStart = dialog.getByRole('textbox', { name: /^(Ποσό Αρχή|Amount Start)$/ });
      await amountStart.fill('');
      await dialog.getByRole('textbox', { name: /^(Ποσό Μήκος|Amount Length)$/ }).fill('');
      await page.getByTestId('bank-layout-save').click();
      await expect.poll(async () => (await dialog.textContent()) ?? '').toContain(message);
      await context.close();
    }
  }, 180_000);
});
