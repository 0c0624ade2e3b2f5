import {
  type BankFile,
  type BankFileReport,
  type BankFileSummary,
  type BankLine,
  type BankLineStatus,
  Decimal,
  moneyString,
} from '@protocol/contracts';
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import {
  paymentsBankFiles,
  paymentsBankLayouts,
  paymentsBankLines,
  paymentsPayments,
} from './payments.schema.ts';

/** The bank files' reports: the files, one file's lines, and the lines waiting to be matched by hand. */

const PAGE = 500;

/** A file's counts per status and what its lines paid in, from its lines (one grouped statement). */
export async function fileSummary(tx: Tx, fileId: number): Promise<BankFileSummary> {
  const rows = await tx
    .select({
      status: paymentsBankLines.status,
      lines: count(),
      paid: sql<string>`coalesce(sum(${paymentsBankLines.amount}) FILTER (WHERE ${paymentsBankLines.paymentId} IS NOT NULL), 0)::text`,
    })
    .from(paymentsBankLines)
    .where(eq(paymentsBankLines.fileId, fileId))
    .groupBy(paymentsBankLines.status);
  const of = (status: BankLineStatus) => rows.find((r) => r.status === status)?.lines ?? 0;
  const paid = rows.reduce((total, r) => total.plus(r.paid), new Decimal(0));
  return {
    lines: rows.reduce((total, r) => total + r.lines, 0),
    matched: of('matched'),
    partly: of('partly'),
    unmatched: of('unmatched'),
    manual: of('manual'),
    invalid: of('invalid'),
    duplicate: of('duplicate'),
    paid: moneyString(paid),
  };
}

const fileColumns = {
  id: paymentsBankFiles.id,
  fileName: paymentsBankFiles.fileName,
  layoutCode: paymentsBankLayouts.code,
  layoutDescr: paymentsBankLayouts.descr,
  state: paymentsBankFiles.state,
  error: paymentsBankFiles.error,
  jobId: paymentsBankFiles.jobId,
  createuser: paymentsBankFiles.createuser,
  createdate: paymentsBankFiles.createdate,
  summary: paymentsBankFiles.summary,
};
type FileRow = Omit<BankFile, 'createdate'> & { createdate: Date | null };
const fileOf = (row: FileRow): BankFile => ({
  ...row,
  createdate: (row.createdate ?? new Date(0)).toISOString(),
});

/** The company's imported files, newest first (the last 200). */
export async function bankFiles(tx: Tx, companyId: number): Promise<BankFile[]> {
  const rows = await tx
    .select(fileColumns)
    .from(paymentsBankFiles)
    .innerJoin(paymentsBankLayouts, eq(paymentsBankLayouts.id, paymentsBankFiles.layoutId))
    .where(eq(paymentsBankFiles.companyId, companyId))
    .orderBy(desc(paymentsBankFiles.id))
    .limit(200);
  return Promise.all(
    rows.map(async (row) =>
      // A file still importing shows how far it got; a finished one its stored summary.
      fileOf(
        row.summary || row.state === 'failed' ? row : { ...row, summary: await fileSummary(tx, row.id) },
      ),
    ),
  );
}

const lineColumns = {
  id: paymentsBankLines.id,
  fileId: paymentsBankLines.fileId,
  fileName: paymentsBankFiles.fileName,
  lineNo: paymentsBankLines.lineNo,
  bankReference: paymentsBankLines.bankReference,
  rfCode: paymentsBankLines.rfCode,
  amount: paymentsBankLines.amount,
  date: paymentsBankLines.date,
  payer: paymentsBankLines.payer,
  status: paymentsBankLines.status,
  reason: paymentsBankLines.reason,
  raw: paymentsBankLines.raw,
  consumerId: paymentsBankLines.consumerId,
  consumerCode: waterConsumers.code,
  ownerName: traders.fullname,
  paymentId: paymentsBankLines.paymentId,
  receipt: sql<
    string | null
  >`CASE WHEN ${paymentsPayments.id} IS NULL THEN NULL ELSE ${paymentsPayments.receiptNumber} || '/' || ${paymentsPayments.receiptYear} END`,
  credit: paymentsPayments.unallocated,
};

function linesQuery(tx: Tx, where: SQL | undefined) {
  return tx
    .select(lineColumns)
    .from(paymentsBankLines)
    .innerJoin(paymentsBankFiles, eq(paymentsBankFiles.id, paymentsBankLines.fileId))
    .leftJoin(waterConsumers, eq(waterConsumers.id, paymentsBankLines.consumerId))
    .leftJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .leftJoin(paymentsPayments, eq(paymentsPayments.id, paymentsBankLines.paymentId))
    .where(where);
}

/** One file's report: its counts and a page of its lines (of one status when asked), in file order. */
export async function bankFileReport(
  tx: Tx,
  companyId: number,
  fileId: number,
  status: BankLineStatus | undefined,
  offset: number,
): Promise<BankFileReport> {
  const [file] = await tx
    .select(fileColumns)
    .from(paymentsBankFiles)
    .innerJoin(paymentsBankLayouts, eq(paymentsBankLayouts.id, paymentsBankFiles.layoutId))
    .where(and(eq(paymentsBankFiles.id, fileId), eq(paymentsBankFiles.companyId, companyId)));
  if (!file) throw notFound();
  const where = and(
    eq(paymentsBankLines.fileId, fileId),
    status ? eq(paymentsBankLines.status, status) : undefined,
  );
  // One after another: a transaction is one connection, which runs one statement at a time.
  const lines = await linesQuery(tx, where).orderBy(asc(paymentsBankLines.lineNo)).limit(PAGE).offset(offset);
  const total = await tx.select({ n: count() }).from(paymentsBankLines).where(where);
  const summary = file.summary ?? (await fileSummary(tx, fileId));
  return { file: fileOf({ ...file, summary }), lines: lines as BankLine[], count: total[0]?.n ?? 0 };
}

/** The lines of every file that wait for manual matching, oldest payment first. */
export async function unmatchedLines(
  tx: Tx,
  companyId: number,
  offset: number,
): Promise<{ lines: BankLine[]; count: number }> {
  const where = and(eq(paymentsBankLines.companyId, companyId), eq(paymentsBankLines.status, 'unmatched'));
  const lines = await linesQuery(tx, where)
    .orderBy(asc(paymentsBankLines.date), asc(paymentsBankLines.id))
    .limit(PAGE)
    .offset(offset);
  const total = await tx.select({ n: count() }).from(paymentsBankLines).where(where);
  return { lines: lines as BankLine[], count: total[0]?.n ?? 0 };
}

export async function bankLine(tx: Tx, companyId: number, id: number): Promise<BankLine> {
  const [line] = await linesQuery(
    tx,
    and(eq(paymentsBankLines.id, id), eq(paymentsBankLines.companyId, companyId)),
  );
  if (!line) throw notFound();
  return line as BankLine;
}
