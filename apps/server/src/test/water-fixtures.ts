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

export async function newConsumer(
  api: ReturnType<typeof client>,
  q: string,
  parts: string[],
  owner: Json,
): Promise<number> {
  const usages = (await api.get(`/api/water/parametrics/propertyUsages${q}`)).json();
  const sewerage = (await api.get(`/api/water/parametrics/sewerageIndicators${q}`)).json();
  const policies = (await api.get(`/api/water/invoice_policies${q}`)).json();
  const trader = await api.post(`/api/traders${q}`, owner);
  expect(trader.statusCode, trader.body).toBe(201);
  const consumer = await api.post(`/api/protocol/consumers${q}`, {
    parts,
    ownerId: trader.json().id,
    supplyAddress: 'Αγίου Νικολάου 7, Αγία Ελένη',
    status: 1,
    propertyUsageId: idOf(usages, 'OIK'),
    sewerageIndicatorId: idOf(sewerage, 'SYN'),
    invoicePolicyId: (policies[0] as Json).id,
  });
  expect(consumer.statusCode, consumer.body).toBe(201);
  return consumer.json().id;
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
  });
  expect(bill.statusCode, bill.body).toBe(200);
  const done = await api.post(`/api/billing/bills/${bill.json().id}/finalize${q}`);
  expect(done.statusCode, done.body).toBe(200);
  return done.json() as Json;
}
