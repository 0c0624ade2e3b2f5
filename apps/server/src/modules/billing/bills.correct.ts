import {
  type Bill,
  type BillCorrection,
  billEntryStates,
  billRfCode,
  CREDIT_KIND,
  Decimal,
  moneyString,
  PERIOD_CHARGE_KIND,
  utilityDay,
} from '@protocol/contracts';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Principal } from '../../platform/auth.ts';
import { pgError, UNIQUE_VIOLATION } from '../../platform/db-errors.ts';
import type { BillInput } from '../../platform/domain/billing.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { seriesOfKind } from '../finance/api.ts';
import { financeSeries } from '../finance/finance.schema.ts';
import { consumptionFor } from '../readouts/api.ts';
import { readoutReadings, readoutRoutePeriods } from '../readouts/readouts.schema.ts';
import { lockForCredit } from './api.ts';
import { loadBillingContext, loadConsumerCharges } from './billing.context.ts';
import { billingBillLines, billingBills } from './billing.schema.ts';
import { refreshCarriedBalances } from './bills.carried.ts';
import {
  type BillReadings,
  billingErrors,
  billValues,
  compute,
  finalizeInTx,
  getBill,
  lineRow,
} from './bills.service.ts';
import { periodsOf, readingConsumers } from './runs.compute.ts';

/**
 * The corrected bill (διορθωμένος λογαριασμός): once a finalized bill is credited (kind 4, e.g. its
 * reading was wrong), the right bill of the same consumer and period is issued in its place. It is a
 * period's bill (kind 1) computed exactly as a run computes it, from the period's readings and
 * tariffs as they are today, with the credited bill's extra charges, numbered next in the water-bill
 * series and finalized at once; `replaces_id` points at the credited bill. Its debt, RF code and the
 * consumer's credit follow as for any finalized bill (payments raises them on first need).
 */

export const correctionErrors = {
  notPeriodBill: 'billing.error.correction_not_period_bill',
  notCredited: 'billing.error.correction_not_credited',
  already: 'billing.error.correction_already',
  noReading: 'billing.error.correction_no_reading',
} as const;

const printed = (series: string | null, number: number | null, year: number | null) =>
  `${series ?? ''}-${number}/${year}`;

type Original = typeof billingBills.$inferSelect;

/** The credited bill (locked to issue its correction), and what refuses its correction (409s). */
async function correctable(tx: Tx, companyId: number, id: number, lock: boolean): Promise<Original> {
  const [owner] = await tx
    .select({ consumerId: billingBills.consumerId })
    .from(billingBills)
    .where(and(eq(billingBills.id, id), eq(billingBills.companyId, companyId)));
  if (!owner) throw notFound();
  // The consumer's lock first, as a credit takes it: finalizing touches the bills a payment updates.
  if (lock) await lockForCredit(tx, companyId, owner.consumerId);
  const query = tx.select().from(billingBills).where(eq(billingBills.id, id));
  const [bill] = lock ? await query.for('update') : await query;
  if (!bill) throw notFound();
  if (bill.kind !== PERIOD_CHARGE_KIND) throw new AppError(409, correctionErrors.notPeriodBill);
  const [credit] = await tx
    .select({ id: billingBills.id })
    .from(billingBills)
    .where(and(eq(billingBills.correctsId, id), eq(billingBills.kind, CREDIT_KIND)));
  if (!credit) throw new AppError(409, correctionErrors.notCredited);
  const [existing] = await tx
    .select({ number: billingBills.number, year: billingBills.year, series: financeSeries.code })
    .from(billingBills)
    .leftJoin(financeSeries, eq(financeSeries.id, billingBills.seriesId))
    .where(eq(billingBills.replacesId, id));
  if (existing) throw alreadyCorrected(printed(existing.series, existing.number, existing.year));
  return bill;
}

const alreadyCorrected = (number: string) => new AppError(409, correctionErrors.already, { number });

/**
 * The consumer's billable reading of the bill's period (a run's: the first meter's when there are
 * two), the period as the readouts hold it, and the consumer's row the computation needs.
 */
async function periodReading(tx: Tx, companyId: number, bill: Original) {
  const noReading = () => new AppError(409, correctionErrors.noReading, { period: bill.periodLabel });
  const [key] = await tx
    .selectDistinct({ year: readoutRoutePeriods.year, period: readoutRoutePeriods.period })
    .from(readoutReadings)
    .innerJoin(readoutRoutePeriods, eq(readoutRoutePeriods.id, readoutReadings.routePeriodId))
    .where(
      and(
        eq(readoutReadings.companyId, companyId),
        eq(readoutReadings.consumerId, bill.consumerId),
        isNull(readoutReadings.supersededAt),
        eq(readoutRoutePeriods.fromDate, bill.periodFrom),
      ),
    )
    .limit(1);
  if (!key) throw noReading();
  const reading = (await consumptionFor(tx, companyId, key, { consumerIds: [bill.consumerId] })).find(
    (r) => r.consumption !== null,
  );
  if (!reading) throw noReading();
  const periods = await periodsOf(tx, companyId, [reading.routeId], key);
  const period = periods.get(reading.routeId);
  const consumer = (await readingConsumers(tx, companyId, periods, [reading], false)).get(bill.consumerId);
  if (!period || !consumer) throw noReading();
  return { reading, period, consumer };
}

/**
 * What the corrected bill is charged beside its consumption: the credited bill's extra charges (they
 * were billed on it, so the run's query no longer finds them), and the previous balance as a run
 * would carry it today plus what is still owed of the bills the credited one carried.
 */
async function chargesOf(tx: Tx, companyId: number, bill: Original, period: { from: string; to: string }) {
  const lines = await tx
    .select()
    .from(billingBillLines)
    .where(eq(billingBillLines.billId, bill.id))
    .orderBy(asc(billingBillLines.position));
  const extras: BillInput['extraCharges'] = lines.flatMap((l) =>
    l.charge === 'extra' && l.sourceId !== null
      ? [
          {
            transactionId: l.sourceId,
            date: l.fromDate ?? bill.issueDate,
            description: l.description,
            amount: l.amount,
          },
        ]
      : [],
  );
  const charges = await loadConsumerCharges(tx, companyId, [bill.consumerId], period);
  const carriedIds = lines.flatMap((l) =>
    l.charge === 'previousBalance' && l.sourceId !== null ? [l.sourceId] : [],
  );
  const carried =
    carriedIds.length === 0
      ? []
      : await tx
          .select({
            id: billingBills.id,
            label: billingBills.periodLabel,
            due: sql<string>`(${billingBills.total} - ${billingBills.paid})::text`,
          })
          .from(billingBills)
          .where(
            and(
              eq(billingBills.companyId, companyId),
              inArray(billingBills.id, carriedIds),
              sql`${billingBills.total} > ${billingBills.paid}`,
            ),
          )
          .orderBy(billingBills.periodFrom);
  const unpaid = charges.unpaid.get(bill.consumerId) ?? [];
  const previousBalance = [
    ...carried
      .filter((c) => !unpaid.some((u) => u.billId === c.id))
      .map((c) => ({ billId: c.id, description: c.label, amount: moneyString(c.due) })),
    ...unpaid,
  ];
  return {
    extras: new Map([[bill.consumerId, extras]]),
    unpaid: new Map([[bill.consumerId, previousBalance]]),
  };
}

/** The corrected bill computed through the run's computation, in the caller's transaction. */
async function computeCorrection(tx: Tx, companyId: number, bill: Original) {
  const { reading, period, consumer } = await periodReading(tx, companyId, bill);
  const span = { from: period.from, to: period.to };
  // One after another: a transaction is one connection, which runs one statement at a time.
  const context = await loadBillingContext(tx, companyId);
  const charges = await chargesOf(tx, companyId, bill, span);
  const [credit] = await tx
    .select({ issueDate: billingBills.issueDate })
    .from(billingBills)
    .where(and(eq(billingBills.correctsId, bill.id), eq(billingBills.kind, CREDIT_KIND)));
  const readings: BillReadings = {
    periodLabel: period.label,
    previousReading: reading.previousReading,
    previousDate: consumer.previousDate,
    currentReading: reading.currentReading,
    currentDate: reading.currentDate,
    consumption: String(reading.consumption),
    // Today, or the credit's date if it was issued ahead: the corrected bill never predates it.
    issueDate: [utilityDay(new Date()), credit?.issueDate ?? bill.issueDate].sort()[1] as string,
  };
  const { bill: computed, expiredays } = compute(context, consumer, charges, span, readings.consumption);
  return { computed, expiredays, span, readings };
}

async function numberOf(tx: Tx, id: number) {
  const [row] = await tx
    .select({ number: billingBills.number, year: billingBills.year, series: financeSeries.code })
    .from(billingBills)
    .leftJoin(financeSeries, eq(financeSeries.id, billingBills.seriesId))
    .where(eq(billingBills.id, id));
  return row ? printed(row.series, row.number, row.year) : '';
}

/** GET /api/billing/bills/:id/correction: the corrected bill it would issue, stored nowhere. */
export async function previewCorrection(db: Db, companyId: number, id: number): Promise<BillCorrection> {
  return db.transaction(async (tx) => {
    const bill = await correctable(tx, companyId, id, false);
    const { computed, expiredays, readings } = await computeCorrection(tx, companyId, bill);
    const values = billValues(computed, expiredays, { to: bill.periodTo }, readings);
    return {
      ...computed,
      periodLabel: readings.periodLabel,
      previousReading: readings.previousReading,
      previousDate: readings.previousDate,
      currentReading: readings.currentReading,
      currentDate: readings.currentDate,
      issueDate: readings.issueDate,
      dueDate: values.dueDate,
      replaces: {
        id: bill.id,
        number: await numberOf(tx, bill.id),
        current: moneyString(new Decimal(bill.net).plus(bill.vatTotal)),
      },
    };
  });
}

/** POST /api/billing/bills/:id/correction: issues the corrected bill, finalized, answered as a bill. */
export async function issueCorrection(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  requestId: string,
): Promise<Bill> {
  try {
    return await db.transaction(async (tx) => {
      const bill = await correctable(tx, companyId, id, true);
      const series = await seriesOfKind(tx, companyId, 'waterBill');
      if (!series) throw new AppError(409, billingErrors.noSeries);
      const { computed, expiredays, span, readings } = await computeCorrection(tx, companyId, bill);
      const [stored] = await tx
        .insert(billingBills)
        .values({
          ...billValues(computed, expiredays, span, readings),
          companyId,
          consumerId: bill.consumerId,
          periodFrom: span.from,
          kind: PERIOD_CHARGE_KIND,
          entryState: billEntryStates.editing,
          replacesId: bill.id,
          createuser: principal.username,
        })
        .returning({ id: billingBills.id });
      if (!stored) throw new Error('the corrected bill was not stored');
      await tx
        .update(billingBills)
        .set({ rfCode: billRfCode(companyId, stored.id) })
        .where(eq(billingBills.id, stored.id));
      await tx
        .insert(billingBillLines)
        .values(computed.lines.map((line, i) => lineRow(stored.id, i + 1, line)));
      await recordAudit(tx, {
        entity: 'billing.bill',
        entityId: stored.id,
        action: 'correct',
        companyId,
        user: principal,
        requestId,
        comments: String(bill.id),
      });
      // Numbered last in the water-bill series (gapless counter row), its extras and carried bills marked.
      await finalizeInTx(tx, principal, companyId, stored.id, series, requestId);
      await refreshCarriedBalances(tx, companyId, bill.consumerId, principal.username);
      return getBill(tx, companyId, stored.id);
    });
  } catch (error) {
    // Two administrators at the same moment: the consumer's lock orders them and the second reads the
    // first's bill; the unique index is the last word should the lock be missing.
    const pg = pgError(error);
    if (pg?.code === UNIQUE_VIOLATION && pg.constraint === 'billing_bills_replaces') {
      const [existing] = await db
        .select({ id: billingBills.id })
        .from(billingBills)
        .where(and(eq(billingBills.replacesId, id), eq(billingBills.companyId, companyId)));
      throw alreadyCorrected(existing ? await numberOf(db, existing.id) : '');
    }
    throw error;
  }
}
