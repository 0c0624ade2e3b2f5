import { billEntryStates, Decimal, moneyString } from '@protocol/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { loadConsumerCharges } from './billing.context.ts';
import { billingBillLines, billingBills } from './billing.schema.ts';
import { lineRow } from './bills.service.ts';

/**
 * After a credit or a corrected bill, the consumer's open bills (new, editing) carry the unpaid bills
 * as a run computing them now would: their previous-balance lines are replaced by those of
 * `loadConsumerCharges` (a credited bill owes nothing any more, a corrected one owes its total), and
 * their previous balance and total follow; their own charges do not change. Without it a draft
 * computed before the credit, finalized without a rerun, would charge the credited bill again.
 */
export async function refreshCarriedBalances(
  tx: Tx,
  companyId: number,
  consumerId: number,
  username: string,
) {
  const open = await tx
    .select({
      id: billingBills.id,
      periodFrom: billingBills.periodFrom,
      periodTo: billingBills.periodTo,
      net: billingBills.net,
      vatTotal: billingBills.vatTotal,
    })
    .from(billingBills)
    .where(
      and(
        eq(billingBills.companyId, companyId),
        eq(billingBills.consumerId, consumerId),
        inArray(billingBills.entryState, [billEntryStates.new, billEntryStates.editing]),
      ),
    )
    .orderBy(asc(billingBills.periodFrom))
    .for('update');
  for (const bill of open) {
    const { unpaid } = await loadConsumerCharges(tx, companyId, [consumerId], {
      from: bill.periodFrom,
      to: bill.periodTo,
    });
    const carried = unpaid.get(consumerId) ?? [];
    const removed = await tx
      .delete(billingBillLines)
      .where(and(eq(billingBillLines.billId, bill.id), eq(billingBillLines.charge, 'previousBalance')))
      .returning({ position: billingBillLines.position });
    const [{ last } = { last: 0 }] = await tx
      .select({ last: sql<number>`coalesce(max(${billingBillLines.position}), 0)::int` })
      .from(billingBillLines)
      .where(eq(billingBillLines.billId, bill.id));
    if (removed.length === 0 && carried.length === 0) continue;
    if (carried.length > 0) {
      await tx.insert(billingBillLines).values(
        carried.map((b, i) =>
          lineRow(bill.id, last + i + 1, {
            charge: 'previousBalance',
            description: b.description,
            band: null,
            from: null,
            to: null,
            target: null,
            quantity: null,
            price: null,
            amount: b.amount,
            vatPercent: '0.00',
            sourceId: b.billId,
          }),
        ),
      );
    }
    const previous = carried.reduce((sum, b) => sum.plus(b.amount), new Decimal(0));
    await tx
      .update(billingBills)
      .set({
        previousBalance: moneyString(previous),
        total: moneyString(new Decimal(bill.net).plus(bill.vatTotal).plus(previous)),
        changeuser: username,
        changedate: new Date(),
      })
      .where(eq(billingBills.id, bill.id));
  }
}
