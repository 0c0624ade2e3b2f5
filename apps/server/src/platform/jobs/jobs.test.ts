import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appModules } from '../../app.ts';
import { type Database, openDatabase, rowsOf, type Tx } from '../../db/client.ts';
import {
  ADMIN_PASSWORD,
  createOperator,
  OPERATOR_PASSWORD,
  startTestApp,
  type TestApp,
} from '../../test/harness.ts';
import { AppError } from '../errors.ts';
import { defineModule, type ModuleOptions } from '../module.ts';
import { jobs } from './jobs.schema.ts';
import { claimJob, createJobQueue, type JobContext, JobError, jobRegistryOf, refusedAsJob } from './jobs.ts';
import { type JobWorker, type JobWorkerOptions, startJobWorker } from './worker.ts';

/**
 * The jobs facility through a fixture module declared as a module folder would: its job kinds,
 * its settled hook and a route that enqueues through `ModuleOptions.jobs`. Runs on PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL is set (two workers with their own pools there).
 */
const gates = new Map<number, () => void>();
/** Waits for the test's go, or gives up as a handler should when its signal aborts. */
const waitGate = (id: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    gates.set(id, resolve);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
/** How often each job's handler ran. */
const runs = new Map<number, number>();
const settled: { id: number; state: string; ownerId: number | null }[] = [];

const plugin: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, jobs: queue }) => {
  app.post(
    '/fixture_jobs',
    {
      config: { signedIn: true },
      schema: {
        body: z.object({ kind: z.string(), key: z.string().optional(), maxAttempts: z.number().optional() }),
      },
    },
    async (request) => {
      const { principal } = request;
      const { job, created } = await db.transaction((tx) =>
        queue.enqueue(tx, {
          ...request.body,
          companyId: null,
          owner: principal?.userId ?? null,
          payload: { n: 3 },
        }),
      );
      return { id: job.id, created };
    },
  );
};

const fixtureModule = defineModule({
  name: 'fixtureJobs',
  plugin,
  jobs: {
    /** Counts to payload.n, reporting each step, and waits at the first for the test's go. */
    'fixture.count': async ({ payload, job, progress, signal }: JobContext<{ n: number }>) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await progress(1, payload.n, 'πρώτο βήμα');
      await waitGate(job.id, signal);
      await progress(payload.n, payload.n, 'τέλος');
      return { counted: payload.n };
    },
    'fixture.quick': async ({ job }) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
    },
    'fixture.fail': async () => {
      throw new JobError('error.mail_failed', { detail: 'ο μετρητής δεν απαντά' });
    },
    'fixture.refused': async () => {
      throw new AppError(409, 'error.status_not_allowed', { from: 'a', to: 'b' });
    },
    'fixture.crash': async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    },
    /** Refused as a 4xx of a request would be: no retry can mend it. */
    'fixture.permanent': async ({ job }) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      throw refusedAsJob(new AppError(409, 'billing.error.date_before_last', { date: '2026-06-01' }));
    },
  },
  onJobSettled: async (tx, job) => {
    // The hook runs in the ending transaction: what it writes commits with the end.
    const [row] = await tx.select({ state: jobs.state }).from(jobs).where(eq(jobs.id, job.id));
    settled.push({ id: job.id, state: row?.state ?? 'missing', ownerId: job.ownerId });
  },
});

const modules = [...appModules, fixtureModule];
const registry = jobRegistryOf(modules);
let t: TestApp;
let admin: { authorization: string };
let clerk: { authorization: string };
let adminId: number;
const workers: JobWorker[] = [];
const fast = { pollMs: 20, leaseMs: 600 };

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const enqueue = async (payload: { kind: string; key?: string; maxAttempts?: number }, headers = admin) => {
  const response = await t.app.inject({ method: 'POST', url: '/api/fixture_jobs', headers, payload });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { id: number; created: boolean };
};
const read = async (id: number, headers = admin) =>
  (await t.app.inject({ method: 'GET', url: `/api/jobs/${id}`, headers })).json();
const release = async (id: number) => (await until(async () => gates.get(id), Boolean))?.();
const worker = (db = t.database.db, options: JobWorkerOptions = fast) => {
  const started = startJobWorker(db, registry, options);
  workers.push(started);
  return started;
};

beforeAll(async () => {
  t = await startTestApp({}, modules);
  admin = await t.login('admin', ADMIN_PASSWORD);
  adminId = (
    await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: admin })
  ).json().id;
  const created = await createOperator(t, admin, {
    username: 'jclerk',
    firstname: 'Νίκη',
    lastname: 'Εργασίες',
  });
  expect(created.statusCode, created.body).toBe(201);
  clerk = await t.login('jclerk', OPERATOR_PASSWORD);
});
afterEach(async () => {
  for (const gate of gates.values()) gate();
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});
afterAll(async () => {
  await t?.close();
});

describe('background jobs', () => {
  it('reports progress that the owner reads back, ends with its result and tells the settled hook', async () => {
    const { id } = await enqueue({ kind: 'fixture.count' });
    expect((await read(id)).state).toBe('queued');
    worker();
    const midway = await until(
      () => read(id),
      (job) => job.progressDone === 1,
    );
    expect(midway).toMatchObject({
      state: 'running',
      progressTotal: 3,
      progressMessage: 'πρώτο βήμα',
      attempts: 1,
    });
    expect(midway.startedAt).not.toBeNull();
    await release(id);
    const done = await until(
      () => read(id),
      (job) => job.state === 'succeeded',
    );
    expect(done).toMatchObject({ progressDone: 3, result: { counted: 3 }, error: null });
    expect(done.finishedAt).not.toBeNull();
    expect(settled).toContainEqual({ id, state: 'succeeded', ownerId: adminId });
    const list = await t.app.inject({ method: 'GET', url: '/api/jobs?state=eq(succeeded)', headers: admin });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().content).toEqual([expect.objectContaining({ id, kind: 'fixture.count' })]);
  });

  it('shows a job only to its owner (and super admins), in their own list', async () => {
    const { id } = await enqueue({ kind: 'fixture.quick' }, clerk);
    expect((await t.app.inject({ method: 'GET', url: `/api/jobs/${id}`, headers: clerk })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ method: 'GET', url: `/api/jobs/${id}`, headers: admin })).statusCode).toBe(
      200,
    );
    const { id: adminJob } = await enqueue({ kind: 'fixture.quick' });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/jobs/${adminJob}`, headers: clerk })).statusCode,
    ).toBe(404);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/jobs/${adminJob}/cancel`,
      headers: clerk,
    });
    expect(cancel.statusCode).toBe(404);
    const mine = (await t.app.inject({ method: 'GET', url: '/api/jobs', headers: clerk })).json();
    expect(mine.content.map((job: { id: number }) => job.id)).toEqual([id]);
  });

  it('coalesces the same key while a job of it is queued or running, and takes it again once it ended', async () => {
    const first = await enqueue({ kind: 'fixture.count', key: 'reindex:1' });
    expect(first.created).toBe(true);
    expect(await enqueue({ kind: 'fixture.count', key: 'reindex:1' })).toEqual({
      id: first.id,
      created: false,
    });
    const other = await enqueue({ kind: 'fixture.count', key: 'reindex:2' });
    expect(other.created).toBe(true);
    worker();
    await until(
      () => read(first.id),
      (job) => job.state === 'running',
    );
    expect(await enqueue({ kind: 'fixture.count', key: 'reindex:1' })).toEqual({
      id: first.id,
      created: false,
    });
    await release(first.id);
    await release(other.id);
    await until(
      () => read(first.id),
      (job) => job.state === 'succeeded',
    );
    const again = await enqueue({ kind: 'fixture.count', key: 'reindex:1' });
    expect(again.created).toBe(true);
    expect(again.id).not.toBe(first.id);
  });

  it('stores what a job needs and queues it in one transaction: both, or neither', async () => {
    const db = t.database.db;
    const queue = createJobQueue(registry);
    await db.execute(sql`CREATE TABLE fixture_uploads (id serial PRIMARY KEY, name text NOT NULL)`);
    const upload = (name: string) => async (tx: Tx) => {
      const [row] = rowsOf<{ id: number }>(
        await tx.execute(sql`INSERT INTO fixture_uploads (name) VALUES (${name}) RETURNING id`),
      );
      return { fileId: row?.id, n: 2 };
    };
    const job = { kind: 'fixture.quick', companyId: null, owner: adminId };
    const id = await queue.enqueueWith(db, job, upload('μετρήσεις.csv'));
    const [queued] = await db.select().from(jobs).where(eq(jobs.id, id));
    const [stored] = rowsOf<{ id: number }>(
      await db.execute(sql`SELECT id FROM fixture_uploads WHERE name = 'μετρήσεις.csv'`),
    );
    expect(queued?.payload).toEqual({ fileId: stored?.id, n: 2 });

    const jobsBefore = (await db.select({ n: count() }).from(jobs))[0]?.n;
    // The job cannot be queued (no module declares the kind): the stored upload goes too.
    await expect(
      queue.enqueueWith(db, { ...job, kind: 'fixture.none' }, upload('χαμένο.csv')),
    ).rejects.toThrow(/fixture\.none/);
    // Storing fails after a row was written: no job, no row.
    await expect(
      queue.enqueueWith(db, job, async (tx) => {
        await upload('μισό.csv')(tx);
        throw new Error('ο δίσκος γέμισε');
      }),
    ).rejects.toThrow('ο δίσκος γέμισε');
    expect((await db.select({ n: count() }).from(jobs))[0]?.n).toBe(jobsBefore);
    expect(rowsOf(await db.execute(sql`SELECT name FROM fixture_uploads ORDER BY id`))).toEqual([
      { name: 'μετρήσεις.csv' },
    ]);
    await db.execute(sql`DROP TABLE fixture_uploads`);
  });

  it('cancels a queued job once; a running or ended one answers 409', async () => {
    const { id } = await enqueue({ kind: 'fixture.count' });
    const cancel = () => t.app.inject({ method: 'POST', url: `/api/jobs/${id}/cancel`, headers: admin });
    const first = await cancel();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ state: 'cancelled' });
    expect(settled).toContainEqual({ id, state: 'cancelled', ownerId: adminId });
    const second = await cancel();
    expect(second.statusCode).toBe(409);
    expect(second.json().key).toBe('error.job_not_queued');
    worker();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runs.get(id)).toBeUndefined();
  });

  it('retries a failing job up to its attempts, then fails it with the error', async () => {
    const { id } = await enqueue({ kind: 'fixture.fail', maxAttempts: 1 });
    worker();
    const failed = await until(
      () => read(id),
      (job) => job.state === 'failed',
    );
    expect(failed).toMatchObject({
      attempts: 1,
      error: 'error.mail_failed',
      errorParams: { detail: 'ο μετρητής δεν απαντά' },
    });
    expect(settled).toContainEqual({ id, state: 'failed', ownerId: adminId });
  });

  it('issue 29 item 12: a refused job (JobRefused) fails at once, never retried, with its key and params', async () => {
    const { id } = await enqueue({ kind: 'fixture.permanent', maxAttempts: 3 });
    worker();
    const failed = await until(
      () => read(id),
      (job) => job.state === 'failed',
      // A retry would wait 5 s first: a refused job ends well before.
      3000,
    );
    expect(failed).toMatchObject({
      attempts: 1,
      error: 'billing.error.date_before_last',
      errorParams: { date: '2026-06-01' },
    });
    expect(runs.get(id)).toBe(1);
    expect(settled).toContainEqual({ id, state: 'failed', ownerId: adminId });
  });

  it('issue 29 item 15: a job keeps why it failed as a catalog key with params, never a text in one language', async () => {
    const failed = async (kind: string) => {
      const { id } = await enqueue({ kind, maxAttempts: 1 });
      await until(
        () => read(id),
        (job) => job.state === 'failed',
      );
      const [row] = await t.database.db.select({ error: jobs.error }).from(jobs).where(eq(jobs.id, id));
      return { stored: row?.error, seen: await read(id) };
    };
    worker();
    expect(await failed('fixture.fail')).toMatchObject({
      stored: 'error.mail_failed?{"detail":"ο μετρητής δεν απαντά"}',
      seen: { error: 'error.mail_failed', errorParams: { detail: 'ο μετρητής δεν απαντά' } },
    });
    expect(await failed('fixture.refused')).toMatchObject({
      seen: { error: 'error.status_not_allowed', errorParams: { from: 'a', to: 'b' } },
    });
    // A fault of the system: a key the operator can read; its text goes to the log only.
    expect(await failed('fixture.crash')).toMatchObject({
      stored: 'error.job_failed',
      seen: { error: 'error.job_failed', errorParams: {} },
    });
  });

  it('takes up a killed worker’s job once its lease runs out, and completes it', async () => {
    const { id } = await enqueue({ kind: 'fixture.count' });
    // What a killed worker leaves: the job claimed and half done, a lease nobody renews.
    const dead = await claimJob(t.database.db, 'killed-worker', ['fixture.count'], 300);
    expect(dead?.id).toBe(id);
    await t.database.db.update(jobs).set({ progressDone: 1, progressTotal: 3 }).where(eq(jobs.id, id));
    worker();
    const taken = await until(
      () => read(id),
      (job) => job.attempts === 2,
    );
    expect(taken.state).toBe('running');
    await release(id);
    const done = await until(
      () => read(id),
      (job) => job.state === 'succeeded',
    );
    expect(done).toMatchObject({ attempts: 2, progressDone: 3, result: { counted: 3 } });
  });

  it('a stopped worker puts its running job back; a restarted worker completes it', async () => {
    const { id } = await enqueue({ kind: 'fixture.count' });
    const first = worker();
    await until(
      () => read(id),
      (job) => job.progressDone === 1,
    );
    gates.delete(id);
    await first.stop();
    expect(await read(id)).toMatchObject({ state: 'queued', attempts: 0 });
    worker();
    await release(id);
    expect(
      await until(
        () => read(id),
        (job) => job.state === 'succeeded',
      ),
    ).toMatchObject({ attempts: 1 });
    expect(runs.get(id)).toBe(2);
  });

  it('wakes an idle worker the moment a job is queued, not at its next poll', async () => {
    // On PostgreSQL the worker has connections of its own: woken by a notification from another.
    let own: Database = t.database;
    let dataDir: string | undefined;
    if (t.config.databaseUrl) {
      dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-jobs-'));
      own = await openDatabase({ databaseUrl: t.config.databaseUrl, dataDir });
    }
    try {
      worker(own.db, { ...fast, pollMs: 60_000 });
      // Its first look found nothing: it sleeps for a minute now.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { id } = await enqueue({ kind: 'fixture.quick' });
      await until(
        () => read(id),
        (job) => job.state === 'succeeded',
        5_000,
      );
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      if (own !== t.database) await own.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('claims nothing while its node is busy (issue 31), then runs the job; never defers past maxDeferMs', async () => {
    let busy = true;
    worker(t.database.db, { ...fast, busy: () => busy, maxDeferMs: 60_000 });
    const { id } = await enqueue({ kind: 'fixture.quick' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await read(id)).state).toBe('queued');
    busy = false;
    await until(
      () => read(id),
      (job) => job.state === 'succeeded',
      5_000,
    );
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    // Busy for good: the job waits maxDeferMs, not forever.
    worker(t.database.db, { ...fast, busy: () => true, maxDeferMs: 300 });
    const late = await enqueue({ kind: 'fixture.quick' });
    await until(
      () => read(late.id),
      (job) => job.state === 'succeeded',
      5_000,
    );
  });

  it('two workers, each with its own connections, never run one job twice', async () => {
    let second: Database = t.database;
    let dataDir: string | undefined;
    if (t.config.databaseUrl) {
      dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-jobs-'));
      second = await openDatabase({ databaseUrl: t.config.databaseUrl, dataDir });
    }
    try {
      const ids: number[] = [];
      for (let i = 0; i < 30; i++) ids.push((await enqueue({ kind: 'fixture.quick' })).id);
      // A lease long enough that none runs out here: on a starved machine a 600 ms lease can lapse
      // before its renewal, and a lapsed lease is taken over by design (a worker cut off). What this
      // test shows is that two workers never claim one queued job at once.
      const options = { ...fast, leaseMs: 30_000, concurrency: 4 };
      worker(t.database.db, options);
      worker(second.db, options);
      await until(
        () => t.database.db.select({ state: jobs.state }).from(jobs).where(eq(jobs.kind, 'fixture.quick')),
        (rows) => rows.every((row) => row.state === 'succeeded'),
      );
      expect(ids.map((id) => runs.get(id))).toEqual(ids.map(() => 1));
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      if (second !== t.database) await second.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
