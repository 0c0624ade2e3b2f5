import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, jobRegistryOf } from '../../platform/jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../../platform/jobs/worker.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp, waitForJob } from '../../test/harness.ts';
import { financeSeries } from '../finance/finance.schema.ts';
import { billingModule } from './index.ts';
import { BILLING_FINALIZE_JOB } from './runs.view.ts';

/**
 * What a billing run refuses before it is queued (issue 29 item 12): a second run of a period while
 * one is queued or running, even posted at the same moment; finalizing on an issue date the
 * water-bill series cannot take. Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set
 * (there the two posts really race on two connections).
 */
let t: TestApp;
let admin: { authorization: string };
let companyId: number;
const routes: Record<string, number> = {};

type Json = Record<string, unknown>;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
const post = (url: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...admin, 'accept-language': 'en' },
    payload: payload as Json,
  });
const idOf = (rows: Json[], code: string) => rows.find((r) => r.code === code)?.id as number;
const run = (period: number, codes: string[], issueDate = '2026-05-10') => ({
  year: 2026,
  period,
  scope: 'routes',
  ids: codes.map((c) => routes[c]),
  issueDate,
});

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  companyId = (await get('/api/users/authenticatedUser')).json().companies[0].id;
  const routeRows = (await get('/api/readouts/routes')).json() as Json[];
  for (const code of ['001', '002', '003']) routes[code] = idOf(routeRows, code);
  // One consumer read on route 003, for a run that ends with a bill to finalize.
  const usages = (await get('/api/water/parametrics/propertyUsages')).json();
  const sewerage = (await get('/api/water/parametrics/sewerageIndicators')).json();
  const policies = (await get('/api/water/invoice_policies')).json();
  const owner = await post('/api/traders', { individual: true, lastname: 'Φρουρός', firstname: 'Άννα' });
  const made = await post('/api/protocol/consumers', {
    parts: ['01', '003', '951'],
    ownerId: owner.json().id,
    supplyAddress: 'Οδός Ελέγχου 1',
    status: 1,
    propertyUsageId: idOf(usages, 'OIK'),
    sewerageIndicatorId: idOf(sewerage, 'SYN'),
    invoicePolicyId: (policies[0] as Json).id,
  });
  expect(made.statusCode, made.body).toBe(201);
  const meter = await post(`/api/protocol/consumers/${made.json().id}/meters`, {
    date: '2025-12-01',
    meter: {
      serialNumber: 'GUARD-951',
      meterTypeId: null,
      kind: 1,
      direction: 1,
      diameter: 'DN15',
      digits: 5,
      initialReading: 100,
    },
  });
  expect(meter.statusCode, meter.body).toBe(200);
  const reading = await post('/api/readouts/readings', {
    routeId: routes['003'],
    year: 2026,
    period: 3,
    consumerId: made.json().id,
    reading: 140,
    readOn: '2026-12-20',
  });
  expect(reading.statusCode, reading.body).toBe(200);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('billing run guards', () => {
  // No worker runs here: a started run stays queued, so it is the running one for the whole test.
  it('issue 29 item 12: two runs of one period posted at once: one starts, the other is a 409 naming it', async () => {
    // Other routes of the same period, then the very same routes of the next one: one of each pair starts.
    for (const [period, first, second] of [
      [1, ['001'], ['002']],
      [2, ['001', '002'], ['001', '002']],
    ] as const) {
      const answers = await Promise.all([
        post('/api/billing/runs', run(period, [...first])),
        post('/api/billing/runs', run(period, [...second])),
      ]);
      const started = answers.filter((a) => a.statusCode === 201);
      const refused = answers.filter((a) => a.statusCode === 409);
      expect(started.map((a) => a.body)).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]?.json()).toMatchObject({
        status: 409,
        key: 'billing.error.run_running',
        params: { run: started[0]?.json().id, year: 2026, period, user: 'admin' },
      });
      expect(refused[0]?.json().message).toContain(`#${started[0]?.json().id}`);
      const runs = (await get('/api/billing/runs')).json() as Json[];
      expect(runs.filter((r) => r.period === period)).toHaveLength(1);
    }
    // Another period is free.
    const other = await post('/api/billing/runs', run(4, ['001']));
    expect(other.statusCode, other.body).toBe(201);
  });

  it("issue 29 item 12: a finalize whose issue date falls before the series' last bill date is refused at once, naming both dates", async () => {
    let worker: JobWorker | undefined = startJobWorker(t.database.db, jobRegistryOf([billingModule]), {
      pollMs: 20,
      leaseMs: 5000,
    });
    try {
      const started = await post('/api/billing/runs', run(3, ['003'], '2026-12-28'));
      expect(started.statusCode, started.body).toBe(201);
      const job = await waitForJob(t, admin, started.json().jobId);
      expect(job.state, job.error ?? '').toBe('succeeded');
      expect((await get(`/api/billing/runs/${started.json().id}`)).json()).toMatchObject({
        state: 'done',
        bills: 1,
      });
      // The water-bill series has numbered a bill of 30 December meanwhile.
      const [series] = await t.database.db
        .select({ id: financeSeries.id })
        .from(financeSeries)
        .where(sql`${financeSeries.companyId} = ${companyId} AND ${financeSeries.kind} = 'waterBill'`);
      await t.database.db.execute(sql`
        INSERT INTO finance_series_counters (series_id, year, last, last_date)
        VALUES (${series?.id}, 2026, 0, '2026-12-30')
        ON CONFLICT (series_id, year) DO UPDATE SET last_date = '2026-12-30'`);
      const refused = await post(`/api/billing/runs/${started.json().id}/finalize`, {});
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        key: 'billing.error.run_date_before_last',
        params: { date: '28/12/2026', last: '30/12/2026' },
      });
      expect(refused.json().message).toBe(
        "The run's issue date (28/12/2026) is before the date of the series' last bill (30/12/2026): run the period again with an issue date of 30/12/2026 or later.",
      );
      // Should the series move on between the check and the job, the job fails at once, no retries.
      const queued = await t.database.db.transaction((tx) =>
        createJobQueue(jobRegistryOf([billingModule])).enqueue(tx, {
          kind: BILLING_FINALIZE_JOB,
          companyId,
          owner: null,
          payload: { companyId, runId: started.json().id, userId: 1, username: 'admin', requestId: 'test' },
        }),
      );
      const failed = await waitForJob(t, admin, queued.job.id, 4000);
      expect(failed).toMatchObject({
        state: 'failed',
        attempts: 1,
        error: 'billing.error.date_before_last',
        errorParams: { date: '2026-12-30' },
      });
      // The series' check off, the same run finalizes.
      await t.database.db
        .update(financeSeries)
        .set({ checkdates: false })
        .where(eq(financeSeries.id, series?.id as number));
      const finalized = await post(`/api/billing/runs/${started.json().id}/finalize`, {});
      expect(finalized.statusCode, finalized.body).toBe(202);
      expect((await waitForJob(t, admin, finalized.json().jobId)).state).toBe('succeeded');
      await worker.stop();
      worker = undefined;
    } finally {
      await worker?.stop();
    }
  }, 60_000);
});
