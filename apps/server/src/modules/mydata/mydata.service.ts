import {
  type AadeError,
  Decimal,
  isValidVatNumber,
  type MydataSettings,
  moneyString,
  type SaveMydataSettings,
  type Transmission,
  type TransmissionState,
} from '@protocol/contracts';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { jobAborted } from '../../platform/jobs/jobs.ts';
import { barcodePng } from '../../platform/pdf/index.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import { finalizedBillMydataDetails, finalizedBills, finalizedBillsOfDay } from '../billing/api.ts';
import { readCredentials } from '../companies/api.ts';
import { companies } from '../companies/companies.schema.ts';
import { financeDocuments, financeSeries } from '../finance/finance.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import {
  type AadeConnection,
  AadeTimeout,
  cancelInvoice,
  findTransmitted,
  sendInvoices,
} from './mydata.client.ts';
import { DEFAULT_SETTINGS, withDefaultMappings } from './mydata.defaults.ts';
import { transmittableOfCompany } from './mydata.list.ts';
import { type MydataSource, mydataSettings, mydataTransmissions } from './mydata.schema.ts';
import { billSource, financeSource } from './mydata.sources.ts';
import { buildInvoicesDoc, invoiceUid, type MydataSourceDocument } from './mydata.xml.ts';
import { validateXml } from './mydata.xsd.ts';

/**
 * The secret box of each database's app: job handlers get the database, not the app's options,
 * and the company's AADE key is sealed with the installation's key (platform/secrets.ts).
 */
const boxes = new WeakMap<Db, SecretBox>();
export const rememberSecretBox = (db: Db, box: SecretBox) => boxes.set(db, box);

/**
 * The local stand-in for AADE of a demo installation (SEED_DEMO, started once the server listens): the
 * demo company (its settings' `localAade`), while it has no AADE credentials of its own, sends its
 * test-environment documents there, so the demo works offline and never reaches the real AADE. No
 * other company ever does, and real credentials always win.
 */
const localAades = new WeakMap<Db, { url: string; userId: string; subscriptionKey: string }>();
export const useLocalAade = (db: Db, local: { url: string; userId: string; subscriptionKey: string }) =>
  localAades.set(db, local);

/** How long one AADE call may take, and how its retries back off (tests shorten them). */
export const transport = { timeoutMs: 30_000, backoffMs: 1000, retries: 5 };

export async function readSettings(db: Db, box: SecretBox, companyId: number): Promise<MydataSettings> {
  const [[row], [company]] = await Promise.all([
    db.select().from(mydataSettings).where(eq(mydataSettings.companyId, companyId)),
    db.select({ credentials: companies.credentials }).from(companies).where(eq(companies.id, companyId)),
  ]);
  const credentials = readCredentials(box, company?.credentials ?? null);
  const saved: SaveMydataSettings = row
    ? {
        environment: row.environment as SaveMydataSettings['environment'],
        testUrl: row.testUrl,
        productionUrl: row.productionUrl,
        branch: row.branch,
        mappings: withDefaultMappings(row.mappings),
      }
    : DEFAULT_SETTINGS;
  const credentialsSet = Boolean(credentials.aadeUsername && credentials.aadeSubscriptionKey);
  return {
    ...saved,
    credentialsSet,
    localAade: !credentialsSet && Boolean(row?.localAade) && localAades.has(db),
  };
}

export async function saveSettings(
  db: Db,
  box: SecretBox,
  principal: Principal,
  companyId: number,
  body: SaveMydataSettings,
): Promise<MydataSettings> {
  const values = { ...body, companyId, updateuser: principal.username, updatedate: new Date() };
  await db
    .insert(mydataSettings)
    .values({ ...values, createuser: principal.username })
    .onConflictDoUpdate({ target: mydataSettings.companyId, set: values });
  return readSettings(db, box, companyId);
}

async function connectionOf(
  db: Db,
  companyId: number,
): Promise<{ conn: AadeConnection; branch: number; settings: SaveMydataSettings }> {
  const box = boxes.get(db);
  if (!box) throw new Error('mydata: no secret box for this database');
  const settings = await readSettings(db, box, companyId);
  const [company] = await db
    .select({ credentials: companies.credentials, vatnumber: companies.vatnumber })
    .from(companies)
    .where(eq(companies.id, companyId));
  // The issuer of every document: AADE refuses documents without it, the local stand-in too.
  if (!company?.vatnumber || !isValidVatNumber(company.vatnumber))
    throw new AppError(409, 'mydata.error.noIssuerVat');
  const credentials = readCredentials(box, company?.credentials ?? null);
  const local = localAades.get(db);
  if (settings.localAade && local && settings.environment === 'test')
    return { conn: { ...local, ...transport }, branch: settings.branch, settings };
  if (!credentials.aadeUsername || !credentials.aadeSubscriptionKey)
    throw new AppError(409, 'mydata.error.noCredentials');
  return {
    conn: {
      url: settings.environment === 'production' ? settings.productionUrl : settings.testUrl,
      userId: credentials.aadeUsername,
      subscriptionKey: credentials.aadeSubscriptionKey,
      ...transport,
    },
    branch: settings.branch,
    settings,
  };
}

type Row = typeof mydataTransmissions.$inferSelect;
type DocumentHead = Transmission['document'] & { id: number; companyId: number; entryState: number };

/** The transmission as the document's page shows it; `notSent` before any attempt. */
function transmissionOf(doc: DocumentHead, row: Row | undefined): Transmission {
  const state = (row?.state ?? 'notSent') as TransmissionState;
  const { id, companyId, entryState, ...document } = doc;
  const finalized = entryState === 9;
  return {
    documentId: id,
    document,
    state,
    uid: row?.uid ?? null,
    mark: row?.mark ?? null,
    qrUrl: row?.qrUrl ?? null,
    qrImage: null,
    cancellationMark: row?.cancellationMark ?? null,
    errors: row?.errors ?? [],
    attempts: row?.attempts ?? 0,
    sentAt: row?.sentAt?.toISOString() ?? null,
    updatedAt: row?.updatedAt?.toISOString() ?? null,
    canSend: finalized && (state === 'notSent' || state === 'failed' || state === 'uncertain'),
    canCancel: false,
    cancelRefusal: null,
  };
}

/** A document of the company in use, or 404. */
async function documentOf(db: Db, companyId: number, documentId: number): Promise<DocumentHead> {
  const [doc] = await db
    .select({
      id: financeDocuments.id,
      companyId: financeDocuments.companyId,
      entryState: financeDocuments.entryState,
      seriesCode: financeSeries.code,
      seriesDescr: financeSeries.descr,
      number: financeDocuments.number,
      year: financeDocuments.year,
      date: financeDocuments.date,
      invoiceType: financeSeries.mydataType,
      traderName: traders.fullname,
      payable: financeDocuments.payable,
    })
    .from(financeDocuments)
    .innerJoin(financeSeries, eq(financeSeries.id, financeDocuments.seriesId))
    .leftJoin(traders, eq(traders.id, financeDocuments.traderId))
    .where(eq(financeDocuments.id, documentId));
  if (!doc || doc.companyId !== companyId) throw notFound();
  return doc;
}

export async function getTransmission(db: Db, companyId: number, documentId: number): Promise<Transmission> {
  const doc = await documentOf(db, companyId, documentId);
  const row = await rowOf(db, 'document', documentId);
  return withQrImage(await withCancel(db, doc.companyId, 'document', transmissionOf(doc, row), row));
}

/**
 * Why AADE's cancellation is not for this document, or null. CancelInvoice withdraws a document
 * transmitted by mistake, as if never issued; a document that was issued and then corrected or
 * settled is corrected by a credit note instead. So only a sent document with a MARK is cancelled,
 * never one a finalized credit note already corrects, nor a water bill with a payment against it.
 */
async function cancelRefusal(
  db: Db,
  companyId: number,
  source: MydataSource,
  documentId: number,
  row: Row | undefined,
): Promise<string | null> {
  if (!row?.mark || row.state !== 'sent') return 'mydata.error.notCancellable';
  if (source === 'bill') {
    const details = (await finalizedBillMydataDetails(db, companyId, [documentId])).get(documentId);
    if (details?.credited) return 'mydata.error.credited';
    return details && new Decimal(details.paid).gt(0) ? 'mydata.error.billPaid' : null;
  }
  const [credited] = await db
    .select({ id: financeDocuments.id })
    .from(financeDocuments)
    .where(and(eq(financeDocuments.relatedDocumentId, documentId), eq(financeDocuments.entryState, 9)));
  return credited ? 'mydata.error.credited' : null;
}

async function withCancel(
  db: Db,
  companyId: number,
  source: MydataSource,
  transmission: Transmission,
  row: Row | undefined,
): Promise<Transmission> {
  if (transmission.state !== 'sent') return transmission;
  const refusal = await cancelRefusal(db, companyId, source, transmission.documentId, row);
  return { ...transmission, canCancel: refusal === null, cancelRefusal: refusal };
}

/** The QR code drawn as the PDF draws it (bwip-js), for the page to show beside its link. */
async function withQrImage(transmission: Transmission): Promise<Transmission> {
  if (!transmission.qrUrl) return transmission;
  const png = await barcodePng({ type: 'qrcode', text: transmission.qrUrl, scale: 4 });
  return { ...transmission, qrImage: `data:image/png;base64,${png.toString('base64')}` };
}

const rowOf = async (db: Db, source: MydataSource, documentId: number) =>
  (
    await db
      .select()
      .from(mydataTransmissions)
      .where(and(eq(mydataTransmissions.source, source), eq(mydataTransmissions.documentId, documentId)))
  )[0];

/** A finalized water bill's transmission (its page in myDATA), or 404. */
export async function getBillTransmission(db: Db, companyId: number, billId: number): Promise<Transmission> {
  const [bill] = await finalizedBills(db, companyId, [billId]);
  if (!bill) throw notFound();
  const head: DocumentHead = {
    id: bill.id,
    companyId,
    entryState: 9,
    seriesCode: bill.seriesCode,
    seriesDescr: bill.seriesDescr,
    number: bill.number,
    year: bill.year,
    date: bill.issueDate,
    invoiceType: bill.invoiceType,
    traderName: bill.owner.name,
    payable: moneyString(new Decimal(bill.net).plus(bill.vatTotal)),
  };
  const row = await rowOf(db, 'bill', billId);
  const transmission = transmissionOf({ ...head, invoiceType: row?.invoiceType ?? head.invoiceType }, row);
  return withQrImage(await withCancel(db, companyId, 'bill', transmission, row));
}

/** Bills a request names: one finalized bill, a run's bills, or a day's not yet sent. */
export async function billsToTransmit(
  db: Db,
  companyId: number,
  request: { billId: number } | { billIds: number[] } | { billDay: string },
): Promise<number[]> {
  if ('billId' in request) {
    const [bill] = await finalizedBills(db, companyId, [request.billId]);
    if (!bill) throw new AppError(409, 'mydata.error.notFinalized');
    return [bill.id];
  }
  const ids =
    'billIds' in request
      ? (await finalizedBills(db, companyId, request.billIds)).map((b) => b.id)
      : await finalizedBillsOfDay(db, companyId, request.billDay);
  if (ids.length === 0) return [];
  const done = await db
    .select({ id: mydataTransmissions.documentId })
    .from(mydataTransmissions)
    .where(
      and(
        eq(mydataTransmissions.source, 'bill'),
        inArray(mydataTransmissions.documentId, ids),
        inArray(mydataTransmissions.state, ['sent', 'cancelled']),
      ),
    );
  const skip = new Set(done.map((d) => d.id));
  return ids.filter((id) => !skip.has(id));
}

/** The documents a request names: one, or every finalized document of a day not yet sent. */
export async function documentsToTransmit(
  db: Db,
  companyId: number,
  request: { documentId: number } | { day: string },
): Promise<number[]> {
  if ('documentId' in request) {
    const doc = await documentOf(db, companyId, request.documentId);
    if (doc.entryState !== 9) throw new AppError(409, 'mydata.error.notFinalized');
    if (doc.invoiceType === CREDIT_NOTE) {
      const [credit] = await db
        .select({ relatedId: financeDocuments.relatedDocumentId })
        .from(financeDocuments)
        .where(eq(financeDocuments.id, doc.id));
      const original = credit?.relatedId ? await rowOf(db, 'document', credit.relatedId) : undefined;
      if (!original?.mark) throw new AppError(409, 'mydata.error.originalNotSent');
    }
    return [doc.id];
  }
  const rows = await db
    .select({ id: financeDocuments.id })
    .from(financeDocuments)
    .innerJoin(financeSeries, eq(financeSeries.id, financeDocuments.seriesId))
    .leftJoin(
      mydataTransmissions,
      and(
        eq(mydataTransmissions.source, 'document'),
        eq(mydataTransmissions.documentId, financeDocuments.id),
      ),
    )
    .where(
      and(
        transmittableOfCompany(companyId),
        eq(financeDocuments.date, request.day),
        or(isNull(mydataTransmissions.state), inArray(mydataTransmissions.state, ['failed', 'uncertain'])),
      ),
    )
    .orderBy(financeDocuments.id);
  return rows.map((r) => r.id);
}

export interface TransmitResult {
  sent: number;
  failed: number;
  uncertain: number;
  skipped: number;
}

const BATCH = 50;
/** myDATA's credit note correlated to its original (by the original's MARK). */
const CREDIT_NOTE = '5.1';

const update = (db: Db, source: MydataSource, documentIds: number[], set: Partial<Row>) =>
  documentIds.length === 0
    ? Promise.resolve()
    : db
        .update(mydataTransmissions)
        .set({ ...set, updatedAt: new Date() })
        .where(
          and(eq(mydataTransmissions.source, source), inArray(mydataTransmissions.documentId, documentIds)),
        );

/**
 * Sends documents to AADE in batches, safe to run again: sent and cancelled documents are skipped,
 * and a document whose last call ended without an answer ('uncertain') is first looked up at AADE
 * by its UID, so it is never sent twice. Each document is validated against the XSD on its own, so
 * one broken document fails alone with the rule it broke.
 */
export async function transmitDocuments(
  db: Db,
  companyId: number,
  documentIds: readonly number[],
  progress: (done: number, total: number) => Promise<void>,
  signal?: AbortSignal,
  kind: MydataSource = 'document',
): Promise<TransmitResult> {
  const { conn, branch, settings } = await connectionOf(db, companyId);
  const source = kind === 'bill' ? billSource : financeSource;
  const result: TransmitResult = { sent: 0, failed: 0, uncertain: 0, skipped: 0 };
  for (let at = 0; at < documentIds.length; at += BATCH) {
    if (signal?.aborted) throw jobAborted();
    const ids = documentIds.slice(at, at + BATCH);
    const docs = await source(db, companyId, { branch, mappings: settings.mappings }, ids);
    result.skipped += ids.length - docs.length;
    const existing = new Map(
      (
        await db
          .select()
          .from(mydataTransmissions)
          .where(
            and(
              eq(mydataTransmissions.source, kind),
              inArray(
                mydataTransmissions.documentId,
                docs.map((d) => d.documentId),
              ),
            ),
          )
      ).map((row) => [row.documentId, row]),
    );
    const pending: MydataSourceDocument[] = [];
    const uncertain: { doc: MydataSourceDocument; row: Row }[] = [];
    for (const doc of docs) {
      const row = existing.get(doc.documentId);
      if (row && (row.state === 'sent' || row.state === 'cancelled')) result.skipped++;
      else if (row?.state === 'uncertain') uncertain.push({ doc, row });
      else pending.push(doc);
    }
    if (uncertain.length > 0) {
      const from = uncertain.reduce(
        (min, u) => (BigInt(u.row.reconcileFrom) < BigInt(min) ? u.row.reconcileFrom : min),
        uncertain[0]?.row.reconcileFrom ?? '0',
      );
      const held = await findTransmitted(conn, from, new Set(uncertain.map((u) => u.row.uid)), signal);
      for (const { doc, row } of uncertain) {
        const mark = held.get(row.uid);
        if (mark) {
          await update(db, kind, [doc.documentId], {
            state: 'sent',
            mark: mark.mark,
            qrUrl: mark.qrUrl,
            errors: [],
            sentAt: new Date(),
          });
          result.sent++;
        } else pending.push(doc);
      }
    }
    const valid: { doc: MydataSourceDocument; uid: string }[] = [];
    const broken: Outcome[] = [];
    for (const doc of pending) {
      const uid = invoiceUid(doc);
      // A credit note (5.1) names its original's MARK: it waits until the original is sent.
      if (doc.invoiceType === CREDIT_NOTE && !doc.correlatedMark) {
        broken.push({
          documentId: doc.documentId,
          uid,
          invoiceType: doc.invoiceType,
          state: 'failed',
          errors: [{ code: 'originalNotSent', message: '' }],
        });
        continue;
      }
      const problems = validateXml(buildInvoicesDoc([doc], settings.mappings));
      if (problems.length === 0) valid.push({ doc, uid });
      else
        broken.push({
          documentId: doc.documentId,
          uid,
          invoiceType: doc.invoiceType,
          state: 'failed',
          errors: problems.slice(0, 5).map((p) => ({
            code: 'xsd',
            message: p.element ? `${p.element}: ${p.message}` : p.message,
            rule: p.rule,
            field: p.field,
            value: p.value,
          })),
        });
    }
    await record(db, kind, companyId, broken);
    result.failed += broken.length;
    if (valid.length > 0) {
      // Marked uncertain before the call: a crash or a timeout from here on leads to a lookup, not a resend.
      const [{ max } = { max: null }] = await db
        .select({ max: sql<string | null>`max(${mydataTransmissions.mark}::bigint)::text` })
        .from(mydataTransmissions)
        .where(eq(mydataTransmissions.companyId, companyId));
      await record(
        db,
        kind,
        companyId,
        valid.map((v) => ({
          documentId: v.doc.documentId,
          uid: v.uid,
          invoiceType: v.doc.invoiceType,
          state: 'uncertain',
          reconcileFrom: max ?? '0',
        })),
        true,
      );
      let outcomes: Outcome[];
      try {
        const answers = await sendInvoices(
          conn,
          buildInvoicesDoc(
            valid.map((v) => v.doc),
            settings.mappings,
          ),
          signal,
        );
        outcomes = valid.map((v, index) => {
          const answer = answers.find((a) => a.index === index + 1) ?? answers[index];
          if (answer?.statusCode === 'Success' && answer.invoiceMark)
            return {
              documentId: v.doc.documentId,
              uid: v.uid,
              state: 'sent',
              mark: answer.invoiceMark,
              qrUrl: answer.qrUrl,
              authenticationCode: answer.authenticationCode,
              errors: [],
              sentAt: new Date(),
            };
          const errors: AadeError[] = answer?.errors.length
            ? answer.errors
            : [{ code: answer?.statusCode ?? 'TechnicalError', message: '' }];
          return { documentId: v.doc.documentId, uid: v.uid, state: 'failed', errors };
        });
      } catch (error) {
        // No answer: AADE may hold them. They stay uncertain and are looked up before any resend.
        const code = error instanceof AadeTimeout ? 'timeout' : 'unavailable';
        const errors = [{ code, message: error instanceof Error ? error.message : String(error) }];
        outcomes = valid.map((v) => ({
          documentId: v.doc.documentId,
          uid: v.uid,
          state: 'uncertain',
          errors,
        }));
      }
      await record(db, kind, companyId, outcomes);
      for (const o of outcomes)
        result[o.state === 'sent' ? 'sent' : o.state === 'failed' ? 'failed' : 'uncertain']++;
    }
    await progress(Math.min(at + BATCH, documentIds.length), documentIds.length);
  }
  return result;
}

type Outcome = Pick<Row, 'documentId' | 'uid' | 'state'> &
  Partial<Omit<Row, 'source' | 'documentId' | 'uid' | 'state'>>;

/**
 * Writes the outcomes of a batch in one statement (a row per document, created on its first
 * attempt); `attempt` counts a send. Only the columns the outcomes carry are overwritten.
 */
async function record(db: Db, source: MydataSource, companyId: number, outcomes: Outcome[], attempt = false) {
  if (outcomes.length === 0) return;
  const columns = [...new Set(outcomes.flatMap((o) => Object.keys(o)))].filter(
    (k) => k !== 'documentId',
  ) as (keyof Row)[];
  const set: Record<string, unknown> = { updatedAt: new Date() };
  for (const column of columns) set[column] = sql.raw(`excluded.${mydataTransmissions[column].name}`);
  if (attempt) set.attempts = sql`${mydataTransmissions.attempts} + 1`;
  await db
    .insert(mydataTransmissions)
    .values(outcomes.map((o) => ({ ...o, source, companyId, attempts: attempt ? 1 : 0 })))
    .onConflictDoUpdate({ target: [mydataTransmissions.source, mydataTransmissions.documentId], set });
}

/** Cancels a sent document at AADE (CancelInvoice) and keeps the cancellation MARK. */
export async function cancelTransmission(
  db: Db,
  companyId: number,
  documentId: number,
): Promise<Transmission> {
  await documentOf(db, companyId, documentId);
  await cancelAtAade(db, companyId, 'document', documentId);
  return getTransmission(db, companyId, documentId);
}

/** Cancels a sent water bill at AADE, where the law allows (see `cancelRefusal`). */
export async function cancelBillTransmission(db: Db, companyId: number, billId: number) {
  const [bill] = await finalizedBills(db, companyId, [billId]);
  if (!bill) throw notFound();
  await cancelAtAade(db, companyId, 'bill', billId);
  return getBillTransmission(db, companyId, billId);
}

async function cancelAtAade(db: Db, companyId: number, source: MydataSource, documentId: number) {
  const row = await rowOf(db, source, documentId);
  const refusal = await cancelRefusal(db, companyId, source, documentId, row);
  if (refusal || !row?.mark) throw new AppError(409, refusal ?? 'mydata.error.notCancellable');
  const { conn } = await connectionOf(db, companyId);
  const answer = await cancelInvoice(conn, row.mark);
  if (answer.statusCode !== 'Success' || !answer.cancellationMark)
    throw new AppError(409, 'mydata.error.aadeRefused', {
      errors: answer.errors.map((e) => `${e.code} ${e.message}`).join('; ') || answer.statusCode,
    });
  await update(db, source, [documentId], {
    state: 'cancelled',
    cancellationMark: answer.cancellationMark,
    cancelledAt: new Date(),
  });
}
