import {
  type CashierMethod,
  Decimal,
  moneyString,
  type Payment,
  paymentsErrors,
  type RecordPayment,
  type recordPaymentSchema,
  utilityDay,
} from '@protocol/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { lockConsumer, payDebts } from './allocation.ts';
import { paymentsAllocations, paymentsDebts, paymentsEntries, paymentsPayments } from './payments.schema.ts';

/** Payments with their receipts: at the cashier, from a bank line, prepayments and their return. */

/**
 * The next receipt number of the company's year, from its counter row (`INSERT … ON CONFLICT DO
 * UPDATE SET last = last + 1`): concurrent payments take turns on the row and a rolled-back one gives
 * its number back, so receipts never skip nor repeat.
 */
export async function nextReceiptNumber(tx: Tx, companyId: number, year: number): Promise<number> {
  const result = await tx.execute(sql`
    INSERT INTO payments_receipt_counters (company_id, year, last) VALUES (${companyId}, ${year}, 1)
    ON CONFLICT (company_id, year) DO UPDATE SET last = payments_receipt_counters.last + 1
    RETURNING last`);
  const row = (result as unknown as { rows: { last: number }[] }).rows[0];
  if (!row) throw new Error('the receipt counter returned no number');
  return row.last;
}

async function assertConsumer(tx: Tx, companyId: number, consumerId: number): Promise<void> {
  const [row] = await tx
    .select({ id: waterConsumers.id })
    .from(waterConsumers)
    .where(and(eq(waterConsumers.id, consumerId), eq(waterConsumers.companyId, companyId)));
  if (!row) throw notFound();
}

export interface PaymentInput {
  consumerId: number;
  method: CashierMethod;
  amount: string;
  date: string;
  debtIds?: readonly number[];
  prepaymentKind?: 2 | 3 | 16 | null;
  reference?: string | null;
  note?: string | null;
}

/**
 * Records a payment in the caller's transaction: the receipt number, the allocation to the debts (none
 * for a prepayment: it is all credit), its ledger credit line. Answers the payment's id and what no
 * debt took.
 */
export async function storePayment(
  tx: Tx,
  companyId: number,
  cashier: string,
  input: PaymentInput,
): Promise<{ id: number; left: string; allocated: number }> {
  await lockConsumer(tx, input.consumerId);
  const year = Number(input.date.slice(0, 4));
  const receiptNumber = await nextReceiptNumber(tx, companyId, year);
  const kind = input.prepaymentKind ?? null;
  const [payment] = await tx
    .insert(paymentsPayments)
    .values({
      companyId,
      consumerId: input.consumerId,
      kind,
      method: input.method,
      amount: moneyString(input.amount),
      date: input.date,
      cashier,
      receiptYear: year,
      receiptNumber,
      reference: input.reference ?? null,
      note: input.note ?? null,
      createuser: cashier,
    })
    .returning({ id: paymentsPayments.id });
  if (!payment) throw new Error('the payment was not stored');
  const { allocations, left } =
    kind === null
      ? await payDebts(tx, {
          companyId,
          consumerId: input.consumerId,
          paymentId: payment.id,
          amount: input.amount,
          date: input.date,
          debtIds: input.debtIds,
        })
      : { allocations: [], left: moneyString(input.amount) };
  if (!new Decimal(left).isZero()) {
    await tx.update(paymentsPayments).set({ unallocated: left }).where(eq(paymentsPayments.id, payment.id));
  }
  await tx.insert(paymentsEntries).values({
    companyId,
    consumerId: input.consumerId,
    date: input.date,
    type: kind === null ? 'payment' : 'prepayment',
    kind,
    description: `${receiptNumber}/${year}`,
    credit: moneyString(input.amount),
    paymentId: payment.id,
  });
  return { id: payment.id, left, allocated: allocations.length };
}

/** POST /payments/payments: a payment at the cashier, in one transaction. */
export async function recordPayment(
  db: Db,
  principal: Principal,
  companyId: number,
  body: z.output<typeof recordPaymentSchema>,
  requestId: string,
): Promise<Payment> {
  return db.transaction(async (tx) => {
    await assertConsumer(tx, companyId, body.consumerId);
    const { id } = await storePayment(tx, companyId, principal.username, {
      ...body,
      date: utilityDay(new Date()),
    });
    await recordAudit(tx, {
      entity: 'payments.payment',
      entityId: id,
      action: 'create',
      companyId,
      user: principal,
      requestId,
    });
    return getPayment(tx, companyId, id);
  });
}

/**
 * The consumer's credit: what payments left unallocated, less what was returned or applied to later
 * debts, plus what was paid of bills since credited (their debts closed by the credit, credits.ts).
 */
export async function creditOf(tx: Tx, consumerId: number): Promise<Decimal> {
  const [row] = await tx
    .select({
      credit: sql<string>`(coalesce(sum(CASE WHEN ${paymentsPayments.kind} = 17 THEN -${paymentsPayments.amount} ELSE ${paymentsPayments.unallocated} END), 0)
        - (SELECT coalesce(sum(e.credit), 0) FROM payments_entries e WHERE e.consumer_id = ${consumerId} AND e.type = 'creditApplied'))::text`,
    })
    .from(paymentsPayments)
    .where(eq(paymentsPayments.consumerId, consumerId));
  const [credited] = await tx
    .select({ paid: sql<string>`coalesce(sum(${paymentsDebts.paid}), 0)::text` })
    .from(paymentsDebts)
    .where(and(eq(paymentsDebts.consumerId, consumerId), eq(paymentsDebts.status, 'credited')));
  return new Decimal(row?.credit ?? '0').plus(credited?.paid ?? '0');
}

/** POST /payments/prepay_returns: spec kind 17, money back out of the consumer's credit. */
export async function returnPrepayment(
  db: Db,
  principal: Principal,
  companyId: number,
  body: { consumerId: number; method: CashierMethod; amount: string; note: string | null },
  requestId: string,
): Promise<Payment> {
  return db.transaction(async (tx) => {
    await assertConsumer(tx, companyId, body.consumerId);
    await lockConsumer(tx, body.consumerId);
    const credit = await creditOf(tx, body.consumerId);
    if (credit.lt(body.amount))
      throw new AppError(409, paymentsErrors.nothingToReturn, { credit: moneyString(credit) });
    const date = utilityDay(new Date());
    const year = Number(date.slice(0, 4));
    const receiptNumber = await nextReceiptNumber(tx, companyId, year);
    const [payment] = await tx
      .insert(paymentsPayments)
      .values({
        companyId,
        consumerId: body.consumerId,
        kind: 17,
        method: body.method,
        amount: moneyString(body.amount),
        date,
        cashier: principal.username,
        receiptYear: year,
        receiptNumber,
        note: body.note,
        createuser: principal.username,
      })
      .returning({ id: paymentsPayments.id });
    if (!payment) throw new Error('the return was not stored');
    await tx.insert(paymentsEntries).values({
      companyId,
      consumerId: body.consumerId,
      date,
      type: 'prepayReturn',
      kind: 17,
      description: `${receiptNumber}/${year}`,
      debit: moneyString(body.amount),
      paymentId: payment.id,
    });
    await recordAudit(tx, {
      entity: 'payments.payment',
      entityId: payment.id,
      action: 'return',
      companyId,
      user: principal,
      requestId,
    });
    return getPayment(tx, companyId, payment.id);
  });
}

export async function getPayment(tx: Tx, companyId: number, id: number): Promise<Payment> {
  const [row] = await tx
    .select({ payment: paymentsPayments, consumerCode: waterConsumers.code, ownerName: traders.fullname })
    .from(paymentsPayments)
    .innerJoin(waterConsumers, eq(waterConsumers.id, paymentsPayments.consumerId))
    .leftJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .where(and(eq(paymentsPayments.id, id), eq(paymentsPayments.companyId, companyId)));
  if (!row) throw notFound();
  const allocations = await tx
    .select({
      debtId: paymentsAllocations.debtId,
      description: paymentsDebts.description,
      rfCode: paymentsDebts.rfCode,
      amount: paymentsAllocations.amount,
    })
    .from(paymentsAllocations)
    .innerJoin(paymentsDebts, eq(paymentsDebts.id, paymentsAllocations.debtId))
    .where(
      and(
        eq(paymentsAllocations.paymentId, id),
        // As the receipt was issued: its credit applied later to new debts is on the account, not here.
        sql`NOT EXISTS (SELECT 1 FROM payments_entries e WHERE e.type = 'creditApplied'
              AND e.payment_id = payments_allocations.payment_id AND e.debt_id = payments_allocations.debt_id)`,
      ),
    )
    .orderBy(asc(paymentsAllocations.id));
  const p = row.payment;
  return {
    id: p.id,
    consumerId: p.consumerId,
    consumerCode: row.consumerCode,
    ownerName: row.ownerName ?? '',
    kind: p.kind,
    method: p.method,
    amount: p.amount,
    unallocated: p.unallocated,
    date: p.date,
    cashier: p.cashier,
    receiptYear: p.receiptYear,
    receiptNumber: p.receiptNumber,
    reference: p.reference,
    note: p.note,
    allocations: allocations.map((a) => ({ ...a, rfCode: a.rfCode ?? '' })),
  };
}

export type { RecordPayment };
