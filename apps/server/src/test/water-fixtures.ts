import { expect } from 'vitest';
import type { TestApp } from './harness.ts';

/**
 * Consumers and finalized bills made through the API, for the tests of the modules that bill, credit,
 * collect and settle them. Each test gives its own consumer numbers and owners, so files stay apart.
 */

// biome-ignore lint/suspicious/noExplicitAny: answers read field by field
export type Json = Record<string, any>;

export function client(t: TestApp, headers: { authorization: string }) {
  return {
    get: (url: string, extra: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers: { ...headers, ...extra } }),
    post: (url: string, payload?: unknown) =>
      t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload: payload as Json } : {}) }),
  };
}

const idOf = (rows: Json[], code: string) => rows.find((r) => r.code === code)?.id as number;

export interface ConsumerOptions {
  supplyAddress?: string;
  /** Billed as a household (usage OIK, sewerage SYN, the first invoice policy); a consumer only read needs none. */
  billed?: boolean;
  /** Any other field of the consumer (route position, receiver, special regulation…). */
  fields?: Json;
}

/** An owner (a trader as `/api/traders` takes it) and their consumer with the code `parts`; its id. */
export async function newConsumer(
  api: ReturnType<typeof client>,
  q: string,
  parts: string[],
  owner: Json,
  options: ConsumerOptions = {},
): Promise<number> {
  const trader = await api.post(`/api/traders${q}`, owner);
  expect(trader.statusCode, trader.body).toBe(201);
  const consumer = await api.post(`/api/protocol/consumers${q}`, {
    parts,
    ownerId: trader.json().id,
    supplyAddress: options.supplyAddress ?? 'Αγίου Νικολάου 7, Αγία Ελένη',
    status: 1,
    ...(options.billed === false ? {} : await householdTariff(api, q)),
    ...options.fields,
  });
  expect(consumer.statusCode, consumer.body).toBe(201);
  return consumer.json().id;
}

async function householdTariff(api: ReturnType<typeof client>, q: string) {
  const usages = (await api.get(`/api/water/parametrics/propertyUsages${q}`)).json();
  const sewerage = (await api.get(`/api/water/parametrics/sewerageIndicators${q}`)).json();
  const policies = (await api.get(`/api/water/invoice_policies${q}`)).json();
  return {
    propertyUsageId: idOf(usages, 'OIK'),
    sewerageIndicatorId: idOf(sewerage, 'SYN'),
    invoicePolicyId: (policies[0] as Json).id,
  };
}

/**
 * A new meter installed on the consumer on `date`: five digits, DN15, a mechanical one counting
 * forward from 0 unless `meter` says otherwise (its serial number at least).
 */
export async function installMeter(
  api: ReturnType<typeof client>,
  q: string,
  consumerId: number,
  meter: Json & { serialNumber: string },
  date = '2025-12-01',
): Promise<void> {
  const installed = await api.post(`/api/protocol/consumers/${consumerId}/meters${q}`, {
    date,
    meter: {
      meterTypeId: null,
      kind: 1,
      direction: 1,
      diameter: 'DN15',
      digits: 5,
      initialReading: 0,
      ...meter,
    },
  });
  expect(installed.statusCode, installed.body).toBe(200);
}

/** A consumer's bill of a period, stored and finalized through the API. */
export async function finalBill(
  api: ReturnType<typeof client>,
  q: string,
  consumer: number,
  from: string,
  to: string,
  consumption: string,
  issueDate: string,
  /** The bill's other fields where a test wants its own (period label, reading dates…). */
  more: Json = {},
): Promise<Json> {
  const bill = await api.post(`/api/billing/bills${q}`, {
    consumerId: consumer,
    from,
    to,
    periodLabel: `${from} – ${to}`,
    previousReading: 1000,
    previousDate: from,
    currentReading: 1000 + Number(consumption),
    currentDate: to,
    consumption,
    issueDate,
    ...more,
  });
  expect(bill.statusCode, bill.body).toBe(200);
  const done = await api.post(`/api/billing/bills/${bill.json().id}/finalize${q}`);
  expect(done.statusCode, done.body).toBe(200);
  return done.json() as Json;
}
