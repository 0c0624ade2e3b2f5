import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRow } from '../../platform/jobs/jobs.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { BILLING_RUN_JOB, dryRun, runSettled } from './runs.service.ts';

/**
 * A billing run killed with SIGKILL on PostgreSQL 15 (issue 17): a child process runs the run's job
 * one consumer a transaction and is killed once a few are billed, most likely inside the next
 * transaction. Only whole bills remain (each with all its lines), and running it again completes
 * the rest with totals equal to the dry run's. PGlite runs inside the test: nothing to kill there.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const SERVER_ROOT = path.resolve(import.meta.dirname, '../../..');
const CONSUMERS = 12;

let t: TestApp;
let admin: { authorization: string };
let routeId: number;

type Json = Record<string, unknown>;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
const post = (url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: admin, payload: payload as Json });
const idOf = (rows: Json[], code: string) => rows.find((r) => r.code === code)?.id as number;

/** Runs the job in a child; `killAfter` SIGKILLs it once it reported that many consumers billed. */
function runChild(runId: number, killAfter?: number): Promise<{ killed: boolean; output: string }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/modules/billing/runs.kill-child.ts',
      t.config.databaseUrl as string,
      String(runId),
      '1',
      '0',
    ],
    { cwd: SERVER_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  let killed = false;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    const done = [...output.matchAll(/progress (\d+)\//g)].map((m) => Number(m[1]));
    if (killAfter !== undefined && !killed && done.some((n) => n >= killAfter)) {
      killed = true;
      child.kill('SIGKILL');
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  return new Promise((resolve) => child.once('exit', () => resolve({ killed, output })));
}

async function billsOfRun(runId: number) {
  const result = await t.database.db.execute(sql`
    SELECT b.id, b.net::text AS net, count(l.bill_id)::int AS lines
    FROM billing_bills b LEFT JOIN billing_bill_lines l ON l.bill_id = b.id
    WHERE b.run_id = ${runId} GROUP BY b.id ORDER BY b.id`);
  return (result as unknown as { rows: { id: number; net: string; lines: number }[] }).rows;
}

describe.skipIf(!onPostgres)('a billing run killed with SIGKILL (PostgreSQL only)', () => {
  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.login('admin', ADMIN_PASSWORD);
    const usages = (await get('/api/water/parametrics/propertyUsages')).json();
    const sewerage = (await get('/api/water/parametrics/sewerageIndicators')).json();
    const policies = (await get('/api/water/invoice_policies')).json();
    routeId = idOf((await get('/api/readouts/routes')).json(), '003');
    for (let i = 1; i <= CONSUMERS; i++) {
      const owner = await post('/api/traders', {
        individual: true,
        lastname: `Kill${i}`,
        firstname: 'Νίκος',
      });
      const made = await post('/api/protocol/consumers', {
        parts: ['01', '003', String(900 + i)],
        ownerId: owner.json().id,
        supplyAddress: `Σταθμού ${i}`,
        status: 1,
        propertyUsageId: idOf(usages, 'OIK'),
        sewerageIndicatorId: idOf(sewerage, 'SYN'),
        invoicePolicyId: (policies[0] as Json).id,
      });
      expect(made.statusCode, made.body).toBe(201);
      const id = made.json().id;
      const meter = await post(`/api/protocol/consumers/${id}/meters`, {
        date: '2025-12-01',
        meter: {
          serialNumber: `KILL-${i}`,
          meterTypeId: null,
          kind: 1,
          direction: 1,
          diameter: 'DN15',
          digits: 5,
          initialReading: 500,
        },
      });
      expect(meter.statusCode, meter.body).toBe(200);
      const reading = await post('/api/readouts/readings', {
        routeId,
        year: 2026,
        period: 1,
        consumerId: id,
        reading: 500 + 7 * i,
        readOn: '2026-04-20',
      });
      expect(reading.statusCode, reading.body).toBe(200);
    }
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  it('leaves only whole bills and completes the rest when started again', async () => {
    const request = { year: 2026, period: 1, scope: 'routes', ids: [routeId], issueDate: '2026-05-10' };
    // The dry run's job is computed here directly: no worker runs in the test app.
    const companyId = (
      await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: admin })
    ).json().companies[0].id as number;
    const dry = await dryRun(t.database.db, companyId, { ...request, scope: 'routes' });
    expect(dry.bills).toBe(CONSUMERS);
    // No worker runs in the test app: the job stays queued and the children run it.
    const run = (await post('/api/billing/runs', request)).json();

    const first = await runChild(run.id, 4);
    expect(first.killed, first.output).toBe(true);
    const partial = await billsOfRun(run.id);
    expect(partial.length).toBeGreaterThanOrEqual(4);
    expect(partial.length).toBeLessThan(CONSUMERS);
    // Whole bills: every one has its lines (a bill and its lines commit together or not at all).
    for (const bill of partial) expect(bill.lines).toBeGreaterThanOrEqual(5);

    const second = await runChild(run.id);
    expect(second.output).toContain(`done {"bills":${CONSUMERS}}`);
    const complete = await billsOfRun(run.id);
    expect(complete).toHaveLength(CONSUMERS);
    // The bills of the killed run were recomputed in place, not created twice.
    expect(complete.slice(0, partial.length).map((b) => b.id)).toEqual(partial.map((b) => b.id));
    for (const bill of partial) {
      expect(complete.find((b) => b.id === bill.id)?.lines).toBe(bill.lines);
    }
    // Settled as the worker settles a job that succeeded (none runs here): the run is done, its totals read.
    await t.database.db.transaction((tx) =>
      runSettled(tx, {
        kind: BILLING_RUN_JOB,
        payload: { runId: run.id },
        state: 'succeeded',
        error: null,
      } as unknown as JobRow),
    );
    const totals = (await get(`/api/billing/runs/${run.id}`)).json();
    for (const key of ['bills', 'charges', 'net', 'vat', 'total'] as const)
      expect(totals[key]).toEqual(dry[key]);
  }, 120_000);
});
