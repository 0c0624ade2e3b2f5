import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { type Api, type ApiAnswer, idOf } from './api.ts';
import { ADMIN_PASSWORD, signIn } from './harness.ts';

/*
 * The water service's data made through the API for the tests that need it before a screen opens:
 * a consumer with its owner, a meter installed on it, a reading of a route's period, a finalized
 * bill. Each test file gives its own numbers, names and serials, so the files stay independent.
 */

// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
type Json = Record<string, any>;

const tariffs = new WeakMap<Api, ReturnType<typeof lookUpTariff>>();

/** Usage OIK, sewerage SYN and the first invoice policy: what the demo company bills a household by. */
const householdTariff = (api: Api) => {
  const known = tariffs.get(api) ?? lookUpTariff(api);
  tariffs.set(api, known);
  return known;
};

async function lookUpTariff(api: Api) {
  const usages = (await api('GET', '/api/water/parametrics/propertyUsages')).body;
  const sewerage = (await api('GET', '/api/water/parametrics/sewerageIndicators')).body;
  const policies = (await api('GET', '/api/water/invoice_policies')).body;
  return {
    propertyUsageId: idOf(usages, 'OIK'),
    sewerageIndicatorId: idOf(sewerage, 'SYN'),
    invoicePolicyId: policies[0]?.id,
  };
}

export interface NewConsumer {
  /** The trader who owns the supply (individual or company, as `/api/traders` takes it). */
  owner: Json;
  /** The code's parts: sector, route and number (`['01', '001', '611']`). */
  parts: [string, string, string];
  supplyAddress: string;
  /** Billed as a household (usage, sewerage, invoice policy); a consumer only read needs none. */
  billed?: boolean;
  /** Any other field of the consumer (route position, notes, special regulation…). */
  more?: Json;
}

/** An owner and their consumer, through the API; answers the consumer's id. */
export async function newConsumer(api: Api, consumer: NewConsumer): Promise<number> {
  const owner = await api('POST', '/api/traders', { traderbanks: [], customFields: {}, ...consumer.owner });
  expect(owner.status, JSON.stringify(owner.body)).toBe(201);
  const made = await api('POST', '/api/protocol/consumers', {
    parts: consumer.parts,
    ownerId: owner.body.id,
    supplyAddress: consumer.supplyAddress,
    status: 1,
    ...(consumer.billed === false ? {} : await householdTariff(api)),
    ...consumer.more,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id;
}

/** A new five-digit meter, DN15, counting forward, installed on the consumer on `date`. */
export async function installMeter(
  api: Api,
  consumerId: number,
  meter: { serialNumber: string; initialReading: number; date: string },
): Promise<void> {
  const installed = await api('POST', `/api/protocol/consumers/${consumerId}/meters`, {
    date: meter.date,
    meter: {
      serialNumber: meter.serialNumber,
      meterTypeId: null,
      kind: 1,
      direction: 1,
      diameter: 'DN15',
      digits: 5,
      initialReading: meter.initialReading,
    },
  });
  expect(installed.status, JSON.stringify(installed.body)).toBe(200);
}

/**
 * The id of each reading route by its code: sector 01's, the first listed, where sectors share a
 * code (the demo's sectors each have a route 001).
 */
export async function readoutRoutes(api: Api): Promise<Record<string, number>> {
  const routes = (await api('GET', '/api/readouts/routes')).body as { id: number; code: string }[];
  const ids: Record<string, number> = {};
  for (const route of routes) ids[route.code] ??= route.id;
  return ids;
}

/** A reading of the consumer entered for a route's period, as the grid saves it. */
export async function enterReading(
  api: Api,
  reading: {
    routeId: number;
    year: number;
    period: number;
    consumerId: number;
    reading: number;
    readOn: string;
  },
): Promise<void> {
  const saved = await api('POST', '/api/readouts/readings', reading);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

/** A bill of the consumer stored through billing's API and finalized; answers the finalized bill. */
export async function finalizedBill(
  api: Api,
  bill: {
    consumerId: number;
    from: string;
    to: string;
    periodLabel: string;
    previousReading: number;
    previousDate: string;
    consumption: number;
    currentDate: string;
    issueDate: string;
  },
): Promise<ApiAnswer['body']> {
  const { consumption, ...rest } = bill;
  const stored = await api('POST', '/api/billing/bills', {
    ...rest,
    currentReading: bill.previousReading + consumption,
    consumption: String(consumption),
  });
  expect(stored.status, JSON.stringify(stored.body)).toBe(200);
  const done = await api('POST', `/api/billing/bills/${stored.body.id}/finalize`);
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body;
}

/**
 * The billing run of period 1/2026 over `routes` through billing's API, waited for, then finalized
 * through its job; fails unless `finalized` bills were finalized.
 */
export async function runAndFinalize(
  api: Api,
  routes: (number | undefined)[],
  issueDate: string,
  finalized: number,
) {
  const run = await api('POST', '/api/billing/runs', {
    year: 2026,
    period: 1,
    scope: 'routes',
    ids: routes,
    issueDate,
  });
  expect(run.status, JSON.stringify(run.body)).toBe(201);
  const deadline = Date.now() + 120_000;
  while ((await api('GET', `/api/billing/runs/${run.body.id}`)).body.state !== 'done') {
    if (Date.now() > deadline) throw new Error('the run did not end');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const finalizing = await api('POST', `/api/billing/runs/${run.body.id}/finalize`, {});
  expect(finalizing.status, JSON.stringify(finalizing.body)).toBe(202);
  let job: { state: string; result?: unknown } = { state: 'queued' };
  while (job.state === 'queued' || job.state === 'running') {
    if (Date.now() > deadline) throw new Error('the finalizing did not end');
    await new Promise((resolve) => setTimeout(resolve, 200));
    job = (await api('GET', `/api/jobs/${finalizing.body.jobId}`)).body;
  }
  expect(job).toMatchObject({ state: 'succeeded', result: { finalized } });
}

/** Signs in as the admin and opens the consumer card's Bills tab, once its first bill shows. */
export async function openConsumerBills(page: Page, consumerId: number, language: 'el' | 'en') {
  const prefix = language === 'en' ? '/en' : '';
  await signIn(page, 'admin', ADMIN_PASSWORD, `${prefix}/login`);
  await page.getByTestId('dashboard-greeting').waitFor();
  await page.goto(`${prefix}/consumers/${consumerId}/edit`);
  await page.getByRole('tab', { name: language === 'en' ? 'Bills' : 'Λογαριασμοί' }).click();
  await page.getByTestId('consumer-bill').first().waitFor();
}

/** A bill's row on the consumer card's Bills tab. */
export const consumerBillRow = (page: Page, id: number) =>
  page.locator(`[data-testid="consumer-bill"][data-id="${id}"]`);
