import {
  amountString,
  type Bill,
  billEntryStates,
  CREDIT_KIND,
  creditLinesOf,
  creditVatOf,
  Decimal,
  moneyString,
  utilityDay,
} from '@protocol/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { nextNumber } from '../finance/api.ts';
import { financeSeries } from '../finance/finance.schema.ts';
import { billCredited, lockForCredit } from './api.ts';
import { billingBillLines, billingBills } from './billing.schema.ts';
import { refreshCarriedBalances } from './bills.carried.ts';
import { billingErrors, getBill, lineRow } from './bills.service.ts';

/**
 * Crediting a finalized bill (πιστωτικό, spec §3 kind 4): a finalized bill is immutable, so a later
 * correction is a new document of the water-bill series' related credit series (relseqid), numbered
 * there gaplessly and finalized at once, whose lines are the bill's own lines negated. The consumer's
 * debt follows in the same transaction (payments' hook): the bill's debt is closed, and what was
 * already paid of it becomes the consumer's credit.
 */

export const creditErrors = {
  notFinalized: 'billing.error.credit_not_finalized',
  already: 'billing.error.credit_already',
  ofCredit: 'billing.error.credit_of_credit',
  noSeries: 'billing.error.no_credit_series',
} as const;

const printed = (series: string | null, number: number | null, year: number | null) =>
  `${series ?? ''}-${number}/${year}`;

/** POST /api/billing/bills/:id/credit: the credit of a finalized bill, answered as a bill. */
export async function creditBill(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  reason: string,
  requestId: string,
): Promise<Bill> {
  return db.transaction(async (tx) => {
    const creditId = await creditInTx(tx, principal, companyId, id, reason, requestId);
    return getBill(tx, companyId, creditId);
  });
}

async function creditInTx(
  tx: Tx,
  principal: Principal,
  companyId: number,
  id: number,
  reason: string,
  requestId: string,
): Promise<number> {
  const [owner] = await tx
    .select({ consumerId: billingBills.consumerId })
    .from(billingBills)
    .where(and(eq(billingBills.id, id), eq(billingBills.companyId, companyId)));
  if (!owner) throw notFound();
  await lockForCredit(tx, companyId, owner.consumerId);
  const [bill] = await tx.select().from(billingBills).where(eq(billingBills.id, id)).for('update');
  if (!bill) throw notFound();
  if (bill.correctsId !== null) throw new AppError(409, creditErrors.ofCredit);
  // Finalized, or finalized and since carried into a later bill (−2).
  if (
    bill.number === null ||
    bill.seriesId === null ||
    ![billEntryStates.finalized, -2].includes(bill.entryState)
  )
    throw new AppError(409, creditErrors.notFinalized);
  const [existing] = await tx
    .select({ number: billingBills.number, year: billingBills.year, series: financeSeries.code })
    .from(billingBills)
    .leftJoin(financeSeries, eq(financeSeries.id, billingBills.seriesId))
    .where(eq(billingBills.correctsId, id));
  if (existing)
    throw new AppError(409, creditErrors.already, {
      number: printed(existing.series, existing.number, existing.year),
    });
  const [series] = await tx
    .select({ code: financeSeries.code, relseqid: financeSeries.relseqid })
    .from(financeSeries)
    .where(and(eq(financeSeries.id, bill.seriesId), eq(financeSeries.companyId, companyId)));
  const [creditSeries] = series?.relseqid
    ? await tx
        .select({ id: financeSeries.id, code: financeSeries.code, checkdates: financeSeries.checkdates })
        .from(financeSeries)
        .where(and(eq(financeSeries.id, series.relseqid), eq(financeSeries.companyId, companyId)))
    : [];
  if (!creditSeries) throw new AppError(409, creditErrors.noSeries);

  const lines = await tx
    .select()
    .from(billingBillLines)
    .where(eq(billingBillLines.billId, id))
    .orderBy(asc(billingBillLines.position));
  const negated = creditLinesOf(lines);
  const net = new Decimal(bill.net).negated();
  const vatTotal = new Decimal(bill.vatTotal).negated();
  const today = utilityDay(new Date());
  // Today, or the bill's own date if it was issued ahead (a credit never predates its bill).
  const issueDate = [today, bill.issueDate].sort()[1] as string;
  const negate = (v: string) => amountString(new Decimal(v).negated(), 'quantity');
  const [credit] = await tx
    .insert(billingBills)
    .values({
      companyId,
      consumerId: bill.consumerId,
      periodFrom: bill.periodFrom,
      periodTo: bill.periodTo,
      periodLabel: bill.periodLabel,
      kind: CREDIT_KIND,
      entryState: billEntryStates.finalized,
      // Nothing to send by the runs' sendings: the credit is printed or mailed on its own.
      sendStatus: 0,
      issueDate,
      dueDate: issueDate,
      previousReading: bill.previousReading,
      previousDate: bill.previousDate,
      currentReading: bill.currentReading,
      currentDate: bill.currentDate,
      consumption: negate(bill.consumption),
      billedConsumption: negate(bill.billedConsumption),
      net: moneyString(net),
      vatTotal: moneyString(vatTotal),
      previousBalance: '0.00',
      total: moneyString(net.plus(vatTotal)),
      vatBreakdown: creditVatOf(bill.vatBreakdown),
      correctsId: id,
      reason,
      createuser: principal.username,
    })
    .returning({ id: billingBills.id });
  if (!credit) throw new Error('the credit was not stored');
  await tx.insert(billingBillLines).values(
    negated.map((line, i) =>
      lineRow(credit.id, i + 1, {
        charge: line.charge,
        description: line.description,
        band: line.band,
        from: line.fromDate,
        to: line.toDate,
        target: line.target,
        quantity: line.quantity,
        price: line.price,
        amount: line.amount,
        vatPercent: line.vatPercent,
        sourceId: line.sourceId,
      }),
    ),
  );
  await recordAudit(tx, {
    entity: 'billing.bill',
    entityId: credit.id,
    action: 'credit',
    companyId,
    user: principal,
    requestId,
    comments: `${id}: ${reason}`,
  });
  // The number last (gapless counter row, locked only until the commit), in the credit series.
  const taken = await nextNumber(tx, companyId, creditSeries.id, issueDate);
  if (creditSeries.checkdates && taken.lastDate !== null && taken.lastDate > issueDate)
    throw new AppError(409, billingErrors.dateBeforeLast, { date: taken.lastDate });
  await tx
    .update(billingBills)
    .set({
      seriesId: creditSeries.id,
      number: taken.number,
      year: taken.year,
      defuser: principal.username,
      defdate: new Date(),
    })
    .where(eq(billingBills.id, credit.id));
  await billCredited(tx, {
    companyId,
    consumerId: bill.consumerId,
    billId: id,
    creditId: credit.id,
    amount: moneyString(net.plus(vatTotal).negated()),
    date: issueDate,
    description: `${printed(creditSeries.code, taken.number, taken.year)} · ${bill.periodLabel}`,
    username: principal.username,
  });
  await refreshCarriedBalances(tx, companyId, bill.consumerId, principal.username);
  return credit.id;
}
