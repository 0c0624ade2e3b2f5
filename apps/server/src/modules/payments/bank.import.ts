import { allocate, type BankLineReason, type BankLineStatus, Decimal } from '@protocol/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { readImportFile } from '../../platform/imports/files.ts';
import type { JobContext, JobRow } from '../../platform/jobs/jobs.ts';
import { debtsPaidInFull, raiseBillDebts, syncBillsPaid } from './allocation.ts';
import { bankFileText, invalidReasons, type ParsedBankLine, parseBankFile } from './bank.parse.ts';
import { fileSummary } from './bank.report.ts';
import { paymentsBankFiles, paymentsBankLayouts, paymentsBankLines } from './payments.schema.ts';

/**
 * The bank file import (a background job): the file is read by its layout, then its lines go in
 * chunks, each in one transaction, set-based — the chunk's RF codes looked up in one statement, its
 * consumers locked (the cashier's advisory lock, in id order), the debts locked once, every line's
 * allocation computed with the module's own rule (contracts `allocate`), then the payments, receipt
 * numbers, allocations, ledger lines and the lines' outcome written a statement each. A line's bank
 * reference is unique, so a file imported twice, or a job run again after a crash, pays nothing twice.
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

const list = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

export async function bankImportJob({
  db,
  payload,
  progress,
  signal,
}: JobContext<BankImportPayload>): Promise<unknown> {
  const { fileId, companyId } = payload;
  const [file] = await db
    .select({
      state: paymentsBankFiles.state,
      layout: paymentsBankLayouts,
    })
    .from(paymentsBankFiles)
    .innerJoin(paymentsBankLayouts, eq(paymentsBankLayouts.id, paymentsBankFiles.layoutId))
    .where(and(eq(paymentsBankFiles.id, fileId), eq(paymentsBankFiles.companyId, companyId)));
  if (!file) throw new Error('The bank file is gone');
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
  const todo = lines.filter((l) => l.lineNo > last);
  let done = lines.length - todo.length;
  await progress(done, lines.length);
  for (let i = 0; i < todo.length; i += CHUNK) {
    if (signal.aborted) throw new Error('aborted');
    const chunk = todo.slice(i, i + CHUNK);
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
interface Outcome {
  id: number;
  status: BankLineStatus;
  reason: BankLineReason;
  consumerId: number | null;
  paymentId: number | null;
}

/** One chunk of lines in the caller's transaction. */
export async function importChunk(tx: Tx, chunk: Chunk, lines: readonly ParsedBankLine[]): Promise<void> {
  const { companyId, fileId } = chunk;
  const row = (l: ParsedBankLine, status: BankLineStatus, reason: BankLineReason | null) => ({
    companyId,
    fileId,
    lineNo: l.lineNo,
    bankReference: l.reference,
    rfCode: l.rfCode,
    amount: l.amount,
    date: l.date,
    payer: l.payer,
    raw: l.raw,
    status,
    reason,
  });
  const invalid = lines.filter((l) => l.problem !== null && invalidReasons.includes(l.problem));
  const usable = lines.filter((l) => !invalid.includes(l));
  if (invalid.length > 0)
    await tx.insert(paymentsBankLines).values(invalid.map((l) => row(l, 'invalid', l.problem)));
  if (usable.length === 0) return;
  // Each reference takes its place once; a reference already there (or twice in the chunk) is a duplicate.
  const inserted = await tx
    .insert(paymentsBankLines)
    .values(usable.map((l) => row(l, 'unmatched', l.problem)))
    .onConflictDoNothing({
      target: [paymentsBankLines.companyId, paymentsBankLines.bankReference],
      where: sql`status NOT IN ('duplicate', 'invalid')`,
    })
    .returning({ id: paymentsBankLines.id, lineNo: paymentsBankLines.lineNo });
  const idOf = new Map(inserted.map((r) => [r.lineNo, r.id]));
  const duplicates = usable.filter((l) => !idOf.has(l.lineNo));
  if (duplicates.length > 0)
    await tx.insert(paymentsBankLines).values(duplicates.map((l) => row(l, 'duplicate', 'already')));
  const payable = usable.filter((l) => idOf.has(l.lineNo) && l.problem === null);
  if (payable.length > 0) await payLines(tx, chunk, payable, idOf);
}

/** The chunk's lines with a well-formed RF: matched to their debts and paid, set-based. */
async function payLines(
  tx: Tx,
  chunk: Chunk,
  lines: readonly ParsedBankLine[],
  idOf: Map<number, number>,
): Promise<void> {
  const { companyId } = chunk;
  const rfs = [...new Set(lines.map((l) => l.rfCode as string))];
  const owners = rowsOf<{ rf: string; consumer_id: number }>(
    await tx.execute(sql`
      SELECT rf_code AS rf, consumer_id FROM payments_debts
       WHERE company_id = ${companyId} AND rf_code IN (${list(rfs)})
      UNION
      SELECT rf_code, consumer_id FROM billing_bills
       WHERE company_id = ${companyId} AND rf_code IN (${list(rfs)})
         AND entry_state IN (9, -2) AND number IS NOT NULL`),
  );
  const consumerOf = new Map(owners.map((o) => [o.rf, Number(o.consumer_id)]));
  const outcomes: Outcome[] = [];
  const known = lines.filter((l) => consumerOf.has(l.rfCode as string));
  for (const l of lines) {
    if (!consumerOf.has(l.rfCode as string))
      outcomes.push({
        id: idOf.get(l.lineNo) as number,
        status: 'unmatched',
        reason: 'unknownRf',
        consumerId: null,
        paymentId: null,
      });
  }
  if (known.length > 0) outcomes.push(...(await payKnown(tx, chunk, known, idOf, consumerOf)));
  await tx.execute(sql`
    UPDATE payments_bank_lines l
       SET status = v.status, reason = v.reason, consumer_id = v.consumer_id, payment_id = v.payment_id
      FROM (VALUES ${sql.join(
        outcomes.map(
          (o) =>
            sql`(${o.id}::int, ${o.status}::text, ${o.reason}::text, ${o.consumerId}::int, ${o.paymentId}::int)`,
        ),
        sql`, `,
      )}) AS v(id, status, reason, consumer_id, payment_id)
     WHERE l.id = v.id`);
}

interface DebtState {
  id: number;
  consumerId: number;
  rfCode: string | null;
  open: boolean;
  amount: string;
  remaining: Decimal;
  settlementKey: string | null;
}

async function payKnown(
  tx: Tx,
  chunk: Chunk,
  lines: readonly ParsedBankLine[],
  idOf: Map<number, number>,
  consumerOf: Map<string, number>,
): Promise<Outcome[]> {
  const { companyId } = chunk;
  const consumers = [...new Set(lines.map((l) => consumerOf.get(l.rfCode as string) as number))].sort(
    (a, b) => a - b,
  );
  // The cashier's lock per consumer, taken in id order so two imports never wait on each other in a circle.
  await tx.execute(sql`
    SELECT count(pg_advisory_xact_lock(18, c)) FROM (
      SELECT c FROM unnest(ARRAY[${list(consumers)}]::int[]) AS c ORDER BY c) AS ordered`);
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
       WHERE company_id = ${companyId} AND consumer_id IN (${list(consumers)})
         AND ((status = 'open' AND paid < amount) OR rf_code IN (${list(rfs)}))
       ORDER BY due_date, id
         FOR UPDATE`),
  ).map(
    (d): DebtState => ({
      id: Number(d.id),
      consumerId: Number(d.consumer_id),
      rfCode: d.rf_code,
      open: d.status === 'open',
      amount: d.amount,
      remaining: new Decimal(d.amount).minus(d.paid),
      settlementKey: d.settlement_key,
    }),
  );
  const byRf = new Map(debts.filter((d) => d.rfCode).map((d) => [d.rfCode as string, d]));
  const byId = new Map(debts.map((d) => [d.id, d]));
  const openOf = new Map<number, DebtState[]>();
  for (const d of debts) if (d.open) openOf.set(d.consumerId, [...(openOf.get(d.consumerId) ?? []), d]);
  const paid = new Map<number, Decimal>();
  const planned = lines.map((l) => {
    const consumerId = consumerOf.get(l.rfCode as string) as number;
    const own = byRf.get(l.rfCode as string);
    const amount = l.amount as string;
    // The RF's own debt while it is open; else (paid already, settled) the consumer's oldest debts.
    const targets =
      own?.open && own.remaining.gt(0)
        ? [own]
        : (openOf.get(consumerId) ?? []).filter((d) => d.remaining.gt(0));
    const { allocations, left } = allocate(
      targets.map((d) => ({ id: d.id, remaining: d.remaining.toFixed(2) })),
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
    return { line: l, consumerId, allocations, left, reason, year: Number((l.date as string).slice(0, 4)) };
  });
  // A block of receipt numbers per year from the counter row: gapless, taken in this transaction.
  const numbers = new Map<number, number>();
  for (const year of [...new Set(planned.map((p) => p.year))].sort()) {
    const count = planned.filter((p) => p.year === year).length;
    const [counter] = rowsOf<{ last: number }>(
      await tx.execute(sql`
        INSERT INTO payments_receipt_counters (company_id, year, last) VALUES (${companyId}, ${year}, ${count})
        ON CONFLICT (company_id, year) DO UPDATE SET last = payments_receipt_counters.last + ${count}
        RETURNING last`),
    );
    numbers.set(year, Number(counter?.last) - count + 1);
  }
  const receipts = planned.map((p) => {
    const number = numbers.get(p.year) as number;
    numbers.set(p.year, number + 1);
    return { ...p, receiptNumber: number };
  });
  const payments = rowsOf<{ id: number; receipt_year: number; receipt_number: number }>(
    await tx.execute(sql`
      INSERT INTO payments_payments
        (company_id, consumer_id, kind, method, amount, unallocated, date, cashier, receipt_year,
         receipt_number, reference, note, createuser)
      VALUES ${sql.join(
        receipts.map(
          (
            r,
          ) => sql`(${companyId}, ${r.consumerId}, NULL, 'bank', ${r.line.amount}::numeric, ${r.left}::numeric,
            ${r.line.date}::date, ${BANK_CASHIER}, ${r.year}, ${r.receiptNumber}, ${r.line.reference},
            ${r.line.payer}, ${chunk.username})`,
        ),
        sql`, `,
      )}
      RETURNING id, receipt_year, receipt_number`),
  );
  const paymentOf = new Map(payments.map((p) => [`${p.receipt_year}/${p.receipt_number}`, Number(p.id)]));
  const withIds = receipts.map((r) => ({
    ...r,
    paymentId: paymentOf.get(`${r.year}/${r.receiptNumber}`) as number,
  }));
  const allocations = withIds.flatMap((r) =>
    r.allocations.map(
      (a) => sql`(${r.paymentId}::int, ${a.debtId}::int, ${a.amount}::numeric, ${r.line.date}::date)`,
    ),
  );
  if (allocations.length > 0) {
    await tx.execute(sql`
      INSERT INTO payments_allocations (payment_id, debt_id, amount, date)
      VALUES ${sql.join(allocations, sql`, `)}`);
    await tx.execute(sql`
      UPDATE payments_debts d SET paid = d.paid + v.amount
        FROM (VALUES ${sql.join(
          [...paid].map(([id, amount]) => sql`(${id}::int, ${amount.toFixed(2)}::numeric)`),
          sql`, `,
        )}) AS v(id, amount)
       WHERE d.id = v.id`);
  }
  await tx.execute(sql`
    INSERT INTO payments_entries (company_id, consumer_id, date, type, description, credit, payment_id)
    VALUES ${sql.join(
      withIds.map(
        (r) => sql`(${companyId}, ${r.consumerId}, ${r.line.date}::date, 'payment',
          ${`${r.receiptNumber}/${r.year}`}, ${r.line.amount}::numeric, ${r.paymentId})`,
      ),
      sql`, `,
    )}`);
  await debtsPaidInFull(
    tx,
    debts
      .filter((d) => paid.has(d.id) && d.remaining.lte(0))
      .map((d) => ({ companyId, debtId: d.id, settlementKey: d.settlementKey })),
  );
  await syncBillsPaid(tx, companyId, consumers);
  return withIds.map((r) => ({
    id: idOf.get(r.line.lineNo) as number,
    status: r.reason === 'paid' ? 'matched' : 'partly',
    reason: r.reason,
    consumerId: r.consumerId,
    paymentId: r.paymentId,
  }));
}
