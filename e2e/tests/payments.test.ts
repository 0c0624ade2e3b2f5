import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';
import { finalizedBill, newConsumer } from '../support/water.ts';

/**
 * Payments (issue 18) as the cashier and the clerk use them: a consumer with two finalized bills, found
 * at the cashier by its code, paid oldest first, the receipt opened; the consumer card's Account tab
 * with the ledger and its running balance, in Greek and in English.
 */
let e2e: E2E;
let api: Api;
let consumerId: number;
const bills: { total: string; current: string; rfCode: string }[] = [];

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
  consumerId = await newConsumer(api, {
    owner: { individual: true, lastname: 'Ταμιακή', firstname: 'Ειρήνη', vatnumber: '094259216' },
    parts: ['01', '001', '881'],
    supplyAddress: 'Ερμού 881, Αγία Ελένη',
  });
  for (const [from, to, consumption, issueDate] of [
    ['2026-01-01', '2026-04-30', 25, '2026-05-10'],
    ['2026-05-01', '2026-08-31', 18, '2026-09-10'],
  ] as const) {
    const bill = await finalizedBill(api, {
      consumerId,
      from,
      to,
      periodLabel: `${from.slice(5, 7)}–${to.slice(5, 7)}/2026`,
      previousReading: 1000,
      previousDate: from,
      consumption,
      currentDate: to,
      issueDate,
    });
    bills.push(bill);
  }
});

afterAll(async () => {
  await e2e?.close();
});

describe('payments', () => {
  it('pays a bill at the cashier, oldest first, and opens the receipt', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/payments/cashier');
    await page.getByTestId('payments-search').fill('01-001-881');
    await page.getByRole('button', { name: 'Αναζήτηση' }).click();
    const consumer = page.getByTestId('payments-consumer');
    await consumer.waitFor();
    await expect.poll(() => consumer.getByRole('row').count()).toBe(4);
    const second = bills[1] as { total: string };
    expect(await page.getByTestId('payments-due').textContent()).toBe(`${second.total.replace('.', ',')} €`);
    await shot(page, 'payments-cashier-el');
    // The first (oldest) bill, chosen by hand, paid in cash.
    await consumer.getByRole('row').nth(1).click();
    await page.getByTestId('payments-pay').click();
    const receipt = page.getByTestId('payments-receipt');
    await receipt.waitFor();
    expect(await receipt.textContent()).toContain('Εκδόθηκε η απόδειξη 1/');
    const popup = page.waitForEvent('popup');
    await receipt.getByRole('button', { name: 'Άνοιγμα απόδειξης' }).click();
    expect((await popup).url()).toMatch(/^blob:/);
    await expect.poll(() => consumer.getByRole('row').count()).toBe(3);
    await expect.poll(() => page.getByTestId('payments-day').getByRole('row').count()).toBe(2);
    await shot(page, 'payments-cashier-paid-el');
    expect(await accessibilityViolations(page)).toEqual([]);
    await context.close();

    const en = await e2e.newPage({ locale: 'en-GB' });
    await openSignedIn(en.page, 'admin', ADMIN_PASSWORD, '/en/payments/cashier');
    await en.page.getByTestId('payments-search').fill('Ταμιακη');
    await en.page.getByRole('button', { name: 'Search' }).click();
    await en.page.getByTestId('payments-consumer').waitFor();
    await expect.poll(() => en.page.getByTestId('payments-day').getByRole('row').count()).toBe(2);
    await shot(en.page, 'payments-cashier-en');
    // Nothing found: the spec's message.
    await en.page.getByTestId('payments-search').fill('no such consumer');
    await en.page.getByRole('button', { name: 'Search' }).click();
    await expect
      .poll(() => en.page.getByTestId('payments-search-error').textContent())
      .toBe('No debts found for the given details');
    await en.context.close();
  });

  it("shows the consumer's account tab with the running balance, in both languages", async () => {
    for (const [locale, prefix, tab] of [
      ['el-GR', '', 'Καρτέλα'],
      ['en-GB', '/en', 'Account'],
    ] as const) {
      const { context, page } = await e2e.newPage({ locale });
      await openSignedIn(page, 'admin', ADMIN_PASSWORD, `${prefix}/consumers/${consumerId}/edit`);
      await page.getByRole('tab', { name: tab }).click();
      const ledger = page.getByTestId('account-ledger');
      await ledger.waitFor();
      // Two bills and the payment of the first.
      await expect.poll(() => ledger.getByRole('row').count()).toBe(4);
      const remaining = (bills[1] as { current: string }).current;
      const shown = locale === 'el-GR' ? `${remaining.replace('.', ',')} €` : `${remaining} €`;
      expect(await page.getByTestId('account-balance').textContent()).toBe(shown);
      await shot(page, `payments-account-${locale.slice(0, 2)}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it('looks up a balance on the public page by code and ΑΦΜ, without signing in', async () => {
    for (const [locale, prefix, refusal] of [
      ['el-GR', '', 'Δεν βρέθηκαν οφειλές για τα στοιχεία που δώσατε'],
      ['en-GB', '/en', 'No debts found for the given details'],
    ] as const) {
      const { context, page } = await e2e.newPage({ locale });
      await page.goto(`${prefix}/balance`);
      await page.getByTestId('balance-code').fill('01-001-881');
      await page.getByTestId('balance-vat').fill('094259215');
      await page.getByTestId('balance-submit').click();
      await expect.poll(() => page.getByTestId('balance-error').textContent()).toBe(refusal);
      await page.getByTestId('balance-vat').fill('094259216');
      await page.getByTestId('balance-submit').click();
      const result = page.getByTestId('balance-result');
      await result.waitFor();
      const remaining = (bills[1] as { current: string }).current;
      expect(await page.getByTestId('balance-due').textContent()).toBe(
        `${locale === 'el-GR' ? remaining.replace('.', ',') : remaining} €`,
      );
      expect(await result.textContent()).toContain('RF');
      expect(await page.content()).not.toContain('Ταμιακή');
      await shot(page, `payments-public-balance-${locale.slice(0, 2)}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      await context.close();
    }
  });
});
