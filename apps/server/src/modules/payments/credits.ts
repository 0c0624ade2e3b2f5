import { Decimal, paymentsErrors } from '@protocol/contracts';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../platform/errors.ts';
import type { BillCredited, BillCreditHook } from '../billing/api.ts';
import { applyCredit, lockConsumer, raiseBillDebts, syncBillsPaid } from './allocation.ts';
import { paymentsDebts, paymentsEntries } from './payments.schema.ts';

/**
 * A bill's credit on the consumer's account, in billing's crediting transaction: the bill's debt is
 * closed ('credited', nothing left to pay), a credit line of the credited amount goes on the ledger,
 * and billing learns what is still owed on its bills (so the next run carries nothing of it). What
 * was already paid of the bill stays paid (its receipts unchanged) and is now the consumer's credit:
 * the ledger's balance goes below zero by it, `creditOf` counts it, and like any credit it pays the
 * consumer's open debts at once and new debts as they are raised (`applyCredit`).
 */
export async function creditBillDebt(tx: Tx, credited: BillCredited): Promise<void> {
  const { companyId, consumerId } = credited;
  // The consumer's lock is already held (`lock` below, taken before billing locked the bill).
  await raiseBillDebts(tx, companyId, [consumerId]);
  const [debt] = await tx
    .select({ id: paymentsDebts.id, status: paymentsDebts.status })
    .from(paymentsDebts)
    .where(and(eq(paymentsDebts.companyId, companyId), eq(paymentsDebts.billId, credited.billId)))
    .for('update');
  // A debt in a settlement is owed there, in instalments: the settlement is cancelled first.
  if (debt && debt.status !== 'open') throw new AppError(409, paymentsErrors.creditInSettlement);
  if (debt) {
    await tx
      .update(paymentsDebts)
      .set({ status: 'credited', changeuser: credited.username, changedate: new Date() })
      .where(eq(paymentsDebts.id, debt.id));
  }
  if (new Decimal(credited.amount).gt(0)) {
    await tx.insert(paymentsEntries).values({
      companyId,
      consumerId,
      date: credited.date,
      type: 'credit',
      kind: 4,
      description: credited.description,
      credit: credited.amount,
      debtId: debt?.id ?? null,
    });
  }
  // What was paid of it is credit like any other: it pays the consumer's open debts, oldest first.
  await applyCredit(tx, companyId, consumerId);
  await syncBillsPaid(tx, companyId, [consumerId]);
}

/** What payments registers with billing: the consumer's lock first, then the debt. */
export const billCreditHook: BillCreditHook = {
  lock: (tx, _companyId, consumerId) => lockConsumer(tx, consumerId),
  credited: creditBillDebt,
};
