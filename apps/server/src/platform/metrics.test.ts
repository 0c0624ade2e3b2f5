import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';
import { parseMetrics, sampleOf } from '../test/metrics.ts';
import { freePort } from '../test/ports.ts';
import { jobs } from './jobs/jobs.schema.ts';

const TOKEN = 'scrape-token-0123456789';

describe('GET /metrics behind METRICS_TOKEN on the main port', () => {
  let t: TestApp;
  let admin: { authorization: string };
  const scrape = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    return parseMetrics(response.body);
  };

  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: TOKEN });
    admin = await t.login('admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a scraper without the Bearer token or with another one', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer scrape-token-wrong-456789' },
      { authorization: TOKEN },
    ]) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ key: 'error.unauthorized' });
      expect(response.body).not.toContain('protocol_http_requests_total');
    }
  });

  it('counts requests by route pattern, method and status after known traffic', async () => {
    const list = '/api/water/parametrics/propertyUsages';
    for (let i = 0; i < 3; i++) {
      const response = await t.app.inject({ method: 'GET', url: list, headers: admin });
      expect(response.statusCode).toBe(200);
    }
    // Two ids, one pattern: ids never become series of their own.
    for (const id of [999_991, 999_992]) {
      const response = await t.app.inject({ method: 'GET', url: `/api/billing/runs/${id}`, headers: admin });
      expect(response.statusCode).toBe(404);
    }
    const unknown = await t.app.inject({ method: 'GET', url: '/api/no/such/route', headers: admin });
    expect(unknown.statusCode).toBe(404);

    const samples = await scrape();
    const requests = (labels: Record<string, string>) =>
      sampleOf(samples, 'protocol_http_requests_total', labels);
    expect(requests({ route: list, method: 'GET', status: '200' })).toBe(3);
    expect(requests({ route: '/api/billing/runs/:id', method: 'GET', status: '404' })).toBe(2);
    expect(requests({ route: 'unmatched', method: 'GET', status: '404' })).toBe(1);
    expect(samples.some((s) => s.labels.route?.includes('999991'))).toBe(false);
    expect(
      sampleOf(samples, 'protocol_http_request_duration_seconds_count', { route: list, method: 'GET' }),
    ).toBe(3);
    // The statements of those requests (and of start-up) were timed.
    expect(sampleOf(samples, 'protocol_db_query_duration_seconds_count')).toBeGreaterThan(3);
    const kind = t.database.kind;
    expect(sampleOf(samples, 'protocol_db_connections', { state: 'waiting', database: kind })).toBe(0);
    // The company wall stands where COMPANY_WALL=on (README "The company wall").
    expect(sampleOf(samples, 'protocol_company_wall')).toBe(t.config.companyWall ? 1 : 0);
    // The process's default metrics.
    expect(sampleOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sampleOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('counts public submissions and rate-limit refusals', async () => {
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/public/forms/no-such-form/submissions',
      payload: { values: {} },
    });
    expect(submit.statusCode).toBe(404);
    // Failed sign-ins for one name: the eleventh is refused by the limit.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: { username: 'nobody-here', password: 'wrong-password' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
    const samples = await scrape();
    expect(
      sampleOf(samples, 'protocol_public_submissions_total', {
        route: '/api/public/forms/:formId/submissions',
        status: '404',
      }),
    ).toBe(1);
    expect(sampleOf(samples, 'protocol_rate_limit_refusals_total', { route: '/api/account/login' })).toBe(
      statuses.filter((status) => status === 429).length,
    );
  });

  it('reports queued, running and failed jobs, the oldest queued age and the operations in progress', async () => {
    const minuteAgo = new Date(Date.now() - 60_000);
    await t.database.db.insert(jobs).values([
      { kind: 'billing.run', payload: {}, runAfter: minuteAgo },
      { kind: 'billing.run', payload: {}, state: 'running', startedAt: new Date() },
      { kind: 'water.consumers.import', payload: {} },
      // A retry waiting for its time: queued, but not waiting in the queue yet.
      { kind: 'search.reindex', payload: {}, runAfter: new Date(Date.now() + 3_600_000) },
      { kind: 'search.reindex', payload: {}, state: 'failed', finishedAt: new Date() },
      // Failed long ago: no longer reported.
      {
        kind: 'search.reindex',
        payload: {},
        state: 'failed',
        finishedAt: new Date(Date.now() - 2 * 86_400_000),
      },
    ]);
    const samples = await scrape();
    const job = (kind: string, state: string) => sampleOf(samples, 'protocol_jobs', { kind, state });
    expect(job('billing.run', 'queued')).toBe(1);
    expect(job('billing.run', 'running')).toBe(1);
    expect(job('water.consumers.import', 'queued')).toBe(1);
    expect(job('search.reindex', 'queued')).toBe(1);
    expect(job('search.reindex', 'failed')).toBe(1);
    const oldest = (kind: string) => sampleOf(samples, 'protocol_jobs_oldest_queued_seconds', { kind });
    expect(oldest('billing.run')).toBeGreaterThanOrEqual(59);
    expect(oldest('billing.run')).toBeLessThan(600);
    expect(oldest('search.reindex')).toBe(0);
    const operation = (name: string) =>
      sampleOf(samples, 'protocol_operations_in_progress', { operation: name });
    expect(operation('billing_run')).toBe(2);
    expect(operation('import')).toBe(1);
    expect(operation('bill_dispatch')).toBe(0);
  });
});

describe('GET /metrics on METRICS_PORT', () => {
  let t: TestApp;
  let metricsPort: number;

  beforeAll(async () => {
    metricsPort = await freePort();
    t = await startTestApp({ METRICS_PORT: String(metricsPort) });
    await t.app.listen({ port: 0, host: '0.0.0.0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers on the loopback address only, and the main port serves no metrics', async () => {
    const local = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(local.status).toBe(200);
    expect(await local.text()).toContain('# TYPE protocol_http_requests_total counter');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
    // The machine's other addresses: the main port answers there, the metrics port refuses.
    const outside = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && address.family === 'IPv4' && !address.internal)
      .map((address) => address?.address as string);
    const mainPort = (t.app.server.address() as { port: number }).port;
    for (const address of outside) {
      expect((await fetch(`http://${address}:${mainPort}/api/health`)).status).toBe(200);
      await expect(fetch(`http://${address}:${metricsPort}/metrics`)).rejects.toThrow();
    }
    // Whatever the main port answers there (404, or the web app's page once it is built), no metrics.
    const main = await fetch(`http://127.0.0.1:${mainPort}/metrics`);
    expect(main.headers.get('content-type')).not.toMatch(/version=0\.0\.4/);
    expect(await main.text()).not.toContain('protocol_http_requests_total');
  });

  it('closes the metrics port with the app', async () => {
    await t.app.close();
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  });
});

describe('metrics off by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves no /metrics without METRICS_PORT or METRICS_TOKEN', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    // 404, or the web app's page once it is built: no metrics either way.
    expect(response.headers['content-type']).not.toMatch(/version=0\.0\.4/);
    expect(response.body).not.toContain('protocol_http_requests_total');
  });
});
