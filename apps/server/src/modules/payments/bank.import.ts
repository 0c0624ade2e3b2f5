import {
  type BankLineReason,
  type BankLineStatus,
  Decimal,
  errorKeys,
  moneyString,
} from '@protocol/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { allocate } from '../../platform/domain/payments.ts';
import { readImportFile } from '../../platform/imports/files.ts';
import { type JobContext, JobError, type JobRow, jobAborted } from '../../platform/jobs/jobs.ts';
import { debtsPaidInFull, raiseBillDebts, syncBillsPaid } from './allocation.ts';
import { bankFileText, invalidReasons, type ParsedBankLine, parseBankFile } from './bank.parse.ts';
import { fileSummary } from './bank.report.ts';
import { paymentsBankFiles, paymentsBankLayouts, paymentsBankLines } from './payments.schema.ts';

/**
 * The bank file import (a background job): the file is read by its layout, then its lines go in
 * chunks, each in one transaction, set-based — the chunk's references and RF codes looked up in one
 * statement, its consumers locked (the cashier's advisory lock, in id order), their debts locked once,
 * every line's allocation computed with the module's own rule (platform/domain `allocate`), a block of
 * receipt numbers taken, then the payments, allocations, debts' paid parts, ledger lines and the lines
 * with their outcome written in one statement. A line's bank reference is unique, so a file imported
 * twice, or a job run again after a crash, pays nothing twice.
 */

export const BANK_IMPORT_JOB = 'payments.bankImport';
export interface BankImportPayload {
  fileId: number;
  companyId: number;
  username: string;
}
/** Bank payments are receipts of the company's one series, by the pseudo-cashier "bank" (its own Z). */
export const BANK_CASHIER = 'bank';
const CHUNK = 1000;

export async function bankImportJob(
  { db, payload, progress, signal }: JobContext<BankImportPayload>,
  linesPerChunk = CHUNK,
): Promise<unknown> {
  const { fileId, companyId } = payload;
  const [file] = await db
    .select({
      state: paymentsBankFiles.state,
      layout: paymentsBankLayouts,
    })
    .from(paymentsBankFiles)
    .innerJoin(paymentsBankLayouts, eq(paymentsBankLayouts.id, paymentsBankFiles.layoutId))
    .where(and(eq(paymentsBankFiles.id, fileId), eq(paymentsBankFiles.companyId, companyId)));
  if (!file) throw new JobError(errorKeys.jobFileGone);
  const content = file.state === 'done' ? null : await readImportFile(db, paymentsBankFiles, fileId);
  if (!content) return fileSummary(db, fileId);
  await db.update(paymentsBankFiles).set({ state: 'running' }).where(eq(paymentsBankFiles.id, fileId));
  const lines = parseBankFile(bankFileText(content), file.layout);
  // A run after a crash goes on after the last chunk that committed (chunks commit in line order).
  const [stored] = await db
    .select({ last: sql<number | null>`max(${paymentsBankLines.lineNo})` })
    .from(paymentsBankLines)
    .where(eq(paymentsBankLines.fileId, fileId));
  const last = stored?.last ?? 0;
  const remaining = lines.filter((l) => l.lineNo > last);
  let done = lines.length - remaining.length;
  await progress(done, lines.length);
  for (let i = 0; i < remaining.length; i += linesPerChunk) {
    if (signal.aborted) throw jobAborted();
    const chunk = remaining.slice(i, i + linesPerChunk);
    await db.transaction((tx) => importChunk(tx, { companyId, fileId, username: payload.username }, chunk));
    done += chunk.length;
    await progress(done, lines.length);
  }
  const summary = await fileSummary(db, fileId);
  await db
    .update(paymentsBankFiles)
    .set({ state: 'done', summary, changedate: new Date() })
    .where(eq(paymentsBankFiles.id, fileId));
  return summary;
}

/** Told that a job ended: a failed import's file says why (its bytes stay, as the bank sent them). */
export async function bankImportSettled(tx: Tx, job: JobRow): Promise<void> {
  if (job.kind !== BANK_IMPORT_JOB) return;
  const fileId = (job.payload as Partial<BankImportPayload>).fileId;
  if (typeof fileId !== 'number') return;
  if (job.state === 'succeeded') return;
  await tx
    .update(paymentsBankFiles)
    .set({ state: 'failed', error: job.error ?? 'failed' })
    .where(eq(paymentsBankFiles.id, fileId));
}

interface Chunk {
  companyId: number;
  fileId: number;
  username: string;
}
/** What becomes of a line: its status and reason, and for a paid one its consumer and receipt. */
interface Outcome {
  status: BankLineStatus;
  reason: BankLineReason | null;
  consumerId: number | null;
  receipt: { year: number; number: number } | null;
}
/** The key space of a company's bank imports for advisory locks (18 is a consumer's payments). */
const BANK_IMPORT_LOCK = -18;

/**
 * One chunk of lines in the caller's transaction. Imports of the company's files take turns chunk by
 * chunk (the lock is taken before the statement that reads the references, so it sees what the other
 * import committed): a reference already imported, or twice in the chunk, is a duplicate, and the
 * unique index on the references stays the last guard. Each line is written once, with its outcome.
 */
export async function importChunk(tx: Tx, chunk: Chunk, lines: readonly ParsedBankLine[]): Promise<void> {
  const { companyId } = chunk;
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${BANK_IMPORT_LOCK}, ${companyId})`);
  const invalid = (l: ParsedBankLine) => l.problem !== null && invalidReasons.includes(l.problem);
  const usable = lines.filter((l) => !invalid(l));
  const { taken, consumerOf } = await lookUp(tx, companyId, usable);
  const outcomes = new Map<ParsedBankLine, Outcome>();
  const payable: ParsedBankLine[] = [];
  const claimed = new Set<string>();
  const outcome = (status: BankLineStatus, reason: BankLineReason | null): Outcome => ({
    status,
    reason,
    consumerId: null,
    receipt: null,
  });
  for (const l of lines) {
    const reference = l.reference as string;
    if (invalid(l)) outcomes.set(l, outcome('invalid', l.problem));
    else if (taken.has(reference) || claimed.has(reference)) outcomes.set(l, outcome('duplicate', 'already'));
    else {
      claimed.add(reference);
      if (l.problem !== null) outcomes.set(l, outcome('unmatched', l.problem));
      else if (!consumerOf.has(l.rfCode as string)) outcomes.set(l, outcome('unmatched', 'unknownRf'));
      else payable.push(l);
    }
  }
  const plan = payable.length > 0 ? await planPayments(tx, chunk, payable, consumerOf) : null;
  for (const p of plan?.payments ?? []) outcomes.set(p.line, p.outcome);
  await writeChunk(
    tx,
    chunk,
    lines.map((line) => ({ line, outcome: outcomes.get(line) as Outcome })),
    plan,
  );
  if (plan) {
    await debtsPaidInFull(tx, plan.paidInFull);
    await syncBillsPaid(tx, companyId, plan.consumers);
  }
}

/** The references of the chunk already imported, and who owns each RF (a debt's or a bill's), at once. */
async function lookUp(tx: Tx, companyId: number, lines: readonly ParsedBankLine[]) {
  const references = [...new Set(lines.map((l) => l.reference as string))];
  const rfs = [...new Set(lines.flatMap((l) => (l.problem === null ? [l.rfCode as string] : [])))];
  const found = rowsOf<{ taken: boolean; key: string; consumer_id: number | null }>(
    await tx.execute(sql`
      SELECT true AS taken, bank_reference AS key, NULL::int AS consumer_id FROM payments_bank_lines
       WHERE company_id = ${companyId} AND bank_reference = ANY(${sql.param(references)}::text[])
         AND status NOT IN ('duplicate', 'invalid')
      UNION ALL
      SELECT false, rf_code, consumer_id FROM payments_debts
       WHERE company_id = ${companyId} AND rf_code = ANY(${sql.param(rfs)}::text[])
      UNION ALL
      SELECT false, rf_code, consumer_id FROM billing_bills
       WHERE company_id = ${companyId} AND rf_code = ANY(${sql.param(rfs)}::text[])
         AND entry_state IN (9, -2) AND number IS NOT NULL`),
  );
  const taken = new Set(found.filter((f) => f.taken).map((f) => f.key));
  const consumerOf = new Map(found.filter((f) => !f.taken).map((f) => [f.key, Number(f.consumer_id)]));
  return { taken, consumerOf };
}

interface DebtState {
  id: number;
  consumerId: number;
  rfCode: string | null;
  open: boolean;
  remaining: Decimal;
  settlementKey: string | null;
}
interface PlannedPayment {
  line: ParsedBankLine;
  outcome: Outcome;
  left: string;
  allocations: { debtId: number; amount: string }[];
}
interface Plan {
  payments: PlannedPayment[];
  /** What the chunk pays of each debt. */
  paid: Map<number, Decimal>;
  paidInFull: { companyId: number; debtId: number; settlementKey: string | null }[];
  consumers: number[];
}

/**
 * The payments of the chunk's lines whose RF has an owner: the consumers locked (the cashier's lock,
 * in id order, so two payers never wait on each other in a circle), their bills' debts raised, their
 * debts locked once, each line allocated by the module's own rule (platform/domain `allocate`) in line
 * order, and a block of receipt numbers per year taken from the counter row (gapless).
 */
async function planPayments(
  tx: Tx,
  chunk: Chunk,
  lines: readonly ParsedBankLine[],
  consumerOf: Map<string, number>,
): Promise<Plan> {
  const { companyId } = chunk;
  const consumers = [...new Set(lines.map((l) => consumerOf.get(l.rfCode as string) as number))].sort(
    (a, b) => a - b,
  );
  await tx.execute(sql`
    SELECT count(pg_advisory_xact_lock(18, c)) FROM (
      SELECT c FROM unnest(${sql.param(consumers)}::int[]) AS c ORDER BY c) AS ordered`);
  await raiseBillDebts(tx, companyId, consumers);
  const rfs = [...new Set(lines.map((l) => l.rfCode as string))];
  const debts = rowsOf<{
    id: number;
    consumer_id: number;
    rf_code: string | null;
    status: string;
    amount: string;
    paid: string;
    settlement_key: string | null;
  }>(
    await tx.execute(sql`
      SELECT id, consumer_id, rf_code, status, amount::text, paid::text, settlement_key
        FROM payments_debts
       WHERE company_id = ${companyId} AND consumer_id = ANY(${sql.param(consumers)}::int[])
         AND ((status = 'open' AND paid < amount) OR rf_code = ANY(${sql.param(rfs)}::text[]))
       ORDER BY due_date, id
         FOR UPDATE`),
  ).map(
    (d): DebtState => ({
      id: Number(d.id),
      consumerId: Number(d.consumer_id),
      rfCode: d.rf_code,
      open: d.status === 'open',
      remaining: new Decimal(d.amount).minus(d.paid),
      settlementKey: d.settlement_key,
    }),
  );
  const byRf = new Map(debts.filter((d) => d.rfCode).map((d) => [d.rfCode as string, d]));
  const byId = new Map(debts.map((d) => [d.id, d]));
  const openOf = new Map<number, DebtState[]>();
  for (const d of debts) {
    if (!d.open) continue;
    const own = openOf.get(d.consumerId);
    if (own) own.push(d);
    else openOf.set(d.consumerId, [d]);
  }
  const paid = new Map<number, Decimal>();
  const planned = lines.map((line) => {
    const consumerId = consumerOf.get(line.rfCode as string) as number;
    const own = byRf.get(line.rfCode as string);
    const amount = line.amount as string;
    // The RF's own debt while it is open; else (paid already, settled) the consumer's oldest debts.
    const targets =
      own?.open && own.remaining.gt(0)
        ? [own]
        : (openOf.get(consumerId) ?? []).filter((d) => d.remaining.gt(0));
    const { allocations, left } = allocate(
      targets.map((d) => ({ id: d.id, remaining: moneyString(d.remaining) })),
      amount,
    );
    const reason: BankLineReason =
      targets[0] !== own || !own
        ? 'closed'
        : new Decimal(amount).eq(own.remaining)
          ? 'paid'
          : new Decimal(amount).lt(own.remaining)
            ? 'less'
            : 'more';
    for (const a of allocations) {
      const debt = byId.get(a.debtId) as DebtState;
      debt.remaining = debt.remaining.minus(a.amount);
      paid.set(a.debtId, (paid.get(a.debtId) ?? new Decimal(0)).plus(a.amount));
    }
    return { line, consumerId, allocations, left, reason, year: Number((line.date as string).slice(0, 4)) };
  });
  const years = [...new Set(planned.map((p) => p.year))].sort((a, b) => a - b);
  const counts = years.map((year) => planned.filter((p) => p.year === year).length);
  const counters = rowsOf<{ year: number; last: number }>(
    await tx.execute(sql`
      INSERT INTO payments_receipt_counters (company_id, year, last)
      SELECT ${companyId}, v.year, v.count
        FROM unnest(${sql.param(years)}::int[], ${sql.param(counts)}::int[]) AS v(year, count)
      ON CONFLICT (company_id, year) DO UPDATE SET last = payments_receipt_counters.last + EXCLUDED.last
      RETURNING year, last`),
  );
  const next = new Map(
    counters.map((c) => [Number(c.year), Number(c.last) - (counts[years.indexOf(Number(c.year))] ?? 0) + 1]),
  );
  const payments = planned.map((p): PlannedPayment => {
    const number = next.get(p.year) as number;
    next.set(p.year, number + 1);
    return {
      line: p.line,
      left: p.left,
      allocations: p.allocations,
      outcome: {
        status: p.reason === 'paid' ? 'matched' : 'partly',
        reason: p.reason,
        consumerId: p.consumerId,
        receipt: { year: p.year, number },
      },
    };
  });
  const paidInFull = debts
    .filter((d) => paid.has(d.id) && d.remaining.lte(0))
    .map((d) => ({ companyId, debtId: d.id, settlementKey: d.settlementKey }));
  return { payments, paid, paidInFull, consumers };
}

/**
 * Everything the chunk writes, in one statement fed by arrays (its size does not change the SQL): the
 * payments with their receipts, their allocations, what the debts have paid, the ledger lines and the
 * file's lines with their outcome, each line joined to its payment by its receipt number.
 */
async function writeChunk(
  tx: Tx,
  chunk: Chunk,
  lines: readonly { line: ParsedBankLine; outcome: Outcome }[],
  plan: Plan | null,
): Promise<void> {
  const { companyId, fileId, username } = chunk;
  const payments = plan?.payments ?? [];
  const allocations = payments.flatMap((p) =>
    p.allocations.map((a) => ({ receipt: p.outcome.receipt as { year: number; number: number }, ...a })),
  );
  const paid = [...(plan?.paid ?? [])];
  const column = <T, V>(rows: readonly T[], value: (row: T) => V) => sql.param(rows.map(value));
  await tx.execute(sql`
    WITH paid AS (
      INSERT INTO payments_payments
        (company_id, consumer_id, kind, method, amount, unallocated, date, cashier, receipt_year,
         receipt_number, reference, note, createuser)
      SELECT ${companyId}, v.consumer_id, NULL, 'bank', v.amount, v.unallocated, v.date, ${BANK_CASHIER},
             v.year, v.number, v.reference, v.payer, ${username}
        FROM unnest(
          ${column(payments, (p) => p.outcome.consumerId)}::int[],
          ${column(payments, (p) => p.line.amount)}::numeric[],
          ${column(payments, (p) => p.left)}::numeric[],
          ${column(payments, (p) => p.line.date)}::date[],
          ${column(payments, (p) => p.outcome.receipt?.year)}::int[],
          ${column(payments, (p) => p.outcome.receipt?.number)}::int[],
          ${column(payments, (p) => p.line.reference)}::text[],
          ${column(payments, (p) => p.line.payer)}::text[]
        ) AS v(consumer_id, amount, unallocated, date, year, number, reference, payer)
      RETURNING id, consumer_id, amount, date, receipt_year, receipt_number
    ), allocated AS (
      INSERT INTO payments_allocations (payment_id, debt_id, amount, date)
      SELECT p.id, a.debt_id, a.amount, p.date
        FROM unnest(
          ${column(allocations, (a) => a.receipt.year)}::int[],
          ${column(allocations, (a) => a.receipt.number)}::int[],
          ${column(allocations, (a) => a.debtId)}::int[],
          ${column(allocations, (a) => a.amount)}::numeric[]
        ) AS a(year, number, debt_id, amount)
        JOIN paid p ON p.receipt_year = a.year AND p.receipt_number = a.number
    ), debts AS (
      UPDATE payments_debts d SET paid = d.paid + v.amount
        FROM unnest(
          ${column(paid, ([id]) => id)}::int[],
          ${column(paid, ([, amount]) => moneyString(amount))}::numeric[]
        ) AS v(id, amount)
       WHERE d.id = v.id
    ), ledger AS (
      INSERT INTO payments_entries (company_id, consumer_id, date, type, description, credit, payment_id)
      SELECT ${companyId}, p.consumer_id, p.date, 'payment', p.receipt_number || '/' || p.receipt_year,
             p.amount, p.id
        FROM paid p
    )
    INSERT INTO payments_bank_lines
      (company_id, file_id, line_no, bank_reference, rf_code, amount, date, payer, raw, status, reason,
       consumer_id, payment_id)
    SELECT ${companyId}, ${fileId}, l.line_no, l.reference, l.rf_code, l.amount, l.date, l.payer, l.raw,
           l.status, l.reason, l.consumer_id, p.id
      FROM unnest(
        ${column(lines, (l) => l.line.lineNo)}::int[],
        ${column(lines, (l) => l.line.reference)}::text[],
        ${column(lines, (l) => l.line.rfCode)}::text[],
        ${column(lines, (l) => l.line.amount)}::numeric[],
        ${column(lines, (l) => l.line.date)}::date[],
        ${column(lines, (l) => l.line.payer)}::text[],
        ${column(lines, (l) => l.line.raw)}::text[],
        ${column(lines, (l) => l.outcome.status)}::text[],
        ${column(lines, (l) => l.outcome.reason)}::text[],
        ${column(lines, (l) => l.outcome.consumerId)}::int[],
        ${column(lines, (l) => l.outcome.receipt?.year ?? null)}::int[],
        ${column(lines, (l) => l.outcome.receipt?.number ?? null)}::int[]
      ) AS l(line_no, reference, rf_code, amount, date, payer, raw, status, reason, consumer_id, year, number)
      LEFT JOIN paid p ON p.receipt_year = l.year AND p.receipt_number = l.number`);
}
