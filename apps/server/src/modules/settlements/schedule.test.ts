import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appModules, buildApp } from '../../app.ts';
import { jobs } from '../../platform/jobs/jobs.schema.ts';
import type { JobHandler } from '../../platform/jobs/jobs.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { CANCEL_MISSED_JOB } from './index.ts';

/**
 * The daily check of missed instalments as two listening nodes on one database schedule it: each node
 * sets its timers once when it starts listening (a minute after start, then daily), and the timers of
 * both nodes queue one job between them, through the jobs table's key. The module's plugin and
 * timers are the real ones; only the job's handler is held open, so the job stays running while the
 * other node's timer fires.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
let release: () => void = () => undefined;
let runs = 0;
const held: JobHandler<never> = ({ signal }) =>
  new Promise((resolve) => {
    runs++;
    const done = () => resolve({ cancelled: 0 });
    release = done;
    signal.addEventListener('abort', done);
  });
const modules = appModules.map((m) =>
  m.name === 'settlements' ? { ...m, jobs: { [CANCEL_MISSED_JOB]: held } } : m,
);

interface Scheduled {
  kind: 'timeout' | 'interval';
  ms: number | undefined;
  fire: () => unknown;
}
/** The timers set from the settlements module's code, told apart by the stack that set them. */
const scheduled: Scheduled[] = [];
const fromSettlements = () => /modules[\\/]settlements[\\/]index\.ts/.test(new Error().stack ?? '');

let t: TestApp;
let second: FastifyInstance;

beforeAll(async () => {
  t = await startTestApp({}, modules);
  second = await buildApp(t.config, t.database, modules);
  const realTimeout = globalThis.setTimeout;
  const realInterval = globalThis.setInterval;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fire: () => unknown, ms?: number) => {
    if (fromSettlements()) scheduled.push({ kind: 'timeout', ms, fire });
    return realTimeout(fire, ms);
  }) as typeof setTimeout);
  vi.spyOn(globalThis, 'setInterval').mockImplementation(((fire: () => unknown, ms?: number) => {
    if (fromSettlements()) scheduled.push({ kind: 'interval', ms, fire });
    return realInterval(fire, ms);
  }) as typeof setInterval);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await second?.close();
  await t?.close();
});

const checks = () =>
  t.database.db
    .select({ id: jobs.id, key: jobs.key, state: jobs.state, companyId: jobs.companyId })
    .from(jobs)
    .where(eq(jobs.kind, CANCEL_MISSED_JOB))
    .orderBy(jobs.id);

async function until<T>(what: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await what();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out');
}

describe('the daily check of missed instalments', () => {
  it('is scheduled only by a listening node, once per node: a minute after start, then daily', async () => {
    expect(scheduled).toEqual([]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    expect(scheduled.map((s) => [s.kind, s.ms])).toEqual([
      ['timeout', 60_000],
      ['interval', DAY_MS],
    ]);
    await second.listen({ port: 0, host: '127.0.0.1' });
    expect(scheduled.map((s) => [s.kind, s.ms])).toEqual([
      ['timeout', 60_000],
      ['interval', DAY_MS],
      ['timeout', 60_000],
      ['interval', DAY_MS],
    ]);
    // Nothing is queued before the timers fire.
    expect(await checks()).toEqual([]);
  });

  it('queues one job whichever node’s timers fire, and the next day’s after it ended', async () => {
    const [firstStart, firstDaily, secondStart] = scheduled;
    await firstStart?.fire();
    const [job] = await checks();
    expect(job).toMatchObject({ key: CANCEL_MISSED_JOB, companyId: null });
    // The worker takes it; while it runs, the other node's start and a daily firing add nothing.
    await until(checks, (rows) => rows[0]?.state === 'running');
    await Promise.all([secondStart?.fire(), firstDaily?.fire()]);
    expect((await checks()).map((r) => r.id)).toEqual([job?.id]);
    expect(runs).toBe(1);
    release();
    await until(checks, (rows) => rows[0]?.state === 'succeeded');
    await firstDaily?.fire();
    const after = await checks();
    expect(after.map((r) => [r.id === job?.id, r.state])).toEqual([
      [true, 'succeeded'],
      [false, expect.stringMatching(/queued|running/)],
    ]);
  });
});
