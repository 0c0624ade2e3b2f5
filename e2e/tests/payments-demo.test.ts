import { DEMO_OPERATORS } from '@protocol/server/demo-operators';
import { DEMO_BALANCE_LOOKUP } from '@protocol/server/demo-water';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInApi } from '../support/api.ts';
import { accessibilityViolations } from '../support/axe.ts';
import { seedDemoOverHttp } from '../support/demo.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { pdfShot } from '../support/pdf.ts';
import { shot } from '../support/shot.ts';

/**
 * The demo company's water service as `npm start` leaves it (README "Demo accounts"), met by its water
 * clerk: the cashier with the day's demo receipts and a consumer's open bills, the Account tab of the
 * consumer whose prepayment paid its bills, the public lookup with the README's code and ΑΦΜ.
 */
let e2e: E2E;
const clerk = DEMO_OPERATORS[1];

beforeAll(async () => {
  e2e = await startE2E();
  await seedDemoOverHttp(e2e);
}, 300_000);
afterAll(async () => {
  await e2e?.close();
});

const asAdmin = async (url: string): Promise<Response> => (await signInApi(e2e)).fetch(url);

async function consumerId(code: string): Promise<number> {
  const rows = (await (await asAdmin('/api/protocol/consumers/search?size=-1')).json()).content as {
    id: number;
    code: string;
  }[];
  return rows.find((r) => r.code.replace(/\s/g, '') === code)?.id ?? 0;
}

describe('the demo water service', () => {
  it('gives the cashier the day’s receipts and a consumer’s open bills, in Greek and English', async () => {
    for (const [locale, prefix, search] of [
      ['el-GR', '', 'Αναζήτηση'],
      ['en-GB', '/en', 'Search'],
    ] as const) {
      const { context, page } = await e2e.newPage({ locale });
      await openSignedIn(page, clerk.username, clerk.password, `${prefix}/payments/cashier`);
      // The demo's three receipts of the clerk's day: in full, in part, the prepayment.
      await expect.poll(() => page.getByTestId('payments-day').getByRole('row').count()).toBe(4);
      await page.getByTestId('payments-search').fill('Παπαδάκης');
      await page.getByRole('button', { name: search }).click();
      const consumer = page.getByTestId('payments-consumer');
      await consumer.waitFor();
      // The header, the two bills of 2026 and their total.
      await expect.poll(() => consumer.getByRole('row').count()).toBe(4);
      await shot(page, `payments-demo-cashier-${locale.slice(0, 2)}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      await context.close();
    }
  }, 120_000);

  it('shows the prepayment paying the bills on the Account tab', async () => {
    const id = await consumerId('02-001-106');
    for (const [locale, prefix, tab, applied] of [
      ['el-GR', '', 'Καρτέλα', 'Συμψηφισμός πίστωσης'],
      ['en-GB', '/en', 'Account', 'Credit applied'],
    ] as const) {
      const { context, page } = await e2e.newPage({ locale });
      await openSignedIn(page, clerk.username, clerk.password, `${prefix}/consumers/${id}/edit`);
      await page.getByRole('tab', { name: tab }).click();
      const ledger = page.getByTestId('account-ledger');
      await ledger.waitFor();
      // Two bills, the prepayment, the credit applied to the first bill.
      await expect.poll(() => ledger.getByRole('row').count()).toBe(5);
      expect(await ledger.getByRole('row').nth(4).textContent()).toContain(applied);
      await shot(page, `payments-demo-account-${locale.slice(0, 2)}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      await context.close();
    }
  }, 120_000);

  it('prints the settlement decision for the consumer to sign, in Greek and English', async () => {
    const [settlement] = (await (await asAdmin('/api/settlements/search?size=-1')).json()).content;
    for (const lang of ['el', 'en']) {
      const pdf = await asAdmin(`/api/settlements/${settlement.id}/pdf?lang=${lang}`);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      pdfShot(await pdf.arrayBuffer(), `settlement-decision-${lang}`);
    }
  });

  it('writes consumer codes as people do, and takes them typed without separators (issue 32 item 4)', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, clerk.username, clerk.password, '/consumers');
    await expect.poll(() => page.getByTestId('data-table-row').count()).toBeGreaterThan(0);
    const codes = await page.locator('[data-testid="data-table-row"] [data-field="code"]').allTextContents();
    expect(codes).toContain(DEMO_BALANCE_LOOKUP.code);
    for (const code of codes) expect(code).toMatch(/^\d{2}-\d{3}-\d+$/);
    await shot(page, 'codes-consumers-el');
    // The list's quick search takes the code as written and without separators alike.
    for (const typed of [DEMO_BALANCE_LOOKUP.code, DEMO_BALANCE_LOOKUP.code.replace(/\D/g, '')]) {
      await page.getByTestId('table-search').fill(typed);
      await expect
        .poll(() => page.locator('[data-testid="data-table-row"] [data-field="code"]').allTextContents())
        .toEqual([DEMO_BALANCE_LOOKUP.code]);
    }
    await shot(page, 'codes-consumers-search-el');
    await page.goto(`/consumers/${await consumerId(DEMO_BALANCE_LOOKUP.code)}/edit`);
    await expect
      .poll(() => page.getByTestId('consumer-header-code').textContent())
      .toBe(DEMO_BALANCE_LOOKUP.code);
    await context.close();

    // The citizen types 01001101 for 01-001-101.
    const lookup = await e2e.newPage();
    await lookup.page.goto('/balance');
    await lookup.page.getByTestId('balance-code').fill(DEMO_BALANCE_LOOKUP.code.replace(/\D/g, ''));
    await lookup.page.getByTestId('balance-vat').fill(DEMO_BALANCE_LOOKUP.vatNumber);
    await lookup.page.getByTestId('balance-submit').click();
    await lookup.page.getByTestId('balance-result').waitFor();
    expect(await lookup.page.getByTestId('balance-result').textContent()).toContain('RF');
    await lookup.context.close();
  });

  it('answers the public balance lookup for the README’s code and ΑΦΜ', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/balance');
    await page.getByTestId('balance-code').fill(DEMO_BALANCE_LOOKUP.code);
    await page.getByTestId('balance-vat').fill(DEMO_BALANCE_LOOKUP.vatNumber);
    await page.getByTestId('balance-submit').click();
    await page.getByTestId('balance-result').waitFor();
    expect(await page.getByTestId('balance-result').textContent()).toContain('RF');
    await context.close();
  });
  it('writes amounts, prices and percentages one way, in the page’s language (issue 32 item 5)', async () => {
    // Greek: 1.135,30 (the settlements list showed 1135.30, the categories 0.00, the bill terms 0.05).
    const written = {
      el: { money: /^\d{1,3}(\.\d{3})*,\d{2}$/, decimal: /^\d{1,3}(\.\d{3})*(,\d{1,4})?$/ },
      en: { money: /^\d{1,3}(,\d{3})*\.\d{2}$/, decimal: /^\d{1,3}(,\d{3})*(\.\d{1,4})?$/ },
    } as const;
    const inputs = (page: import('playwright-core').Page, key: string) =>
      page
        .locator(`input[data-testid^="cell-${key}-"]`)
        .evaluateAll((all) => all.map((input) => (input as HTMLInputElement).value));
    for (const [lang, prefix] of [
      ['el', ''],
      ['en', '/en'],
    ] as const) {
      const { context, page } = await e2e.newPage({ locale: lang === 'el' ? 'el-GR' : 'en-GB' });
      await openSignedIn(page, 'admin', ADMIN_PASSWORD, `${prefix}/settlements`);
      await page.getByTestId('settlements-header').waitFor();
      await expect.poll(() => page.getByTestId('data-table-row').count()).toBeGreaterThan(0);
      const amounts = await page
        .locator('[data-testid="data-table-row"] [data-field="amount"]')
        .allTextContents();
      expect(amounts.length).toBeGreaterThan(0);
      for (const amount of amounts) expect(amount).toMatch(written[lang].money);
      await shot(page, `amounts-settlements-${lang}`);

      await page.goto(`${prefix}/settlements/categories`);
      await page.getByTestId('settlement-categories-page').waitFor();
      await expect.poll(() => inputs(page, 'minInstalment').then((v) => v.length)).toBeGreaterThan(0);
      for (const value of await inputs(page, 'minInstalment')) expect(value).toMatch(written[lang].money);
      for (const value of await inputs(page, 'discountPercent')) expect(value).toMatch(written[lang].money);
      await shot(page, `amounts-settlement-categories-${lang}`);

      await page.goto(`${prefix}/water/invoice_policies`);
      await page.getByTestId('invoice-policies-page').waitFor();
      await expect.poll(() => inputs(page, 'envtax').then((v) => v.length)).toBeGreaterThan(0);
      for (const value of [...(await inputs(page, 'envtax')), ...(await inputs(page, 'resourcetax'))])
        expect(value).toMatch(written[lang].decimal);
      await shot(page, `amounts-invoice-policies-${lang}`);

      await page.goto(`${prefix}/settings/vat_percentages`);
      await expect.poll(() => inputs(page, 'percentage').then((v) => v.length)).toBeGreaterThan(0);
      expect(await inputs(page, 'percentage')).toContain(lang === 'el' ? '24,00' : '24.00');
      await shot(page, `amounts-vat-percentages-${lang}`);
      await context.close();
    }

    // Typed the Greek way, sent as the decimal it is.
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/settlements/categories');
    const cell = page.locator('input[data-testid^="cell-discountPercent-"]').first();
    await cell.waitFor();
    const rowId = (await cell.getAttribute('data-testid'))?.replace('cell-discountPercent-', '');
    await cell.fill('2,5');
    await page.getByTestId('row-save').click();
    await expect
      .poll(async () => {
        const categories = (await (await asAdmin('/api/settlements/categories')).json()) as {
          id: number;
          discountPercent: string;
        }[];
        return categories.find((c) => String(c.id) === rowId)?.discountPercent;
      })
      .toBe('2.50');
    await expect.poll(() => cell.inputValue()).toBe('2,50');
    await context.close();
  }, 180_000);
});
