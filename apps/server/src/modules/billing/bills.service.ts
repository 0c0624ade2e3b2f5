import {
  type Bill,
  type BillLine,
  billEntryStates,
  billRfCode,
  type ComputedBill,
  Decimal,
  moneyString,
  PERIOD_CHARGE_KIND,
} from '@protocol/contracts';
import { and, asc, desc, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Principal } from '../../platform/auth.ts';
import { computeBill } from '../../platform/domain/billing.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { nextNumber, seriesOfKind } from '../finance/api.ts';
import { financeSeries } from '../finance/finance.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { waterConsumerTransactions } from '../water/meters.schema.ts';
import {
  asAppError,
  type BillingConsumer,
  type BillingContext,
  billInputFor,
  type ConsumerCharges,
  loadBillingContext,
  loadConsumerCharges,
} from './billing.context.ts';
import { billingBillLines, billingBills } from './billing.schema.ts';

/** The bills as stored records: compute and upsert, read, finalize with a number of the finance series. */

export const billingErrors = {
  finalized: 'billing.error.finalized',
  noSeries: 'billing.error.no_series',
  dateBeforeLast: 'billing.error.date_before_last',
} as const;

export const consumerColumns = {
  id: waterConsumers.id,
  propertyUsageId: waterConsumers.propertyUsageId,
  invoicePolicyId: waterConsumers.invoicePolicyId,
  pipeDiameterId: waterConsumers.pipeDiameterId,
  sewerageIndicatorId: waterConsumers.sewerageIndicatorId,
  specialRegulationId: waterConsumers.specialRegulationId,
  specialFrom: waterConsumers.specialFrom,
  specialTo: waterConsumers.specialTo,
};

async function consumerOf(tx: Tx, companyId: number, consumerId: number): Promise<BillingConsumer> {
  const [consumer] = await tx
    .select(consumerColumns)
    .from(waterConsumers)
    .where(and(eq(waterConsumers.id, consumerId), eq(waterConsumers.companyId, companyId)));
  if (!consumer) throw notFound();
  return consumer;
}

export function compute(
  context: BillingContext,
  consumer: BillingConsumer,
  charges: ConsumerCharges,
  period: { from: string; to: string },
  consumption: string,
) {
  try {
    const input = billInputFor(context, consumer, charges, period, consumption);
    return { bill: computeBill(input), expiredays: input.expiredays };
  } catch (error) {
    throw asAppError(error);
  }
}

/** The "try it" panel: the bill a consumer would get, computed exactly as a stored one, stored nowhere. */
export async function tryBill(
  db: Db,
  companyId: number,
  request: { consumerId: number; from: string; to: string; consumption: string },
): Promise<ComputedBill> {
  const consumer = await consumerOf(db, companyId, request.consumerId);
  const context = await loadBillingContext(db, companyId);
  const charges = await loadConsumerCharges(db, companyId, [consumer.id], request);
  return compute(context, consumer, charges, request, request.consumption).bill;
}

const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export interface BillReadings {
  periodLabel: string;
  previousReading: number | null;
  previousDate: string | null;
  currentReading: number | null;
  currentDate: string | null;
  consumption: string;
  issueDate: string;
}

/**
 * Computes and stores one consumer's bill of a period (kind 1) in the caller's transaction: inserted,
 * or recomputed in place while it is open (`ON CONFLICT … WHERE entry_state IN (0, 1)`), its lines
 * replaced. A billing run calls this per consumer with a context and charges loaded once per batch.
 * Answers the bill's id, or null when the period's bill is already finalized.
 */
export async function storeBill(
  tx: Tx,
  principal: Principal,
  companyId: number,
  context: BillingContext,
  charges: ConsumerCharges,
  consumer: BillingConsumer,
  period: { from: string; to: string },
  readings: BillReadings,
): Promise<number | null> {
  const { bill, expiredays } = compute(context, consumer, charges, period, readings.consumption);
  const values = billValues(bill, expiredays, period, readings);
  const [stored] = await tx
    .insert(billingBills)
    .values({
      ...values,
      companyId,
      consumerId: consumer.id,
      periodFrom: period.from,
      kind: PERIOD_CHARGE_KIND,
      createuser: principal.username,
    })
    .onConflictDoUpdate({
      // The period's own bill: a corrected bill of the period is outside the (partial) unique index.
      target: [billingBills.consumerId, billingBills.periodFrom, billingBills.kind],
      targetWhere: sql`replaces_id IS NULL`,
      set: {
        ...values,
        entryState: billEntryStates.editing,
        updateuser: principal.username,
        updatedate: new Date(),
      },
      // Open bills only: finalized (9) and finalized-then-carried (−2) ones are never recomputed.
      setWhere: sql`${billingBills.entryState} IN (${billEntryStates.new}, ${billEntryStates.editing})`,
    })
    .returning({ id: billingBills.id, rfCode: billingBills.rfCode });
  if (!stored) return null;
  if (stored.rfCode === null) {
    await tx
      .update(billingBills)
      .set({ rfCode: billRfCode(companyId, stored.id) })
      .where(eq(billingBills.id, stored.id));
  }
  await tx.delete(billingBillLines).where(eq(billingBillLines.billId, stored.id));
  await tx.insert(billingBillLines).values(bill.lines.map((line, i) => lineRow(stored.id, i + 1, line)));
  return stored.id;
}

/** The stored columns of a computed bill (what a recompute replaces). */
export const billValues = (
  bill: ComputedBill,
  expiredays: number,
  period: { to: string },
  readings: BillReadings,
) => ({
  periodTo: period.to,
  periodLabel: readings.periodLabel,
  issueDate: readings.issueDate,
  dueDate: addDays(readings.issueDate, expiredays),
  previousReading: readings.previousReading,
  previousDate: readings.previousDate,
  currentReading: readings.currentReading,
  currentDate: readings.currentDate,
  consumption: bill.consumption,
  billedConsumption: bill.billedConsumption,
  net: bill.net,
  vatTotal: bill.vatTotal,
  previousBalance: bill.previousBalance,
  total: bill.total,
  vatBreakdown: bill.vat,
});

export const lineRow = (billId: number, position: number, line: BillLine) => ({
  billId,
  position,
  charge: line.charge,
  description: line.description,
  band: line.band,
  fromDate: line.from,
  toDate: line.to,
  target: line.target,
  quantity: line.quantity,
  price: line.price,
  amount: line.amount,
  vatPercent: line.vatPercent,
  sourceId: line.sourceId,
});

/** POST /api/billing/bills: one consumer's bill of a period with the readings given. */
export async function saveBill(
  db: Db,
  principal: Principal,
  companyId: number,
  request: BillReadings & { consumerId: number; from: string; to: string },
  requestId: string,
): Promise<Bill> {
  return db.transaction(async (tx) => {
    const consumer = await consumerOf(tx, companyId, request.consumerId);
    const context = await loadBillingContext(tx, companyId);
    const charges = await loadConsumerCharges(tx, companyId, [consumer.id], request);
    const id = await storeBill(tx, principal, companyId, context, charges, consumer, request, request);
    if (id === null) throw new AppError(409, billingErrors.finalized);
    await recordAudit(tx, {
      entity: 'billing.bill',
      entityId: id,
      action: 'save',
      companyId,
      user: principal,
      requestId,
    });
    return getBill(tx, companyId, id);
  });
}

export async function getBill(db: Tx, companyId: number, id: number): Promise<Bill> {
  const [row] = await db
    .select({
      bill: billingBills,
      consumerCode: waterConsumers.code,
      supplyAddress: waterConsumers.supplyAddress,
      ownerName: traders.fullname,
      series: financeSeries.code,
    })
    .from(billingBills)
    .innerJoin(waterConsumers, eq(waterConsumers.id, billingBills.consumerId))
    .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .leftJoin(financeSeries, eq(financeSeries.id, billingBills.seriesId))
    .where(and(eq(billingBills.id, id), eq(billingBills.companyId, companyId)));
  if (!row) throw notFound();
  const lines = await db
    .select()
    .from(billingBillLines)
    .where(eq(billingBillLines.billId, id))
    .orderBy(asc(billingBillLines.position));
  const { bill } = row;
  // One after another: `db` may be a transaction, one connection that runs one statement at a time.
  const corrects =
    bill.correctsId === null ? undefined : await numberedBill(db, eq(billingBills.id, bill.correctsId));
  const creditedBy = await numberedBill(db, eq(billingBills.correctsId, bill.id));
  const replaces =
    bill.replacesId === null ? undefined : await numberedBill(db, eq(billingBills.id, bill.replacesId));
  const replacesCredit =
    bill.replacesId === null
      ? undefined
      : await numberedBill(db, eq(billingBills.correctsId, bill.replacesId));
  const replacedBy = await numberedBill(db, eq(billingBills.replacesId, bill.id));
  return {
    id: bill.id,
    consumerId: bill.consumerId,
    consumerCode: row.consumerCode,
    ownerName: row.ownerName ?? '',
    supplyAddress: row.supplyAddress,
    periodFrom: bill.periodFrom,
    periodTo: bill.periodTo,
    periodLabel: bill.periodLabel,
    kind: bill.kind,
    entryState: bill.entryState,
    sendStatus: bill.sendStatus,
    series: row.series,
    number: bill.number,
    year: bill.year,
    issueDate: bill.issueDate,
    dueDate: bill.dueDate,
    previousReading: bill.previousReading,
    previousDate: bill.previousDate,
    currentReading: bill.currentReading,
    currentDate: bill.currentDate,
    rfCode: bill.rfCode ?? '',
    defuser: bill.defuser,
    defdate: bill.defdate?.toISOString() ?? null,
    consumption: bill.consumption,
    billedConsumption: bill.billedConsumption,
    lines: lines.map((l) => ({
      charge: l.charge,
      description: l.description,
      band: l.band,
      from: l.fromDate,
      to: l.toDate,
      target: l.target,
      quantity: l.quantity,
      price: l.price,
      amount: l.amount,
      vatPercent: l.vatPercent,
      sourceId: l.sourceId,
    })),
    vat: bill.vatBreakdown,
    net: bill.net,
    vatTotal: bill.vatTotal,
    current: moneyString(new Decimal(bill.net).plus(bill.vatTotal)),
    previousBalance: bill.previousBalance,
    total: bill.total,
    corrects: corrects ? { id: corrects.id, number: corrects.number, issueDate: corrects.issueDate } : null,
    reason: bill.reason,
    creditedBy: creditedBy ? { id: creditedBy.id, number: creditedBy.number } : null,
    replaces: replaces
      ? {
          id: replaces.id,
          number: replaces.number,
          issueDate: replaces.issueDate,
          credit: replacesCredit?.number ?? '',
        }
      : null,
    replacedBy: replacedBy ? { id: replacedBy.id, number: replacedBy.number } : null,
  };
}

/** A numbered bill as printed (`ΛΥΔ-17/2026`): a credit's bill, a bill's credit, a replaced bill. */
async function numberedBill(db: Tx, where: SQL) {
  const [row] = await db
    .select({
      id: billingBills.id,
      series: financeSeries.code,
      number: billingBills.number,
      year: billingBills.year,
      issueDate: billingBills.issueDate,
    })
    .from(billingBills)
    .leftJoin(financeSeries, eq(financeSeries.id, billingBills.seriesId))
    .where(where);
  return row ? { ...row, number: `${row.series ?? ''}-${row.number}/${row.year}` } : undefined;
}

/**
 * Finalizing (οριστικοποίηση): the bill takes the next number of the company's water-bill series (the
 * finance counter row, gapless) and becomes immutable; its extra charges are marked billed and the
 * unpaid bills it carries are marked −2 (their balance now lives in this bill).
 */
export async function finalizeBill(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  requestId: string,
): Promise<Bill> {
  return db.transaction(async (tx) => {
    const series = await seriesOfKind(tx, companyId, 'waterBill');
    if (!series) throw new AppError(409, billingErrors.noSeries);
    await finalizeInTx(tx, principal, companyId, id, series, requestId);
    return getBill(tx, companyId, id);
  });
}

/** Finalizes one bill in the caller's transaction (a run finalizes hundreds in one). */
export async function finalizeInTx(
  tx: Tx,
  principal: Pick<Principal, 'userId' | 'username'>,
  companyId: number,
  id: number,
  series: { id: number; checkdates: boolean },
  requestId: string,
): Promise<void> {
  const [bill] = await tx
    .select({ entryState: billingBills.entryState, issueDate: billingBills.issueDate })
    .from(billingBills)
    .where(and(eq(billingBills.id, id), eq(billingBills.companyId, companyId)))
    .for('update');
  if (!bill) throw notFound();
  if (bill.entryState === billEntryStates.finalized) throw new AppError(409, billingErrors.finalized);
  const lines = await tx
    .select({ charge: billingBillLines.charge, sourceId: billingBillLines.sourceId })
    .from(billingBillLines)
    .where(eq(billingBillLines.billId, id));
  const sources = (charge: string) =>
    lines.filter((l) => l.charge === charge && l.sourceId !== null).map((l) => l.sourceId as number);
  const extras = sources('extra');
  if (extras.length > 0) {
    await tx
      .update(waterConsumerTransactions)
      .set({ billedOn: bill.issueDate })
      .where(
        and(
          eq(waterConsumerTransactions.companyId, companyId),
          inArray(waterConsumerTransactions.id, extras),
        ),
      );
  }
  const carried = sources('previousBalance');
  if (carried.length > 0) {
    await tx
      .update(billingBills)
      .set({ entryState: -2, changeuser: principal.username, changedate: new Date() })
      .where(and(eq(billingBills.companyId, companyId), inArray(billingBills.id, carried)));
  }
  await recordAudit(tx, {
    entity: 'billing.bill',
    entityId: id,
    action: 'finalize',
    companyId,
    user: principal,
    requestId,
  });
  // The number last: the counter row stays locked only until the commit.
  const taken = await nextNumber(tx, companyId, series.id, bill.issueDate);
  if (series.checkdates && taken.lastDate !== null && taken.lastDate > bill.issueDate) {
    throw new AppError(409, billingErrors.dateBeforeLast, { date: taken.lastDate });
  }
  await tx
    .update(billingBills)
    .set({
      entryState: billEntryStates.finalized,
      seriesId: series.id,
      number: taken.number,
      year: taken.year,
      defuser: principal.username,
      defdate: new Date(),
    })
    .where(eq(billingBills.id, id));
}

/** 404 unless the consumer is the company's (another company's consumer is never revealed). */
export async function assertConsumer(db: Tx, companyId: number, consumerId: number): Promise<void> {
  await consumerOf(db, companyId, consumerId);
}

/**
 * A consumer's last bills up to a period, newest period first and, within a period, as issued: the
 * bill, its credit, the corrected bill (the bill's consumption chart, the card's tab).
 */
export async function billsOfConsumer(
  db: Tx,
  companyId: number,
  consumerId: number,
  upTo?: string,
  limit = 50,
) {
  return db
    .select({
      id: billingBills.id,
      periodFrom: billingBills.periodFrom,
      periodLabel: billingBills.periodLabel,
      billedConsumption: billingBills.billedConsumption,
      total: billingBills.total,
      previousBalance: billingBills.previousBalance,
      entryState: billingBills.entryState,
      number: billingBills.number,
      year: billingBills.year,
      series: financeSeries.code,
      dueDate: billingBills.dueDate,
      kind: billingBills.kind,
      sendStatus: billingBills.sendStatus,
      rfCode: billingBills.rfCode,
      defuser: billingBills.defuser,
      defdate: billingBills.defdate,
      correctsId: billingBills.correctsId,
      creditedById: sql<
        number | null
      >`(SELECT c.id FROM billing_bills c WHERE c.corrects_id = ${billingBills.id})`,
      replacesId: billingBills.replacesId,
      replacedById: sql<
        number | null
      >`(SELECT r.id FROM billing_bills r WHERE r.replaces_id = ${billingBills.id})`,
    })
    .from(billingBills)
    .leftJoin(financeSeries, eq(financeSeries.id, billingBills.seriesId))
    .where(
      and(
        eq(billingBills.companyId, companyId),
        eq(billingBills.consumerId, consumerId),
        upTo ? lte(billingBills.periodFrom, upTo) : undefined,
      ),
    )
    .orderBy(desc(billingBills.periodFrom), asc(billingBills.id))
    .limit(limit)
    .then((rows) => rows.map((row) => ({ ...row, defdate: row.defdate?.toISOString() ?? null })));
}
