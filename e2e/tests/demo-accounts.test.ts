import { DEMO_OPERATORS } from '@protocol/server/demo-operators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { type E2E, signIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

/**
 * The demo as a newcomer meets it (issue 29 item 18): the accountant of the README's demo accounts
 * opens finance, issues an invoice and sends it to myDATA, which in a demo installation is the local
 * stand-in for AADE the server runs on loopback (no AADE credentials, no address set by the test).
 */
let e2e: E2E;
const accountant = DEMO_OPERATORS.find((o) => o.username === 'eantoniou');
let api: Api;

beforeAll(async () => {
  if (!accountant) throw new Error('the README names the accountant eantoniou');
  e2e = await startE2E();
  api = await signInApi(e2e, accountant.username, accountant.password);
  // A customer of the utility, as the accountant would add one at /traders.
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

describe('issue 29 item 18: the demo accountant', () => {
  let documentId = 0;

  it('issue 29 item 18: the accountant opens finance and sends an invoice to the local stand-in for AADE', async () => {
    const { context, page } = await e2e.newPage();
    await signIn(page, accountant?.username ?? '', accountant?.password ?? '');
    await page.getByTestId('dashboard-greeting').waitFor();

    // myDATA's settings say where the demo's documents go.
    await page.goto('/settings/mydata');
    await page.getByTestId('mydata-settings-form').waitFor();
    const notice = page.getByTestId('mydata-no-credentials');
    expect(await notice.textContent()).toContain('τοπικό υποκατάστατο της ΑΑΔΕ');
    await shot(page, 'demo-accountant-mydata-settings-el', { fullPage: false });

    await page.goto('/finance/documents/create');
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
    await page
      .getByRole('dialog', { name: 'Εκτύπωση παραστατικού' })
      .getByTestId('confirm-dialog-cancel')
      .click();
    await page.getByTestId('document-finalized-note').waitFor();
    documentId = Number(/documents\/(\d+)\/edit/.exec(page.url())?.[1]);

    await page.getByTestId('document-mydata').click();
    await page.waitForURL(new RegExp(`/mydata/documents/${documentId}$`));
    await expect
      .poll(() => page.getByTestId('mydata-document-state').getAttribute('data-state'))
      .toBe('notSent');
    await page.getByTestId('mydata-document-send').click();
    await expect
      .poll(() => page.getByTestId('mydata-document-state').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('sent');
    expect(await page.getByTestId('mydata-document-mark').textContent()).toMatch(/^\d{15}$/);
    // The QR address is the stand-in's, on loopback: the invoice never left the machine.
    expect(await page.getByTestId('mydata-document-qr').getAttribute('href')).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/TimologioQR\//,
    );
    expect(await page.getByTestId('mydata-document-local-aade').textContent()).toContain(
      'τοπικό υποκατάστατο της ΑΑΔΕ',
    );
    await shot(page, 'demo-accountant-mydata-sent-el');

    await page.goto('/finance/documents');
    await page.getByText('Υδραυλική Αγίας Ελένης ΟΕ').first().waitFor();
    await shot(page, 'demo-accountant-finance-el', { fullPage: false });
    await context.close();
  });

  it('issue 29 item 18: the same screens in English', async () => {
    const { context, page } = await e2e.newPage({ locale: 'en-GB' });
    await signIn(page, accountant?.username ?? '', accountant?.password ?? '', '/en/login');
    await page.getByTestId('dashboard-greeting').waitFor();
    await page.goto('/en/finance/documents');
    await page.getByText('Υδραυλική Αγίας Ελένης ΟΕ').first().waitFor();
    await shot(page, 'demo-accountant-finance-en', { fullPage: false });
    await page.goto('/en/settings/mydata');
    await page.getByTestId('mydata-settings-form').waitFor();
    expect(await page.getByTestId('mydata-no-credentials').textContent()).toContain(
      'local stand-in for AADE',
    );
    await shot(page, 'demo-accountant-mydata-settings-en', { fullPage: false });
    await page.goto(`/en/mydata/documents/${documentId}`);
    await expect
      .poll(() => page.getByTestId('mydata-document-state').getAttribute('data-state'))
      .toBe('sent');
    expect(await page.getByTestId('mydata-document-local-aade').textContent()).toContain(
      'local stand-in for AADE',
    );
    await shot(page, 'demo-accountant-mydata-sent-en');
    await context.close();
  });
});
