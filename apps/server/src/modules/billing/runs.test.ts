import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRegistryOf } from '../../platform/jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../../platform/jobs/worker.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp, waitForJob } from '../../test/harness.ts';
import { holdRoutePeriod, releaseRoutePeriod } from '../readouts/api.ts';
import { billingModule } from './index.ts';

/**
 * Billing runs (issue 17) through the API: two routes of the demo company with readings entered
 * through the readouts API; the dry run's totals equal the run's, a rerun creates nothing twice,
 * overlapping runs are refused, a finalized bill is left alone, consumers without a reading are counted.
 */
let t: TestApp;
let admin: { authorization: string };
let worker: JobWorker;
const routes: Record<string, number> = {};
const consumers: number[] = [];

type Json = Record<string, unknown>;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
const post = (url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: admin, payload: payload as Json });
const idOf = (rows: Json[], code: string) => rows.find((r) => r.code === code)?.id as number;

const request = () => ({
  year: 2026,
  period: 1,
  scope: 'routes',
  ids: [routes['001'], routes['002']],
  issueDate: '2026-05-10',
});

// Time-bound, not count-bound: a run over a held route fails only after the job's retries (5 s, then 20 s).
async function finished(runId: number) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const run = (await get(`/api/billing/runs/${runId}`)).json();
    if (run.state === 'done' || run.state === 'failed') return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the run did not end');
}

/** The dry run is a job: 202 with its id, then its result once it succeeded. */
async function dryRun(body: Json = request()) {
  const started = await post('/api/billing/runs/dry', body);
  expect(started.statusCode, started.body).toBe(202);
  const job = await waitForJob(t, admin, started.json().jobId);
  expect(job.state, job.error ?? '').toBe('succeeded');
  return job as unknown as Json & { result: Json; progressDone: number; progressTotal: number };
}

/** Finalizing a run is a job too: its result counts the bills it finalized. */
async function finalizeRun(runId: number) {
  const started = await post(`/api/billing/runs/${runId}/finalize`, {});
  expect(started.statusCode, started.body).toBe(202);
  const job = await waitForJob(t, admin, started.json().jobId);
  expect(job.state, job.error ?? '').toBe('succeeded');
  return job as unknown as Json & { result: Json; progressDone: number; progressTotal: number };
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  worker = startJobWorker(t.database.db, jobRegistryOf([billingModule]), { pollMs: 20, leaseMs: 5000 });
  const usages = (await get('/api/water/parametrics/propertyUsages')).json();
  const sewerage = (await get('/api/water/parametrics/sewerageIndicators')).json();
  const policies = (await get('/api/water/invoice_policies')).json();
  const routeRows = (await get('/api/readouts/routes')).json() as Json[];
  for (const code of ['001', '002']) {
    routes[code] = routeRows.find((r) => r.code === code)?.id as number;
  }
  // Three consumers on route 001, two on 002; the last of each route is read with zero, one not at all.
  const plan: [route: string, number: string, consumption: number | null][] = [
    ['001', '801', 12],
    ['001', '802', 37],
    ['001', '803', null],
    ['002', '804', 64],
    ['002', '805', 0],
  ];
  for (const [route, number, consumption] of plan) {
    const owner = await post('/api/traders', {
      individual: true,
      lastname: `Run${number}`,
      firstname: 'Άννα',
    });
    const made = await post('/api/protocol/consumers', {
      parts: ['01', route, number],
      ownerId: owner.json().id,
      supplyAddress: `Οδός ${number}`,
      status: 1,
      propertyUsageId: idOf(usages, 'OIK'),
      sewerageIndicatorId: idOf(sewerage, 'SYN'),
      invoicePolicyId: (policies[0] as Json).id,
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id as number;
    consumers.push(id);
    const meter = await post(`/api/protocol/consumers/${id}/meters`, {
      date: '2025-12-01',
      meter: {
        serialNumber: `RUN-${number}`,
        meterTypeId: null,
        kind: 1,
        direction: 1,
        diameter: 'DN15',
        digits: 5,
        initialReading: 100,
      },
    });
    expect(meter.statusCode, meter.body).toBe(200);
    if (consumption === null) continue;
    const saved = await post('/api/readouts/readings', {
      routeId: routes[route],
      year: 2026,
      period: 1,
      consumerId: id,
      reading: 100 + consumption,
      readOn: '2026-04-20',
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

describe('billing runs', () => {
  let dry: Json;
  let first: Json;

  it('dry runs the two routes: counts, totals per charge, the consumer without a reading, the flags', async () => {
    const job = await dryRun();
    // Progress counts the readings computed.
    expect(job).toMatchObject({ progressDone: 4, progressTotal: 4 });
    dry = job.result;
    expect(dry).toMatchObject({ routes: 2, consumers: 5, bills: 4, withoutReading: 1, openPeriods: 2 });
    // The zero reading of an active consumer is a flag of the readouts review.
    expect(dry.flagged).toBeGreaterThanOrEqual(1);
    const charges = dry.charges as { charge: string; amount: string }[];
    expect(charges.map((c) => c.charge)).toContain('water');
    const sum = charges.reduce((s, c) => s + Math.round(Number(c.amount) * 100), 0);
    expect(sum).toBe(Math.round(Number(dry.net) * 100));
    // Nothing stored.
    expect((await get(`/api/billing/consumers/${consumers[0]}/bills`)).json()).toEqual([]);
  });

  it('runs as a job with progress and stores exactly what the dry run showed', async () => {
    const started = await post('/api/billing/runs', request());
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json().jobId).toEqual(expect.any(Number));
    first = await finished(started.json().id);
    expect(first).toMatchObject({
      state: 'done',
      progressDone: 4,
      progressTotal: 4,
    });
    for (const key of ['bills', 'charges', 'net', 'vat', 'total']) expect(first[key]).toEqual(dry[key]);
    const bills = (await get(`/api/billing/consumers/${consumers[1]}/bills`)).json();
    expect(bills).toHaveLength(1);
    const bill = (await get(`/api/billing/bills/${bills[0].id}`)).json();
    // The previous reading is the meter's initial one, dated by its installation.
    expect(bill).toMatchObject({
      previousReading: 100,
      previousDate: '2025-12-01',
      currentReading: 137,
      currentDate: '2026-04-20',
      consumption: '37.000',
    });
    expect(bill.rfCode).toMatch(/^RF\d{2}/);
    // The route periods are free again: readings can be entered.
    const entry = await post('/api/readouts/readings', {
      routeId: routes['001'],
      year: 2026,
      period: 1,
      consumerId: consumers[0],
      reading: 112,
      readOn: '2026-04-21',
    });
    expect(entry.statusCode, entry.body).toBe(200);
  });

  it('issue 32 item 7: a run names its routes sector-route ("01-001"), since each sector numbers its routes from 001', async () => {
    const run = (await get(`/api/billing/runs/${first.id}`)).json();
    expect(run.routeCodes).toEqual(['01-001', '01-002']);
  });
  it('reruns without creating anything twice: the same bills, recomputed in place, the same totals', async () => {
    const before = (await get(`/api/billing/consumers/${consumers[1]}/bills`)).json();
    const started = await post('/api/billing/runs', request());
    expect(started.statusCode, started.body).toBe(201);
    const again = await finished(started.json().id);
    for (const key of ['bills', 'charges', 'net', 'vat', 'total']) expect(again[key]).toEqual(first[key]);
    const after = (await get(`/api/billing/consumers/${consumers[1]}/bills`)).json();
    expect(after.map((b: Json) => b.id)).toEqual(before.map((b: Json) => b.id));
    const list = (await get('/api/billing/runs')).json();
    expect(list.map((r: Json) => r.id).slice(0, 2)).toEqual([again.id, first.id]);
    // The first run's bills now belong to the rerun.
    expect(list[1].bills).toBe(0);
  });

  it('refuses a run over a route another run holds, and waits while readouts hold a route', async () => {
    const db = t.database.db;
    const companyId = (await get('/api/users/authenticatedUser')).json().companies[0].id;
    const key = { routeId: routes['002'] as number, year: 2026, period: 1 };
    // An import holds route 002: the run's job cannot bill it and fails, naming why.
    expect(await holdRoutePeriod(db, companyId, key, 'an-import')).toBe(true);
    const blocked = await post('/api/billing/runs', request());
    expect(blocked.statusCode, blocked.body).toBe(201);
    // While it is queued or running, another run of the period is refused, naming it.
    const overlapping = await post('/api/billing/runs', { ...request(), ids: [routes['002']] });
    expect(overlapping.statusCode).toBe(409);
    expect(overlapping.json()).toMatchObject({
      key: 'billing.error.run_running',
      params: { run: blocked.json().id },
    });
    const failed = await finished(blocked.json().id);
    expect(failed.state).toBe('failed');
    expect(failed.error).toContain('billing.error.run_route_held');
    await releaseRoutePeriod(db, companyId, key, 'an-import');
    // Its routes are free once it ended.
    const next = await post('/api/billing/runs', { ...request(), ids: [routes['002']] });
    expect(next.statusCode, next.body).toBe(201);
    expect((await finished(next.json().id)).state).toBe('done');
  }, 120_000);

  it('leaves a finalized bill alone and says so in the dry run', async () => {
    const [bill] = (await get(`/api/billing/consumers/${consumers[0]}/bills`)).json();
    const finalized = await post(`/api/billing/bills/${bill.id}/finalize`, {});
    expect(finalized.statusCode, finalized.body).toBe(200);
    const dryAgain = (await dryRun()).result;
    expect(dryAgain).toMatchObject({ bills: 3, finalized: 1 });
  });

  it('refuses a scope without routes, naming the field', async () => {
    const empty = await post('/api/billing/runs/dry', { ...request(), scope: 'sectors', ids: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fieldErrors[0].field).toBe('ids');
    const unknown = await post('/api/billing/runs', { ...request(), ids: [999_999] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fieldErrors[0]).toMatchObject({ field: 'ids', key: 'billing.error.run_no_routes' });
  });

  it('refuses at once to finalize a run that is not done', async () => {
    const blocked = await post('/api/billing/runs/999999/finalize', {});
    expect(blocked.statusCode).toBe(404);
  });

  it('finalizes a run: gapless numbers of the water-bill series in billing order, then nothing changes', async () => {
    const started = await post('/api/billing/runs', request());
    const run = await finished(started.json().id);
    expect(run.bills).toBe(3);
    const done = await finalizeRun(run.id as number);
    expect(done).toMatchObject({ result: { finalized: 3 }, progressDone: 3, progressTotal: 3 });
    expect((await get(`/api/billing/runs/${run.id}`)).json()).toMatchObject({ bills: 3, open: 0 });
    const bills = await Promise.all(
      consumers.map(async (id) => (await get(`/api/billing/consumers/${id}/bills`)).json()[0]),
    );
    const numbers = bills
      .filter(Boolean)
      .map((b: Json) => b.number as number)
      .sort((a, b) => a - b);
    // The single bill finalized earlier took the first number; the run's three follow without a gap.
    const firstNumber = numbers[0] as number;
    expect(numbers).toEqual([firstNumber, firstNumber + 1, firstNumber + 2, firstNumber + 3]);
    expect(bills.filter(Boolean).every((b: Json) => b.entryState === 9)).toBe(true);
    // Immutable: a rerun bills nothing and finalizing again finds nothing open.
    expect((await dryRun()).result).toMatchObject({ bills: 0, finalized: 4 });
    expect((await finalizeRun(run.id as number)).result).toEqual({ finalized: 0 });
  });

  it('lists the consumer the readouts close could not estimate among those without a reading', async () => {
    // Period 2 of route 001 closed unread: 801 and 802 are estimated from period 1, 803 (never read) is not.
    const closed = await post('/api/readouts/finalize', { routeId: routes['001'], year: 2026, period: 2 });
    expect(closed.json()).toEqual({ estimated: 2, noEstimate: 1 });
    const dry = (await dryRun({ ...request(), period: 2, ids: [routes['001']] })).result;
    expect(dry).toMatchObject({ consumers: 3, bills: 2, withoutReading: 1, estimated: 2 });
    expect(dry.problems).toEqual([
      { consumerId: consumers[2], code: expect.stringContaining('803'), key: 'billing.error.no_estimate' },
    ]);
  });
});
