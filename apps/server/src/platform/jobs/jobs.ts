import { errorKeys } from '@protocol/contracts';
import { and, eq, getTableColumns, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../errors.ts';
import { type JobRow, jobs } from './jobs.schema.ts';
import { queuedNotice } from './wake.ts';

export type { JobRow } from './jobs.schema.ts';

/**
 * What a handler gets. A handler must be safe to run again from the start: a worker that dies (or
 * loses its lease) mid-job leaves the job to another worker, which runs it anew. Write in batches
 * that commit on their own (a long transaction holds PGlite's only connection), each idempotent.
 */
export interface JobContext<P> {
  payload: P;
  /** The row as claimed (attempts counts this run). */
  job: JobRow;
  /** Reports how far it got, read back by the owner's job list; call it per batch, not per row. */
  progress(done: number, total?: number | null, message?: string | null): Promise<void>;
  db: Db;
  /** Aborted when the server stops or the lease is lost: stop at the next batch. */
  signal: AbortSignal;
}

type Params = Record<string, string | number>;

/**
 * Why a job failed, as a catalog key with params: kept so, and translated where it is shown (the
 * web's jobErrorText), in the language of whoever reads it, not of whoever started the job.
 */
export class JobError extends Error {
  constructor(
    readonly key: string,
    readonly params: Params = {},
  ) {
    super(key);
  }
}

/**
 * What a handler throws for an error no retry can mend (a date the series refuses, a row gone): the
 * worker fails the job at once with its key and params, instead of retrying it for nothing. Any
 * other error may pass (a lost connection, a held route) and is retried.
 */
export class JobRefused extends JobError {}

/** A 4xx `AppError` (what the same request would be refused) as a `JobRefused`; anything else as it is. */
export function refusedAsJob(error: unknown): unknown {
  return error instanceof AppError && error.status >= 400 && error.status < 500
    ? new JobRefused(error.key, error.params)
    : error;
}

/**
 * What a handler throws when its owner asked it to stop (an import aborted between chunks): the job
 * ends cancelled, keeping `result` (what it did before it stopped), and is not retried.
 */
export class JobStopped extends Error {
  constructor(readonly result: unknown) {
    super('stopped');
  }
}

/** What a handler throws when its signal stops it (the server stopping, the lease lost). */
export const jobAborted = () => new JobError(errorKeys.jobAborted);

/**
 * A handler's error as it is kept: a JobError's or an AppError's key and params (an AppError's
 * first field error when it has one); anything else is a fault of the system, `error.job_failed`
 * (its own text goes to the log, not to the operator).
 */
export function jobFailure(error: unknown): { key: string; params: Params } {
  if (error instanceof JobError) return { key: error.key, params: error.params };
  if (error instanceof AppError) {
    const field = error.fieldErrors?.[0];
    return field ? { key: field.key, params: field.params } : { key: error.key, params: error.params };
  }
  return { key: errorKeys.jobFailed, params: {} };
}

/**
 * The `error` column holds the key, followed by `?` and the params as JSON when there are any (the
 * encoding of the web's field messages, lib/errors.ts): one text column, no migration.
 */
export function storedJobError({ key, params }: { key: string; params: Params }): string {
  return Object.keys(params).length > 0 ? `${key}?${JSON.stringify(params)}` : key;
}

/** The key and params of a stored `error`; a text stored before keys were (e.g. 'Stopped') is its own key. */
export function jobErrorOf(stored: string | null): { error: string | null; errorParams: Params } {
  const at = stored?.indexOf('?') ?? -1;
  if (!stored || at < 0 || !/^[\w.]+$/.test(stored.slice(0, at))) return { error: stored, errorParams: {} };
  try {
    return { error: stored.slice(0, at), errorParams: JSON.parse(stored.slice(at + 1)) as Params };
  } catch {
    return { error: stored, errorParams: {} };
  }
}

/** One kind of job; what it returns (JSON) is kept as the job's result. */
export type JobHandler<P = unknown> = (context: JobContext<P>) => Promise<unknown>;

/** Told, in the transaction that ends it, that a job ended (succeeded, failed or cancelled). */
export type JobSettled = (tx: Tx, job: JobRow) => Promise<void>;

export interface NewJob {
  /** A kind some module declares in `AppModule.jobs`. */
  kind: string;
  /** While a job with this key is queued or running, enqueueing the same key returns that job. */
  key?: string;
  companyId: number | null;
  /** The operator who asked; null for work nobody asked for. */
  owner: number | null;
  /** What the handler gets as `payload` (stored as JSON). */
  payload?: object;
  /** Runs that may fail (a thrown error or a dead worker) before the job fails; default 3. */
  maxAttempts?: number;
}

/** How modules start background work (`ModuleOptions.jobs`). */
export interface JobQueue {
  /**
   * Queues a job in `tx` (it runs once that commits). With a key already queued or running, the
   * job is coalesced: nothing is queued and the existing job is returned, `created` false.
   */
  enqueue(tx: Tx, job: NewJob): Promise<{ job: JobRow; created: boolean }>;
  /**
   * Queues a job in a transaction of its own after `payloadOf`, which stores what the job needs
   * (e.g. the uploaded file it reads) in the same transaction and gives the payload: both commit,
   * or neither. Returns the job's id.
   */
  enqueueWith(
    db: Db,
    job: Omit<NewJob, 'payload'>,
    payloadOf: (tx: Tx) => Promise<object> | object,
  ): Promise<number>;
}

/** The kinds and hooks of all modules, gathered once. */
export interface JobRegistry {
  handlers: ReadonlyMap<string, JobHandler<never>>;
  settled: readonly JobSettled[];
}

export function jobRegistryOf(
  modules: readonly { name: string; jobs?: Record<string, JobHandler<never>>; onJobSettled?: JobSettled }[],
): JobRegistry {
  const handlers = new Map<string, JobHandler<never>>();
  for (const module of modules) {
    for (const [kind, handler] of Object.entries(module.jobs ?? {})) {
      if (handlers.has(kind)) throw new Error(`Job kind ${kind} of module ${module.name} is declared twice`);
      handlers.set(kind, handler);
    }
  }
  return { handlers, settled: modules.flatMap((m) => (m.onJobSettled ? [m.onJobSettled] : [])) };
}

const active = sql`${jobs.key} IS NOT NULL AND ${jobs.state} IN ('queued', 'running')`;

export function createJobQueue(registry: JobRegistry): JobQueue {
  const queue: JobQueue = {
    enqueueWith(db, job, payloadOf) {
      return db.transaction(
        async (tx) => (await queue.enqueue(tx, { ...job, payload: await payloadOf(tx) })).job.id,
      );
    },
    async enqueue(tx, job) {
      if (!registry.handlers.has(job.kind)) throw new Error(`No module declares the job kind ${job.kind}`);
      // The loop covers the holder of the key ending between the insert and the read.
      for (;;) {
        const [created] = await tx
          .insert(jobs)
          .values({
            kind: job.kind,
            key: job.key ?? null,
            companyId: job.companyId,
            ownerId: job.owner,
            payload: (job.payload ?? {}) as Record<string, unknown>,
            maxAttempts: job.maxAttempts ?? 3,
          })
          .onConflictDoNothing({ target: jobs.key, where: active })
          // The workers' wake-up in the same statement, sent only for a row it created.
          .returning({ ...getTableColumns(jobs), woken: queuedNotice });
        if (created) {
          const { woken: _, ...row } = created;
          return { job: row, created: true };
        }
        const [existing] = await tx
          .select()
          .from(jobs)
          .where(and(eq(jobs.key, job.key as string), inArray(jobs.state, ['queued', 'running'])));
        if (existing) return { job: existing, created: false };
      }
    },
  };
  return queue;
}

/**
 * Ends a job in one transaction with the modules' `onJobSettled` hooks; `where` guards the end
 * (e.g. only by the worker holding it), so a job ends once. Returns the ended row, if it ended.
 */
export async function settleJob(
  db: Db,
  registry: JobRegistry,
  id: number,
  where: SQL | undefined,
  values: { state: 'succeeded' | 'failed' | 'cancelled'; result?: unknown; error?: string | null },
): Promise<JobRow | undefined> {
  return db.transaction(async (tx) => {
    const [ended] = await tx
      .update(jobs)
      .set({ ...values, finishedAt: sql`now()`, lockedBy: null, lockedUntil: null })
      .where(and(eq(jobs.id, id), where))
      .returning();
    if (ended) for (const hook of registry.settled) await hook(tx, ended);
    return ended;
  });
}

/**
 * Claims the oldest job a worker can run: a queued one that is due, or a running one whose lease
 * ran out (its worker died). `SKIP LOCKED` lets workers on other nodes claim other rows meanwhile;
 * a row another claim has taken no longer matches once that claim commits.
 */
export async function claimJob(
  db: Db,
  workerId: string,
  kinds: readonly string[],
  leaseMs: number,
): Promise<JobRow | undefined> {
  if (kinds.length === 0) return undefined;
  // One statement, not a transaction of round trips: the subquery locks the candidate row and the
  // update around it claims it; a row another claim took meanwhile no longer matches and is skipped.
  const candidate = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        inArray(jobs.kind, [...kinds]),
        or(
          and(eq(jobs.state, 'queued'), lte(jobs.runAfter, sql`now()`)),
          and(eq(jobs.state, 'running'), lte(jobs.lockedUntil, sql`now()`)),
        ),
      ),
    )
    .orderBy(jobs.id)
    .limit(1)
    .for('update', { skipLocked: true });
  const [claimed] = await db
    .update(jobs)
    .set({
      state: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      lockedBy: workerId,
      lockedUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
      startedAt: sql`coalesce(${jobs.startedAt}, now())`,
    })
    .where(sql`${jobs.id} = (${candidate})`)
    .returning();
  return claimed;
}
