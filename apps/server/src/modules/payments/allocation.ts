import { allocate, Decimal, paymentsErrors } from '@protocol/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { setBillsPaid } from '../billing/api.ts';
import { billingBillLines, billingBills } from '../billing/billing.schema.ts';
import { raiseBillDebts } from './debts.ts';
import { paymentsAllocations, paymentsDebts } from './payments.schema.ts';

/**
 * Allocation (εξόφληση) in the caller's transaction: the consumer's payments take turns (an advisory
 * lock per consumer), the debts are locked in due-date order (`FOR UPDATE`, so a second payer waits
 * and then reads what the first paid), each takes what remains of it, and whoever waits on a debt
 * being paid in full (a settlement's down payment) is told in the same transaction.
 */

/** Told, in the paying transaction, of the debts a payment has just paid in full. */
export type DebtPaidHook = (
  tx: Tx,
  paid: { companyId: number; debtId: number; settlementKey: string | null }[],
) => Promise<void>;
const paidHooks = new Map<string, DebtPaidHook>();
export function addDebtPaidHook(name: string, hook: DebtPaidHook): void {
  paidHooks.set(name, hook);
}
/** Tells the hooks of debts paid in full (also by a bank file's set-based allocation). */
export async function debtsPaidInFull(tx: Tx, paid: Parameters<DebtPaidHook>[1]): Promise<void> {
  if (paid.length === 0) return;
  for (const hook of paidHooks.values()) await hook(tx, paid);
}

/** One consumer's payments at a time (the key space 18 is this module's). */
export async function lockConsumer(tx: Tx, consumerId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(18, ${consumerId})`);
}

export interface Allocation {
  debtId: number;
  amount: string;
}

/**
 * Pays the consumer's open debts with `amount` dated `date`: the ones in `debtIds` in that order, or
 * all open ones oldest first. Answers the allocations and what was left over (the consumer's credit).
 * A debt named that is not the consumer's open one is a 409 and nothing is written.
 */
export async function payDebts(
  tx: Tx,
  request: {
    companyId: number;
    consumerId: number;
    paymentId: number;
    amount: string;
    date: string;
    debtIds?: readonly number[];
  },
): Promise<{ allocations: Allocation[]; left: string }> {
  const { companyId, consumerId } = request;
  await lockConsumer(tx, consumerId);
  await raiseBillDebts(tx, companyId, [consumerId]);
  const open = await tx
    .select({
      id: paymentsDebts.id,
      amount: paymentsDebts.amount,
      paid: paymentsDebts.paid,
      settlementKey: paymentsDebts.settlementKey,
      billId: paymentsDebts.billId,
    })
    .from(paymentsDebts)
    .where(
      and(
        eq(paymentsDebts.companyId, companyId),
        eq(paymentsDebts.consumerId, consumerId),
        eq(paymentsDebts.status, 'open'),
        sql`${paymentsDebts.paid} < ${paymentsDebts.amount}`,
      ),
    )
    .orderBy(asc(paymentsDebts.dueDate), asc(paymentsDebts.id))
    .for('update');
  const byId = new Map(open.map((d) => [d.id, d]));
  let chosen = open;
  if (request.debtIds && request.debtIds.length > 0) {
    chosen = request.debtIds.map((id) => {
      const debt = byId.get(id);
      if (!debt) throw new AppError(409, paymentsErrors.debtNotOpen, { id });
      return debt;
    });
  }
  const { allocations, left } = allocate(
    chosen.map((d) => ({ id: d.id, remaining: new Decimal(d.amount).minus(d.paid).toFixed(2) })),
    request.amount,
  );
  if (allocations.length === 0) return { allocations, left };
  await tx.insert(paymentsAllocations).values(
    allocations.map((a) => ({
      paymentId: request.paymentId,
      debtId: a.debtId,
      amount: a.amount,
      date: request.date,
    })),
  );
  await tx.execute(sql`
    UPDATE payments_debts d SET paid = d.paid + v.amount
      FROM (VALUES ${sql.join(
        allocations.map((a) => sql`(${a.debtId}::int, ${a.amount}::numeric)`),
        sql`, `,
      )}) AS v(id, amount)
     WHERE d.id = v.id`);
  const paidInFull = allocations.filter((a) => {
    const debt = byId.get(a.debtId);
    return debt && new Decimal(debt.paid).plus(a.amount).gte(debt.amount);
  });
  if (paidInFull.length > 0) {
    const paid = paidInFull.map((a) => ({
      companyId,
      debtId: a.debtId,
      settlementKey: byId.get(a.debtId)?.settlementKey ?? null,
    }));
    await debtsPaidInFull(tx, paid);
  }
  await syncBillsPaid(tx, companyId, [consumerId]);
  return { allocations, left };
}

/**
 * Tells billing what is paid of the consumers' bills, so its next run carries only what is still
 * owed: a bill's total includes the earlier bills it carried, hence paid = total − (what remains of
 * its own debt + what remains of each bill it carried, recursively).
 */
export async function syncBillsPaid(
  tx: Tx,
  companyId: number,
  consumerIds: readonly number[],
): Promise<void> {
  const bills = await tx
    .select({ id: billingBills.id, total: billingBills.total, paid: billingBills.paid })
    .from(billingBills)
    .where(
      and(
        eq(billingBills.companyId, companyId),
        inArray(billingBills.consumerId, [...consumerIds]),
        inArray(billingBills.entryState, [9, -2]),
      ),
    );
  if (bills.length === 0) return;
  const ids = bills.map((b) => b.id);
  const [carried, debts] = await Promise.all([
    tx
      .select({ billId: billingBillLines.billId, sourceId: billingBillLines.sourceId })
      .from(billingBillLines)
      .where(and(inArray(billingBillLines.billId, ids), eq(billingBillLines.charge, 'previousBalance'))),
    tx
      .select({
        billId: paymentsDebts.billId,
        amount: paymentsDebts.amount,
        paid: paymentsDebts.paid,
        status: paymentsDebts.status,
      })
      .from(paymentsDebts)
      .where(inArray(paymentsDebts.billId, ids)),
  ]);
  // A debt closed into a settlement is owed there, not on the bill.
  const own = new Map(
    debts.map((d) => [d.billId, d.status === 'open' ? new Decimal(d.amount).minus(d.paid) : new Decimal(0)]),
  );
  const memo = new Map<number, Decimal>();
  const outstanding = (billId: number, depth = 0): Decimal => {
    const known = memo.get(billId);
    if (known) return known;
    let total = own.get(billId) ?? new Decimal(0);
    if (depth < 100) {
      for (const line of carried) {
        if (line.billId === billId && line.sourceId !== null)
          total = total.plus(outstanding(line.sourceId, depth + 1));
      }
    }
    memo.set(billId, total);
    return total;
  };
  const changed = bills.flatMap((b) => {
    const paid = Decimal.max(new Decimal(b.total).minus(outstanding(b.id)), 0).toFixed(2);
    return new Decimal(paid).eq(b.paid) ? [] : [{ billId: b.id, paid }];
  });
  await setBillsPaid(tx, companyId, changed);
}
