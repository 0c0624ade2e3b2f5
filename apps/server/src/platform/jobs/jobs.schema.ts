import type { JobState } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Background jobs (README 'Background jobs'): one row per job, claimed by a worker
 * with `FOR UPDATE SKIP LOCKED` and held by a lease (`locked_until`) that the worker renews; a lease
 * that runs out means its worker died, and the job is claimed again.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    /** At most one queued or running job per key (e.g. `search.reindex:3`, one reindex per company). */
    key: text('key'),
    /** The company the work is for; null for installation-wide work. No foreign key: the platform knows no module. */
    companyId: integer('company_id'),
    /** The operator who asked (users.id), who sees the job and is told when it ends. */
    ownerId: integer('owner_id'),
    state: text('state').$type<JobState>().notNull().default('queued'),
    payload: jsonb('payload').notNull().default({}),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    /** Not claimed before this time (a retry waits). */
    runAfter: at('run_after').notNull().defaultNow(),
    /** The worker holding the lease, and until when. */
    lockedBy: text('locked_by'),
    lockedUntil: at('locked_until'),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total'),
    progressMessage: text('progress_message'),
    result: jsonb('result'),
    error: text('error'),
    createdAt: at('created_at').notNull().defaultNow(),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
  },
  (t) => [
    uniqueIndex('jobs_active_key').on(t.key).where(sql`key IS NOT NULL AND state IN ('queued', 'running')`),
    // What a worker's claim scans: only the unfinished jobs.
    index('jobs_claimable').on(t.runAfter).where(sql`state IN ('queued', 'running')`),
    index('jobs_owner').on(t.ownerId, t.createdAt),
  ],
);
export type JobRow = typeof jobs.$inferSelect;
