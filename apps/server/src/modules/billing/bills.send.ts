import {
  type BillDispatch,
  type BillDispatchStarted,
  billEntryStates,
  billSendStatuses,
  type EmailBillsRequest,
  type PrintBillsRequest,
  type RouteSendCounts,
  type RunSending,
} from '@protocol/contracts';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { jobs } from '../../platform/jobs/jobs.schema.ts';
import type { JobQueue, JobRow } from '../../platform/jobs/jobs.ts';
import { waterRoutes } from '../water/parametrics.schema.ts';
import { billingDispatches, billingRuns } from './billing.schema.ts';

/** The rows of a raw `execute` result. */

/*
 * Sending the finalized bills (spec §3 send status): 0 hold → 1 send (queued for e-mail, or marked
 * for print) → 2 sent (the mail server accepted it, or it was printed in a route's merged PDF) →
 * 9 completed (the operator closed the route's sending: printed bills posted, mails gone). Each
 * sending is a dispatch done by a background job (bills.send.jobs.ts).
 */

export const BILL_EMAIL_JOB = 'billing.email';
export const BILL_PRINT_JOB = 'billing.print';

export const sendErrors = {
  mailNotConfigured: 'billing.error.mail_not_configured',
  routeNotInRun: 'billing.error.route_not_in_run',
  noFile: 'billing.error.no_print_file',
  nothingToPrint: 'billing.error.nothing_to_print',
} as const;

const { hold, send, sent, completed } = billSendStatuses;

/** The address a bill goes to: its receiver's e-mail when it has a receiver, else its owner's. */
export const recipientEmail = sql<
  string | null
>`(SELECT nullif(btrim(t.email), '') FROM traders t WHERE t.id = coalesce(c.receiver_id, c.owner_id))`;

async function runOf(db: Tx, companyId: number, runId: number) {
  const [run] = await db
    .select({ id: billingRuns.id, routeIds: billingRuns.routeIds })
    .from(billingRuns)
    .where(and(eq(billingRuns.id, runId), eq(billingRuns.companyId, companyId)));
  if (!run) throw notFound();
  return run;
}

function assertRouteOfRun(run: { routeIds: number[] }, routeId: number | undefined) {
  if (routeId !== undefined && !run.routeIds.includes(routeId)) {
    throw new AppError(400, sendErrors.routeNotInRun, {}, [
      { field: 'routeId', key: sendErrors.routeNotInRun, params: {} },
    ]);
  }
}

/** The SQL condition of a scope over `billing_bills b JOIN water_consumers c`. */
function scopeSql(scope: { runId?: number; routeId?: number; billIds?: number[] }): SQL {
  const parts: SQL[] = [];
  if (scope.runId !== undefined) parts.push(sql`b.run_id = ${scope.runId}`);
  if (scope.routeId !== undefined) parts.push(sql`c.route_id = ${scope.routeId}`);
  if (scope.billIds && scope.billIds.length > 0)
    parts.push(
      sql`b.id IN (${sql.join(
        scope.billIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  return sql.join(parts, sql` AND `);
}

/**
 * Queues the finalized bills of the scope that are on hold: those with an address for e-mail (in
 * this dispatch), the others for print. One statement, in the caller's transaction.
 */
async function markForSending(
  tx: Tx,
  username: string,
  companyId: number,
  dispatchId: number | null,
  scope: SQL,
  onlyWithoutEmail: boolean,
): Promise<{ email: number; print: number }> {
  const result = await tx.execute(sql`
    UPDATE billing_bills AS b
    SET send_status = ${send},
        send_method = CASE WHEN a.email IS NULL THEN 'print' ELSE 'email' END,
        send_to = a.email,
        dispatch_id = CASE WHEN a.email IS NULL THEN NULL ELSE ${dispatchId}::int END,
        send_attempted_at = NULL,
        send_error = NULL,
        changeuser = ${username},
        changedate = now()
    FROM water_consumers AS c, LATERAL (SELECT ${recipientEmail} AS email) AS a
    WHERE c.id = b.consumer_id
      AND b.company_id = ${companyId}
      AND b.entry_state = ${billEntryStates.finalized}
      AND b.send_status = ${hold}
      AND ${scope}
      ${onlyWithoutEmail ? sql`AND a.email IS NULL` : sql``}
    RETURNING b.send_method AS method`);
  const rows = rowsOf<{ method: string }>(result);
  return {
    email: rows.filter((r) => r.method === 'email').length,
    print: rows.filter((r) => r.method === 'print').length,
  };
}

/** Puts the scope's uncertain bills back in the queue of this dispatch; how many. */
async function requeueUncertain(tx: Tx, username: string, companyId: number, dispatchId: number, scope: SQL) {
  const result = await tx.execute(sql`
    UPDATE billing_bills AS b
    SET send_attempted_at = NULL, send_error = NULL, dispatch_id = ${dispatchId},
        changeuser = ${username}, changedate = now()
    FROM water_consumers AS c
    WHERE c.id = b.consumer_id AND b.company_id = ${companyId} AND b.send_status = ${send}
      AND b.send_method = 'email' AND b.send_attempted_at IS NOT NULL AND ${scope}
    RETURNING b.id`);
  return rowsOf(result).length;
}

/**
 * E-mails a run's, a run route's or chosen finalized bills on hold (with their PDF) to those with an
 * address, as a background job; the others are marked for print. One transaction: the dispatch, its
 * job and the marks.
 */
export async function emailBills(
  db: Db,
  queue: JobQueue,
  mailConfigured: boolean,
  principal: Principal,
  companyId: number,
  request: EmailBillsRequest,
  requestId: string,
): Promise<BillDispatchStarted> {
  if (!mailConfigured) throw new AppError(409, sendErrors.mailNotConfigured);
  const { id, email, print } = await db.transaction(async (tx) => {
    if (request.runId !== undefined)
      assertRouteOfRun(await runOf(tx, companyId, request.runId), request.routeId);
    const dispatchId = await newDispatch(tx, principal, companyId, 'email', request.runId, request.routeId);
    const { job } = await queue.enqueue(tx, {
      kind: BILL_EMAIL_JOB,
      key: `${BILL_EMAIL_JOB}:${dispatchId}`,
      companyId,
      owner: principal.userId,
      payload: { dispatchId },
    });
    await tx.update(billingDispatches).set({ jobId: job.id }).where(eq(billingDispatches.id, dispatchId));
    const again = request.uncertain
      ? await requeueUncertain(tx, principal.username, companyId, dispatchId, scopeSql(request))
      : 0;
    const counts = await markForSending(
      tx,
      principal.username,
      companyId,
      dispatchId,
      scopeSql(request),
      false,
    );
    await recordAudit(tx, {
      entity: 'billing.dispatch',
      entityId: dispatchId,
      action: 'email',
      companyId,
      user: principal,
      requestId,
    });
    return { id: dispatchId, email: counts.email + again, print: counts.print };
  });
  return { dispatch: await getDispatch(db, companyId, id), email, print };
}

async function newDispatch(
  tx: Tx,
  principal: Principal,
  companyId: number,
  kind: 'email' | 'print',
  runId: number | undefined,
  routeId: number | undefined,
): Promise<number> {
  const [row] = await tx
    .insert(billingDispatches)
    .values({
      companyId,
      kind,
      runId: runId ?? null,
      routeId: routeId ?? null,
      createuser: principal.username,
    })
    .returning({ id: billingDispatches.id });
  return (row as { id: number }).id;
}

/**
 * A merged PDF for printing, as a background job: of a run's route (its finalized bills on hold
 * without an e-mail address are marked for print first; one job per run and route at a time, asking
 * again meanwhile answers the one under way), or of chosen finalized bills on hold or marked for print
 * (a corrected bill, bills picked on the list: marked for print in this dispatch whatever their
 * address). The job prints the bills, stores the file and marks them printed.
 */
export async function printBills(
  db: Db,
  queue: JobQueue,
  principal: Principal,
  companyId: number,
  request: PrintBillsRequest,
  requestId: string,
): Promise<BillDispatchStarted> {
  const chosen = request.billIds ?? [];
  const { id, print } = await db.transaction(async (tx) => {
    if (request.runId !== undefined)
      assertRouteOfRun(await runOf(tx, companyId, request.runId), request.routeId);
    const dispatchId = await newDispatch(tx, principal, companyId, 'print', request.runId, request.routeId);
    const { job, created } = await queue.enqueue(tx, {
      kind: BILL_PRINT_JOB,
      key:
        chosen.length > 0
          ? `${BILL_PRINT_JOB}:dispatch:${dispatchId}`
          : `${BILL_PRINT_JOB}:${request.runId}:${request.routeId}`,
      companyId,
      owner: principal.userId,
      payload: { dispatchId },
    });
    if (!created) {
      await tx.delete(billingDispatches).where(eq(billingDispatches.id, dispatchId));
      const [existing] = await tx
        .select({ id: billingDispatches.id })
        .from(billingDispatches)
        .where(eq(billingDispatches.jobId, job.id));
      return { id: (existing as { id: number }).id, print: 0 };
    }
    await tx.update(billingDispatches).set({ jobId: job.id }).where(eq(billingDispatches.id, dispatchId));
    const print =
      chosen.length > 0
        ? await markChosenForPrint(tx, principal.username, companyId, dispatchId, chosen)
        : (await markForSending(tx, principal.username, companyId, null, scopeSql(request), true)).print;
    // Rolls the dispatch and its job back: an empty print file is of no use to anyone.
    if (chosen.length > 0 && print === 0) throw new AppError(409, sendErrors.nothingToPrint);
    await recordAudit(tx, {
      entity: 'billing.dispatch',
      entityId: dispatchId,
      action: 'print',
      companyId,
      user: principal,
      requestId,
    });
    return { id: dispatchId, print };
  });
  return { dispatch: await getDispatch(db, companyId, id), email: 0, print };
}

/** Marks chosen finalized bills on hold or already marked for print for print in this dispatch; how many. */
async function markChosenForPrint(
  tx: Tx,
  username: string,
  companyId: number,
  dispatchId: number,
  billIds: number[],
): Promise<number> {
  const result = await tx.execute(sql`
    UPDATE billing_bills AS b
    SET send_status = ${send}, send_method = 'print', dispatch_id = ${dispatchId},
        send_attempted_at = NULL, send_error = NULL, changeuser = ${username}, changedate = now()
    WHERE b.company_id = ${companyId}
      AND b.entry_state = ${billEntryStates.finalized}
      AND (b.send_status = ${hold} OR (b.send_status = ${send} AND b.send_method = 'print'))
      AND b.id = ANY(${`{${billIds.join(',')}}`}::int[])
    RETURNING b.id`);
  return rowsOf(result).length;
}

/** Closes a run route's sending: its sent bills (mailed, printed) become completed. */
export async function completeRoute(
  db: Db,
  principal: Principal,
  companyId: number,
  runId: number,
  routeId: number,
  requestId: string,
): Promise<{ completed: number }> {
  return db.transaction(async (tx) => {
    assertRouteOfRun(await runOf(tx, companyId, runId), routeId);
    const result = await tx.execute(sql`
      UPDATE billing_bills AS b SET send_status = ${completed}, changeuser = ${principal.username}, changedate = now()
      FROM water_consumers AS c
      WHERE c.id = b.consumer_id AND b.company_id = ${companyId} AND b.send_status = ${sent}
        AND ${scopeSql({ runId, routeId })}
      RETURNING b.id`);
    await recordAudit(tx, {
      entity: 'billing.run',
      entityId: runId,
      action: 'sending_completed',
      companyId,
      user: principal,
      requestId,
      changes: { routeId: { before: null, after: routeId } },
    });
    return { completed: rowsOf(result).length };
  });
}

/**
 * Closes a sending of chosen bills (or any dispatch): its bills sent (mailed, printed) become
 * completed. A run's routes are closed per route (`completeRoute`), this is for what no run holds.
 */
export async function completeDispatch(
  db: Db,
  principal: Principal,
  companyId: number,
  dispatchId: number,
  requestId: string,
): Promise<{ completed: number }> {
  return db.transaction(async (tx) => {
    const [dispatch] = await tx
      .select({ id: billingDispatches.id })
      .from(billingDispatches)
      .where(and(eq(billingDispatches.id, dispatchId), eq(billingDispatches.companyId, companyId)));
    if (!dispatch) throw notFound();
    const result = await tx.execute(sql`
      UPDATE billing_bills SET send_status = ${completed}, changeuser = ${principal.username}, changedate = now()
      WHERE company_id = ${companyId} AND dispatch_id = ${dispatchId} AND send_status = ${sent}
      RETURNING id`);
    await recordAudit(tx, {
      entity: 'billing.dispatch',
      entityId: dispatchId,
      action: 'sending_completed',
      companyId,
      user: principal,
      requestId,
    });
    return { completed: rowsOf(result).length };
  });
}

/** The sendings of chosen bills, outside any run (a corrected bill's, bills picked on the list). */
export async function chosenDispatches(db: Tx, companyId: number): Promise<BillDispatch[]> {
  return listDispatches(db, companyId, sql`${billingDispatches.runId} IS NULL`);
}

/** The company's dispatches (of one run, or one), newest first, with their job's progress. */
async function listDispatches(db: Tx, companyId: number, where: SQL | undefined): Promise<BillDispatch[]> {
  const rows = await db
    .select({
      dispatch: billingDispatches,
      routeCode: waterRoutes.code,
      done: jobs.progressDone,
      total: jobs.progressTotal,
      sentBills: sql<number>`(SELECT count(*)::int FROM billing_bills b
        WHERE b.dispatch_id = ${billingDispatches.id} AND b.send_status = ${sent})`,
    })
    .from(billingDispatches)
    .leftJoin(jobs, eq(jobs.id, billingDispatches.jobId))
    .leftJoin(waterRoutes, eq(waterRoutes.id, billingDispatches.routeId))
    .where(and(eq(billingDispatches.companyId, companyId), where))
    .orderBy(desc(billingDispatches.id))
    .limit(100);
  return rows.map(({ dispatch: d, routeCode, done, total, sentBills }) => ({
    id: d.id,
    kind: d.kind,
    runId: d.runId,
    routeId: d.routeId,
    routeCode,
    state: d.state,
    jobId: d.jobId,
    progressDone: done ?? 0,
    progressTotal: total ?? null,
    bills: d.bills,
    refused: d.refused,
    fileSize: d.fileKey ? d.fileSize : null,
    sentBills,
    error: d.error,
    createuser: d.createuser ?? '',
    createdate: (d.createdate ?? new Date()).toISOString(),
  }));
}

export async function getDispatch(db: Tx, companyId: number, id: number): Promise<BillDispatch> {
  const [dispatch] = await listDispatches(db, companyId, eq(billingDispatches.id, id));
  if (!dispatch) throw notFound();
  return dispatch;
}

/** The stored key of a dispatch's printed file; 404 while there is none. */
export async function dispatchFileKey(db: Tx, companyId: number, id: number): Promise<string> {
  const [row] = await db
    .select({ key: billingDispatches.fileKey })
    .from(billingDispatches)
    .where(and(eq(billingDispatches.id, id), eq(billingDispatches.companyId, companyId)));
  if (!row) throw notFound();
  if (!row.key) throw new AppError(404, sendErrors.noFile);
  return row.key;
}

/** A run's routes with their finalized bills counted per send status, and the run's dispatches. */
export async function runSending(db: Tx, companyId: number, runId: number): Promise<RunSending> {
  const run = await runOf(db, companyId, runId);
  const routes =
    run.routeIds.length === 0
      ? []
      : await db
          .select({ id: waterRoutes.id, code: waterRoutes.code, description: waterRoutes.description })
          .from(waterRoutes)
          .where(inArray(waterRoutes.id, run.routeIds));
  const counted = await db.execute(sql`
    SELECT c.route_id AS "routeId",
      count(*)::int AS finalized,
      (count(*) FILTER (WHERE b.send_status = ${hold}))::int AS hold,
      (count(*) FILTER (WHERE b.send_status = ${hold} AND ${recipientEmail} IS NOT NULL))::int AS "holdWithEmail",
      (count(*) FILTER (WHERE b.send_status = ${send} AND b.send_method = 'email' AND b.send_attempted_at IS NULL))::int AS "toEmail",
      (count(*) FILTER (WHERE b.send_status = ${send} AND b.send_method = 'print'))::int AS "toPrint",
      (count(*) FILTER (WHERE b.send_status = ${send} AND b.send_method = 'email' AND b.send_attempted_at IS NOT NULL))::int AS uncertain,
      (count(*) FILTER (WHERE b.send_status = ${sent}))::int AS sent,
      (count(*) FILTER (WHERE b.send_status = ${completed}))::int AS completed
    FROM billing_bills b JOIN water_consumers c ON c.id = b.consumer_id
    WHERE b.company_id = ${companyId} AND b.run_id = ${runId} AND b.entry_state = ${billEntryStates.finalized}
    GROUP BY c.route_id`);
  const byRoute = new Map(
    rowsOf<Omit<RouteSendCounts, 'code' | 'description'>>(counted).map((r) => [r.routeId, r]),
  );
  const zero = {
    finalized: 0,
    hold: 0,
    holdWithEmail: 0,
    toEmail: 0,
    toPrint: 0,
    uncertain: 0,
    sent: 0,
    completed: 0,
  };
  return {
    routes: run.routeIds.flatMap((routeId) => {
      const route = routes.find((r) => r.id === routeId);
      if (!route) return [];
      return [
        { ...zero, ...byRoute.get(routeId), routeId, code: route.code, description: route.description },
      ];
    }),
    dispatches: await listDispatches(db, companyId, eq(billingDispatches.runId, runId)),
  };
}

/** When a dispatch's job ends: done or failed (a failed e-mail batch leaves its unsent bills queued). */
export async function dispatchSettled(tx: Tx, job: JobRow) {
  if (job.kind !== BILL_EMAIL_JOB && job.kind !== BILL_PRINT_JOB) return;
  const dispatchId = (job.payload as { dispatchId: number }).dispatchId;
  await tx
    .update(billingDispatches)
    .set({ state: job.state === 'succeeded' ? 'done' : 'failed', error: job.error ?? null })
    .where(eq(billingDispatches.id, dispatchId));
}
