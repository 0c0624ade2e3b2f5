import { pdfText } from '@protocol/server/testing/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { accessibilityViolations } from '../support/axe.ts';
import { type E2E, startE2E } from '../support/harness.ts';
import { pdfShot } from '../support/pdf.ts';
import { shot } from '../support/shot.ts';
import { consumerBillRow, finalizedBill, newConsumer, openConsumerBills } from '../support/water.ts';

/**
 * Crediting a finalized bill (issue 17: later corrections are credits, never edits) as the billing
 * administrator does it on the consumer card's Bills tab: the dialog wants a reason, the credit is
 * numbered in the credit series and listed beside the bill, its PDF says "Πιστωτικό" with the
 * corrected bill's number and date and no RF slip; a refusal of the server shows in the dialog,
 * translated. Screenshots of the dialog and the credit's page in Greek and English.
 */
let e2e: E2E;
let api: Api;
let consumerId: number;
const bills: Record<string, { id: number; number: number; total: string }> = {};

const billOf = (from: string, to: string, periodLabel: string, issueDate: string) =>
  finalizedBill(api, {
    consumerId,
    from,
    to,
    periodLabel,
    previousReading: 1500,
    previousDate: from,
    consumption: 22,
    currentDate: to,
    issueDate,
  });

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
  consumerId = await newConsumer(api, {
    owner: { individual: true, lastname: 'Ζαχαρίου', firstname: 'Δέσποινα' },
    parts: ['01', '001', '781'],
    supplyAddress: 'Κολοκοτρώνη 3, Αγία Ελένη',
  });
  bills.first = await billOf('2026-01-01', '2026-04-30', 'Α΄ τετράμηνο 2026', '2026-05-10');
  bills.second = await billOf('2026-05-01', '2026-08-31', 'Β΄ τετράμηνο 2026', '2026-09-10');
});
afterAll(async () => {
  await e2e?.close();
});

describe('crediting a bill', () => {
  it('credits a bill from the Bills tab with a reason and prints the credit', async () => {
    const { context, page } = await e2e.newPage();
    await openConsumerBills(page, consumerId, 'el');
    const first = consumerBillRow(page, bills.first?.id ?? 0);
    await first.getByTestId('consumer-bill-credit').click();
    const dialog = page.getByTestId('credit-bill-dialog');
    await dialog.waitFor();
    // No reason: refused under the field, nothing sent.
    await page.getByTestId('credit-bill-submit').click();
    await expect.poll(() => dialog.getByText('Το πεδίο είναι απαραίτητο').count()).toBe(1);
    await page.getByTestId('credit-bill-reason').fill('Λάθος ένδειξη υδρομέτρου κατά την καταμέτρηση');
    expect(await dialog.getByText('Το πεδίο είναι απαραίτητο').count()).toBe(0);
    await shot(page, 'billing-credit-dialog-el');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('credit-bill-submit').click();
    await expect.poll(() => page.getByText(/Εκδόθηκε το πιστωτικό ΠΛΥ-1\/2026/).count()).toBe(1);
    await expect.poll(() => dialog.count()).toBe(0);
    // The credit is listed beside the bill; the bill cannot be credited again.
    await expect.poll(() => first.getByTestId('consumer-bill-credited').count()).toBe(1);
    expect(await first.getByTestId('consumer-bill-credit').count()).toBe(0);
    const creditRow = page.getByTestId('consumer-bill').filter({ hasText: 'ΠΛΥ-1/2026' });
    await expect.poll(() => creditRow.count()).toBe(1);
    expect(await creditRow.textContent()).toContain('Πιστωτικό');
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      creditRow.getByTestId('consumer-bill-pdf').click(),
    ]);
    expect(popup.url()).toMatch(/^blob:/);
    await popup.close();
    await shot(page, 'billing-credit-bills-tab-el');
    await context.close();

    const tab = (await api('GET', `/api/billing/consumers/${consumerId}/bills`)).body as {
      id: number;
      correctsId: number | null;
    }[];
    const credit = tab.find((b) => b.correctsId === bills.first?.id);
    expect(credit).toBeTruthy();
    for (const lang of ['el', 'en'] as const) {
      const response = await api.fetch(`/api/billing/bills/${credit?.id}/pdf?lang=${lang}`);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      const bytes = Buffer.from(await response.arrayBuffer());
      const text = await pdfText(bytes);
      if (lang === 'el') {
        expect(text).toContain('Πιστωτικό λογαριασμού ύδρευσης ΠΛΥ-1/2026');
        expect(text).toContain(`Πιστώνει τον λογαριασμό ΛΥΔ-${bills.first?.number}/2026 της 10/05/2026`);
        expect(text).toContain('Λάθος ένδειξη υδρομέτρου κατά την καταμέτρηση');
        expect(text).toContain(`-${bills.first?.total.replace('.', ',')} €`);
        expect(text).not.toContain('RF');
      } else {
        expect(text).toContain('Water bill credit note ΠΛΥ-1/2026');
        expect(text).toContain(`Credits bill ΛΥΔ-${bills.first?.number}/2026 of 10/05/2026`);
      }
      pdfShot(bytes, `billing-credit-pdf-${lang}`, 90);
    }
  }, 120_000);

  it('shows the server’s refusal in the dialog, in English', async () => {
    const { context, page } = await e2e.newPage({ locale: 'en-GB' });
    await openConsumerBills(page, consumerId, 'en');
    await consumerBillRow(page, bills.second?.id ?? 0)
      .getByTestId('consumer-bill-credit')
      .click();
    await page.getByTestId('credit-bill-dialog').waitFor();
    await page.getByTestId('credit-bill-reason').fill('Estimated reading replaced by the real one');
    await shot(page, 'billing-credit-dialog-en');
    // Meanwhile another administrator credits the same bill.
    const other = await api('POST', `/api/billing/bills/${bills.second?.id}/credit`, {
      reason: 'Διπλή χρέωση',
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    await page.getByTestId('credit-bill-submit').click();
    await expect
      .poll(() => page.getByTestId('credit-bill-error').textContent())
      .toBe('The bill has already been credited (ΠΛΥ-2/2026).');
    await context.close();
  }, 120_000);
});
