import {
  type BillingDryRun,
  type BillingRun,
  billCharges,
  billRfCode,
  Decimal,
  PERIOD_CHARGE_KIND,
} from '@protocol/contracts';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { jobs } from '../../platform/jobs/jobs.schema.ts';
import type { JobContext, JobQueue, JobRow } from '../../platform/jobs/jobs.ts';
import { seriesOfKind } from '../finance/api.ts';
import { financeSeries } from '../finance/finance.schema.ts';
import { holdRoutePeriod, releaseRoutePeriod } from '../readouts/api.ts';
import { waterRoutes } from '../water/parametrics.schema.ts';
import { loadBillingContext } from './billing.context.ts';
import { billingBillLines, billingBills, billingRunRoutes, billingRuns } from './billing.schema.ts';
import { billingErrors, billValues, finalizeInTx, lineRow } from './bills.service.ts';
import {
  type ComputedRunBill,
  computeChunk,
  periodsOf,
  RUN_CHUNK,
  type RunScope,
  readingsOf,
  routesOfScope,
  scopeCounts,
  sumBills,
} from './runs.compute.ts';

export const BILLING_RUN_JOB = 'billing.run';
export const runErrors = {
  overlaps: 'billing.error.run_overlaps',
  noRoutes: 'billing.error.run_no_routes',
  routeHeld: 'billing.error.run_route_held',
  notDone: 'billing.error.run_not_done',
  manualNumbering: 'billing.error.manual_numbering',
} as const;

const noRoutes = () =>
  new AppError(400, runErrors.noRoutes, {}, [{ field: 'ids', key: runErrors.noRoutes, params: {} }]);

/** The dry run: everything the run would bill, computed and summed, nothing stored. */
export async function dryRun(db: Db, companyId: number, scope: RunScope): Promise<BillingDryRun> {
  const routes = await routesOfScope(db, companyId, scope);
  if (routes.length === 0) throw noRoutes();
  const routeIds = routes.map((r) => r.id);
  const context = await loadBillingContext(db, companyId);
  const periods = await periodsOf(db, companyId, routeIds, scope);
  const readings = await readingsOf(db, companyId, scope, routeIds);
  const { consumers, flagged } = await scopeCounts(db, companyId, scope, routeIds);
  const computed = [];
  const problems = [];
  let finalized = 0;
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
 * Starts a run: its row, its routes (the partial unique index refuses a route another active run
 * holds: 409) and its job, in one transaction.
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
 * Stores a chunk's bills in the caller's transaction with four statements: the bills upserted
 * (recomputed in place unless finalized), the new ones' RF codes, their old lines deleted and the
 * new lines inserted multi-row.
 */
async function storeChunk(
  tx: Tx,
  username: string,
  companyId: number,
  runId: number,
  bills: ComputedRunBill[],
) {
  const rows = bills.map((b) => ({
    ...billValues(b.bill, b.expiredays, b.period, b.readings),
    companyId,
    consumerId: b.consumerId,
    periodFrom: b.period.from,
    kind: PERIOD_CHARGE_KIND,
    runId,
    createuser: username,
  }));
  const [first] = rows;
  if (!first) return;
  const kept = ['companyId', 'consumerId', 'periodFrom', 'kind', 'createuser'];
  const updated = (Object.keys(first) as (keyof typeof first)[]).filter((key) => !kept.includes(key));
  const stored = await tx
    .insert(billingBills)
    .values(rows)
    .onConflictDoUpdate({
      target: [billingBills.consumerId, billingBills.periodFrom, billingBills.kind],
      set: {
        ...Object.fromEntries(updated.map((key) => [key, sql.raw(`excluded.${billingBills[key].name}`)])),
        entryState: sql`1`,
        updateuser: username,
        updatedate: sql`now()`,
      },
      setWhere: sql`${billingBills.entryState} <> 9`,
    })
    .returning({ id: billingBills.id, consumerId: billingBills.consumerId, rfCode: billingBills.rfCode });
  const fresh = stored.filter((s) => s.rfCode === null);
  if (fresh.length > 0) {
    const values = sql.join(
      fresh.map((s) => sql`(${s.id}::int, ${billRfCode(companyId, s.id)}::text)`),
      sql`, `,
    );
    await tx.execute(
      sql`UPDATE billing_bills AS b SET rf_code = v.rf FROM (VALUES ${values}) AS v(id, rf) WHERE b.id = v.id`,
    );
  }
  const ids = stored.map((s) => s.id);
  await tx.delete(billingBillLines).where(inArray(billingBillLines.billId, ids));
  const idOf = new Map(stored.map((s) => [s.consumerId, s.id]));
  const lines = bills.flatMap((b) => {
    const billId = idOf.get(b.consumerId);
    return billId === undefined ? [] : b.bill.lines.map((line, i) => lineRow(billId, i + 1, line));
  });
  // PostgreSQL takes at most 65,535 parameters a statement: 13 a line.
  for (let i = 0; i < lines.length; i += 4000)
    await tx.insert(billingBillLines).values(lines.slice(i, i + 4000));
}

/**
 * The run's job: route by route it holds the route's period (readings entry waits meanwhile) and
 * bills it in chunks of RUN_CHUNK consumers, one transaction each, so a killed run leaves whole bills
 * and its rerun (the job taken up again) recomputes the same bills in place and completes the rest.
 * `chunk` (tests) bills fewer consumers a transaction.
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
  const all = await readingsOf(db, run.companyId, scope, run.routeIds);
  let done = 0;
  await progress(0, all.length);
  for (const routeId of run.routeIds) {
    const key = { routeId, year: run.year, period: run.period };
    if (!(await holdRoutePeriod(db, run.companyId, key, holder))) throw new Error(runErrors.routeHeld);
    try {
      const readings = all.filter((r) => r.routeId === routeId);
      for (let i = 0; i < readings.length; i += size) {
        if (signal.aborted) throw new Error('aborted');
        const chunk = readings.slice(i, i + size);
        await db.transaction(async (tx) => {
          const computed = await computeChunk(tx, run.companyId, context, periods, run.issueDate, chunk);
          await storeChunk(tx, username, run.companyId, run.id, computed.bills);
        });
        done += chunk.length;
        await progress(done, all.length);
      }
    } finally {
      await releaseRoutePeriod(db, run.companyId, key, holder);
    }
  }
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

/** The totals of what a run stored, read back from its bills. */
async function runTotals(db: Tx, runIds: number[]) {
  const empty = { bills: 0, open: 0, charges: [], net: '0.00', vat: '0.00', total: '0.00' };

  const totals = new Map<number, Pick<BillingRun, 'bills' | 'open' | 'charges' | 'net' | 'vat' | 'total'>>();
  if (runIds.length === 0) return totals;
  const sums = await db
    .select({
      runId: billingBills.runId,
      bills: sql<number>`count(*)::int`,
      open: sql<number>`(count(*) FILTER (WHERE ${billingBills.entryState} IN (0, 1)))::int`,
      net: sql<string>`coalesce(sum(${billingBills.net}), 0)::text`,
      vat: sql<string>`coalesce(sum(${billingBills.vatTotal}), 0)::text`,
      total: sql<string>`coalesce(sum(${billingBills.total}), 0)::text`,
    })
    .from(billingBills)
    .where(inArray(billingBills.runId, runIds))
    .groupBy(billingBills.runId);
  const charges = await db
    .select({
      runId: billingBills.runId,
      charge: billingBillLines.charge,
      amount: sql<string>`sum(${billingBillLines.amount})::text`,
    })
    .from(billingBillLines)
    .innerJoin(billingBills, eq(billingBills.id, billingBillLines.billId))
    .where(inArray(billingBills.runId, runIds))
    .groupBy(billingBills.runId, billingBillLines.charge);
  for (const id of runIds) {
    const sum = sums.find((s) => s.runId === id);
    totals.set(
      id,
      sum
        ? {
            bills: sum.bills,
            open: sum.open,
            net: new Decimal(sum.net).toFixed(2),
            vat: new Decimal(sum.vat).toFixed(2),
            total: new Decimal(sum.total).toFixed(2),
            charges: billCharges.flatMap((charge) => {
              const row = charges.find((c) => c.runId === id && c.charge === charge);
              return row ? [{ charge, amount: new Decimal(row.amount).toFixed(2) }] : [];
            }),
          }
        : empty,
    );
  }
  return totals;
}

/** The company's runs, newest first, with their job's progress and their totals. */
export async function listRuns(db: Tx, companyId: number, id?: number): Promise<BillingRun[]> {
  const rows = await db
    .select({ run: billingRuns, done: jobs.progressDone, total: jobs.progressTotal })
    .from(billingRuns)
    .leftJoin(jobs, eq(jobs.id, billingRuns.jobId))
    .where(and(eq(billingRuns.companyId, companyId), id === undefined ? undefined : eq(billingRuns.id, id)))
    .orderBy(desc(billingRuns.id))
    .limit(50);
  const routeIds = [...new Set(rows.flatMap((r) => r.run.routeIds))];
  const codes = new Map(
    routeIds.length === 0
      ? []
      : (
          await db
            .select({ id: waterRoutes.id, code: waterRoutes.code })
            .from(waterRoutes)
            .where(inArray(waterRoutes.id, routeIds))
        ).map((r) => [r.id, r.code]),
  );
  const totals = await runTotals(
    db,
    rows.map((r) => r.run.id),
  );
  return rows.map(({ run, done, total }) => ({
    id: run.id,
    year: run.year,
    period: run.period,
    scope: run.scope,
    ids: run.ids,
    routeCodes: run.routeIds.map((r) => codes.get(r) ?? String(r)),
    issueDate: run.issueDate,
    state: run.state,
    jobId: run.jobId,
    progressDone: done ?? 0,
    progressTotal: total ?? null,
    error: run.error,
    createuser: run.createuser ?? '',
    createdate: (run.createdate ?? new Date()).toISOString(),
    ...(totals.get(run.id) as NonNullable<ReturnType<typeof totals.get>>),
  }));
}

export async function getRun(db: Tx, companyId: number, id: number): Promise<BillingRun> {
  const [run] = await listRuns(db, companyId, id);
  if (!run) throw notFound();
  return run;
}

/**
 * Finalizes a done run's bills in the order they were billed, RUN_CHUNK a transaction: each takes the
 * next number of the water-bill series (gapless: a failed chunk gives its numbers back) and becomes
 * immutable. A series numbered by hand (autonr off) cannot number a run.
 */
export async function finalizeRun(
  db: Db,
  principal: Principal,
  companyId: number,
  runId: number,
  requestId: string,
): Promise<{ finalized: number }> {
  const run = await getRun(db, companyId, runId);
  if (run.state !== 'done') throw new AppError(409, runErrors.notDone);
  const series = await seriesOfKind(db, companyId, 'waterBill');
  if (!series) throw new AppError(409, billingErrors.noSeries);
  const [numbering] = await db
    .select({ autonr: financeSeries.autonr })
    .from(financeSeries)
    .where(eq(financeSeries.id, series.id));
  if (!numbering?.autonr) throw new AppError(409, runErrors.manualNumbering);
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
  for (let i = 0; i < open.length; i += RUN_CHUNK) {
    const chunk = open.slice(i, i + RUN_CHUNK);
    await db.transaction(async (tx) => {
      for (const { id } of chunk) await finalizeInTx(tx, principal, companyId, id, series, requestId);
    });
  }
  return { finalized: open.length };
}
