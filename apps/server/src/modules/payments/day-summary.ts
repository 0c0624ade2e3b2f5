import { type CashierMethod, Decimal, moneyString } from '@protocol/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { paymentsPayments } from './payments.schema.ts';

export interface DaySummary {
  date: string;
  cashier: string;
  receipts: {
    id: number;
    receiptYear: number;
    receiptNumber: number;
    consumerCode: string;
    ownerName: string;
    kind: number | null;
    method: CashierMethod;
    amount: string;
  }[];
  byMethod: { method: CashierMethod; count: number; total: string }[];
  count: number;
  /** Money in less money returned (kind 17). */
  total: string;
}

/** A cashier's day (Z): the receipts in number order and the cash to hand in per method. */
export async function daySummary(
  tx: Tx,
  companyId: number,
  date: string,
  cashier: string,
): Promise<DaySummary> {
  const receipts = await tx
    .select({
      id: paymentsPayments.id,
      receiptYear: paymentsPayments.receiptYear,
      receiptNumber: paymentsPayments.receiptNumber,
      consumerCode: waterConsumers.code,
      ownerName: traders.fullname,
      kind: paymentsPayments.kind,
      method: paymentsPayments.method,
      amount: paymentsPayments.amount,
    })
    .from(paymentsPayments)
    .innerJoin(waterConsumers, eq(waterConsumers.id, paymentsPayments.consumerId))
    .leftJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .where(
      and(
        eq(paymentsPayments.companyId, companyId),
        eq(paymentsPayments.date, date),
        eq(paymentsPayments.cashier, cashier),
      ),
    )
    .orderBy(asc(paymentsPayments.receiptYear), asc(paymentsPayments.receiptNumber));
  const methods = new Map<CashierMethod, { count: number; total: Decimal }>();
  let total = new Decimal(0);
  for (const r of receipts) {
    const signed = r.kind === 17 ? new Decimal(r.amount).neg() : new Decimal(r.amount);
    const m = methods.get(r.method) ?? { count: 0, total: new Decimal(0) };
    methods.set(r.method, { count: m.count + 1, total: m.total.plus(signed) });
    total = total.plus(signed);
  }
  return {
    date,
    cashier,
    receipts: receipts.map((r) => ({ ...r, ownerName: r.ownerName ?? '' })),
    byMethod: [...methods].map(([method, m]) => ({ method, count: m.count, total: moneyString(m.total) })),
    count: receipts.length,
    total: moneyString(total),
  };
}
