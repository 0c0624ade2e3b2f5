import { utilityDay } from '@protocol/contracts';
import { type FakeAade, startFakeAade } from '@protocol/server/testing/fake-aade';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWithAade } from '../support/aade.ts';
import { type Api, signInApi } from '../support/api.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { pdfShot } from '../support/pdf.ts';
import { shot } from '../support/shot.ts';

/**
 * myDATA (issue 20) as the accountant uses it, against the local AADE: the parameters, an invoice
 * finalized and transmitted from its page with its MARK and the printed QR code, and a day's
 * documents sent as one batch with progress, one refused by AADE and shown with its error.
 * (Water bills are not issued yet: the batch is of the day's finance documents.)
 */
let e2e: E2E;
let aade: FakeAade;
let api: Api;
const today = utilityDay(new Date());
const REFUSED_AFM = '094422282';

let traderId: number;
let refusedTraderId: number;

beforeAll(async () => {
  aade = await startFakeAade();
  e2e = await startE2E();
  api = await signInApi(e2e);
  await registerWithAade(api);
  for (const [fullname, vatnumber] of [
    ['Υδραυλική Αγίας Ελένης ΟΕ', '094014201'],
    ['Παλαιά Κατασκευαστική ΟΕ', REFUSED_AFM],
  ]) {
    const trader = await api('POST', '/api/traders', {
      individual: false,
      fullname,
      vatnumber,
      traderbanks: [],
      customFields: {},
    });
    expect(trader.status, JSON.stringify(trader.body)).toBe(201);
    if (vatnumber === REFUSED_AFM) refusedTraderId = trader.body.id;
    else traderId = trader.body.id;
  }
  aade.rejectCounterpart(REFUSED_AFM, {
    code: '102',
    message: `Vat number ${REFUSED_AFM} does not belong to active corporation`,
  });
});
afterAll(async () => {
  await e2e?.close();
  await aade?.close();
});

describe('myDATA', () => {
  it('sets the parameters: the test address, the branch and the mappings', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/settings/mydata');
    await page.getByTestId('mydata-settings-form').waitFor();
    expect(await page.getByTestId('mydata-no-credentials').count()).toBe(0);
    await page.getByTestId('mydata-testUrl').fill('not an address');
    await page.getByTestId('mydata-settings-save').click();
    await page.getByText('Η διεύθυνση πρέπει να αρχίζει με').first().waitFor();
    await page.getByTestId('mydata-testUrl').fill(aade.url);
    await page.getByTestId('mydata-exemptionCause').fill('14');
    // Web banking (finance's 6) goes as IRIS instant payments (8); bills stay on credit (5); the
    // resource fee of a retail bill (row 5 of the 11.2 charges) as other income (category1_5).
    await page.getByTestId('mydata-paymentMethods-5-type').selectOption('8');
    expect(await page.getByTestId('mydata-billPaymentMethod').inputValue()).toBe('5');
    expect(await page.getByTestId('mydata-chargeClassifications-5-charge').inputValue()).toBe('resource');
    await page.getByTestId('mydata-chargeClassifications-5-category').fill('category1_5');
    await page.getByTestId('mydata-settings-save').click();
    await expect.poll(async () => (await api('GET', '/api/mydata/settings')).body.testUrl).toBe(aade.url);
    const saved = (await api('GET', '/api/mydata/settings')).body.mappings;
    expect(saved.exemptionCause).toBe(14);
    expect(saved.paymentMethods).toContainEqual({ method: 6, type: 8 });
    expect(saved.chargeClassifications).toContainEqual({
      charge: 'resource',
      invoiceType: '11.2',
      category: 'category1_5',
      type: 'E3_561_003',
    });
    await shot(page, 'mydata-settings-el');
    await page.goto('/en/settings/mydata');
    await page.getByTestId('mydata-settings-form').waitFor();
    await expect.poll(() => page.getByTestId('mydata-testUrl').inputValue()).toBe(aade.url);
    await shot(page, 'mydata-settings-en');
    await context.close();
  });

  it('finalizes an invoice, transmits it from its page, shows its MARK and prints the QR code', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/finance/documents/create');
    await page.getByTestId('finance-document-form').waitFor();
    await page.getByTestId('document-series').locator('..').click();
    await page.getByTestId('series-option-ΤΠΥ').click();
    await page.getByTestId('document-trader').fill('Υδραυλ');
    await page.getByRole('option', { name: /Υδραυλική Αγίας Ελένης/ }).click();
    await page.getByTestId('line-product-0').locator('..').click();
    await page.getByTestId('line-option-ΥΠ01').click();
    await page.getByTestId('document-save').click();
    await page.waitForURL(/\/finance\/documents\/\d+\/edit/);
    await page.getByTestId('document-finalize').click();
    await page.getByTestId('confirm-dialog-ok').click();
    // Not printing now: the series' own question, not the closing dialog of the finalize.
    await page
      .getByRole('dialog', { name: 'Εκτύπωση παραστατικού' })
      .getByTestId('confirm-dialog-cancel')
      .click();
    await page.getByTestId('document-finalized-note').waitFor();
    const id = Number(/documents\/(\d+)\/edit/.exec(page.url())?.[1]);

    // From the finalized document to its transmission.
    await page.getByTestId('document-mydata').click();
    await page.waitForURL(new RegExp(`/mydata/documents/${id}$`));
    await expect
      .poll(() => page.getByTestId('mydata-document-state').getAttribute('data-state'))
      .toBe('notSent');
    await page.getByTestId('mydata-document-send').click();
    await expect
      .poll(() => page.getByTestId('mydata-document-state').getAttribute('data-state'), { timeout: 15_000 })
      .toBe('sent');
    const mark = (await page.getByTestId('mydata-document-mark').textContent()) ?? '';
    expect(mark).toMatch(/^\d{15}$/);
    expect(await page.getByTestId('mydata-document-qr').getAttribute('href')).toContain(aade.url);
    expect(aade.invoices.size).toBe(1);
    await shot(page, 'mydata-document-sent-el');

    const popup = context.waitForEvent('page');
    await page.getByTestId('mydata-document-pdf').click();
    expect((await popup).url()).toMatch(/^blob:/);
    for (const lang of ['el', 'en']) {
      const printed = await api.fetch(`/api/finance/documents/${id}/pdf?lang=${lang}`);
      expect(printed.headers.get('content-type')).toBe('application/pdf');
      pdfShot(await printed.arrayBuffer(), `mydata-printed-${lang}`);
    }

    // The global search finds it by its MARK.
    await page.getByTestId('global-search').fill(mark.slice(0, 12));
    await page
      .getByText(new RegExp(`ΤΠΥ-\\d+/\\d{4} · ${mark}`))
      .first()
      .waitFor();
    await page.goto(`/en/mydata/documents/${id}`);
    await expect.poll(() => page.getByTestId('mydata-document-state').textContent()).toBe('Sent');
    await shot(page, 'mydata-document-sent-en');
    await context.close();
  });

  it("transmits the day's documents as a batch with progress; the one AADE refuses shows its error", async () => {
    const series = (await api('GET', '/api/finance/series')).body as { id: number; code: string }[];
    const services = (await api('GET', '/api/finance/services')).body as { id: number }[];
    const issue = async (code: string, trader: number | null) => {
      const created = await api('POST', '/api/finance/documents?finalize=true', {
        seriesId: series.find((s) => s.code === code)?.id,
        date: today,
        traderId: trader,
        paymentMethod: 3,
        status: 1,
        lines: [
          {
            serviceId: services[0]?.id,
            itemId: null,
            warehouseId: null,
            quantity: '1',
            price: '40',
            discount: '0',
            vatPercent: '24',
          },
        ],
        taxes: [],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as number;
    };
    const ids = [
      await issue('ΤΠΥ', traderId),
      await issue('ΑΛΠ', null),
      await issue('ΤΔΑ', refusedTraderId),
      await issue('ΑΛΠ', null),
      await issue('ΤΠΥ', traderId),
    ];
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/');
    await page.getByTestId('dashboard-greeting').waitFor();
    await page.getByTestId('dashboard-mydata-pending').waitFor();
    await page.goto('/mydata');
    await page.getByTestId('mydata-batch').waitFor();
    await page.getByTestId('mydata-batch-day').fill(today.split('-').reverse().join('/'));
    // AADE answers slowly: the progress is on screen while the job runs.
    aade.fail('SendInvoices', 'rateLimited');
    await page.getByTestId('mydata-batch-send').click();
    await page.getByTestId('mydata-batch-progress').waitFor();
    await shot(page, 'mydata-batch-progress-el');
    await expect
      .poll(() => page.getByTestId('mydata-batch-result').textContent(), { timeout: 20_000 })
      .toBe('Στάλθηκαν 4, απέτυχαν 1, εκκρεμούν 0, ήδη σταλμένα 0');
    const states = await Promise.all(
      ids.map(async (id) => (await api('GET', `/api/mydata/documents/${id}`)).body.state),
    );
    expect(states).toEqual(['sent', 'sent', 'failed', 'sent', 'sent']);
    await expect.poll(() => page.getByText('Απέτυχε').count()).toBeGreaterThan(0);
    await shot(page, 'mydata-list-el');

    // The failed transmissions, with AADE's code and message.
    await page.goto('/mydata?state=eq(failed)');
    await page.getByText('Παλαιά Κατασκευαστική ΟΕ').first().click();
    await page.getByTestId('mydata-document-errors').waitFor();
    expect(await page.getByTestId('mydata-document-errors').textContent()).toContain('Κωδικός ΑΑΔΕ 102');
    await shot(page, 'mydata-document-failed-el');
    await page.getByTestId('topbar-theme').click();
    await shot(page, 'mydata-document-failed-el-dark');
    await page.getByTestId('topbar-theme').click();

    // A rerun sends nothing twice.
    const held = aade.invoices.size;
    expect((await api('POST', '/api/mydata/transmissions', { day: today })).status).toBe(202);
    await expect
      .poll(async () => (await api('GET', `/api/mydata/documents/${ids[2]}`)).body.attempts)
      .toBe(2);
    expect(aade.invoices.size).toBe(held);

    await page.goto('/en/mydata');
    await page.getByTestId('mydata-batch').waitFor();
    await expect.poll(() => page.getByText('Failed').count()).toBeGreaterThan(0);
    await shot(page, 'mydata-list-en');
    await context.close();
  });
});
