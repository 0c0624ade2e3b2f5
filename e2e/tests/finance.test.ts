import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

/**
 * Finance (issue 19) as the accountant uses it: a service and an item on their screens, an invoice
 * with a withholding tax, finalized (numbered, locked) and printed; the accounting plan, the form
 * and the list in both languages.
 */
let e2e: E2E;
let api: Api;

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
  const trader = await api('POST', '/api/traders', {
    individual: false,
    fullname: 'Υδραυλική Αγίας Ελένης ΟΕ',
    vatnumber: '094014201',
    traderbanks: [],
    customFields: {},
  });
  expect(trader.status, JSON.stringify(trader.body)).toBe(201);
});
afterAll(async () => {
  await e2e?.close();
});

async function addRow(page: Page, values: Record<string, string>, selects: Record<string, string> = {}) {
  await page.getByTestId('row-add').click();
  const id = -1;
  for (const [key, value] of Object.entries(values)) await page.getByTestId(`cell-${key}-${id}`).fill(value);
  for (const [key, label] of Object.entries(selects)) {
    const select = page.getByTestId(`cell-${key}-${id}`);
    const value = await select.locator('option', { hasText: label }).first().getAttribute('value');
    await select.selectOption(value ?? '');
  }
}

describe('finance', () => {
  it('creates a service and an item (the barcode’s check digit is checked)', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/finance/services');
    await page.getByTestId('row-table').waitFor();
    await expect.poll(() => page.getByTestId('row-table-row').count()).toBe(3);
    await addRow(
      page,
      { code: 'ΥΠ10', descr: 'Μελέτη σύνδεσης αποχέτευσης', price: '200', vatPercent: '24' },
      { accountId: '73.00.00.0002' },
    );
    await page.getByTestId('row-save').click();
    await expect.poll(() => page.getByTestId('row-table-row').count()).toBe(4);
    await shot(page, 'finance-services-el');

    await page.goto('/finance/items');
    await page.getByTestId('row-table').waitFor();
    await addRow(page, {
      code: 'ΒΑΝ-20',
      descr: 'Βάνα ορειχάλκινη 3/4"',
      barcode: '5901234123458',
      cpv: '42131140-1',
      purchasePrice: '6,40',
      salePrice: '11.5',
      vatPercent: '24',
    });
    await page.getByTestId('row-save').click();
    await expect.poll(() => page.getByTestId('cell-error-barcode--1').textContent()).toContain('EAN-13');
    await page.getByTestId('cell-barcode--1').fill('5901234123457');
    await page.getByTestId('cell-purchasePrice--1').fill('6.40');
    await page.getByTestId('row-save').click();
    await expect.poll(() => page.getByTestId('row-table-row').count()).toBe(3);
    const items = await api('GET', '/api/finance/items');
    expect(items.body.find((i: { code: string }) => i.code === 'ΒΑΝ-20')).toMatchObject({
      barcode: '5901234123457',
      purchasePrice: '6.4000',
      salePrice: '11.5000',
      quantity: '0.000',
    });
    await shot(page, 'finance-items-el');
    await context.close();
  });

  it('issues an invoice with a withholding tax, finalizes and prints it', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/finance/documents/create');
    await page.getByTestId('finance-document-form').waitFor();
    await page.getByTestId('document-series').locator('..').click();
    await page.getByTestId('series-option-ΤΠΥ').click();
    await page.getByTestId('document-trader').fill('Υδραυλ');
    await page.getByRole('option', { name: /Υδραυλική Αγίας Ελένης/ }).click();

    await page.getByTestId('line-product-0').locator('..').click();
    await page.getByTestId('line-option-ΥΠ10').click();
    await page.getByTestId('line-quantity-0').fill('2');
    await page.getByTestId('add-line').click();
    await page.getByTestId('line-product-1').locator('..').click();
    await page.getByTestId('line-option-ΥΠ02').click();
    await page.getByTestId('line-discount-1').fill('12,5');
    await page.getByTestId('add-tax').click();
    await page.getByTestId('tax-percent-0').fill('20');
    // 400.00 + 35.00 = 435.00; VAT 96.00 + 8.40 = 104.40; withholding 20% of 435.00 = 87.00.
    await expect.poll(() => page.getByTestId('total-net').textContent()).toBe('435,00');
    await expect.poll(() => page.getByTestId('total-vat').textContent()).toBe('104,40');
    await expect.poll(() => page.getByTestId('total-withheld').textContent()).toBe('87,00');
    await expect.poll(() => page.getByTestId('total-payable').textContent()).toBe('452,40 €');
    await shot(page, 'finance-document-form-el');

    await page.getByTestId('document-save').click();
    await page.waitForURL(/\/finance\/documents\/\d+\/edit/);
    await page.getByTestId('document-finalize').click();
    await page.getByTestId('confirm-dialog-ok').click();
    // The series asks before printing (print mode 2): not now, the Print button shows it. Its own
    // dialog, not the closing one of the finalize (a click on that would leave this one open).
    await page
      .getByRole('dialog', { name: 'Εκτύπωση παραστατικού' })
      .getByTestId('confirm-dialog-cancel')
      .click();
    await expect.poll(() => page.getByTestId('document-entry-state').textContent()).toBe('Οριστικοποιημένο');
    await page.getByTestId('document-finalized-note').waitFor();
    expect(await page.getByTestId('document-save').count()).toBe(0);
    expect(await page.getByTestId('line-quantity-0').isDisabled()).toBe(true);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toMatch(/ΤΠΥ-1\/20\d\d/);
    await shot(page, 'finance-document-finalized-el');

    const popup = context.waitForEvent('page');
    await page.getByTestId('document-print').click();
    const pdf = await popup;
    expect(pdf.url()).toMatch(/^blob:/);

    const id = Number(/documents\/(\d+)\/edit/.exec(page.url())?.[1]);
    const stored = await api('GET', `/api/finance/documents/${id}`);
    expect(stored.body).toMatchObject({
      number: 1,
      entryState: 9,
      net: '435.00',
      withheld: '87.00',
      payable: '452.40',
    });
    const printed = await api.fetch(`/api/finance/documents/${id}/pdf`);
    expect(printed.headers.get('content-type')).toBe('application/pdf');

    await page.goto('/finance/documents');
    await page.getByTestId('finance-documents-header').waitFor();
    await expect.poll(() => page.getByText('Υδραυλική Αγίας Ελένης ΟΕ').count()).toBeGreaterThan(0);
    await shot(page, 'finance-documents-el');
    await context.close();
  });

  it('transforms two delivery notes of one trader into one invoice', async () => {
    const series = (await api('GET', '/api/finance/series')).body as { id: number; code: string }[];
    const items = (await api('GET', '/api/finance/items')).body as { id: number; code: string }[];
    const traders = (await api('GET', '/api/traders/search?search=Υδραυλική')).body.content;
    const notes: number[] = [];
    for (const quantity of ['2', '3']) {
      const created = await api('POST', '/api/finance/documents', {
        seriesId: series.find((s) => s.code === 'ΔΑ')?.id,
        date: '2026-11-20',
        traderId: traders[0].id,
        paymentMethod: 5,
        status: 1,
        lines: [
          {
            serviceId: null,
            itemId: items.find((i) => i.code === 'ΥΔΡ-15')?.id,
            warehouseId: null,
            quantity,
            price: '32',
            discount: '0',
            vatPercent: '24',
          },
        ],
        taxes: [],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await api('POST', `/api/finance/documents/${created.body.id}/finalize`)).status).toBe(200);
      notes.push(created.body.id);
    }
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/finance/transformation');
    await page.getByTestId('transformation-candidates').waitFor();
    for (const id of notes) await page.getByTestId(`candidate-${id}`).click();
    await page.getByTestId('transformation-preview').click();
    await page.getByTestId('transformation-dialog').waitFor();
    // The dialog fades in: the screenshot waits until it is fully shown.
    const paper = page.getByTestId('transformation-dialog').locator('.MuiDialog-container');
    await expect.poll(() => paper.evaluate((node) => getComputedStyle(node).opacity)).toBe('1');
    await expect.poll(() => page.getByTestId('transformation-result').count()).toBe(1);
    await expect.poll(() => page.getByTestId('transformation-result').textContent()).toContain('198,40');
    await shot(page, 'finance-transformation-el');
    await page.getByTestId('transformation-confirm').click();
    await page.waitForURL(/\/finance\/documents\/\d+\/edit/);
    await expect.poll(() => page.getByTestId('total-payable').textContent()).toBe('198,40 €');
    for (const id of notes) {
      expect((await api('GET', `/api/finance/documents/${id}`)).body.transformedIntoId).toBeGreaterThan(0);
    }
    // The two notes moved the meters out of the central warehouse; the invoice will not move them again.
    await page.goto('/finance/items');
    await expect.poll(() => page.getByTestId('stock-ΥΔΡ-15').textContent()).toBe('-5 τεμ.');
    await shot(page, 'finance-items-stock-el');
    await page.goto('/en/finance/transformation');
    await page.getByTestId('transformation-none').waitFor();
    expect(await page.getByTestId('transformation-none').textContent()).toBe(
      'No available commercial documents',
    );
    await shot(page, 'finance-transformation-none-en');
    await context.close();
  });

  it("certifies the month's income per income account", async () => {
    const [invoice] = (await api('GET', '/api/finance/documents/search?entryState=eq(9)&seriesCode=eq(ΤΠΥ)'))
      .body.content;
    const [year, month] = (invoice.date as string).split('-');
    const last = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/finance/certifications');
    await page.getByTestId('finance-certifications-header').waitFor();
    await page.getByTestId('action-create').click();
    await page.getByTestId('certification-periodFrom').fill(`01/${month}/${year}`);
    await page.getByTestId('certification-periodTo').fill(`${last}/${month}/${year}`);
    await page.getByTestId('certification-gather').click();
    await page.waitForURL(/\/finance\/certifications\/\d+$/);
    // The finalized ΤΠΥ invoice only: the transformed invoice is still a draft, delivery notes are no income.
    await expect.poll(() => page.getByTestId('certification-total').textContent()).toBe('539,40 €');
    const lines = page.getByTestId('certification-lines').locator('tbody tr');
    await expect.poll(() => lines.count()).toBe(2);
    expect(await lines.first().textContent()).toContain('73.00.00.0002');
    await page.getByTestId('certification-finalize').click();
    await page.getByTestId('confirm-dialog-ok').click();
    await expect.poll(() => page.getByTestId('certification-state').textContent()).toBe('Οριστικοποιημένο');
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe(`Βεβαίωση εσόδων 1/${year}`);
    await shot(page, 'finance-certification-el');
    const popup = context.waitForEvent('page');
    await page.getByTestId('certification-print').click();
    expect((await popup).url()).toMatch(/^blob:/);
    const download = page.waitForEvent('download');
    await page.getByTestId('certification-excel').click();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
    const id = /certifications\/(\d+)/.exec(page.url())?.[1];
    await page.goto(`/en/finance/certifications/${id}`);
    await expect.poll(() => page.getByTestId('certification-state').textContent()).toBe('Finalized');
    await shot(page, 'finance-certification-en');
    await context.close();
  });

  it('shows the accounting plan and the document in English', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/finance/accounts');
    await page.getByTestId('row-table').waitFor();
    await expect.poll(() => page.getByTestId('account-mask').inputValue()).toBe('XX.XX.XX.XXXX');
    // The accounting plan from Excel as a background job: a check that lists the bad rows, then a
    // clean file checked and imported, two new accounts beside the demo plan's twelve.
    const plan = async (rows: (string | number)[][]) => {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('Λογαριασμοί');
      sheet.addRow(['Κωδικός', 'Περιγραφή', 'Είδος', 'Συγκεντρωτικός']);
      for (const row of rows) sheet.addRow(row);
      return {
        name: 'plan.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: Buffer.from(await book.xlsx.writeBuffer()),
      };
    };
    await page.getByTestId('accounts-import').click();
    await page.getByTestId('accounts-import-file').setInputFiles(
      await plan([
        ['74', 'Επιχορηγήσεις', 1, 1],
        ['74.1', 'Κακός κωδικός', 1, 0],
        ['76', 'Κακό είδος', 4, 0],
      ]),
    );
    await page.getByTestId('accounts-import-dry-run').click();
    await expect.poll(() => page.getByTestId('accounts-import-error').count()).toBe(2);
    await expect
      .poll(() => page.getByTestId('accounts-import-error').first().textContent())
      .toContain('3Κωδικός');
    expect(await page.getByTestId('accounts-import-run').isDisabled()).toBe(true);
    await shot(page, 'finance-accounts-import-errors-el');
    await page.getByTestId('accounts-import-file').setInputFiles(
      await plan([
        ['74', 'Επιχορηγήσεις', 1, 1],
        ['74.00', 'Επιχορηγήσεις από Δήμο', 1, 0],
      ]),
    );
    await page.getByTestId('accounts-import-dry-run').click();
    await expect
      .poll(() => page.getByTestId('accounts-import-summary').textContent())
      .toContain('2, όλες σωστές');
    await page.getByTestId('accounts-import-run').click();
    await expect.poll(() => page.getByTestId('accounts-import-summary').textContent()).toContain('2 νέοι');
    await shot(page, 'finance-accounts-import-done-el');
    await page.getByRole('button', { name: 'Κλείσιμο' }).click();
    await expect.poll(() => page.getByTestId('row-table-row').count()).toBe(14);
    await shot(page, 'finance-accounts-el');
    await page.goto('/en/finance/accounts');
    await page.getByTestId('row-table').waitFor();
    await expect.poll(() => page.getByText('Accounting plan').count()).toBeGreaterThan(0);
    await shot(page, 'finance-accounts-en');
    // The check's report in English (reasons in the uploader's language), light, then dark (the theme
    // switch is behind the dialog's backdrop, so the dialog is opened again).
    const checkBadPlan = async () => {
      await page.getByTestId('accounts-import').click();
      await page.getByTestId('accounts-import-file').setInputFiles(await plan([['76', 'Κακό είδος', 4, 0]]));
      await page.getByTestId('accounts-import-dry-run').click();
      await expect
        .poll(() => page.getByTestId('accounts-import-error').first().textContent())
        .toContain('2Kind');
    };
    await checkBadPlan();
    await shot(page, 'finance-accounts-import-errors-en');
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('topbar-theme').click();
    await checkBadPlan();
    await shot(page, 'finance-accounts-import-errors-en-dark');
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('topbar-theme').click();
    await page.goto('/en/finance/documents/1/edit');
    await page.getByTestId('finance-document-form').waitFor();
    await expect.poll(() => page.getByTestId('document-entry-state').textContent()).toBe('Finalized');
    await shot(page, 'finance-document-form-en');
    await page.getByTestId('topbar-theme').click();
    await shot(page, 'finance-document-form-en-dark');
    await page.getByTestId('topbar-theme').click();
    await page.goto('/en/finance/series');
    await page.getByTestId('row-table').waitFor();
    await shot(page, 'finance-series-en');
    await context.close();
  });
});
