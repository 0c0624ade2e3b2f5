import { readFileSync } from 'node:fs';
import { pdfText } from '@protocol/server/testing/files';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';
import { installMeter, newConsumer, readoutRoutes } from '../support/water.ts';

/** Readouts (issue 16) as the meter readers' office uses them, in Chromium. */
let e2e: E2E;
let api: Api;
let routeId: number;
const consumers: Record<string, number> = {};

async function consumerWithMeter(
  lastname: string,
  number: string,
  serialNumber: string,
  initialReading: number,
  route = '001',
) {
  const consumerId = await newConsumer(api, {
    owner: { individual: true, lastname, firstname: 'Μαρία' },
    parts: ['01', route, number],
    supplyAddress: `Ελευθερίου Βενιζέλου ${number}`,
    billed: false,
    more: { routePosition: Number(number), notes: number === '2' ? 'Φρεάτιο δίπλα στην είσοδο' : null },
  });
  await installMeter(api, consumerId, { serialNumber, initialReading, date: '2026-01-05' });
  return consumerId;
}

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
  routeId = (await readoutRoutes(api))['001'] ?? 0;
  consumers.a = await consumerWithMeter('Αθανασίου', '1', 'ZN-501', 120);
  consumers.b = await consumerWithMeter('Βασιλείου', '2', 'ZN-502', 99_985);
  consumers.c = await consumerWithMeter('Γεωργίου', '3', 'ZN-503', 300);
  consumers.d = await consumerWithMeter('Δημητρίου', '4', 'ZN-504', 45);
  // The whole product and four consumers with meters: more than the default hook time on a busy machine.
}, 240_000);
afterAll(async () => {
  await e2e?.close();
});

const periodUrl = (prefix = '', tab = 'entry') =>
  `${prefix}/readouts?route=${routeId}&year=2026&period=3&tab=${tab}`;
const statuses = (page: Page) =>
  page
    .getByTestId('readout-row')
    .evaluateAll((rows) =>
      rows.map((r) => r.querySelector('[data-testid=row-status]')?.getAttribute('data-status') ?? 'idle'),
    );

describe('readouts', () => {
  it('enters a route with the keyboard only: a rollover, an abnormal reading accepted in review, then finalizes', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, periodUrl());
    await page.getByTestId('readout-row').first().waitFor();
    expect(await page.getByTestId('period-name').textContent()).toBe('Γ΄ τετράμηνο 2026');
    const serials = await page
      .getByTestId('readout-row')
      .evaluateAll((rows) => rows.map((r) => r.children[2]?.textContent));
    expect(serials).toEqual(['ZN-501', 'ZN-502', 'ZN-503', 'ZN-504']);

    await page.getByTestId('reading-input').first().focus();
    // A: 120 → 158; B: 99,985 → 12 across the rollover; C: unchanged (zero on an active consumer).
    await page.keyboard.type('158');
    await page.keyboard.press('Enter');
    await page.keyboard.type('12');
    // As it is typed, the row already shows the consumption across the rollover.
    const rowB = page.getByTestId('readout-row').nth(1);
    await expect.poll(() => rowB.getByTestId('consumption').textContent()).toBe('27');
    expect(await rowB.getByText('μηδενισμός').count()).toBe(1);
    await page.keyboard.press('Enter');
    await page.keyboard.type('300');
    await page.keyboard.press('Enter');
    // D: a lower reading with no explanation asks for its reason; the reader goes back instead.
    await page.keyboard.type('40');
    const rowD = page.getByTestId('readout-row').nth(3);
    await rowD.getByTestId('flag-lower').waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('lower-reading-dialog').waitFor();
    await page.getByRole('button', { name: 'Πίσω' }).click();
    await page.getByTestId('lower-reading-dialog').waitFor({ state: 'detached' });
    expect(await statuses(page)).toEqual(['saved', 'saved', 'saved', 'idle']);
    // The row keeps the focus: the reader fixes it in place.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('reading-input');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('52');
    await page.keyboard.press('Enter');
    await expect.poll(() => statuses(page)).toEqual(['saved', 'saved', 'saved', 'saved']);
    await page.getByTestId('readout-row').nth(2).getByTestId('flag-zero_active').waitFor();
    await shot(page, 'readouts-grid-el');

    // The route sheet: the meters in route order with their previous readings.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('sheet-pdf').click(),
    ]);
    const pdf = await pdfText(readFileSync((await download.path()) as string));
    expect(pdf).toContain('Φύλλο καταμέτρησης 001');
    const at = ['ZN-501', 'ZN-502', 'ZN-503', 'ZN-504'].map((serial) => pdf.indexOf(serial));
    expect(at.every((position, i) => position > 0 && (i === 0 || position > (at[i - 1] ?? 0)))).toBe(true);
    expect(pdf).toContain('99985');

    const sheet = await api('GET', `/api/readouts/sheet?routeId=${routeId}&year=2026&period=3`);
    expect(sheet.body.rows.map((r: { reading: { consumption: number } }) => r.reading.consumption)).toEqual([
      38, 27, 0, 7,
    ]);

    await page.getByRole('tab', { name: 'Έλεγχος' }).click();
    await page.getByTestId('review-row').first().waitFor();
    expect(await page.getByTestId('review-row').count()).toBe(1);
    await shot(page, 'readouts-review-el');
    await page.getByTestId('review-accept').click();
    await page.getByText('Εγκρίθηκε').first().waitFor();

    await page.getByTestId('finalize').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Οριστικοποίηση' }).click();
    await expect.poll(() => page.getByTestId('period-state').textContent()).toBe('Οριστική');
    expect(
      (await api('GET', `/api/readouts/sheet?routeId=${routeId}&year=2026&period=3`)).body.period,
    ).toMatchObject({
      state: 9,
      defuser: 'admin',
    });
    await page.getByRole('tab', { name: 'Καταχώριση' }).click();
    expect(await page.getByTestId('reading-input').first().isDisabled()).toBe(true);

    // The consumer's card shows its readings in its own tab.
    await page.goto(`/consumers/${consumers.b}/edit`);
    await page.getByRole('tab', { name: 'Καταμετρήσεις' }).click();
    await page.getByTestId('consumer-readouts').getByText('Γ΄ τετράμηνο 2026').waitFor();
    expect(await page.getByTestId('consumer-readouts').textContent()).toContain('27');
    await shot(page, 'readouts-consumer-tab-el');
    await context.close();
  });

  it('shows the grid and the review list in English', async () => {
    const { context, page } = await e2e.newPage({ locale: 'en-GB' });
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, periodUrl('/en'));
    await page.getByTestId('readout-row').first().waitFor();
    expect(await page.getByTestId('period-name').textContent()).toBe('3rd four-month period 2026');
    expect(await page.getByTestId('period-state').textContent()).toBe('Finalized');
    await shot(page, 'readouts-grid-en');
    await page.getByTestId('topbar-theme').click();
    await shot(page, 'readouts-grid-en-dark');
    await page.getByTestId('topbar-theme').click();
    await page.goto(periodUrl('/en', 'review'));
    await page.getByTestId('review-row').first().waitFor();
    await shot(page, 'readouts-review-en');

    // A lost connection: the row says it is unsaved, retries, and is saved once when it is back.
    await page.goto(`/en/readouts?route=${routeId}&year=2026&period=2&tab=entry`);
    await page.getByTestId('reading-input').first().waitFor();
    await context.setOffline(true);
    await page.getByTestId('reading-input').first().fill('130');
    await page.getByTestId('reading-input').first().press('Enter');
    await expect.poll(() => statuses(page)).toEqual(['unsaved', 'idle', 'idle', 'idle']);
    expect(await page.getByTestId('row-status').first().textContent()).toContain('Unsaved');
    await shot(page, 'readouts-grid-offline-en');
    await context.setOffline(false);
    await expect.poll(() => statuses(page), { timeout: 15_000 }).toEqual(['saved', 'idle', 'idle', 'idle']);
    const p2 = await api('GET', `/api/readouts/sheet?routeId=${routeId}&year=2026&period=2`);
    expect(p2.body.rows.filter((r: { reading: unknown }) => r.reading !== null)).toHaveLength(1);
    expect(p2.body.rows[0].reading).toMatchObject({ reading: 130, consumption: 10 });
    await context.close();
  });

  it('issue 29 item 13: entering a lower reading asks for a reason; kept with it, flagged for the supervisor, in both languages', async () => {
    // Route 003: two meters whose readers find them lower than last time.
    const route3 = (await readoutRoutes(api))['003'];
    const changed = await consumerWithMeter('Ζαχαρίου', '5', 'ZN-505', 800, '003');
    const misread = await consumerWithMeter('Ηλιοπούλου', '6', 'ZN-506', 640, '003');
    const url = (prefix: string, tab: string) =>
      `${prefix}/readouts?route=${route3}&year=2026&period=3&tab=${tab}`;
    const reason = 'Ο μετρητής άλλαξε χωρίς καταχώριση';

    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, url('', 'entry'));
    await page.getByTestId('readout-row').first().waitFor();
    await page.getByTestId('reading-input').first().focus();
    await page.keyboard.type('15');
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('lower-reading-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('ZN-505');
    expect(await dialog.textContent()).toContain('(800)');
    // No reason, no save.
    await page.getByTestId('lower-reading-submit').click();
    await dialog.getByText('Το πεδίο είναι απαραίτητο').waitFor();
    await shot(page, 'readouts-lower-reason-el');
    await page.getByTestId('lower-reading-reason').fill(reason);
    await page.getByTestId('lower-reading-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => statuses(page)).toEqual(['saved', 'idle']);
    const first = page.getByTestId('readout-row').first();
    await first.getByTestId('flag-lower_reading').waitFor();
    expect(await first.getByTestId('consumption').textContent()).toBe('0');
    const sheet = await api('GET', `/api/readouts/sheet?routeId=${route3}&year=2026&period=3`);
    expect(
      sheet.body.rows.find((r: { consumerId: number }) => r.consumerId === changed).reading,
    ).toMatchObject({
      reading: 15,
      consumption: 0,
      basis: 'lower',
      flags: ['lower_reading'],
      review: 1,
      note: reason,
    });
    // The supervisor's review: the flagged reading with its reason, the list narrowed to lower readings.
    await page.getByRole('tab', { name: 'Έλεγχος' }).click();
    await page.getByTestId('review-filter-lower_reading').click();
    await expect
      .poll(() => page.getByTestId('review-filter-lower_reading').getAttribute('aria-pressed'))
      .toBe('true');
    await page.getByTestId('review-row').first().waitFor();
    expect(await page.getByTestId('review-row').count()).toBe(1);
    expect(await page.getByTestId('review-note').first().textContent()).toBe(reason);
    await shot(page, 'readouts-lower-review-el');
    await context.close();

    const english = await e2e.newPage({ locale: 'en-GB' });
    await openSignedIn(english.page, 'admin', ADMIN_PASSWORD, url('/en', 'entry'));
    await english.page.getByTestId('readout-row').nth(1).waitFor();
    await english.page.getByTestId('reading-input').nth(1).focus();
    await english.page.keyboard.type('600');
    await english.page.keyboard.press('Enter');
    const englishDialog = english.page.getByTestId('lower-reading-dialog');
    await englishDialog.getByText('Lower reading on meter ZN-506').waitFor();
    await english.page.getByTestId('lower-reading-reason').fill('Misread last time: 604 taken as 640');
    await shot(english.page, 'readouts-lower-reason-en');
    await english.page.keyboard.press('Enter');
    await englishDialog.waitFor({ state: 'detached' });
    await expect.poll(() => statuses(english.page)).toEqual(['saved', 'saved']);
    await english.page.goto(url('/en', 'review'));
    await english.page.getByTestId('review-filter-lower_reading').click();
    await expect
      .poll(() => english.page.getByTestId('review-filter-lower_reading').getAttribute('aria-pressed'))
      .toBe('true');
    await expect.poll(() => english.page.getByTestId('review-row').count()).toBe(2);
    expect(await english.page.getByTestId('review-filter').textContent()).toContain(
      'Lower, reason given (2)',
    );
    // Past the chips' colour transition, for the picture.
    await english.page.waitForTimeout(400);
    await shot(english.page, 'readouts-lower-review-en');
    const after = await api('GET', `/api/readouts/sheet?routeId=${route3}&year=2026&period=3`);
    expect(
      after.body.rows.find((r: { consumerId: number }) => r.consumerId === misread).reading,
    ).toMatchObject({
      reading: 600,
      consumption: 0,
      flags: ['lower_reading'],
      note: 'Misread last time: 604 taken as 640',
    });
    await english.context.close();
  });

  it('imports a handheld file with two bad lines and sees them reported, in both languages', async () => {
    const file = [
      'Κωδικός;Υδρομετρητής;Νέα ένδειξη',
      '01-001-    1;ZN-501;140',
      '01-001-    2;ZN-502;1x',
      '01-001-   77;;15',
      '01-001-    4;ZN-504;60',
    ].join('\r\n');
    const upload = {
      name: 'handheld-001.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`\uFEFF${file}\r\n`),
    };
    const { context, page } = await e2e.newPage();
    await openSignedIn(
      page,
      'admin',
      ADMIN_PASSWORD,
      `/readouts?route=${routeId}&year=2026&period=1&tab=import`,
    );
    // The dry run lists the two lines it cannot save and saves nothing.
    await page.getByTestId('readings-import-file').setInputFiles(upload);
    await page.getByTestId('readings-import-dry-run').click();
    await page.getByTestId('readings-import-report').waitFor();
    const levels = () =>
      page
        .getByTestId('readings-import-line')
        .evaluateAll((rows) => rows.map((r) => [r.children[1]?.textContent, r.getAttribute('data-level')]));
    expect(await levels()).toEqual([
      ['3', 'failed'],
      ['4', 'failed'],
    ]);
    expect(await page.getByTestId('readings-import-summary').textContent()).toContain(
      'Ελέγχθηκαν 4 γραμμές: 2 δεν μπορούν να αποθηκευτούν',
    );
    expect(await page.getByTestId('readings-import-report').textContent()).toContain(
      'Άγνωστος κωδικός καταναλωτή',
    );
    await shot(page, 'readouts-import-dry-run-el');
    // The import saves the others; the bad lines are skipped and listed.
    await page.getByTestId('readings-import-run').click();
    await page.getByText('Εισαγωγή: 2 αποθηκεύτηκαν, 0 με προειδοποίηση, 2 απέτυχαν.').waitFor();
    expect(await levels()).toEqual([
      ['3', 'failed'],
      ['4', 'failed'],
    ]);
    await shot(page, 'readouts-import-el');
    const sheet = await api('GET', `/api/readouts/sheet?routeId=${routeId}&year=2026&period=1`);
    expect(
      sheet.body.rows.map(
        (r: { reading: { reading: number; source: number } | null }) => r.reading?.reading ?? null,
      ),
    ).toEqual([140, null, null, 60]);
    // The same file again, in English: nothing added, the good lines say so.
    await page.goto(`/en/readouts?route=${routeId}&year=2026&period=1&tab=import`);
    await page.getByTestId('readings-import-file').setInputFiles(upload);
    await page.getByTestId('readings-import-dry-run').click();
    await page.getByTestId('readings-import-summary').getByText('4 lines checked').waitFor();
    await shot(page, 'readouts-import-dry-run-en');
    await page.getByTestId('readings-import-run').click();
    await page.getByText('Imported: 0 saved, 2 with a warning, 2 failed.').waitFor();
    expect(await levels()).toEqual([
      ['2', 'warning'],
      ['3', 'failed'],
      ['4', 'failed'],
      ['5', 'warning'],
    ]);
    expect(await page.getByTestId('readings-import-report').textContent()).toContain(
      'Already imported from the same file',
    );
    await shot(page, 'readouts-import-en');
    await context.close();
  });

  it('marks a meter with no history at the close, in both languages, until a correction reads it', async () => {
    // Route 002: one new meter, never read, nothing to estimate from.
    const route2 = (await readoutRoutes(api))['002'];
    await consumerWithMeter('Ευαγγέλου', '9', 'ZN-509', 70, '002');
    const url = (prefix: string, tab: string) =>
      `${prefix}/readouts?route=${route2}&year=2026&period=1&tab=${tab}`;
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, url('', 'entry'));
    await page.getByTestId('readout-row').first().waitFor();
    await page.getByTestId('finalize').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Οριστικοποίηση' }).click();
    // The close says what it could not estimate and opens the review, where the meter waits for a reading.
    await page.getByText('Χωρίς ιστορικό για εκτίμηση: 1').waitFor();
    await page.getByTestId('review-row').first().waitFor();
    const row = page.getByTestId('review-row').first();
    await row.getByTestId('flag-no_estimate').waitFor();
    expect(await row.textContent()).toContain('Καμία εκτίμηση: χωρίς ιστορικό');
    expect(await row.textContent()).toContain('Χρειάζεται ένδειξη');
    expect(await row.getByTestId('review-accept').count()).toBe(0);
    // Nothing was read on the route: the header does not count the flagged meter as read.
    expect(await page.getByText('0 από 1 ενδείξεις').count()).toBe(1);
    await shot(page, 'readouts-review-no-estimate-el');

    const english = await e2e.newPage({ locale: 'en-GB' });
    await openSignedIn(english.page, 'admin', ADMIN_PASSWORD, url('/en', 'review'));
    const enRow = english.page.getByTestId('review-row').first();
    await enRow.getByTestId('flag-no_estimate').waitFor();
    expect(await enRow.textContent()).toContain('No estimate: no history');
    expect(await enRow.textContent()).toContain('Needs a reading');
    await shot(english.page, 'readouts-review-no-estimate-en');
    await english.context.close();

    // The reader went back: the reading is entered as a correction of the closed period.
    await row.getByRole('button', { name: 'Διόρθωση' }).click();
    await page.getByLabel('Σωστή ένδειξη').fill('95');
    await page.getByRole('button', { name: 'Αποθήκευση' }).click();
    await page.getByTestId('review-empty').waitFor();
    const sheet = await api('GET', `/api/readouts/sheet?routeId=${route2}&year=2026&period=1`);
    expect(sheet.body.rows[0].reading).toMatchObject({ reading: 95, consumption: 25, flags: [] });
    await context.close();
  });
});
