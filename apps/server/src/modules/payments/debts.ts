import {
  type Debt,
  type DebtSource,
  type DebtStatus,
  Decimal,
  decimalText,
  interestSettings,
  moneyString,
  parseDecimal,
} from '@protocol/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { type InterestTerms, overdueInterest } from '../../platform/domain/payments.ts';
import { generalSettings } from '../settings/settings.schema.ts';
import { raiseBillDebts } from './allocation.ts';
import { paymentsAllocations, paymentsDebts } from './payments.schema.ts';

/**
 * The debts: raised from finalized bills on first need (the billing module knows nothing of payments),
 * read with their payments for the overdue interest, oldest first.
 */

/** The company's overdue-interest terms, or null when interest is off (the default). */
export async function interestTermsOf(tx: Tx, companyId: number): Promise<InterestTerms | null> {
  const rows = await tx
    .select({ name: generalSettings.parName, value: generalSettings.parValue })
    .from(generalSettings)
    .where(
      and(
        eq(generalSettings.companyId, companyId),
        inArray(generalSettings.parName, Object.values(interestSettings)),
      ),
    );
  const value = (name: string) => rows.find((r) => r.name === name)?.value?.trim() ?? '';
  if (!['1', 'true', 'yes'].includes(value(interestSettings.enabled).toLowerCase())) return null;
  const rate = parseDecimal(value(interestSettings.rate));
  if (!rate || rate.lt(0) || rate.gte(1000)) return null;
  const grace = Number.parseInt(value(interestSettings.graceDays) || '0', 10);
  return {
    ratePercent: decimalText(rate) ?? '0',
    graceDays: Number.isFinite(grace) && grace > 0 ? grace : 0,
  };
}

export const debtColumns = {
  id: paymentsDebts.id,
  consumerId: paymentsDebts.consumerId,
  source: paymentsDebts.source,
  description: paymentsDebts.description,
  issueDate: paymentsDebts.issueDate,
  dueDate: paymentsDebts.dueDate,
  amount: paymentsDebts.amount,
  paid: paymentsDebts.paid,
  rfCode: paymentsDebts.rfCode,
  status: paymentsDebts.status,
};
export interface DebtRow {
  id: number;
  consumerId: number;
  source: DebtSource;
  description: string;
  issueDate: string;
  dueDate: string;
  amount: string;
  paid: string;
  rfCode: string | null;
  status: DebtStatus;
}

/** Debts as the API shows them, with their interest to `asOf` (from their allocations' dates). */
export async function withInterest(
  tx: Tx,
  rows: DebtRow[],
  terms: InterestTerms | null,
  asOf: string,
): Promise<Debt[]> {
  const payments = new Map<number, { date: string; amount: string }[]>();
  if (terms && rows.length > 0) {
    const allocations = await tx
      .select({
        debtId: paymentsAllocations.debtId,
        date: paymentsAllocations.date,
        amount: paymentsAllocations.amount,
      })
      .from(paymentsAllocations)
      .where(
        inArray(
          paymentsAllocations.debtId,
          rows.map((r) => r.id),
        ),
      );
    for (const a of allocations) payments.set(a.debtId, [...(payments.get(a.debtId) ?? []), a]);
  }
  return rows.map((row) => ({
    ...row,
    rfCode: row.rfCode ?? '',
    remaining: moneyString(new Decimal(row.amount).minus(row.paid)),
    interest:
      terms && row.status === 'open'
        ? overdueInterest(
            { amount: row.amount, dueDate: row.dueDate, payments: payments.get(row.id) ?? [] },
            terms,
            asOf,
          )
        : '0.00',
  }));
}

/** The open, unpaid debts of consumers, oldest due first (what a payment settles in order). */
export async function openDebtRows(
  tx: Tx,
  companyId: number,
  consumerIds: readonly number[],
): Promise<DebtRow[]> {
  if (consumerIds.length === 0) return [];
  await raiseBillDebts(tx, companyId, consumerIds);
  return tx
    .select(debtColumns)
    .from(paymentsDebts)
    .where(
      and(
        eq(paymentsDebts.companyId, companyId),
        inArray(paymentsDebts.consumerId, [...consumerIds]),
        eq(paymentsDebts.status, 'open'),
        sql`${paymentsDebts.paid} < ${paymentsDebts.amount}`,
      ),
    )
    .orderBy(asc(paymentsDebts.dueDate), asc(paymentsDebts.id));
}

export const sumOf = (values: readonly string[]) =>
  moneyString(values.reduce((total, v) => total.plus(v), new Decimal(0)));
