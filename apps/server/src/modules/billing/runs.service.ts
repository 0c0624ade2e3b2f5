import type { BillingDryRun, BillingRun, BillingRunProblem } from '@protocol/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import { formatDate } from '../../platform/exports/format.ts';
import {
  type JobContext,
  JobError,
  type JobQueue,
  type JobRow,
  jobAborted,
  refusedAsJob,
} from '../../platform/jobs/jobs.ts';
import { lastNumberedDate, seriesOfKind } from '../finance/api.ts';
import { financeSeries } from '../finance/finance.schema.ts';
import {
  holdRoutePeriodIn,
  type PeriodConsumption,
  releaseRoutePeriod,
  withoutEstimate,
} from '../readouts/api.ts';
import { loadBillingContext } from './billing.context.ts';
import { billingBills, billingRunRoutes, billingRuns } from './billing.schema.ts';
import { billingErrors, finalizeInTx } from './bills.service.ts';
import {
  computeChunk,
  periodsOf,
  RUN_CHUNK,
  type RunScope,
  readingsCount,
  readingsOf,
  routesOfScope,
  scopeCounts,
  sumBills,
} from './runs.compute.ts';
import { storeChunk } from './runs.store.ts';
import { BILLING_FINALIZE_JOB, getRun } from './runs.view.ts';

export const BILLING_RUN_JOB = 'billing.run';
export const BILLING_DRY_RUN_JOB = 'billing.dryRun';
export const runErrors = {
  overlaps: 'billing.error.run_overlaps',
  noRoutes: 'billing.error.run_no_routes',
  routeHeld: 'billing.error.run_route_held',
  notDone: 'billing.error.run_not_done',
  running: 'billing.error.run_running',
  dateBeforeLast: 'billing.error.run_date_before_last',
  manualNumbering: 'billing.error.manual_numbering',
  noEstimate: 'billing.error.no_estimate',
} as const;

const noRoutes = () =>
  new AppError(400, runErrors.noRoutes, {}, [{ field: 'ids', key: runErrors.noRoutes, params: {} }]);

/**
 * The dry run: everything the run would bill, computed and summed, nothing stored. It reads and
 * computes as the run does, so on a large scope it is a job too; `progress` counts the readings.
 */
export async function dryRun(
  db: Db,
  companyId: number,
  scope: RunScope,
  progress: (done: number, total: number) => Promise<void> = async () => undefined,
): Promise<BillingDryRun> {
  const routes = await routesOfScope(db, companyId, scope);
  if (routes.length === 0) throw noRoutes();
  const routeIds = routes.map((r) => r.id);
  const context = await loadBillingContext(db, companyId);
  const periods = await periodsOf(db, companyId, routeIds, scope);
  const readings = await readingsOf(db, companyId, scope, routeIds);
  const { consumers, flagged } = await scopeCounts(db, companyId, scope, routeIds);
  const computed = [];
  // Readouts' close could not estimate these (no history): first, so the list never hides them.
  const problems: BillingRunProblem[] = (await withoutEstimate(db, companyId, scope, { routeIds })).map(
    (c) => ({
      ...c,
      key: runErrors.noEstimate,
    }),
  );
  let finalized = 0;
  await progress(0, readings.length);
  for (let i = 0; i < readings.length; i += RUN_CHUNK) {
    const chunk = await computeChunk(
      db,
      companyId,
      context,
      periods,
      scope.issueDate,
      readings.slice(i, i + RUN_CHUNK),
    );
    computed.push(...chunk.bills.map((b) => b.bill));
    problems.push(...chunk.problems);
    finalized += chunk.finalized;
    await progress(Math.min(i + RUN_CHUNK, readings.length), readings.length);
  }
  const read = new Set(readings.map((r) => r.consumerId));
  return {
    ...sumBills(computed),
    routes: routes.length,
    consumers: consumers.length,
    withoutReading: consumers.filter((id) => !read.has(id)).length,
    estimated: readings.filter((r) => r.estimated).length,
    corrections: readings.filter((r) => r.correctionOf !== null).length,
    flagged,
    openPeriods: routeIds.filter((id) => periods.get(id)?.state !== 9).length,
    finalized,
    problems: problems.slice(0, 200),
  };
}

/**
 * Queues the dry run as a job whose result is the dry run; a scope without routes is refused at once.
 * The same operator asking the same dry run again while it works gets the same job.
 */
export async function startDryRun(
  db: Db,
  queue: JobQueue,
  principal: Principal,
  companyId: number,
  scope: RunScope,
): Promise<{ jobId: number }> {
  if ((await routesOfScope(db, companyId, scope)).length === 0) throw noRoutes();
  const { job } = await db.transaction((tx) =>
    queue.enqueue(tx, {
      kind: BILLING_DRY_RUN_JOB,
      key: `${BILLING_DRY_RUN_JOB}:${principal.userId}:${companyId}:${JSON.stringify(scope)}`,
      companyId,
      owner: principal.userId,
      payload: { companyId, scope },
    }),
  );
  return { jobId: job.id };
}

export async function dryRunJob({
  payload,
  db,
  progress,
}: JobContext<{ companyId: number; scope: RunScope }>) {
  return dryRun(db, payload.companyId, payload.scope, (done, total) => progress(done, total));
}

/** The key space of a company's run starts for advisory locks. */
const RUN_START_LOCK = 72510017;

/**
 * Starts a run: its row, its routes and its job, in one transaction. One run of a period at a time:
 * starts of the company take turns (an advisory lock held to commit, so two posted at once cannot
 * both miss each other), and a period with a queued or running run is a 409 naming that run. The
 * partial unique index on the routes still keeps two active runs off one route's period.
 */
export async function startRun(
  db: Db,
  queue: JobQueue,
  principal: Principal,
  companyId: number,
  scope: RunScope,
  requestId: string,
): Promise<BillingRun> {
  const id = await db.transaction(async (tx) => {
    const routes = await routesOfScope(tx, companyId, scope);
    if (routes.length === 0) throw noRoutes();
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${RUN_START_LOCK}, ${companyId})`);
    const [working] = await tx
      .select({ id: billingRuns.id, createuser: billingRuns.createuser })
      .from(billingRuns)
      .where(
        and(
          eq(billingRuns.companyId, companyId),
          eq(billingRuns.year, scope.year),
          eq(billingRuns.period, scope.period),
          inArray(billingRuns.state, ['queued', 'running']),
        ),
      )
      .limit(1);
    if (working) {
      throw new AppError(409, runErrors.running, {
        run: working.id,
        year: scope.year,
        period: scope.period,
        user: working.createuser ?? '',
      });
    }
    const [run] = await tx
      .insert(billingRuns)
      .values({
        companyId,
        year: scope.year,
        period: scope.period,
        scope: scope.scope,
        ids: scope.scope === 'all' ? [] : scope.ids,
        routeIds: routes.map((r) => r.id),
        issueDate: scope.issueDate,
        createuser: principal.username,
      })
      .returning({ id: billingRuns.id });
    const runId = (run as { id: number }).id;
    const taken = await tx
      .insert(billingRunRoutes)
      .values(
        routes.map((r) => ({ runId, companyId, routeId: r.id, year: scope.year, period: scope.period })),
      )
      .onConflictDoNothing({
        target: [
          billingRunRoutes.companyId,
          billingRunRoutes.routeId,
          billingRunRoutes.year,
          billingRunRoutes.period,
        ],
        where: sql`active`,
      })
      .returning({ routeId: billingRunRoutes.routeId });
    if (taken.length < routes.length) throw new AppError(409, runErrors.overlaps);
    const { job } = await queue.enqueue(tx, {
      kind: BILLING_RUN_JOB,
      key: `${BILLING_RUN_JOB}:${runId}`,
      companyId,
      owner: principal.userId,
      payload: { runId },
    });
    await tx.update(billingRuns).set({ jobId: job.id }).where(eq(billingRuns.id, runId));
    await recordAudit(tx, {
      entity: 'billing.run',
      entityId: runId,
      action: 'start',
      companyId,
      user: principal,
      requestId,
    });
    return runId;
  });
  return getRun(db, companyId, id);
}

/**
 * Routes a run bills side by side on PostgreSQL, each on a connection of the pool in transactions of
 * its own: with three, the database works on both cores while this process computes and encodes the
 * next chunk. PGlite has one connection, so one at a time.
 */
const ROUTES_AT_ONCE = 3;
const routesAtOnce = (db: Db) =>
  (db as { $client?: unknown }).$client instanceof pg.Pool ? ROUTES_AT_ONCE : 1;

/**
 * The run's job: route by route it holds the route's period (readings entry waits meanwhile), reads
 * its readings and bills them in chunks of RUN_CHUNK consumers, one transaction each (the first holds
 * the route, the last lets it go), so a killed run leaves whole bills
 * and its rerun (the job taken up again) recomputes the same bills in place and completes the rest.
 * Routes are billed a few at once (`routesAtOnce`); the first failure stops the others at their next
 * chunk. `chunk` (tests) bills fewer consumers a transaction.
 */
export async function billingRunJob({
  payload,
  db,
  progress,
  signal,
}: JobContext<{ runId: number; chunk?: number }>) {
  const size = payload.chunk ?? RUN_CHUNK;
  const [run] = await db.select().from(billingRuns).where(eq(billingRuns.id, payload.runId));
  if (!run) return { bills: 0 };
  const username = run.createuser ?? 'system';
  const holder = `${BILLING_RUN_JOB}:${run.id}`;
  const scope: RunScope = { ...run, ids: run.ids };
  await db.update(billingRuns).set({ state: 'running' }).where(eq(billingRuns.id, run.id));
  const context = await loadBillingContext(db, run.companyId);
  const periods = await periodsOf(db, run.companyId, run.routeIds, scope);
  // Each route's readings are read in its first chunk's transaction, beside the other routes' work;
  // a consumer read on two routes is billed once, by the first.
  const total = await readingsCount(db, run.companyId, scope, run.routeIds);
  const billed = new Set<number>();
  let done = 0;
  await progress(0, total);
  // Reported one after another, each with the count at its turn, so the progress never goes back;
  // not waited for by the chunks (each report is a commit that waits for the disk), and at most one
  // waiting (it reports the count of the chunks done meanwhile too). A failed report fails the job
  // at its end; the lost lease that would make it fail aborts the chunks already.
  let reported = Promise.resolve();
  let waitingReport = false;
  const report = () => {
    if (waitingReport) return;
    waitingReport = true;
    reported = reported.then(() => {
      waitingReport = false;
      return progress(done, total);
    });
    reported.catch(() => undefined);
  };
  let failed = false;
  // Letting go of a route after a failure need not wait for the disk: a crash ends the hold with the
  // job, and the job's synchronous end makes every release durable before it.
  const unsynced = <T>(work: (tx: Db) => Promise<T>) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL synchronous_commit = off`);
      return work(tx as unknown as Db);
    });
  // The route is held in its first chunk's transaction and let go in its last one's (no transactions
  // of their own): entry waits on the locked period row meanwhile, and 409s between chunks.
  const billRoute = async (routeId: number) => {
    const key = { routeId, year: run.year, period: run.period };
    let readings: PeriodConsumption[] = [];
    let held = false;
    try {
      for (let c = 0; c === 0 || c * size < readings.length; c++) {
        if (signal.aborted) throw jobAborted();
        if (failed) return;
        const chunk = await db.transaction(async (tx) => {
          // The chunk's commit need not wait for its WAL to reach the disk: should the database crash
          // before it does, the chunk is lost whole and the job, not yet ended, bills it again; the
          // job's end commits synchronously, after (so with) every chunk.
          await tx.execute(sql`SET LOCAL synchronous_commit = off`);
          if (c === 0) {
            if (!(await holdRoutePeriodIn(tx, run.companyId, key, holder))) {
              throw new JobError(runErrors.routeHeld);
            }
            readings = (await readingsOf(tx, run.companyId, scope, [routeId])).filter(
              (r) => !billed.has(r.consumerId) && billed.add(r.consumerId),
            );
          }
          const part = readings.slice(c * size, (c + 1) * size);
          if (part.length > 0) {
            const computed = await computeChunk(
              tx,
              run.companyId,
              context,
              periods,
              run.issueDate,
              part,
              true,
            );
            await storeChunk(tx, username, run.companyId, run.id, computed.bills);
          }
          const last = (c + 1) * size >= readings.length;
          if (last) await releaseRoutePeriod(tx, run.companyId, key, holder);
          return { last, billed: part.length };
        });
        held = !chunk.last;
        done += chunk.billed;
        report();
      }
    } finally {
      if (held) await unsynced((tx) => releaseRoutePeriod(tx, run.companyId, key, holder));
    }
  };
  const waiting = [...run.routeIds];
  const workers = Array.from({ length: Math.min(routesAtOnce(db), waiting.length) }, async () => {
    for (let routeId = waiting.shift(); routeId !== undefined && !failed; routeId = waiting.shift()) {
      await billRoute(routeId).catch((error: unknown) => {
        failed = true;
        throw error;
      });
    }
  });
  const settled = await Promise.allSettled(workers);
  await reported;
  const refused = settled.find((s) => s.status === 'rejected');
  if (refused) throw refused.reason;
  return { bills: done };
}

/** When the run's job ends: the run is done or failed, and its routes are free for another run. */
export async function runSettled(tx: Tx, job: JobRow) {
  if (job.kind !== BILLING_RUN_JOB) return;
  const runId = (job.payload as { runId: number }).runId;
  await tx
    .update(billingRuns)
    .set({ state: job.state === 'succeeded' ? 'done' : 'failed', error: job.error ?? null })
    .where(eq(billingRuns.id, runId));
  await tx.update(billingRunRoutes).set({ active: false }).where(eq(billingRunRoutes.runId, runId));
}

/**
 * Queues finalizing a done run as a job (its bills numbered by the job, see `finalizeRunJob`); what
 * would make it fail is refused at once: a run not done (409), no water-bill series, a series numbered
 * by hand (autonr off), an issue date before the date-checked series' last bill (400 naming both
 * dates). Asking again while it works gives the same job.
 */
export async function startFinalize(
  db: Db,
  queue: JobQueue,
  principal: Principal,
  companyId: number,
  runId: number,
  requestId: string,
): Promise<{ jobId: number }> {
  const run = await getRun(db, companyId, runId);
  if (run.state !== 'done') throw new AppError(409, runErrors.notDone);
  const series = await numberingSeries(db, companyId);
  const last = series.checkdates ? await lastNumberedDate(db, series.id, run.issueDate) : null;
  if (last !== null && last > run.issueDate) {
    // Dates as the screens show them (DD/MM/YYYY): the params are for the message.
    throw new AppError(400, runErrors.dateBeforeLast, {
      date: formatDate(run.issueDate),
      last: formatDate(last),
    });
  }
  const { job } = await db.transaction((tx) =>
    queue.enqueue(tx, {
      kind: BILLING_FINALIZE_JOB,
      key: `${BILLING_FINALIZE_JOB}:${runId}`,
      companyId,
      owner: principal.userId,
      payload: { companyId, runId, userId: principal.userId, username: principal.username, requestId },
    }),
  );
  return { jobId: job.id };
}

/** The water-bill series a run's bills are numbered from; 409 when missing or numbered by hand. */
async function numberingSeries(db: Tx, companyId: number) {
  const series = await seriesOfKind(db, companyId, 'waterBill');
  if (!series) throw new AppError(409, billingErrors.noSeries);
  const [numbering] = await db
    .select({ autonr: financeSeries.autonr })
    .from(financeSeries)
    .where(eq(financeSeries.id, series.id));
  if (!numbering?.autonr) throw new AppError(409, runErrors.manualNumbering);
  return series;
}

/**
 * Finalizes a done run's open bills in the order they were billed, RUN_CHUNK a transaction: each takes
 * the next number of the water-bill series (gapless: a failed chunk gives its numbers back) and
 * becomes immutable. Taken up again after a crash it finds only the bills still open. What the
 * finalizing refuses (a date before the series' last, a series gone or numbered by hand) would be
 * refused again: the job fails at once with it.
 */
export async function finalizeRunJob(
  context: JobContext<{
    companyId: number;
    runId: number;
    userId: number;
    username: string;
    requestId: string;
  }>,
) {
  try {
    return await finalizeRun(context);
  } catch (error) {
    throw refusedAsJob(error);
  }
}

async function finalizeRun({
  payload,
  db,
  progress,
  signal,
}: JobContext<{ companyId: number; runId: number; userId: number; username: string; requestId: string }>) {
  const { companyId, runId, requestId } = payload;
  const series = await numberingSeries(db, companyId);
  const open = await db
    .select({ id: billingBills.id })
    .from(billingBills)
    .where(
      and(
        eq(billingBills.companyId, companyId),
        eq(billingBills.runId, runId),
        sql`${billingBills.entryState} IN (0, 1)`,
      ),
    )
    .orderBy(billingBills.id);
  const user = { userId: payload.userId, username: payload.username };
  await progress(0, open.length);
  for (let i = 0; i < open.length; i += RUN_CHUNK) {
    if (signal.aborted) throw jobAborted();
    const chunk = open.slice(i, i + RUN_CHUNK);
    await db.transaction(async (tx) => {
      for (const { id } of chunk) await finalizeInTx(tx, user, companyId, id, series, requestId);
    });
    await progress(i + chunk.length, open.length);
  }
  return { finalized: open.length };
}
