import { pdfText } from '@protocol/server/testing/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, idOf, signInApi } from '../support/api.ts';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { pdfShot } from '../support/pdf.ts';
import { shot } from '../support/shot.ts';
import { newConsumer } from '../support/water.ts';

/**
 * Billing (issue 17) as the billing clerk uses it: a 2027 household tariff with three bands and a
 * social discount set on their screens, the "try it" panel computing a consumer's bill to the cent,
 * a bill stored through the module's API, found in /invoices and printed (its PDF's text and a picture
 * of its page), in both languages.
 */
let e2e: E2E;
let api: Api;
let consumerId: number;

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
  const regulations = (await api('GET', '/api/water/parametrics/specialRegulations')).body;
  consumerId = await newConsumer(api, {
    owner: { individual: true, lastname: 'Σταματοπούλου', firstname: 'Αικατερίνη' },
    parts: ['01', '001', '777'],
    supplyAddress: 'Παπαφλέσσα 14, Αγία Ελένη',
    more: {
      specialRegulationId: idOf(regulations, 'KOIN'),
      specialFrom: '2026-10-01',
      specialTo: '2027-09-30',
    },
  });
});
afterAll(async () => {
  await e2e?.close();
});

describe('billing', () => {
  it('sets a 2027 household tariff with three bands on its screen', async () => {
    // The tariff change: the household tariff of 2026 closes first (two may not be valid on one day).
    const policies = (await api('GET', '/api/billing/pricing_policies')).body as Record<string, unknown>[];
    const {
      id,
      propertyUsage: _usage,
      ...household
    } = policies.find((p) => String(p.description).startsWith('Οικιακό')) ?? {};
    const closed = await api('PUT', `/api/billing/pricing_policies/${id}`, {
      ...household,
      todate: '2026-12-31',
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/billing/pricing_policies');
    await expect.poll(() => page.getByTestId('billing-pricing-row').count()).toBeGreaterThanOrEqual(3);
    await page.getByTestId('billing-pricing-new').click();
    // The usual VAT rates come in first: wait for them before typing.
    await expect.poll(() => page.getByTestId('pricing-vat-water').inputValue()).not.toBe('');
    await page.getByTestId('pricing-description').fill('Οικιακό τιμολόγιο 2027');
    const usage = page.getByTestId('pricing-usage');
    await usage.selectOption(
      (await usage.locator('option', { hasText: 'Οικιακή' }).getAttribute('value')) ?? '',
    );
    await page.getByTestId('pricing-fromdate').fill('01/01/2027');
    await page.getByTestId('pricing-band-add').click();
    await page.getByTestId('pricing-band-0-upTo').fill('10');
    await page.getByTestId('pricing-band-0-price').fill('0,50');
    await page.getByTestId('pricing-band-1-upTo').fill('30');
    await page.getByTestId('pricing-band-1-price').fill('1,00');
    await page.getByTestId('pricing-band-2-price').fill('1,50');
    await page.getByTestId('pricing-fixed-0-amount').fill('5,00');
    await page.getByTestId('pricing-sewerageValue').fill('50');
    await page.getByLabel('Συνδεδεμένο στην αποχέτευση').check();
    await page.getByTestId('pricing-save').click();
    await page.waitForURL(/\/billing\/pricing_policies\/\d+\/edit$/);
    await expect.poll(() => page.getByTestId('pricing-band-1-upTo').inputValue()).toBe('30');
    await shot(page, 'billing-pricing-edit-el');

    // A wrong band order is refused under its field, in Greek.
    await page.getByTestId('pricing-band-1-upTo').fill('5');
    await page.getByTestId('pricing-save').click();
    await expect.poll(() => page.getByText('Τα όρια των κλιμακίων πρέπει να αυξάνουν.').count()).toBe(1);
    await context.close();
  });

  it('sets a social discount for the social tariff category', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/billing/discount_policies/create');
    await page.getByTestId('discount-description').fill('Κοινωνικό τιμολόγιο 2027 – 50% της κατανάλωσης');
    await page.getByTestId('discount-amount').fill('50');
    await page.getByTestId('discount-fromdate').fill('01/01/2027');
    await page.getByTestId('discount-regulations').getByLabel('Κοινωνικό τιμολόγιο').check();
    await page.getByTestId('discount-save').click();
    await page.waitForURL(/\/billing\/discount_policies\/\d+\/edit$/);
    await page.goto('/billing/discount_policies');
    await expect
      .poll(() => page.getByTestId('billing-discount-row').filter({ hasText: '2027' }).count())
      .toBe(1);
    await shot(page, 'billing-discounts-el');
    await page.goto('/en/billing/discount_policies');
    await page.getByText('Discount policies').first().waitFor();
    await expect.poll(() => page.getByTestId('billing-discount-row').count()).toBeGreaterThanOrEqual(4);
    await shot(page, 'billing-discounts-en');
    await context.close();
  });

  it("tries a consumer's bill on the policies screen, to the cent, in both languages", async () => {
    // By hand: fixed 5.00; bands 10 × 0.50 = 5.00 and 15 × 1.00 = 15.00; sewerage 50% of 20.00 = 10.00;
    // resource 25 × 0.035 = 0.875 → 0.88; environmental 1.25; social 50% of 20.00 = −10.00;
    // 13%: 17.13 → 2.23; 24%: 10.00 → 2.40; total 31.76.
    for (const [locale, prefix, total] of [
      ['el-GR', '', '31,76 €'],
      ['en-GB', '/en', '31.76 €'],
    ] as const) {
      const { context, page } = await e2e.newPage({ locale });
      await openSignedIn(page, 'admin', ADMIN_PASSWORD, `${prefix}/billing/pricing_policies`);
      await page.getByTestId('billing-try-consumer').fill('Σταματοπ');
      await page.getByRole('option', { name: /Σταματοπούλου/ }).click();
      await page.getByTestId('billing-try-from').fill('01/01/2027');
      await page.getByTestId('billing-try-to').fill('30/04/2027');
      await page.getByTestId('billing-try-consumption').fill('25');
      await page.getByTestId('billing-try-compute').click();
      await expect.poll(() => page.getByTestId('billing-try-total').textContent()).toBe(total);
      const lines = await page.getByTestId('billing-try-line').allTextContents();
      expect(lines).toHaveLength(7);
      expect(lines.join('\n')).toContain(
        locale === 'el-GR' ? 'Κατανάλωση νερού – κλιμάκιο 2' : 'Water consumption – band 2',
      );
      await shot(page, `billing-pricing-try-${locale.slice(0, 2)}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      if (locale === 'en-GB') {
        await page.getByTestId('topbar-theme').click();
        await shot(page, 'billing-pricing-try-en-dark');
      }
      await context.close();
    }
  });

  it('stores a bill through the module, lists it and prints it with its RF code', async () => {
    const stored = await api('POST', '/api/billing/bills', {
      consumerId,
      from: '2027-01-01',
      to: '2027-04-30',
      periodLabel: 'Α΄ τετράμηνο 2027',
      previousReading: 1500,
      previousDate: '2027-01-04',
      currentReading: 1525,
      currentDate: '2027-05-03',
      consumption: '25',
      issueDate: '2027-05-10',
    });
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    expect(stored.body.total).toBe('31.76');
    const bill = stored.body;

    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/invoices');
    const row = page.getByRole('row').filter({ hasText: 'Σταματοπούλου' });
    await expect.poll(() => row.count()).toBe(1);
    await shot(page, 'billing-invoices-el');
    await page.goto('/en/invoices');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Σταματοπούλου' }).count()).toBe(1);
    await shot(page, 'billing-invoices-en');
    await page.goto('/invoices');
    await expect.poll(() => row.count()).toBe(1);
    const popup = page.waitForEvent('popup');
    await row.click();
    expect((await popup).url()).toMatch(/^blob:/);
    await context.close();

    for (const lang of ['el', 'en'] as const) {
      const response = await api.fetch(`/api/billing/bills/${bill.id}/pdf?lang=${lang}`);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      const bytes = Buffer.from(await response.arrayBuffer());
      const text = await pdfText(bytes);
      const rf = bill.rfCode.replace(/(.{4})(?=.)/g, '$1 ');
      if (lang === 'el') {
        for (const expected of [
          'Λογαριασμός ύδρευσης',
          'Σταματοπούλου',
          'Κατανάλωση νερού – κλιμάκιο 1',
          'Έκπτωση Κοινωνικό τιμολόγιο 2027',
          '-10,00',
          '50%',
          '31,76 €',
          '09/06/2027',
          rf,
        ]) {
          expect(text).toContain(expected);
        }
      } else {
        expect(text).toContain('Water and sewerage bill');
        expect(text).toContain('31.76 €');
      }
      // A picture of the page, as the consumer sees it.
      pdfShot(bytes, `billing-bill-${lang}`, 90);
    }
  });
});
