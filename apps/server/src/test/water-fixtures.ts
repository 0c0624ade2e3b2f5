import type pg from 'pg';
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

/**
 * A route of its own (`code` in the demo's sector 01) with `count` consumers read for the first
 * four-month period of 2026, billable by the demo's usage, sewerage and invoice policy: for the
 * billing runs of the multi-node tests, written in one statement through a raw client. Returns the
 * route's id.
 */
export async function insertReadRoute(
  client: pg.Client,
  companyId: number,
  { code, surname, count }: { code: string; surname: string; count: number },
): Promise<number> {
  const route = await client.query<{ id: number }>(
    `INSERT INTO water_routes (company_id, sector_id, code, description, reading_order)
     SELECT $1, id, $2, 'Δρομολόγιο ' || $2, $2::int FROM water_sectors WHERE company_id = $1 AND code = '01'
     RETURNING id`,
    [companyId, code],
  );
  const routeId = route.rows[0]?.id;
  if (routeId === undefined) throw new Error('no sector 01 in the demo company');
  await client.query(
    `WITH owners AS (
       INSERT INTO traders (company_id, individual, lastname, firstname, fullname)
       SELECT $1, true, $4 || ' ' || g, 'Νίκος', $4 || ' ' || g || ' Νίκος' FROM generate_series(1, $3::int) g
       RETURNING id, (regexp_match(lastname, '(\\d+)$'))[1]::int AS g),
     consumers AS (
       INSERT INTO water_consumers (company_id, code, sector_id, route_id, route_position, owner_id,
         supply_address, status, property_usage_id, sewerage_indicator_id, invoice_policy_id)
       SELECT $1, '01-' || $5 || '-' || lpad(o.g::text, 5, ' '), r.sector_id, r.id, o.g, o.id, 'Σταθμού ' || o.g, 1,
         (SELECT id FROM water_property_usages WHERE company_id = $1 AND code = 'OIK'),
         (SELECT id FROM water_sewerage_indicators WHERE company_id = $1 AND code = 'SYN'),
         (SELECT min(id) FROM water_invoice_policies WHERE company_id = $1)
       FROM owners o, water_routes r WHERE r.id = $2
       RETURNING id, route_position AS g),
     meters AS (
       INSERT INTO water_meters (company_id, serial_number, kind, digits)
       SELECT $1, 'R' || $5 || '-' || g, 1, 5 FROM consumers RETURNING id, serial_number),
     installed AS (
       INSERT INTO water_meter_installations (company_id, consumer_id, meter_id, installed_on, initial_reading)
       SELECT $1, c.id, m.id, '2025-12-01', 500 FROM consumers c JOIN meters m ON m.serial_number = 'R' || $5 || '-' || c.g
       RETURNING consumer_id, meter_id),
     period AS (
       INSERT INTO readout_route_periods (company_id, route_id, year, period, months, from_date, to_date)
       VALUES ($1, $2, 2026, 1, 4, '2026-01-01', '2026-04-30') RETURNING id)
     INSERT INTO readout_readings (company_id, route_period_id, consumer_id, meter_id, reading, read_on, source,
       previous_reading, consumption, basis)
     SELECT $1, period.id, i.consumer_id, i.meter_id, 500 + c.g % 40, '2026-04-20', 1, 500, c.g % 40, 'normal'
     FROM installed i JOIN consumers c ON c.id = i.consumer_id, period`,
    [companyId, routeId, count, surname, code],
  );
  return routeId;
}
