import {
  type Debt,
  Decimal,
  debtRfReference,
  moneyString,
  paymentsErrors,
  rfCode,
  utilityDay,
} from '@protocol/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { lockConsumer, syncBillsPaid } from './allocation.ts';
import { debtColumns, interestTermsOf, openDebtRows, sumOf, withInterest } from './debts.ts';
import { paymentsDebts, paymentsEntries } from './payments.schema.ts';

/*
 * What other modules may ask of payments (see README "Adding a module"), made for the settlements
 * (ρυθμίσεις οφειλών): each call works in the caller's transaction, so a settlement closes debts,
 * adds its instalments and its own rows in ONE transaction, and all of it rolls back together.
 * A settlement is known here only by its key (`settlementKey`, e.g. "settlement:42"), which the
 * debts and ledger lines carry.
 */

export { addDebtPaidHook, type DebtPaidHook } from './allocation.ts';
export type { Debt };

/** The consumer's open debts, oldest due first, with their overdue interest today (when enabled). */
export async function openDebts(tx: Tx, companyId: number, consumerId: number): Promise<Debt[]> {
  const rows = await openDebtRows(tx, companyId, [consumerId]);
  return withInterest(tx, rows, await interestTermsOf(tx, companyId), utilityDay(new Date()));
}

/** Debts of the company by id (any status), e.g. to see whether a down payment is paid in full. */
export async function debtsByIds(tx: Tx, companyId: number, ids: readonly number[]): Promise<Debt[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select(debtColumns)
    .from(paymentsDebts)
    .where(and(eq(paymentsDebts.companyId, companyId), inArray(paymentsDebts.id, [...ids])))
    .orderBy(asc(paymentsDebts.dueDate), asc(paymentsDebts.id));
  return withInterest(tx, rows, null, utilityDay(new Date()));
}

/** The debts raised for a settlement (its instalments) or closed into it, by status. */
export async function debtsOfSettlement(tx: Tx, companyId: number, settlementKey: string): Promise<Debt[]> {
  const rows = await tx
    .select(debtColumns)
    .from(paymentsDebts)
    .where(and(eq(paymentsDebts.companyId, companyId), eq(paymentsDebts.settlementKey, settlementKey)))
    .orderBy(asc(paymentsDebts.dueDate), asc(paymentsDebts.id));
  return withInterest(tx, rows, null, utilityDay(new Date()));
}

interface Who {
  companyId: number;
  consumerId: number;
  settlementKey: string;
  /** The operator's username, for the audit columns. */
  username: string;
  /** The ledger date (the settlement's date). */
  date: string;
}

/**
 * Closes debts of the consumer into a settlement: each must be the consumer's, open and unpaid in part
 * at least, else a 409 (`payments.error.debt_not_open`) and nothing changes. Their remaining parts
 * leave the account (a credit line "settled" each) and are answered, with their total, for the plan.
 * The consumer's payments wait meanwhile (the same lock as a payment's), so none lands in between.
 */
export async function closeDebtsIntoSettlement(
  tx: Tx,
  request: Who & { debtIds: readonly number[] },
): Promise<{
  debts: { id: number; description: string; remaining: string; dueDate: string }[];
  total: string;
}> {
  const { companyId, consumerId, settlementKey } = request;
  if (request.debtIds.length === 0) throw new AppError(409, paymentsErrors.noDebts);
  await lockConsumer(tx, consumerId);
  const debts = await tx
    .select(debtColumns)
    .from(paymentsDebts)
    .where(and(eq(paymentsDebts.companyId, companyId), inArray(paymentsDebts.id, [...request.debtIds])))
    .orderBy(asc(paymentsDebts.dueDate), asc(paymentsDebts.id))
    .for('update');
  for (const id of request.debtIds) {
    const debt = debts.find((d) => d.id === id);
    if (
      !debt ||
      debt.consumerId !== consumerId ||
      debt.status !== 'open' ||
      new Decimal(debt.paid).gte(debt.amount)
    ) {
      throw new AppError(409, paymentsErrors.debtNotOpen, { id });
    }
  }
  const closed = debts.map((d) => ({
    id: d.id,
    description: d.description,
    dueDate: d.dueDate,
    remaining: moneyString(new Decimal(d.amount).minus(d.paid)),
  }));
  await tx
    .update(paymentsDebts)
    .set({ status: 'settled', settlementKey, changeuser: request.username, changedate: new Date() })
    .where(inArray(paymentsDebts.id, [...request.debtIds]));
  await tx.insert(paymentsEntries).values(
    closed.map((d) => ({
      companyId,
      consumerId,
      date: request.date,
      type: 'settled' as const,
      description: d.description,
      credit: d.remaining,
      debtId: d.id,
      settlementKey,
    })),
  );
  await syncBillsPaid(tx, companyId, [consumerId]);
  return { debts: closed, total: sumOf(closed.map((d) => d.remaining)) };
}

/**
 * Adds a settlement's instalments (the down payment first, if any) as debts of the consumer, each with
 * its due date and its own RF code (17 digits, never a bill's), and a debit line each. Answers them in
 * the order given. Payments at the cashier or from a bank file land on them like on any debt.
 */
export async function addInstalmentDebts(
  tx: Tx,
  request: Who & { instalments: readonly { description: string; dueDate: string; amount: string }[] },
): Promise<{ id: number; rfCode: string; dueDate: string; amount: string }[]> {
  const { companyId, consumerId, settlementKey } = request;
  if (request.instalments.length === 0) return [];
  for (const i of request.instalments) {
    if (!new Decimal(i.amount).gt(0)) throw new AppError(400, paymentsErrors.badAmount);
  }
  const inserted = await tx
    .insert(paymentsDebts)
    .values(
      request.instalments.map((i) => ({
        companyId,
        consumerId,
        source: 'instalment' as const,
        description: i.description,
        issueDate: request.date,
        dueDate: i.dueDate,
        amount: moneyString(i.amount),
        settlementKey,
        createuser: request.username,
      })),
    )
    .returning({
      id: paymentsDebts.id,
      dueDate: paymentsDebts.dueDate,
      amount: paymentsDebts.amount,
      description: paymentsDebts.description,
    });
  const withRf = inserted.map((d) => ({ ...d, rfCode: rfCode(debtRfReference(companyId, d.id)) }));
  await tx.execute(sql`
    UPDATE payments_debts d SET rf_code = v.rf
      FROM (VALUES ${sql.join(
        withRf.map((d) => sql`(${d.id}::int, ${d.rfCode}::text)`),
        sql`, `,
      )}) AS v(id, rf)
     WHERE d.id = v.id`);
  await tx.insert(paymentsEntries).values(
    withRf.map((d) => ({
      companyId,
      consumerId,
      date: request.date,
      type: 'instalment' as const,
      description: d.description,
      debit: d.amount,
      debtId: d.id,
      settlementKey,
    })),
  );
  return withRf.map(({ id, rfCode, dueDate, amount }) => ({ id, rfCode, dueDate, amount }));
}

/**
 * Cancels a settlement on the account: its instalments still unpaid are cancelled (a credit line of
 * what remained of each), and the remaining debt returns as one open debt (a debit line) of `amount`
 * (by default what the cancelled instalments left unpaid), due `dueDate`, with its own RF code. What
 * was paid stays paid; the closed debts keep their history. Answers the reopened debt (null when
 * nothing remained).
 */
export async function reopenSettlement(
  tx: Tx,
  request: Who & { description: string; dueDate: string; amount?: string },
): Promise<{ cancelled: string; reopened: { id: number; rfCode: string; amount: string } | null }> {
  const { companyId, consumerId, settlementKey } = request;
  await lockConsumer(tx, consumerId);
  const instalments = await tx
    .select(debtColumns)
    .from(paymentsDebts)
    .where(
      and(
        eq(paymentsDebts.companyId, companyId),
        eq(paymentsDebts.settlementKey, settlementKey),
        eq(paymentsDebts.source, 'instalment'),
        eq(paymentsDebts.status, 'open'),
      ),
    )
    .for('update');
  const unpaid = instalments.filter((d) => new Decimal(d.paid).lt(d.amount));
  if (unpaid.length > 0) {
    await tx
      .update(paymentsDebts)
      .set({ status: 'cancelled', changeuser: request.username, changedate: new Date() })
      .where(
        inArray(
          paymentsDebts.id,
          unpaid.map((d) => d.id),
        ),
      );
    await tx.insert(paymentsEntries).values(
      unpaid.map((d) => ({
        companyId,
        consumerId,
        date: request.date,
        type: 'cancelled' as const,
        description: d.description,
        credit: moneyString(new Decimal(d.amount).minus(d.paid)),
        debtId: d.id,
        settlementKey,
      })),
    );
  }
  const cancelled = sumOf(unpaid.map((d) => moneyString(new Decimal(d.amount).minus(d.paid))));
  const amount = new Decimal(request.amount ?? cancelled);
  if (amount.lte(0)) return { cancelled, reopened: null };
  const [debt] = await tx
    .insert(paymentsDebts)
    .values({
      companyId,
      consumerId,
      source: 'charge',
      kind: 99,
      description: request.description,
      issueDate: request.date,
      dueDate: request.dueDate,
      amount: moneyString(amount),
      settlementKey,
      createuser: request.username,
    })
    .returning({ id: paymentsDebts.id });
  if (!debt) throw new Error('the reopened debt was not stored');
  const code = rfCode(debtRfReference(companyId, debt.id));
  await tx.update(paymentsDebts).set({ rfCode: code }).where(eq(paymentsDebts.id, debt.id));
  await tx.insert(paymentsEntries).values({
    companyId,
    consumerId,
    date: request.date,
    type: 'reopened',
    kind: 99,
    description: request.description,
    debit: moneyString(amount),
    debtId: debt.id,
    settlementKey,
  });
  return { cancelled, reopened: { id: debt.id, rfCode: code, amount: moneyString(amount) } };
}
