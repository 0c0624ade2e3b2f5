import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signInApi } from '../support/api.ts';
import { accessibilityViolations } from '../support/axe.ts';
import { ADMIN_PASSWORD, type E2E, openSignedIn, startE2E } from '../support/harness.ts';
import { shot } from '../support/shot.ts';
import { enterReading, installMeter, newConsumer, readoutRoutes } from '../support/water.ts';

/**
 * Billing runs (issue 17) as the billing clerk uses them: readings of two routes entered through the
 * readouts API, then on /invoices/runs the two routes picked, the dry run's counts and totals, the
 * run started and followed to its end on the progress bar, rerun and finalized, in Greek and in English.
 */
let e2e: E2E;
let api: Api;
let routes: Record<string, number>;
const consumers: number[] = [];

beforeAll(async () => {
  e2e = await startE2E();
  api = await signInApi(e2e);
  routes = await readoutRoutes(api);
  const plan: [route: string, number: string, consumption: number][] = [
    ['001', '611', 14],
    ['001', '612', 33],
    ['002', '613', 58],
    ['002', '614', 21],
  ];
  for (const [route, number, consumption] of plan) {
    const consumerId = await newConsumer(api, {
      owner: { individual: true, lastname: `Παπαδάκη ${number}`, firstname: 'Μαρία' },
      parts: ['01', route, number],
      supplyAddress: `Ερμού ${number}, Αγία Ελένη`,
    });
    consumers.push(consumerId);
    await installMeter(api, consumerId, {
      serialNumber: `E2E-${number}`,
      initialReading: 1000,
      date: '2025-12-01',
    });
    await enterReading(api, {
      routeId: routes[route] ?? 0,
      year: 2026,
      period: 1,
      consumerId,
      reading: 1000 + consumption,
      readOn: '2026-04-22',
    });
  }
});
afterAll(async () => {
  await e2e?.close();
});

async function pickRoutesAndDryRun(page: Page, language: 'el' | 'en') {
  await page.getByTestId('billing-run-year').fill('2026');
  await page.getByTestId('billing-run-issue-date').fill('10/05/2026');
  await page.getByTestId('billing-run-scope-routes').click();
  for (const name of ['Πλατεία', 'Αγοράς']) {
    await page.getByTestId('billing-run-pick').fill(name);
    await page.getByRole('option').first().click();
  }
  // The dry run is a job: its progress shows until its result replaces it. Its four readings are
  // computed in an instant, so the page's polls of the job are held back for the picture.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/jobs/*', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByTestId('billing-run-dry').click();
  await page.getByTestId('billing-dry-progress').waitFor();
  await shot(page, `billing-dry-progress-${language}`);
  release();
  await page.getByTestId('billing-dry-result').waitFor();
  await page.unroute('**/api/jobs/*');
  expect(await page.getByTestId('billing-dry-progress').count()).toBe(0);
  await expect.poll(() => page.getByTestId('billing-dry-bills').textContent()).toMatch(/: 4$/);
  expect(await page.getByTestId('billing-dry-routes').textContent()).toMatch(/: 2$/);
  const total = await page.getByTestId('billing-dry-totals-total').textContent();
  expect(total).toMatch(language === 'el' ? /^\d+,\d{2}$/ : /^\d+\.\d{2}$/);
  return total;
}

describe('billing runs', () => {
  it('dry runs two routes, runs them with progress and shows the same total, in Greek', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/invoices/runs');
    await page.getByTestId('billing-runs-header').waitFor();
    const total = await pickRoutesAndDryRun(page, 'el');
    await page.getByTestId('billing-run-start').click();
    const row = page.getByTestId('billing-run-row').first();
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    expect(await row.textContent()).toContain('4/4');
    // The period by its name, as the readouts name it.
    expect(await row.getByTestId('billing-run-period-name').textContent()).toBe('Α΄ τετράμηνο 2026');
    expect(await row.textContent()).toContain(total);
    expect(await page.getByTestId('billing-run-progress').first().getAttribute('aria-valuenow')).toBe('100');
    // The bar's fill slides in: let it finish before the picture.
    await page.waitForTimeout(800);
    await shot(page, 'billing-runs-el');
    expect(await accessibilityViolations(page)).toEqual([]);
    await context.close();
  }, 120_000);

  it('reruns the period in English: nothing twice, the same total', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/en/invoices/runs');
    await page.getByTestId('billing-runs-header').waitFor();
    await pickRoutesAndDryRun(page, 'en');
    await page.getByTestId('billing-run-start').click();
    await expect.poll(() => page.getByTestId('billing-run-row').count()).toBe(2);
    const row = page.getByTestId('billing-run-row').first();
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    const runs = (await api('GET', '/api/billing/runs')).body as { total: string; bills: number }[];
    expect(runs.map((r) => r.bills)).toEqual([4, 0]);
    // Finalized from the run: the four bills take numbers of the water-bill series.
    expect(await row.getByTestId('billing-run-period-name').textContent()).toBe('1st four-month period 2026');
    // Finalizing is a job too: the notice comes when it ended.
    await page.getByTestId('billing-run-finalize').click();
    await page.getByText('4 bills finalized').waitFor();
    const runId = ((await api('GET', '/api/billing/runs')).body as { id: number }[])[0]?.id;
    const again = await api('POST', `/api/billing/runs/${runId}/finalize`, {});
    expect(again.status).toBe(202);
    let job: { state: string; result: unknown } = { state: 'queued', result: null };
    await expect
      .poll(async () => {
        job = (await api('GET', `/api/jobs/${again.body.jobId}`)).body;
        return job.state;
      })
      .toBe('succeeded');
    expect(job.result).toEqual({ finalized: 0 });
    await expect.poll(() => page.getByTestId('billing-run-finalize').count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(800);
    await shot(page, 'billing-runs-en');
    await context.close();
  }, 120_000);

  it('issue 29 item 17: the bills list and the card show when each bill was finalized, in both languages', async () => {
    const { context, page } = await e2e.newPage();
    await openSignedIn(page, 'admin', ADMIN_PASSWORD, '/');
    await page.getByTestId('dashboard-greeting').waitFor();
    const today = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Athens',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    }).format(new Date());
    await page.goto('/invoices');
    await page.getByRole('columnheader', { name: 'Ημ/νία οριστικοποίησης' }).first().waitFor();
    await page.getByRole('columnheader', { name: 'Οριστικοποίησε' }).first().waitFor();
    await expect.poll(() => page.getByRole('cell', { name: today, exact: true }).count()).toBe(4);
    // The new columns are the last ones: scrolled into view for the picture.
    await page
      .getByTestId('data-table')
      .locator('.MuiTableContainer-root')
      .evaluate((el) => {
        el.scrollLeft = el.scrollWidth;
      });
    await shot(page, 'billing-invoices-finalized-el');
    await page.goto(`/consumers/${consumers[0]}/edit`);
    await page.getByRole('tab', { name: 'Λογαριασμοί' }).click();
    const finalized = page.getByTestId('consumer-bill-finalized').first();
    await finalized.waitFor();
    expect(await finalized.textContent()).toMatch(new RegExp(`^${today} \\d{1,2}:\\d{2}:\\d{2}admin$`));
    await shot(page, 'billing-consumer-bills-finalized-el');
    await page.goto('/en/invoices');
    await page.getByRole('columnheader', { name: 'Finalized on' }).first().waitFor();
    await page.getByRole('columnheader', { name: 'Finalized by' }).first().waitFor();
    await expect.poll(() => page.getByRole('cell', { name: today, exact: true }).count()).toBe(4);
    // The new columns are the last ones: scrolled into view for the picture.
    await page
      .getByTestId('data-table')
      .locator('.MuiTableContainer-root')
      .evaluate((el) => {
        el.scrollLeft = el.scrollWidth;
      });
    await shot(page, 'billing-invoices-finalized-en');
    await page.goto(`/en/consumers/${consumers[0]}/edit`);
    await page.getByRole('tab', { name: 'Bills' }).click();
    await page.getByTestId('consumer-bill-finalized').first().waitFor();
    await shot(page, 'billing-consumer-bills-finalized-en');
    await context.close();
  }, 120_000);

  it("issue 29 item 12: a finalize before the series' last bill date is refused on the runs screen, naming both dates", async () => {
    // Period 2 read and run with an issue date before the 10 May of the finalized period 1 bills.
    for (const [i, consumerId] of consumers.entries()) {
      await enterReading(api, {
        routeId: routes[i < 2 ? '001' : '002'] ?? 0,
        year: 2026,
        period: 2,
        consumerId,
        reading: 1100 + i,
        readOn: '2026-08-22',
      });
    }
    const started = await api('POST', '/api/billing/runs', {
      year: 2026,
      period: 2,
      scope: 'routes',
      ids: [routes['001'], routes['002']],
      issueDate: '2026-05-01',
    });
    expect(started.status).toBe(201);
    await expect
      .poll(async () => (await api('GET', `/api/billing/runs/${started.body.id}`)).body.state, {
        timeout: 30_000,
      })
      .toBe('done');
    for (const [prefix, text] of [
      [
        '',
        'Η ημερομηνία έκδοσης της εκκαθάρισης (01/05/2026) είναι πριν από την ημερομηνία του τελευταίου λογαριασμού της σειράς (10/05/2026)',
      ],
      ['/en', "The run's issue date (01/05/2026) is before the date of the series' last bill (10/05/2026)"],
    ] as const) {
      const { context, page } = await e2e.newPage(prefix ? { locale: 'en-GB' } : {});
      await openSignedIn(page, 'admin', ADMIN_PASSWORD, `${prefix}/invoices/runs`);
      const row = page.getByTestId('billing-run-row').first();
      await row.getByTestId('billing-run-finalize').click();
      const error = page.getByTestId('billing-run-error');
      await error.waitFor();
      expect(await error.textContent()).toContain(text);
      await shot(page, `billing-runs-finalize-refused-${prefix ? 'en' : 'el'}`);
      await context.close();
    }
    // Nothing was finalized, no job failed.
    expect((await api('GET', `/api/billing/runs/${started.body.id}`)).body).toMatchObject({
      open: 4,
      finalizing: null,
    });
  }, 120_000);
});
