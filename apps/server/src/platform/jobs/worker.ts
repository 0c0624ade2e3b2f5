import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { errorKeys } from '@protocol/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { behindCompanyWall } from '../../db/wall.ts';
import { jobs } from './jobs.schema.ts';
import {
  claimJob,
  type JobHandler,
  JobRefused,
  type JobRegistry,
  type JobRow,
  JobStopped,
  jobAborted,
  jobFailure,
  settleJob,
  storedJobError,
} from './jobs.ts';
import { listenForQueued } from './wake.ts';

export interface JobWorkerOptions {
  /** Jobs run at once by this worker. */
  concurrency?: number;
  /** How often an idle worker looks for work. */
  pollMs?: number;
  /** How long a claim holds without renewal; renewed every third of it while the handler runs. */
  leaseMs?: number;
  /** How long `stop` waits for running handlers to return after aborting them. */
  stopGraceMs?: number;
  /**
   * True while the node is busy answering (e.g. a burst of public submissions): no job is claimed
   * then, so their CPU goes to the answers first (their jobs, a PDF each, run once it quiets down);
   * jobs already running go on. A worker never defers for longer than `maxDeferMs` in a row.
   */
  busy?: () => boolean;
  /** Longest a busy node defers claiming; then it claims as usual until it is no longer busy. */
  maxDeferMs?: number;
  log?: { warn(object: object, message: string): void };
}

export interface JobWorker {
  readonly id: string;
  /** Aborts running handlers, puts their jobs back in the queue and ends the polling. */
  stop(): Promise<void>;
}

/** How often a worker deferring on a busy node looks whether it still is. */
const BUSY_NAP_MS = 100;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * A worker polling the jobs table, and woken at once when a job is queued: at most `concurrency`
 * jobs at a time, each under a lease it renews. Every write about a job is guarded by
 * `locked_by = this worker AND state = 'running'`, so a worker that lost its lease (paused, cut off)
 * can never end or report on a job another took.
 */
export function startJobWorker(db: Db, registry: JobRegistry, options: JobWorkerOptions = {}): JobWorker {
  // Host and process first: an operator (and the several-nodes test) sees which node holds a job.
  const id = `worker-${hostname()}-${process.pid}-${randomUUID()}`;
  const {
    concurrency = 2,
    pollMs = 1000,
    leaseMs = 60_000,
    stopGraceMs = 10_000,
    busy,
    maxDeferMs = 30_000,
    log,
  } = options;
  const kinds = [...registry.handlers.keys()];
  const running = new Map<number, { promise: Promise<void>; controller: AbortController }>();
  let stopping = false;
  // Woken by a job ending (a slot free), a job queued (`listenForQueued`) or `stop`; a wake that
  // comes while it claims is kept, so the nap after a claim that came too early is skipped.
  let woken = false;
  let alarm: (() => void) | undefined;
  const wake = () => {
    woken = true;
    alarm?.();
  };
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) return resolve();
      const timer = setTimeout(resolve, ms);
      alarm = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const mine = (jobId: number) => and(eq(jobs.id, jobId), eq(jobs.lockedBy, id), eq(jobs.state, 'running'));

  async function run(job: JobRow, controller: AbortController): Promise<void> {
    const handler = registry.handlers.get(job.kind) as JobHandler<unknown>;
    const renewal = setInterval(() => {
      db.update(jobs)
        .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
        .where(mine(job.id))
        .returning({ id: jobs.id })
        .then(
          (kept) => kept.length === 0 && controller.abort(new Error('lease lost')),
          (error: unknown) => log?.warn({ err: error, job: job.id }, 'job lease renewal failed'),
        );
    }, leaseMs / 3);
    try {
      const work = () =>
        handler({
          payload: job.payload,
          job,
          db,
          signal: controller.signal,
          progress: async (done, total, message) => {
            await db
              .update(jobs)
              .set({
                progressDone: done,
                ...(total !== undefined ? { progressTotal: total } : {}),
                ...(message !== undefined ? { progressMessage: message } : {}),
              })
              .where(mine(job.id));
          },
        });
      // A company's job works behind its company's wall (db/wall.ts), as its requests do.
      const result = await (job.companyId === null ? work() : behindCompanyWall(job.companyId, work));
      await settleJob(db, registry, job.id, mine(job.id), { state: 'succeeded', result: result ?? null });
    } catch (error) {
      if (error instanceof JobStopped && !controller.signal.aborted) {
        await settleJob(db, registry, job.id, mine(job.id), { state: 'cancelled', result: error.result });
        return;
      }
      // Stopped by its signal, whatever the handler threw then (e.g. an aborted fetch's AbortError).
      const failure = jobFailure(controller.signal.aborted ? jobAborted() : error);
      if (failure.key === errorKeys.jobFailed) log?.warn({ err: error, job: job.id }, 'job failed');
      const message = storedJobError(failure);
      if (stopping) {
        // A clean stop is no failed attempt: the job goes back to the queue for the next worker.
        await db
          .update(jobs)
          .set({ state: 'queued', attempts: sql`${jobs.attempts} - 1`, lockedBy: null, lockedUntil: null })
          .where(mine(job.id));
      } else if (error instanceof JobRefused) {
        // Refused, not failed: another run would be refused alike, so the job fails now with the key.
        await settleJob(db, registry, job.id, mine(job.id), { state: 'failed', error: message });
      } else if (job.attempts < job.maxAttempts) {
        // Retried later, longer after each failure.
        await db
          .update(jobs)
          .set({
            state: 'queued',
            error: message,
            lockedBy: null,
            lockedUntil: null,
            runAfter: sql`now() + make_interval(secs => ${5 * job.attempts ** 2})`,
          })
          .where(mine(job.id));
      } else {
        await settleJob(db, registry, job.id, mine(job.id), { state: 'failed', error: message });
      }
    } finally {
      clearInterval(renewal);
    }
  }

  function start(job: JobRow) {
    const controller = new AbortController();
    const promise = (
      job.attempts > job.maxAttempts
        ? // Its workers died this often: the job itself is the likely cause, run it no more.
          settleJob(db, registry, job.id, mine(job.id), {
            state: 'failed',
            error: errorKeys.jobAbandoned,
          }).then(() => undefined)
        : run(job, controller)
    )
      .catch((error: unknown) => log?.warn({ err: error, job: job.id }, 'job bookkeeping failed'))
      .finally(() => {
        running.delete(job.id);
        wake();
      });
    running.set(job.id, { promise, controller });
  }

  const unlisten = listenForQueued(db, wake, log);
  // Since when the node has been busy, while this worker defers claiming.
  let busySince: number | undefined;
  const deferring = () => {
    if (!busy?.()) {
      busySince = undefined;
      return false;
    }
    busySince ??= Date.now();
    return Date.now() - busySince < maxDeferMs;
  };
  const loop = (async () => {
    while (!stopping) {
      let claimed: JobRow | undefined;
      woken = false;
      alarm = undefined;
      if (running.size < concurrency && deferring()) {
        // Looked at again soon: a busy node is rarely busy for long.
        await nap(Math.min(pollMs, BUSY_NAP_MS));
        continue;
      }
      if (running.size < concurrency) {
        try {
          claimed = await claimJob(db, id, kinds, leaseMs);
        } catch (error) {
          log?.warn({ err: error }, 'job claim failed');
        }
      }
      // Claimed while stopping: started and at once aborted, so it goes back to the queue.
      if (claimed) start(claimed);
      else await nap(pollMs);
    }
  })();

  return {
    id,
    async stop() {
      stopping = true;
      wake();
      await loop;
      await unlisten();
      const all = [...running.values()];
      for (const { controller } of all) controller.abort(new Error('worker stopping'));
      await Promise.race([Promise.allSettled(all.map((r) => r.promise)), delay(stopGraceMs)]);
    },
  };
}
