import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRegistryOf } from '../../platform/jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../../platform/jobs/worker.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp, waitForJob } from '../../test/harness.ts';
import { client, installMeter, newConsumer } from '../../test/water-fixtures.ts';
import { readoutsModule } from './index.ts';
import { readoutSmartville } from './readouts.schema.ts';
import { type FakeSmartville, startFakeSmartville } from './smartville.fake.ts';

/** Smart meters through the smartville adapter (issue 16, source 2), against a local fake. */
let t: TestApp;
let admin: { authorization: string };
let worker: JobWorker;
let fake: FakeSmartville;
let routeId: number;
const KEY = 'sv-test-key-0001';

type Json = Record<string, unknown>;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers = admin) =>
  t.app.inject({ method, url, headers, payload: payload as Json });

async function consumerWithMeter(number: string, serialNumber: string, initialReading: number) {
  const api = client(t, admin);
  const id = await newConsumer(
    api,
    '',
    ['01', '001', number],
    { individual: true, lastname: `Έξυπνος ${number}`, firstname: 'Άννα' },
    { supplyAddress: `Ερμού ${number}`, billed: false, fields: { routePosition: Number(number) } },
  );
  await installMeter(api, '', id, { serialNumber, kind: 2, initialReading });
}

async function pull() {
  const started = await call('POST', '/api/readouts/smartville/pull', { year: 2026, period: 1, months: 4 });
  expect(started.statusCode, started.body).toBe(202);
  const id = started.json().jobId;
  const job = await waitForJob(t, admin, id);
  if (job.state !== 'succeeded') return { error: job.error, errorParams: job.errorParams };
  return job.result;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  worker = startJobWorker(t.database.db, jobRegistryOf([readoutsModule]), { pollMs: 20, leaseMs: 5000 });
  fake = await startFakeSmartville(KEY);
  routeId = (await call('GET', '/api/readouts/routes'))
    .json()
    .find((r: { code: string }) => r.code === '001').id;
  await consumerWithMeter('1', 'SV-1', 100);
  await consumerWithMeter('2', 'SV-2', 200);
  await consumerWithMeter('3', 'SV-3', 300);
}, 180_000);
afterAll(async () => {
  await worker?.stop();
  await fake?.close();
  await t?.close();
});

describe('smartville', () => {
  it('refuses a pull before the connection is set, and a bad address naming the field', async () => {
    expect((await call('GET', '/api/readouts/smartville')).json()).toEqual({ url: null, hasKey: false });
    const early = await call('POST', '/api/readouts/smartville/pull', { year: 2026, period: 1, months: 4 });
    expect(early.statusCode).toBe(400);
    expect(early.json().key).toBe('readouts.smartville.not_configured');
    const bad = await call('PUT', '/api/readouts/smartville', { url: 'ftp://x', apiKey: KEY });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors[0]).toMatchObject({ field: 'url' });
    const noKey = await call('PUT', '/api/readouts/smartville', { url: fake.url });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().fieldErrors[0]).toMatchObject({ field: 'apiKey' });
  });

  it('keeps the key sealed and never shows it', async () => {
    const saved = await call('PUT', '/api/readouts/smartville', { url: `${fake.url}/`, apiKey: KEY });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ url: `${fake.url}/`, hasKey: true });
    const [row] = await t.database.db.select().from(readoutSmartville);
    expect(row?.apiKey).toMatch(/^v1\./);
    expect(row?.apiKey).not.toContain(KEY);
    // The address changes without sending the key again.
    expect((await call('PUT', '/api/readouts/smartville', { url: fake.url })).json().hasKey).toBe(true);
  });

  it('pulls every page, reports each line and adds nothing the second time', async () => {
    fake.readings.push(
      { id: 'r-1', meterSerial: 'SV-1', takenAt: '2026-02-10T08:00:00Z', value: 130 },
      { id: 'r-2', meterSerial: 'SV-2', takenAt: '2026-02-10T08:05:00Z', value: 150 },
      { id: 'r-3', meterSerial: 'SV-404', takenAt: '2026-02-10T08:06:00Z', value: 12 },
      { id: 'r-4', meterSerial: 'SV-3', takenAt: '2026-02-10T08:07:00Z', value: '3x0' },
      // Before the period: not asked for.
      { id: 'r-0', meterSerial: 'SV-3', takenAt: '2025-12-20T08:00:00Z', value: 310 },
      // After the period (1st four-month period, to 30 April): neither.
      { id: 'r-5', meterSerial: 'SV-3', takenAt: '2026-05-02T08:00:00Z', value: 390 },
    );
    const first = await pull();
    expect(first.error).toBeUndefined();
    expect(fake.requests.map((u) => u.searchParams.get('page'))).toEqual(['1', '2']);
    expect(fake.requests[0]?.searchParams.get('since')).toBe('2026-01-01T00:00:00Z');
    expect(fake.requests[0]?.searchParams.get('until')).toBe('2026-04-30T23:59:59Z');
    expect(first).toMatchObject({ success: 1, failed: 3, warnings: 0 });
    expect(first.lines.map((l: { result: number; reference: string }) => [l.reference, l.result])).toEqual([
      ['SV-1', 1],
      ['SV-2', -1],
      ['SV-404', -1],
      ['SV-3', -1],
    ]);
    expect(first.lines[1].message).toContain('μικρότερη');
    const sheet = (await call('GET', `/api/readouts/sheet?routeId=${routeId}&year=2026&period=1`)).json();
    const one = sheet.rows.find((r: { serialNumber: string }) => r.serialNumber === 'SV-1');
    expect(one.reading).toMatchObject({ reading: 130, consumption: 30, source: 2, readOn: '2026-02-10' });

    const second = await pull();
    expect(second).toMatchObject({ success: 0, warnings: 1, failed: 3 });
    expect(second.lines[0].message).toBe('Έχει ήδη εισαχθεί');
    const history = (await call('GET', `/api/readouts/consumers/${one.consumerId}/history`)).json();
    expect(history.filter((h: { year: number }) => h.year === 2026)).toHaveLength(1);
  });

  it('fails the job when the key is refused, and refuses a caller without a session', async () => {
    await call('PUT', '/api/readouts/smartville', { url: fake.url, apiKey: 'another-key-000' });
    const refused = await pull();
    // The refusal's catalog key (the web shows it in the reader's words), not a stack.
    expect(refused).toEqual({ error: 'readouts.smartville.key_refused', errorParams: {} });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/readouts/smartville' });
    expect(anonymous.statusCode).toBe(401);
  });
});
