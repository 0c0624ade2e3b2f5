import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from '../../test/harness.ts';
import { parseMetrics, sampleOf } from '../../test/metrics.ts';
import { freePort } from '../../test/ports.ts';
import { type Nodes, startNodes } from '../../test/server-process.ts';
import { insertReadRoute } from '../../test/water-fixtures.ts';
import { RUN_CHUNK } from './runs.compute.ts';

/**
 * A server process stopped with SIGTERM in the middle of a billing run (issue 31): it answers
 * not-ready at once, finishes the chunk in progress, puts the job back in the queue and exits 0;
 * only whole chunks of bills remain, and the next server finishes the run. Also the slow-request
 * log line and the metrics port of a real process. PGlite is one process: skipped there.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const CONSUMERS = 6 * RUN_CHUNK;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!onPostgres)('a server stopped with SIGTERM during a billing run (PostgreSQL only)', () => {
  let nodes: Nodes;
  let client: pg.Client;
  const start = (env: Record<string, string> = {}) => nodes.start(env);

  beforeAll(async () => {
    nodes = await startNodes({
      ADMIN_PASSWORD,
      SEED_DEMO: '1',
      // No demo water service in the background: its own runs would share the worker and the log.
      SEED_DEMO_WATER: '0',
      LOG_LEVEL: 'warn',
      JOBS_LEASE_SECONDS: '10',
    });
    client = nodes.client;
  });
  afterAll(async () => {
    await nodes?.close();
  });

  it('answers not-ready, ends the chunk in progress and exits; the next server finishes the run', async () => {
    const metricsPort = await freePort();
    const first = await start({ SHUTDOWN_DELAY_SECONDS: '3', SLOW_REQUEST_MS: '1' });
    expect((await fetch(`${first.url}/ready`)).status).toBe(200);
    const login = await fetch(`${first.url}/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const admin = {
      authorization: `Bearer ${(await login.json()).jwttoken}`,
      'content-type': 'application/json',
    };
    const companyId = (await (await fetch(`${first.url}/users/authenticatedUser`, { headers: admin })).json())
      .companies[0].id as number;

    // A route of its own with CONSUMERS read consumers (as nodes.pg.test.ts builds it): six chunks.
    const routeId = await insertReadRoute(client, companyId, {
      code: '931',
      surname: 'Διακοπής',
      count: CONSUMERS,
    });

    const started = await fetch(`${first.url}/billing/runs?companyid=${companyId}`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        year: 2026,
        period: 1,
        scope: 'routes',
        ids: [routeId],
        issueDate: '2026-05-10',
      }),
    });
    expect(started.status, await started.clone().text()).toBe(201);
    const run = await started.json();
    const jobRow = async () =>
      (
        await client.query<{
          state: string;
          locked_by: string | null;
          progress_done: number;
          attempts: number;
        }>('SELECT state, locked_by, progress_done, attempts FROM jobs WHERE id = $1', [run.jobId])
      ).rows[0];
    let running = await jobRow();
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; running = await jobRow()) {
      if (running?.state === 'running' && (running.progress_done ?? 0) > 0) break;
      await delay(20);
    }
    expect(running?.state).toBe('running');
    expect(running?.progress_done).toBeLessThan(CONSUMERS);

    first.child.kill('SIGTERM');
    // Not ready at once, while it still listens (SHUTDOWN_DELAY_SECONDS), the job worker stopping.
    const ready = await fetch(`${first.url}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      key: 'error.not_ready',
      checks: { shutdown: 'failed', worker: 'failed', database: 'ok', migrations: 'ok' },
    });
    expect(await first.exited, first.output.join('')).toEqual({ code: 0, signal: null });

    // The job is back in the queue, no attempt spent, and only whole chunks of whole bills remain.
    expect(await jobRow()).toMatchObject({ state: 'queued', locked_by: null, attempts: 0 });
    const billed = async () =>
      (
        await client.query<{ bills: number; consumers: number; without_lines: number }>(
          `SELECT count(*)::int AS bills, count(DISTINCT consumer_id)::int AS consumers,
             count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM billing_bill_lines l WHERE l.bill_id = b.id))::int
               AS without_lines
           FROM billing_bills b WHERE run_id = $1`,
          [run.id],
        )
      ).rows[0];
    const partial = await billed();
    expect(partial?.bills).toBeGreaterThanOrEqual(RUN_CHUNK);
    expect(partial?.bills).toBeLessThan(CONSUMERS);
    expect((partial?.bills ?? 1) % RUN_CHUNK).toBe(0);
    expect(partial?.without_lines).toBe(0);

    // Every request was slower than SLOW_REQUEST_MS=1: each logged with its route, company and SQL time.
    const slow = first.output
      .join('')
      .split('\n')
      .filter((line) => line.includes('"msg":"slow request"'))
      .map((line) => JSON.parse(line));
    const runLine = slow.find((line) => line.route === '/api/billing/runs' && line.method === 'POST');
    expect(runLine, first.output.join('')).toMatchObject({ status: 201, companyId });
    expect(runLine.reqId).toEqual(expect.any(String));
    expect(runLine.sqlMs).toEqual(expect.any(Number));
    expect(runLine.sqlMs).toBeLessThanOrEqual(runLine.ms + 1);

    // The next server takes the job up and finishes the run.
    const second = await start({ METRICS_PORT: String(metricsPort) });
    let finished = await jobRow();
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; finished = await jobRow()) {
      if (finished?.state === 'succeeded' || finished?.state === 'failed') break;
      await delay(200);
    }
    expect(finished, second.output.join('')).toMatchObject({ state: 'succeeded', attempts: 1 });
    expect(await billed()).toEqual({ bills: CONSUMERS, consumers: CONSUMERS, without_lines: 0 });
    const done = await (
      await fetch(`${second.url}/billing/runs/${run.id}?companyid=${companyId}`, { headers: admin })
    ).json();
    expect(done.state).toBe('done');

    const samples = parseMetrics(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());
    expect(sampleOf(samples, 'protocol_operations_in_progress', { operation: 'billing_run' })).toBe(0);
    expect(sampleOf(samples, 'protocol_jobs', { kind: 'billing.run', state: 'running' })).toBeUndefined();
    expect(
      sampleOf(samples, 'protocol_db_query_duration_seconds_count', { database: 'postgres' }),
    ).toBeGreaterThan(0);
    expect(
      sampleOf(samples, 'protocol_http_requests_total', {
        route: '/api/billing/runs/:id',
        method: 'GET',
        status: '200',
      }),
    ).toBe(1);
  }, 300_000);
});
