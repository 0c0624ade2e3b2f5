// The billing runs as the screens read them: totals, months, the finalizing job, one row per run.
import { type BillingRun, billCharges, moneyString } from '@protocol/contracts';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { jobs } from '../../platform/jobs/jobs.schema.ts';
import { readoutRoutePeriods } from '../readouts/readouts.schema.ts';
import { waterRoutes, waterSectors } from '../water/parametrics.schema.ts';
import { billingBillLines, billingBills, billingRuns } from './billing.schema.ts';

/** The kind of the job that finalizes a run: queued by the service, shown with its run here. */
export const BILLING_FINALIZE_JOB = 'billing.finalize';

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
            net: moneyString(sum.net),
            vat: moneyString(sum.vat),
            total: moneyString(sum.total),
            charges: billCharges.flatMap((charge) => {
              const row = charges.find((c) => c.runId === id && c.charge === charge);
              return row ? [{ charge, amount: moneyString(row.amount) }] : [];
            }),
          }
        : empty,
    );
  }
  return totals;
}

/** The months of the runs' periods (from their routes' reading periods), by "year/period". */
async function monthsOf(db: Tx, companyId: number, runs: { year: number; period: number }[]) {
  const years = [...new Set(runs.map((r) => r.year))];
  if (years.length === 0) return new Map<string, number>();
  const rows = await db
    .select({
      year: readoutRoutePeriods.year,
      period: readoutRoutePeriods.period,
      months: sql<number>`max(${readoutRoutePeriods.months})::int`,
    })
    .from(readoutRoutePeriods)
    .where(and(eq(readoutRoutePeriods.companyId, companyId), inArray(readoutRoutePeriods.year, years)))
    .groupBy(readoutRoutePeriods.year, readoutRoutePeriods.period);
  return new Map(rows.map((r) => [`${r.year}/${r.period}`, r.months]));
}

/** The last finalizing job of each run, found by its key. */
async function finalizingOf(db: Tx, runIds: number[]) {
  const keys = runIds.map((id) => `${BILLING_FINALIZE_JOB}:${id}`);
  const rows =
    keys.length === 0
      ? []
      : await db
          .selectDistinctOn([jobs.key], {
            key: jobs.key,
            state: jobs.state,
            done: jobs.progressDone,
            total: jobs.progressTotal,
          })
          .from(jobs)
          .where(inArray(jobs.key, keys))
          .orderBy(jobs.key, desc(jobs.id));
  return new Map(
    rows.map((r) => [
      Number(String(r.key).slice(BILLING_FINALIZE_JOB.length + 1)),
      { state: r.state, done: r.done ?? 0, total: r.total ?? null },
    ]),
  );
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
            .select({ id: waterRoutes.id, code: waterRoutes.code, sector: waterSectors.code })
            .from(waterRoutes)
            .innerJoin(waterSectors, eq(waterSectors.id, waterRoutes.sectorId))
            .where(inArray(waterRoutes.id, routeIds))
        )
          // Route codes repeat across sectors ('001' in each): a route is named sector-route, '01-001'.
          .map((r) => [r.id, `${r.sector}-${r.code}`]),
  );
  // A working run's totals are partial and summing its growing bills on every poll of its progress
  // would slow it down: they are read once it ended.
  const totals = await runTotals(
    db,
    rows.filter((r) => r.run.state === 'done' || r.run.state === 'failed').map((r) => r.run.id),
  );
  const months = await monthsOf(
    db,
    companyId,
    rows.map((r) => r.run),
  );
  const finalizing = await finalizingOf(
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
    months: months.get(`${run.year}/${run.period}`) ?? null,
    finalizing: finalizing.get(run.id) ?? null,
    ...(totals.get(run.id) ?? { bills: 0, open: 0, charges: [], net: '0.00', vat: '0.00', total: '0.00' }),
  }));
}

export async function getRun(db: Tx, companyId: number, id: number): Promise<BillingRun> {
  const [run] = await listRuns(db, companyId, id);
  if (!run) throw notFound();
  return run;
}
