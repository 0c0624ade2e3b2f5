import { startFakeSmartville } from '@protocol/server/testing/fake-smartville';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';
import { installMeter, newConsumer, readoutRoutes } from '../support/water.ts';

/** Readouts in the field (issue 16): the meter reader's phone, without a connection; smart meters. */
let e2e: E2E;
let api: Api;
let routeId: number;
const consumers: number[] = [];

async function consumerWithMeter(lastname: string, number: string, initialReading: number) {
  const consumerId = await newConsumer(api, {
    owner: { individual: true, lastname, firstname: 'Νίκος' },
    parts: ['01', '001', number],
    supplyAddress: `Αγίου Νικολάου ${number}`,
    billed: false,
    more: { routePosition: Number(number), notes: `Φρεάτιο ${number}: πίσω από την αυλόπορτα` },
  });
  await installMeter(api, consumerId, { serialNumber: `FD-${number}`, initialReading, date: '2026-01-05' });
  return consumerId;
}

/** A phone: 390×844, touch, in the given language. */
async function phone(locale: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await e2e.browser.newContext({
    baseURL: e2e.baseUrl,
    locale,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  return { context, page: await context.newPage() };
}

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
  routeId = (await readoutRoutes(api))['001'] ?? 0;
  consumers.push(await consumerWithMeter('Καραγιάννη', '1', 120));
  consumers.push(await consumerWithMeter('Λαμπράκη', '2', 99_985));
  consumers.push(await consumerWithMeter('Μανωλάκη', '3', 300));
  consumers.push(await consumerWithMeter('Ντόκου', '4', 45));
}, 240_000);
afterAll(async () => {
  await e2e?.close();
});

const fieldUrl = (prefix = '') => `${prefix}/readouts/field?route=${routeId}&year=2026&period=3`;
const pending = (page: Page) => page.getByTestId('field-pending').textContent();

describe('readouts in the field', () => {
  it('reads three meters on a phone without a connection, keeps them over a reload and saves each once when it returns', async () => {
    const { context, page } = await phone('el-GR');
    // Every reading the phone sends, to check each meter went with one idempotency key.
    const posted: { consumerId: number; idempotencyKey: string }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/readouts/readings'))
        posted.push(request.postDataJSON());
    });
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, fieldUrl());
    await page.getByTestId('field-meter').waitFor();
    // Installable: a manifest, and the service worker controls the page once it is installed.
    expect(await page.locator('link[rel=manifest]').getAttribute('href')).toBe('/manifest.webmanifest');
    const manifest = await (await fetch(`${e2e.baseUrl}/manifest.webmanifest`)).json();
    expect(manifest).toMatchObject({ display: 'standalone', start_url: '/readouts/field' });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
      timeout: 20_000,
    });
    // The worker keeps the files this page loaded before it was there.
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.open('protocol-shell-v1')).keys()).length))
      .toBeGreaterThan(5);
    expect(await page.getByTestId('field-location').textContent()).toContain('Φρεάτιο 1');
    expect(await page.getByTestId('field-previous').textContent()).toContain('120');
    await shot(page, 'readouts-field-el');

    await context.setOffline(true);
    const input = page.getByTestId('field-reading');
    await input.fill('158');
    await page.keyboard.press('Enter');
    await expect.poll(() => pending(page)).toBe('1 προς αποστολή');
    // The second meter: its location and previous reading, and the rollover shown as it is typed.
    await expect.poll(() => page.getByTestId('field-location').textContent()).toContain('Φρεάτιο 2');
    await input.fill('12');
    await expect.poll(() => page.getByTestId('field-consumption').textContent()).toContain('27');
    expect(await page.getByText('μηδενισμός').count()).toBe(1);
    await page.getByTestId('field-save').click();
    await expect.poll(() => page.getByTestId('field-location').textContent()).toContain('Φρεάτιο 3');
    await input.fill('310');
    await page.keyboard.press('Enter');
    await expect.poll(() => pending(page)).toBe('3 προς αποστολή');
    await page.getByTestId('field-location').filter({ hasText: 'Φρεάτιο 4' }).waitFor();
    // A lower reading is shown as refused while it is typed.
    await input.fill('40');
    await page.getByTestId('flag-lower').waitFor();
    await input.fill('');

    // Still offline, the page reloads from the service worker and the browser's queue. Chromium
    // drops its offline emulation for the document the worker serves on reload (navigator.onLine is
    // true again): every request of the context is refused meanwhile, and the emulation is set anew.
    const noNetwork = `${e2e.baseUrl}/**`;
    await context.route(noNetwork, (route) => route.abort('internetdisconnected'));
    await page.reload();
    await page.getByTestId('field-meter').waitFor();
    await context.setOffline(false);
    await context.setOffline(true);
    await page.getByTestId('field-offline').waitFor();
    await expect.poll(() => pending(page)).toBe('3 προς αποστολή');
    await shot(page, 'readouts-field-offline-el');
    const nothingYet = await api('GET', `/api/readouts/sheet?routeId=${routeId}&year=2026&period=3`);
    expect(nothingYet.body.rows.filter((r: { reading: unknown }) => r.reading !== null)).toHaveLength(0);

    await context.unroute(noNetwork);
    await context.setOffline(false);
    await page.getByTestId('field-synced').waitFor({ timeout: 20_000 });
    const sheet = await api('GET', `/api/readouts/sheet?routeId=${routeId}&year=2026&period=3`);
    const saved = sheet.body.rows.map((r: { reading: { reading: number; consumption: number } | null }) =>
      r.reading ? [r.reading.reading, r.reading.consumption] : null,
    );
    expect(saved).toEqual([[158, 38], [12, 27], [310, 10], null]);
    for (const consumerId of consumers.slice(0, 3)) {
      const history = await api('GET', `/api/readouts/consumers/${consumerId}/history`);
      expect(
        history.body.filter((h: { year: number; period: number }) => h.year === 2026 && h.period === 3),
      ).toHaveLength(1);
      const keys = new Set(posted.filter((p) => p.consumerId === consumerId).map((p) => p.idempotencyKey));
      expect(keys.size).toBe(1);
    }
    // The third meter, sent from the queue, now shows the server's saved reading.
    await page.getByTestId('field-back').click();
    await page.getByTestId('field-status').filter({ hasText: 'Καταχωρίστηκε.' }).waitFor();
    expect(await page.getByTestId('field-reading').inputValue()).toBe('310');
    await shot(page, 'readouts-field-synced-el');
    await context.close();
  }, 180_000);

  it('shows the field entry in English', async () => {
    const { context, page } = await phone('en-GB');
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, fieldUrl('/en'));
    await page.getByTestId('field-meter').waitFor();
    // The first meter not yet read: the fourth.
    expect(await page.getByTestId('field-meter').textContent()).toContain('Meter 4 of 4');
    await page.getByTestId('field-reading').fill('90');
    await page.getByTestId('flag-above_average').or(page.getByTestId('field-consumption')).first().waitFor();
    await shot(page, 'readouts-field-en');
    await page.getByTestId('field-back').click();
    await page.getByTestId('field-status').filter({ hasText: 'Saved.' }).waitFor();
    await shot(page, 'readouts-field-saved-en');
    await context.close();
  }, 120_000);
});

describe('smart meters', () => {
  it('sets the smartville connection and pulls a period, with its per-line report, in both languages', async () => {
    const fake = await startFakeSmartville('e2e-smartville-key', 50);
    try {
      await consumerWithMeter('Ξανθού', '5', 500);
      fake.readings.push(
        { id: 'e-1', meterSerial: 'FD-5', takenAt: '2026-09-15T07:30:00Z', value: 540 },
        { id: 'e-2', meterSerial: 'FD-99', takenAt: '2026-09-15T07:31:00Z', value: 10 },
      );
      const { context, page } = await e2e.newPage();
      await openSignedIn(
        page,
        'admin',
        ADMIN_PASSWORD,
        `/readouts?route=${routeId}&year=2026&period=3&tab=import`,
      );
      await page.getByRole('combobox', { name: 'Πηγή' }).click();
      await page.getByRole('option', { name: 'Έξυπνοι μετρητές (smartville)' }).click();
      await page.getByTestId('smartville-url').fill(fake.url);
      await page.getByTestId('smartville-key').fill('e2e-smartville-key');
      await page.getByRole('button', { name: 'Αποθήκευση σύνδεσης' }).click();
      await page.getByTestId('smartville-pull').and(page.locator(':enabled')).click();
      await page.getByTestId('import-report').waitFor();
      const results = await page
        .getByTestId('import-line')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-result')));
      expect(results).toEqual(['1', '-1']);
      await shot(page, 'readouts-smartville-el');
      await context.close();

      const en = await e2e.newPage({ locale: 'en-GB' });
      await openSignedIn(
        en.page,
        'admin',
        ADMIN_PASSWORD,
        `/en/readouts?route=${routeId}&year=2026&period=3&tab=import`,
      );
      await en.page.getByRole('combobox', { name: 'Source' }).click();
      await en.page.getByRole('option', { name: 'Smart meters (smartville)' }).click();
      await en.page.getByTestId('smartville-pull').and(en.page.locator(':enabled')).click();
      await en.page.getByTestId('import-report').waitFor();
      // The second pull adds nothing: the saved line is now a warning.
      const again = await en.page
        .getByTestId('import-line')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-result')));
      expect(again).toEqual(['0', '-1']);
      expect(await en.page.getByTestId('import-line').first().textContent()).toContain('Already imported');
      await shot(en.page, 'readouts-smartville-en');
      await en.context.close();
    } finally {
      await fake.close();
    }
  }, 120_000);
});
