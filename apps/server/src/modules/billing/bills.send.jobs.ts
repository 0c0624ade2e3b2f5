import { billSendStatuses, formatMoney, formatRf, writtenCode } from '@protocol/contracts';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { formatDate } from '../../platform/exports/format.ts';
import { translate } from '../../platform/i18n.ts';
import { type JobContext, jobAborted } from '../../platform/jobs/jobs.ts';
import { MailDeliveryError, type Mailer } from '../../platform/mail.ts';
import type { Storage } from '../../platform/storage.ts';
import { companies } from '../companies/companies.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { waterRoutes } from '../water/parametrics.schema.ts';
import { billNumber, printBill, printBills } from './bill.pdf.ts';
import { billingBills, billingDispatches } from './billing.schema.ts';
import { getBill } from './bills.service.ts';

/*
 * The jobs of a dispatch (bills.send.ts). Bills are e-mailed in the Greek the citizens read. Nothing
 * is mailed twice: a bill is marked (send_attempted_at, its own commit) before the SMTP call and
 * marked sent after it; a bill left marked but unsent (a crash, a connection lost mid-message) is
 * uncertain and never mailed again by a rerun, as myDATA's transmission treats an unanswered call.
 */

const { send, sent } = billSendStatuses;
const MAIL_CHUNK = 25;
const LANGUAGE = 'el';

/** The mailer and storage of the app that owns `db`: job handlers get only the database. */
const services = new WeakMap<Db, { mailer: Mailer; storage: Storage }>();
export const rememberSendServices = (db: Db, mailer: Mailer, storage: Storage) =>
  services.set(db, { mailer, storage });
function servicesOf(db: Db) {
  const found = services.get(db);
  if (!found) throw new Error('billing: no mailer or storage for this database');
  return found;
}

export type DispatchPayload = { dispatchId: number };

async function dispatchOf(db: Db, id: number) {
  const [dispatch] = await db.select().from(billingDispatches).where(eq(billingDispatches.id, id));
  if (dispatch)
    await db.update(billingDispatches).set({ state: 'running' }).where(eq(billingDispatches.id, id));
  return dispatch;
}

/** How an SMTP failure is taken: refused for good (to print), not sent (retry later), or unknown. */
function failureOf(error: unknown): 'refused' | 'notSent' | 'uncertain' {
  const cause = (error instanceof MailDeliveryError ? error.cause : error) as {
    responseCode?: number;
    command?: string;
    code?: string;
  };
  if (cause?.responseCode !== undefined) return cause.responseCode >= 500 ? 'refused' : 'notSent';
  // The connection never opened: nothing reached the server.
  if (cause?.command === 'CONN' || cause?.code === 'ECONNECTION' || cause?.code === 'EDNS') return 'notSent';
  return 'uncertain';
}

async function mailOne(db: Db, mailer: Mailer, companyId: number, billId: number) {
  const bill = await getBill(db, companyId, billId);
  const [company] = await db
    .select({ title: companies.companytitle, name: companies.companyname })
    .from(companies)
    .where(eq(companies.id, companyId));
  const t = (key: string, params: Record<string, string | number> = {}) =>
    translate(LANGUAGE, `billing.mail.${key}`, params);
  const number = billNumber(bill, LANGUAGE);
  const pdf = await printBill(db, companyId, billId, LANGUAGE);
  const [row] = await db
    .select({ to: billingBills.sendTo })
    .from(billingBills)
    .where(eq(billingBills.id, billId));
  const text = [
    t('greeting', { name: bill.ownerName }),
    '',
    t('body', { number, period: bill.periodLabel, code: writtenCode(bill.consumerCode) }),
    t('amount', { total: formatMoney(bill.total, LANGUAGE), due: formatDate(bill.dueDate) }),
    t('rf', { rf: formatRf(bill.rfCode) }),
    '',
    '--',
    company?.title || company?.name || '',
  ].join('\n');
  return mailer.send({
    to: [row?.to as string],
    subject: t('subject', { number, period: bill.periodLabel }),
    text,
    attachments: [{ filename: pdf.fileName, contentType: 'application/pdf', content: pdf.buffer }],
  });
}

/**
 * E-mails the dispatch's queued bills one by one, MAIL_CHUNK between progress reports. A refusal
 * (5xx, e.g. an unknown mailbox) sends the bill to print; a server that cannot be reached or answers
 * "later" (4xx) leaves the bill queued and fails this run, which the platform retries.
 */
export async function emailJob({ payload, db, progress, signal }: JobContext<DispatchPayload>) {
  const dispatch = await dispatchOf(db, payload.dispatchId);
  if (!dispatch) return { mailed: 0 };
  const { mailer } = servicesOf(db);
  const mine = and(eq(billingBills.dispatchId, dispatch.id), eq(billingBills.sendMethod, 'email'));
  const [all] = await db.select({ n: sql<number>`count(*)::int` }).from(billingBills).where(mine);
  const total = all?.n ?? 0;
  const queued = and(mine, eq(billingBills.sendStatus, send), isNull(billingBills.sendAttemptedAt));
  let done =
    total -
    ((await db.select({ n: sql<number>`count(*)::int` }).from(billingBills).where(queued))[0]?.n ?? 0);
  await progress(done, total);
  for (;;) {
    if (signal.aborted) throw jobAborted();
    const next = await db
      .select({ id: billingBills.id })
      .from(billingBills)
      .where(queued)
      .orderBy(asc(billingBills.id))
      .limit(MAIL_CHUNK);
    if (next.length === 0) break;
    for (const { id } of next) {
      // Marked before the call, in its own commit: from here on a crash makes it uncertain, not resent.
      const claimed = await db
        .update(billingBills)
        .set({ sendAttemptedAt: sql`now()` })
        .where(and(eq(billingBills.id, id), queued))
        .returning({ id: billingBills.id });
      if (claimed.length === 0) continue;
      try {
        await mailOne(db, mailer, dispatch.companyId, id);
      } catch (error) {
        const detail = (error instanceof MailDeliveryError ? error.detail : String(error)).slice(0, 500);
        const failure = failureOf(error);
        if (failure === 'uncertain') {
          await db.update(billingBills).set({ sendError: detail }).where(eq(billingBills.id, id));
          continue;
        }
        if (failure === 'notSent') {
          await db
            .update(billingBills)
            .set({ sendAttemptedAt: null, sendError: detail })
            .where(eq(billingBills.id, id));
          throw error;
        }
        await db.transaction(async (tx) => {
          await tx
            .update(billingBills)
            .set({ sendMethod: 'print', sendAttemptedAt: null, dispatchId: null, sendError: detail })
            .where(eq(billingBills.id, id));
          await tx
            .update(billingDispatches)
            .set({ refused: sql`${billingDispatches.refused} + 1` })
            .where(eq(billingDispatches.id, dispatch.id));
        });
        continue;
      }
      await db.transaction(async (tx) => {
        await tx
          .update(billingBills)
          .set({ sendStatus: sent, sentAt: sql`now()`, sendError: null })
          .where(eq(billingBills.id, id));
        await tx
          .update(billingDispatches)
          .set({ bills: sql`${billingDispatches.bills} + 1` })
          .where(eq(billingDispatches.id, dispatch.id));
      });
    }
    done += next.length;
    await progress(Math.min(done, total), total);
  }
  const [after] = await db.select().from(billingDispatches).where(eq(billingDispatches.id, dispatch.id));
  return { mailed: after?.bills ?? 0, refused: after?.refused ?? 0 };
}

/**
 * Prints a dispatch's bills marked for print into one PDF in route order (route position, then code):
 * a run route's, or the chosen bills marked in this dispatch. Stores it, then in one transaction
 * records the file and marks those bills printed (sent). A crash before that commit leaves them
 * marked for print (the stored object is swept), so a rerun prints them again and nothing is marked
 * printed without its file.
 */
export async function printJob({ payload, db, progress, signal }: JobContext<DispatchPayload>) {
  const dispatch = await dispatchOf(db, payload.dispatchId);
  if (!dispatch) return { printed: 0 };
  const { storage } = servicesOf(db);
  const ofRoute = dispatch.runId !== null && dispatch.routeId !== null;
  const marked = and(
    eq(billingBills.companyId, dispatch.companyId),
    ofRoute
      ? and(
          eq(billingBills.runId, dispatch.runId as number),
          eq(waterConsumers.routeId, dispatch.routeId as number),
        )
      : eq(billingBills.dispatchId, dispatch.id),
    eq(billingBills.sendStatus, send),
    eq(billingBills.sendMethod, 'print'),
  );
  const bills = await db
    .select({ id: billingBills.id })
    .from(billingBills)
    .innerJoin(waterConsumers, eq(waterConsumers.id, billingBills.consumerId))
    .where(marked)
    .orderBy(sql`${waterConsumers.routePosition} NULLS LAST`, asc(waterConsumers.code), asc(billingBills.id));
  const ids = bills.map((b) => b.id);
  await progress(0, ids.length);
  if (ids.length === 0) return { printed: 0 };
  let title: string;
  if (ofRoute) {
    const [route] = await db
      .select({ code: waterRoutes.code, description: waterRoutes.description })
      .from(waterRoutes)
      .where(eq(waterRoutes.id, dispatch.routeId as number));
    title = translate(LANGUAGE, 'billing.pdf.printTitle', {
      route: `${route?.code ?? ''} ${route?.description ?? ''}`.trim(),
    });
  } else {
    title = translate(LANGUAGE, 'billing.pdf.printTitleChosen', { count: ids.length });
  }
  const stream = printBills(db, dispatch.companyId, ids, LANGUAGE, title, (done) => {
    if (signal.aborted) throw jobAborted();
    if (done % 20 === 0) void progress(done, ids.length);
  });
  const stored = await storage.put(stream);
  await db.transaction(async (tx) => {
    await tx
      .update(billingBills)
      .set({ sendStatus: sent, sentAt: sql`now()`, dispatchId: dispatch.id, sendError: null })
      .where(
        and(
          sql`${billingBills.id} IN (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
          eq(billingBills.sendStatus, send),
          eq(billingBills.sendMethod, 'print'),
        ),
      );
    await tx
      .update(billingDispatches)
      .set({ fileKey: stored.key, fileSize: stored.size, bills: ids.length })
      .where(eq(billingDispatches.id, dispatch.id));
  });
  await progress(ids.length, ids.length);
  return { printed: ids.length };
}
