import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';

let e2e: E2E;
let api: Api;

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
});
afterAll(async () => {
  await e2e?.close();
});

describe('water service: parametrics and the encoding code', () => {
  it('defines a three-level code (sector, route, number) and sees its mask', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/water/encoding_code');

    await page.getByTestId('encoding-mask').waitFor();
    // The demo definition: sector 2, route 3, number 5, '-'.
    await expect.poll(() => page.getByTestId('encoding-mask').textContent()).toBe('XX-XXX-XXXXX');
    await page.getByTestId('encoding-length-3').fill('4');
    await page.getByTestId('encoding-separator').fill('/');
    await expect.poll(() => page.getByTestId('encoding-mask').textContent()).toBe('XX/XXX/XXXX');
    await page.getByTestId('encoding-save').click();
    await page.getByText('Η κωδικοποίηση αποθηκεύτηκε').waitFor();
    const saved = await api('GET', '/api/protocol/parametrics/encoding_code');
    expect(saved.body).toMatchObject({
      levels: 3,
      level1: 2,
      level2: 3,
      level3: 4,
      leveltable1: 1,
      leveltable2: 2,
      separator: '/',
    });
    await shot(page, 'water-encoding-code-el', { fullPage: false });
    await page.goto('/en/water/encoding_code');
    await expect.poll(() => page.getByTestId('encoding-mask').textContent()).toBe('XX/XXX/XXXX');
    await shot(page, 'water-encoding-code-en', { fullPage: false });
    await context.close();
  });

  it('edits a parametric table: adds a route to a sector and saves the table', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/parametrics/sectors');

    await page.getByTestId('row-table-row').first().waitFor();
    expect(await page.getByTestId('row-table-row').count()).toBe(4);
    await shot(page, 'water-parametrics-sectors-el', { fullPage: false });
    await page.getByTestId('water-tab-routes').click();
    await page.waitForURL(/\/parametrics\/routes$/);
    const before = (await api('GET', '/api/water/parametrics/routes')).body.length;
    await expect.poll(() => page.getByTestId('row-table-row').count()).toBe(before);
    await page.getByTestId('row-add').click();
    const sectors = await api('GET', '/api/protocol/parametrics/sectors');
    const fourth = sectors.body.find((s: { code: string }) => s.code === '04');
    await page.getByTestId('cell-sectorId--1').selectOption(String(fourth.id));
    await page.getByTestId('cell-code--1').fill('002');
    await page.getByTestId('cell-description--1').fill('Κάτω Πορόια – οικισμός');
    await page.getByTestId('cell-readingOrder--1').fill('80');
    await page.getByTestId('row-save').click();
    await expect
      .poll(async () => (await api('GET', '/api/water/parametrics/routes')).body.length)
      .toBe(before + 1);
    await shot(page, 'water-parametrics-routes-el', { fullPage: false });
    await page.goto('/en/parametrics/meterTypes');
    await page.getByTestId('row-table-row').first().waitFor();
    await shot(page, 'water-parametrics-meter-types-en', { fullPage: false });
    await page.goto('/water/invoice_policies');
    await page.getByTestId('row-table-row').first().waitFor();
    // Days are shown and typed DD/MM/YYYY, stored YYYY-MM-DD.
    const [policy] = (await api('GET', '/api/water/invoice_policies')).body;
    expect(await page.getByTestId(`cell-fromdate-${policy.id}`).inputValue()).toBe('01/01/2026');
    await page.getByTestId(`cell-todate-${policy.id}`).fill('31/12/2026');
    await page.getByTestId('row-save').click();
    await expect
      .poll(async () => (await api('GET', '/api/water/invoice_policies')).body[0].todate)
      .toBe('2026-12-31');
    await shot(page, 'water-invoice-policies-el', { fullPage: false });
    await context.close();
  });

  it('creates a consumer through the builder: padded preview, recommended number, owner and receiver from traders', async () => {
    for (const [lastname, firstname] of [
      ['Καραγιάννη', 'Ελένη'],
      ['Δημητρίου', 'Νικόλαος'],
    ]) {
      const created = await api('POST', '/api/traders', { individual: true, lastname, firstname });
      expect(created.status).toBe(201);
    }
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/consumers/create');

    await page.getByTestId('encoding-part-1').waitFor();
    await page.getByTestId('encoding-part-1').selectOption('01');
    await expect.poll(() => page.getByTestId('encoding-preview').textContent()).toBe('01/   /    ');
    await page.getByTestId('encoding-part-2').selectOption('001');
    // Every part but the last filled: the server recommends the number, the preview pads it.
    await expect.poll(() => page.getByTestId('encoding-part-3').inputValue()).toBe('1');
    await expect.poll(() => page.getByTestId('encoding-preview').textContent()).toBe('01/001/   1');
    await page.getByTestId('consumer-owner').fill('καραγιαννη');
    await page.getByRole('option', { name: /Καραγιάννη Ελένη/ }).click();
    await page.getByTestId('consumer-receiver-same').uncheck();
    await page.getByTestId('consumer-receiver').fill('δημητριου');
    await page.getByRole('option', { name: /Δημητρίου Νικόλαος/ }).click();
    await page.getByTestId('consumer-supplyAddress').fill('Ελευθερίου Βενιζέλου 12');
    await page.getByTestId('consumer-supplyPostalCode').fill('62042');
    await page.getByTestId('consumer-connectionDate').fill('15/01/2026');
    await shot(page, 'water-consumer-builder-el', { fullPage: false });
    await page.getByTestId('consumer-save').click();
    await page.waitForURL(/\/consumers\/\d+\/edit$/);
    // Written as people write it (issue 32 item 4); stored padded, as the preview shows it, to sort.
    await expect.poll(() => page.getByTestId('consumer-header-code').textContent()).toBe('01/001/1');
    await page.evaluate(() => window.scrollTo(0, 0));
    const id = Number(/consumers\/(\d+)/.exec(page.url())?.[1]);
    const saved = await api('GET', `/api/protocol/consumers/${id}`);
    expect(saved.body).toMatchObject({
      code: '01/001/   1',
      owner: { fullname: 'Καραγιάννη Ελένη' },
      liable: { fullname: 'Καραγιάννη Ελένη' },
      receiver: { fullname: 'Δημητρίου Νικόλαος' },
      connectionDate: '2026-01-15',
    });
    await shot(page, 'water-consumer-card-el', { fullPage: false });
    await page.goto(`/en/consumers/${id}/edit`);
    await page.getByTestId('consumer-header-code').waitFor();
    await shot(page, 'water-consumer-card-en', { fullPage: false });

    // The same code again: the danger snackbar, and the save refused.
    await page.goto('/consumers/create');
    await page.getByTestId('encoding-part-1').selectOption('01');
    await page.getByTestId('encoding-part-2').selectOption('001');
    await expect.poll(() => page.getByTestId('encoding-part-3').inputValue()).toBe('2');
    await page.getByTestId('encoding-part-3').fill('0001');
    await expect.poll(() => page.getByTestId('encoding-preview').textContent()).toBe('01/001/   1');
    const snackbar = page.getByText('Ο κωδικός καταναλωτή υπάρχει ήδη ή δεν είναι σωστός').first();
    await snackbar.waitFor();
    await shot(page, 'water-consumer-code-not-allowed-el', { fullPage: false });

    await page.goto('/consumers');
    await page.getByText('Καραγιάννη Ελένη').first().waitFor();
    await shot(page, 'water-consumers-list-el', { fullPage: false });
    // The global search finds the consumer by its owner, accents and case aside, and opens its card.
    await page.getByTestId('global-search').fill('ΚΑΡΑΓΙΑΝΝΗ');
    await page
      .getByTestId('global-search-panel')
      .getByRole('option', { name: /01\/001\/1 · Καραγιάννη Ελένη/ })
      .click();
    await page.waitForURL(new RegExp(`/consumers/${id}/edit$`));
    await context.close();
  });

  it('installs and swaps a consumer’s meter; the timeline shows the swap with both readings', async () => {
    const { context, page } = await e2e.newPage();
    const list = await api('GET', '/api/protocol/consumers/search?size=1');
    const id = list.body.content[0].id;
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, `/consumers/${id}/edit`);
    await page.getByRole('tab', { name: 'Υδρομετρητές' }).click();
    await page.getByTestId('meter-install').click();
    await page.getByTestId('meter-serialNumber').fill('ZN-5001');
    await page.getByTestId('meter-initialReading').fill('100');
    await page.getByTestId('meter-save').click();
    await page.getByTestId('meter-row').first().waitFor();
    await page.getByTestId('meter-swap').click();
    await page.getByTestId('meter-reading').fill('130');
    await page.getByTestId('meter-serialNumber').fill('KM-6001');
    await page.getByTestId('meter-initialReading').fill('0');
    await shot(page, 'water-meter-swap-el', { fullPage: false });
    await page.getByTestId('meter-save').click();
    await expect.poll(() => page.getByTestId('meter-row').count()).toBe(2);
    await shot(page, 'water-consumer-meters-el', { fullPage: false });
    const meters = await api('GET', `/api/protocol/consumers/${id}/meters`);
    expect(
      meters.body.map((m: { serialNumber: string; removedOn: string | null }) => [
        m.serialNumber,
        m.removedOn === null,
      ]),
    ).toEqual([
      ['KM-6001', true],
      ['ZN-5001', false],
    ]);
    await page.getByRole('tab', { name: 'Κινήσεις' }).click();
    await page.getByTestId('transaction-row-15').waitFor();
    await shot(page, 'water-consumer-transactions-el', { fullPage: false });
    await page.goto(`/en/consumers/${id}/edit`);
    await page.getByRole('tab', { name: 'Meters' }).click();
    await page.getByTestId('meter-swap').click();
    await page.getByTestId('meter-reading').fill('5');
    await shot(page, 'water-meter-swap-en', { fullPage: false });
    await page.getByTestId('meter-cancel').click();
    await page.getByRole('tab', { name: 'Transactions' }).click();
    await page.getByTestId('transaction-row-15').waitFor();
    await shot(page, 'water-consumer-transactions-en', { fullPage: false });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByTestId('topbar-theme').click();
    await page.getByRole('tab', { name: 'Meters' }).click();
    await page.getByTestId('meter-row').first().waitFor();
    await shot(page, 'water-consumer-meters-en-dark', { fullPage: false });
    await page.getByRole('tab', { name: 'Details' }).click();
    await page.getByTestId('encoding-preview').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await context.close();
  });

  it('imports a 50-row register: the dry run shows the two bad rows, the fixed file is imported', async () => {
    const header =
      'Τομέας;Δρομολόγιο;Αριθμός καταναλωτή;ΑΦΜ ιδιοκτήτη;Επώνυμο ή επωνυμία ιδιοκτήτη;Όνομα ιδιοκτήτη;Διεύθυνση παροχής;Τ.Κ. παροχής;Κωδικός χρήσης;Ημερομηνία σύνδεσης;Κατάσταση (0, 1, 9);Σειριακός αριθμός υδρομετρητή;Ψηφία υδρομετρητή;Ένδειξη υδρομετρητή';
    const row = (n: number, sector = '02', vat = n % 3 === 0 ? '094014201' : '') =>
      [
        sector,
        '001',
        String(100 + n),
        vat,
        `Οικονόμου ${n}`,
        'Αθηνά',
        `Ηρώων Πολυτεχνείου ${n}`,
        '62042',
        'OIK',
        '01/03/2019',
        '1',
        `SN-${n}`,
        '5',
        String(n),
      ].join(';');
    const file = (bad: boolean) =>
      `\uFEFF${[header, ...Array.from({ length: 50 }, (_, i) => (bad && i === 9 ? row(i + 1, '77') : bad && i === 29 ? row(i + 1, '02', '123') : row(i + 1)))].join('\r\n')}\r\n`;
    const dir = mkdtempSync(path.join(tmpdir(), 'water-import-'));
    const badFile = path.join(dir, 'mitroo.csv');
    writeFileSync(badFile, file(true));
    const before = (await api('GET', '/api/protocol/consumers/search?size=1')).body.totalElements;

    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/consumers');

    await page.getByTestId('consumers-import').click();
    await page.waitForURL(/\/consumers\/import$/);
    await page.getByTestId('import-file').setInputFiles(badFile);
    await page.getByTestId('import-dry-run').click();
    await page.getByTestId('import-summary').waitFor();
    await expect.poll(() => page.getByTestId('import-error').count()).toBe(2);
    expect(await page.getByTestId('import-error').allTextContents()).toEqual([
      '11ΤομέαςΗ τιμή δεν υπάρχει στον πίνακα του επιπέδου',
      '31ΑΦΜ ιδιοκτήτηΟ ΑΦΜ δεν είναι έγκυρος',
    ]);
    expect(await page.getByTestId('import-run').isDisabled()).toBe(true);
    await shot(page, 'water-import-report-el', { fullPage: false });

    const goodFile = path.join(dir, 'mitroo-diorthomeno.csv');
    writeFileSync(goodFile, file(false));
    await page.getByTestId('import-file').setInputFiles(goodFile);
    await page.getByTestId('import-dry-run').click();
    await expect
      .poll(() => page.getByTestId('import-summary').textContent())
      .toContain('50 γραμμές χωρίς λάθη');
    await page.getByTestId('import-run').click();
    await expect
      .poll(() => page.getByTestId('import-summary').textContent())
      .toContain('50 νέοι καταναλωτές');
    await shot(page, 'water-import-done-el', { fullPage: false });
    expect((await api('GET', '/api/protocol/consumers/search?size=1')).body.totalElements).toBe(before + 50);
    // The result file: every row of the register with its outcome.
    const [result] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('import-result').click(),
    ]);
    const lines = readFileSync((await result.path()) as string, 'utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    expect(lines[0]).toBe('Γραμμή,Αποτέλεσμα,Στήλη,Αιτία');
    expect(lines.filter((l) => l.endsWith(',Νέα εγγραφή,,'))).toHaveLength(50);

    await page.goto('/en/consumers/import');
    await page.getByTestId('import-file').setInputFiles(badFile);
    await page.getByTestId('import-dry-run').click();
    await expect.poll(() => page.getByTestId('import-error').count()).toBe(2);
    expect(await page.getByTestId('import-error').first().textContent()).toBe(
      "11ΤομέαςThe value is not in the level's table",
    );
    await shot(page, 'water-import-report-en', { fullPage: false });
    expect(await accessibilityViolations(page)).toEqual([]);
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
