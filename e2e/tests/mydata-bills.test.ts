import { utilityDay } from '@protocol/contracts';
import { type FakeAade, startFakeAade } from '@protocol/server/testing/fake-aade';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWithAade } from '../support/aade.ts';
import { type Api, signInApi } from '../support/api.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { pdfShot } from '../support/pdf.ts';
import { shot } from '../support/shot.ts';
import { finalizedBill, newConsumer } from '../support/water.ts';

/**
 * Water bills through myDATA (issue 20) as the accountant uses it, against the local AADE: the day's
 * finalized bills (created and finalized through billing's API) sent as one batch with progress, the
 * one AADE refuses shown with its error, and a sent bill's page and printed bill with MARK and QR.
 */
let e2e: E2E;
let aade: FakeAade;
let api: Api;
const today = utilityDay(new Date());
const REFUSED_AFM = '094422282';

type Json = Record<string, unknown>;
const bills: { id: number; owner: string }[] = [];

/** A consumer of a new owner and its finalized bill of the second 2026 period, issued today. */
async function billedConsumer(n: number, owner: Json, consumption: number) {
  const consumerId = await newConsumer(api, {
    owner,
    parts: ['01', '003', String(700 + n)],
    supplyAddress: `Παλαιολόγου ${n}, Αγία Ελένη`,
  });
  const bill = await finalizedBill(api, {
    consumerId,
    from: '2026-05-01',
    to: '2026-08-31',
    periodLabel: 'Β΄ τετράμηνο 2026',
    previousReading: 2000,
    previousDate: '2026-05-02',
    consumption,
    currentDate: '2026-09-01',
    issueDate: today,
  });
  bills.push({ id: bill.id, owner: String(owner.fullname ?? owner.lastname) });
}

beforeAll(async () => {
  aade = await startFakeAade();
  e2e = await startE2E();
  api = await signInApi(e2e);
  await registerWithAade(api);
  const { credentialsSet, localAade, ...settings } = (await api('GET', '/api/mydata/settings')).body;
  expect((await api('PUT', '/api/mydata/settings', { ...settings, testUrl: aade.url })).status).toBe(200);
  await billedConsumer(1, { individual: true, lastname: 'Μαυρίδου', firstname: 'Άννα' }, 31);
  await billedConsumer(
    2,
    { individual: false, fullname: 'Ξενοδοχείο Παλαιολόγου ΑΕ', vatnumber: '094014201' },
    140,
  );
  await billedConsumer(3, { individual: false, fullname: 'Παλαιά Βιοτεχνία ΟΕ', vatnumber: REFUSED_AFM }, 18);
  aade.rejectCounterpart(REFUSED_AFM, {
    code: '102',
    message: `Vat number ${REFUSED_AFM} does not belong to active corporation`,
  });
});
afterAll(async () => {
  await e2e?.close();
  await aade?.close();
});

describe('myDATA: water bills', () => {
  it("transmits the day's water bills as a batch with progress; the one AADE refuses shows its error", async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/mydata');
    await page.getByTestId('mydata-batch').waitFor();
    await page.getByTestId('mydata-batch-source').locator('..').click();
    await page.getByRole('option', { name: 'Λογαριασμοί νερού' }).click();
    await page.getByTestId('mydata-batch-day').fill(today.split('-').reverse().join('/'));
    // AADE answers slowly: the progress is on screen while the job runs.
    aade.fail('SendInvoices', 'rateLimited');
    await page.getByTestId('mydata-batch-send').click();
    await page.getByTestId('mydata-batch-progress').waitFor();
    await shot(page, 'mydata-bills-progress-el');
    await expect
      .poll(() => page.getByTestId('mydata-batch-result').textContent(), { timeout: 20_000 })
      .toBe('Στάλθηκαν 2, απέτυχαν 1, εκκρεμούν 0, ήδη σταλμένα 0');
    const states = await Promise.all(
      bills.map(async (b) => (await api('GET', `/api/mydata/bills/${b.id}`)).body.state),
    );
    expect(states).toEqual(['sent', 'sent', 'failed']);
    expect(aade.invoices.size).toBe(2);

    // The bills in the list, the refused one with AADE's code and message on its page.
    await page.goto('/mydata?source=eq(bill)');
    await page.getByText('Παλαιά Βιοτεχνία ΟΕ').first().waitFor();
    await expect.poll(() => page.getByText('Λογαριασμός νερού').count()).toBeGreaterThan(1);
    await shot(page, 'mydata-bills-list-el');
    await page.getByText('Παλαιά Βιοτεχνία ΟΕ').first().click();
    await page.waitForURL(new RegExp(`/mydata/bills/${bills[2]?.id}$`));
    await page.getByTestId('mydata-document-errors').waitFor();
    expect(await page.getByTestId('mydata-document-errors').textContent()).toContain('Κωδικός ΑΑΔΕ 102');
    await shot(page, 'mydata-bill-failed-el');

    await page.goto('/en/mydata?source=eq(bill)');
    await page.getByText('Water bill').first().waitFor();
    await expect.poll(() => page.getByText('Failed').count()).toBeGreaterThan(0);
    // The errors column in the user's language, as the bill's page says it.
    await page.getByText('AADE code 102').first().waitFor();
    await shot(page, 'mydata-bills-list-en');
    await context.close();
  });

  it("opens a transmitted bill's page and its PDF with the MARK and the QR code", async () => {
    const sent = bills[1];
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, `/mydata/bills/${sent?.id}`);
    await expect
      .poll(() => page.getByTestId('mydata-document-state').getAttribute('data-state'))
      .toBe('sent');
    const mark = (await page.getByTestId('mydata-document-mark').textContent()) ?? '';
    expect(mark).toMatch(/^\d{15}$/);
    expect(await page.getByTestId('mydata-document-qr').getAttribute('href')).toContain(aade.url);
    // The QR code itself on the page, as printed.
    await page.getByTestId('mydata-document-qr-image').waitFor();
    expect(
      await page
        .getByTestId('mydata-document-qr-image')
        .evaluate((img) => (img as HTMLImageElement).naturalWidth),
    ).toBeGreaterThan(50);
    await shot(page, 'mydata-bill-sent-el');
    const popup = context.waitForEvent('page');
    await page.getByTestId('mydata-document-pdf').click();
    expect((await popup).url()).toMatch(/^blob:/);
    for (const lang of ['el', 'en']) {
      const printed = await api.fetch(`/api/billing/bills/${sent?.id}/pdf?lang=${lang}`);
      expect(printed.headers.get('content-type')).toBe('application/pdf');
      pdfShot(await printed.arrayBuffer(), `mydata-bill-printed-${lang}`);
    }
    await page.goto(`/en/mydata/bills/${sent?.id}`);
    await expect.poll(() => page.getByTestId('mydata-document-state').textContent()).toBe('Sent');
    await shot(page, 'mydata-bill-sent-en');

    // Sent by mistake and not paid: cancelled at AADE from its page, with a cancellation MARK.
    await page.getByTestId('mydata-document-cancel').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel at AADE' }).click();
    await expect
      .poll(() => page.getByTestId('mydata-document-state').getAttribute('data-state'))
      .toBe('cancelled');
    expect(await page.getByTestId('mydata-document-cancellation').textContent()).toMatch(/^\d{15}$/);
    expect([...aade.invoices.values()].filter((i) => i.cancellationMark)).toHaveLength(1);
    await shot(page, 'mydata-bill-cancelled-en');
    await page.goto(`/mydata/bills/${sent?.id}`);
    await expect.poll(() => page.getByTestId('mydata-document-state').textContent()).toBe('Ακυρώθηκε');
    await shot(page, 'mydata-bill-cancelled-el');
    await context.close();
  });
});
