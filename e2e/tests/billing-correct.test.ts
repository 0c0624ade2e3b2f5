import { pdfText } from '@protocol/server/testing/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, idOf, signInApi } from '../support/api.ts';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { pdfShot } from '../support/pdf.ts';
import { shot } from '../support/shot.ts';
import { consumerBillRow, openConsumerBills, runAndFinalize } from '../support/water.ts';

/**
 * The corrected bill after a credit, as the billing administrator issues it on the consumer card's
 * Bills tab (issue 17): a run billed 25 m³ where the meter said 15; the reading is corrected, the
 * bill credited, and "Issue corrected bill" shows the new bill's lines and total before it is issued,
 * numbered next in the water-bill series; its PDF says which bill it replaces. A refusal of the server
 * (another administrator issued it meanwhile) shows in the dialog, translated. Screenshots of the
 * preview, the tab and the PDF in Greek and English. The corrected bills, on hold, are printed from the
 * bills list into one PDF and that sending closed once posted.
 */
let e2e: E2E;
let api: Api;
let route: number;
const consumers: Record<string, number> = {};
const bills: Record<string, { id: number; number: number; total: string }> = {};

const readAs = (consumerId: number, reading: number) =>
  api('POST', '/api/readouts/readings', {
    routeId: route,
    year: 2026,
    period: 1,
    consumerId,
    reading,
    readOn: '2026-04-22',
  });

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
  const usages = (await api('GET', '/api/water/parametrics/propertyUsages')).body;
  const sewerage = (await api('GET', '/api/water/parametrics/sewerageIndicators')).body;
  const policies = (await api('GET', '/api/water/invoice_policies')).body;
  route = idOf((await api('GET', '/api/readouts/routes')).body, '001') as number;
  for (const [number, lastname] of [
    ['791', 'Παπαθανασίου'],
    ['792', 'Κυριακίδου'],
  ] as const) {
    const owner = await api('POST', '/api/traders', {
      individual: true,
      lastname,
      firstname: 'Ελένη',
      traderbanks: [],
      customFields: {},
    });
    expect(owner.status, JSON.stringify(owner.body)).toBe(201);
    const consumer = await api('POST', '/api/protocol/consumers', {
      parts: ['01', '001', number],
      ownerId: owner.body.id,
      supplyAddress: `Παπαφλέσσα ${number.slice(1)}, Αγία Ελένη`,
      status: 1,
      propertyUsageId: idOf(usages, 'OIK'),
      sewerageIndicatorId: idOf(sewerage, 'SYN'),
      invoicePolicyId: policies[0].id,
    });
    expect(consumer.status, JSON.stringify(consumer.body)).toBe(201);
    consumers[number] = consumer.body.id;
    const meter = await api('POST', `/api/protocol/consumers/${consumer.body.id}/meters`, {
      date: '2025-12-01',
      meter: {
        serialNumber: `COR-${number}`,
        meterTypeId: null,
        kind: 1,
        direction: 1,
        diameter: 'DN15',
        digits: 5,
        initialReading: 500,
      },
    });
    expect(meter.status, JSON.stringify(meter.body)).toBe(200);
    // Read as 525: the meter said 515.
    const reading = await readAs(consumer.body.id, 525);
    expect(reading.status, JSON.stringify(reading.body)).toBe(200);
  }
  await runAndFinalize(api, [route], '2026-05-10', 2);
  for (const number of ['791', '792']) {
    const [bill] = (await api('GET', `/api/billing/consumers/${consumers[number]}/bills`)).body;
    bills[number] = bill;
    // The reading corrected in readouts (the period is still open there).
    expect((await readAs(consumers[number] as number, 515)).status).toBe(200);
  }
}, 180_000);
afterAll(async () => {
  await e2e?.close();
});

describe('the corrected bill after a credit', () => {
  it('credits the bill, previews and issues the corrected one from the Bills tab, and prints it', async () => {
    const bill = bills['791'] as { id: number; number: number; total: string };
    // 25 m³ of the household tariff: 20.13 + 2.62 VAT 13%, 11.70 + 2.81 VAT 24%.
    expect(bill.total).toBe('37.26');
    const { context, page } = await e2e.newPage();
    await openConsumerBills(page, consumers['791'] as number, 'el');
    const row = consumerBillRow(page, bill.id);
    // Not credited yet: nothing to correct.
    expect(await row.getByTestId('consumer-bill-correct').count()).toBe(0);
    await row.getByTestId('consumer-bill-credit').click();
    await page.getByTestId('credit-bill-reason').fill('Λάθος ένδειξη: 525 αντί για 515');
    await page.getByTestId('credit-bill-submit').click();
    await expect.poll(() => page.getByText(/Εκδόθηκε το πιστωτικό ΠΛΥ-1\/2026/).count()).toBe(1);

    await row.getByTestId('consumer-bill-correct').click();
    const dialog = page.getByTestId('correct-bill-dialog');
    await dialog.waitFor();
    // 15 m³: 13.28 + 1.73 VAT 13%, 8.10 + 1.94 VAT 24% = 25.05.
    await expect.poll(() => dialog.getByTestId('correct-bill-total').textContent()).toBe('25,05 €');
    expect(await dialog.getByTestId('correct-bill-consumption').textContent()).toBe('Κατανάλωση: 15 m³');
    expect(await dialog.getByTestId('correct-bill-line').count()).toBe(7);
    expect(await dialog.getByTestId('correct-bill-compare').textContent()).toBe(
      `Αντικαθιστά τον ΛΥΔ-${bill.number}/2026: χρεώσεις περιόδου 37,26 € → 25,05 €.`,
    );
    await shot(page, 'billing-correct-dialog-el');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('correct-bill-submit').click();
    await expect.poll(() => page.getByText('Εκδόθηκε ο διορθωμένος λογαριασμός ΛΥΔ-3/2026.').count()).toBe(1);
    await expect.poll(() => dialog.count()).toBe(0);
    // The corrected bill is listed after the credit; the credited bill cannot be corrected again.
    const corrected = page.getByTestId('consumer-bill').filter({ hasText: 'ΛΥΔ-3/2026' });
    await expect.poll(() => corrected.count()).toBe(1);
    expect(await corrected.textContent()).toContain('Διορθωμένος');
    expect(await corrected.textContent()).toContain('25,05 €');
    expect(await row.textContent()).toContain('Αντικαταστάθηκε');
    expect(await row.getByTestId('consumer-bill-correct').count()).toBe(0);
    await shot(page, 'billing-correct-bills-tab-el');
    await context.close();

    const tab = (await api('GET', `/api/billing/consumers/${consumers['791']}/bills`)).body as {
      id: number;
      replacesId: number | null;
    }[];
    const id = tab.find((b) => b.replacesId === bill.id)?.id;
    for (const lang of ['el', 'en'] as const) {
      const response = await api.fetch(`/api/billing/bills/${id}/pdf?lang=${lang}`);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      const bytes = Buffer.from(await response.arrayBuffer());
      const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
      if (lang === 'el') {
        expect(text).toContain('Διορθωμένος λογαριασμός ύδρευσης – αποχέτευσης ΛΥΔ-3/2026');
        expect(text).toContain(`Αντικαθιστά ΛΥΔ-${bill.number}/2026 της 10/05/2026 (πιστωτικό ΠΛΥ-1/2026)`);
        expect(text).toContain('25,05 €');
        expect(text).toContain('RF');
      } else {
        expect(text).toContain('Corrected water and sewerage bill ΛΥΔ-3/2026');
        expect(text).toContain(`Replaces ΛΥΔ-${bill.number}/2026 of 10/05/2026 (credit note ΠΛΥ-1/2026)`);
      }
      pdfShot(bytes, `billing-correct-pdf-${lang}`, 90);
    }
  }, 120_000);

  it('shows the server’s refusal in the dialog, in English', async () => {
    const bill = bills['792'] as { id: number; number: number; total: string };
    const credited = await api('POST', `/api/billing/bills/${bill.id}/credit`, { reason: 'Wrong reading' });
    expect(credited.status, JSON.stringify(credited.body)).toBe(201);
    const { context, page } = await e2e.newPage({ locale: 'en-GB' });
    await openConsumerBills(page, consumers['792'] as number, 'en');
    await consumerBillRow(page, bill.id).getByTestId('consumer-bill-correct').click();
    const dialog = page.getByTestId('correct-bill-dialog');
    await expect.poll(() => dialog.getByTestId('correct-bill-total').textContent()).toBe('25.05 €');
    await shot(page, 'billing-correct-dialog-en');
    expect(await accessibilityViolations(page)).toEqual([]);
    // Meanwhile another administrator issues it.
    const other = await api('POST', `/api/billing/bills/${bill.id}/correction`);
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    await page.getByTestId('correct-bill-submit').click();
    await expect
      .poll(() => page.getByTestId('correct-bill-error').textContent())
      .toBe('A corrected bill has already been issued in its place (ΛΥΔ-4/2026).');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await shot(page, 'billing-correct-bills-tab-en');
    await context.close();
  }, 120_000);

  it('prints the corrected bills chosen on the bills list into one PDF and closes that sending', async () => {
    const corrected: number[] = [];
    for (const number of ['791', '792']) {
      const tab = (await api('GET', `/api/billing/consumers/${consumers[number]}/bills`)).body as {
        id: number;
        replacesId: number | null;
        sendStatus: number;
      }[];
      const bill = tab.find((b) => b.replacesId !== null);
      expect(bill?.sendStatus).toBe(0);
      corrected.push(bill?.id as number);
    }
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/invoices');
    await page.getByTestId('data-table-row').first().waitFor();
    expect(await page.getByTestId('billing-invoices-print').isDisabled()).toBe(true);
    for (const id of corrected) await page.getByTestId(`row-select-${id}`).click();
    expect(await page.getByTestId('billing-invoices-print').textContent()).toBe('Εκτύπωση επιλεγμένων (2)');
    await page.getByTestId('billing-invoices-print').click();
    await page.getByText('Δημιουργείται το PDF εκτύπωσης 2 λογαριασμών.').waitFor();
    const sendings = page.getByTestId('billing-chosen-sendings');
    await sendings
      .locator('[data-testid="billing-dispatch"][data-state="done"]')
      .waitFor({ timeout: 30_000 });
    expect(await sendings.getByTestId('billing-dispatch-result').first().textContent()).toBe(
      '2 λογαριασμοί τυπώθηκαν',
    );
    await shot(page, 'billing-chosen-sendings-el');
    expect(await accessibilityViolations(page)).toEqual([]);
    const { dispatches } = (await api('GET', '/api/billing/dispatches')).body as {
      dispatches: { id: number }[];
    };
    const file = await api.fetch(`/api/billing/dispatches/${dispatches[0]?.id}/file`);
    const bytes = Buffer.from(await file.arrayBuffer());
    const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
    expect(text.match(/Διορθωμένος λογαριασμός ύδρευσης – αποχέτευσης/g)).toHaveLength(2);
    expect(text).toContain('Παπαθανασίου');
    expect(text).toContain('Κυριακίδου');
    pdfShot(bytes, 'billing-print-chosen', 70);
    for (const id of corrected)
      expect((await api('GET', `/api/billing/bills/${id}`)).body.sendStatus).toBe(2);
    // Posted: the sending is closed and its bills completed.
    await sendings.getByTestId('billing-dispatch-complete').click();
    await page.getByText('2 λογαριασμοί ολοκληρώθηκαν.').waitFor();
    await expect.poll(() => sendings.getByTestId('billing-dispatch-complete').count()).toBe(0);
    for (const id of corrected)
      expect((await api('GET', `/api/billing/bills/${id}`)).body.sendStatus).toBe(9);
    await context.close();
  }, 120_000);
});
