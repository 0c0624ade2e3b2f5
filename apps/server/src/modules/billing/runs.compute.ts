import {
  type BillingRunProblem,
  billCharges,
  billEntryStates,
  type ComputedBill,
  Decimal,
  moneyString,
  PERIOD_CHARGE_KIND,
  periodName,
  readingFlags,
  reviewStates,
} from '@protocol/contracts';
import { and, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { consumptionFor, type PeriodConsumption } from '../readouts/api.ts';
import { readoutReadings, readoutRoutePeriods } from '../readouts/readouts.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { waterRoutes } from '../water/parametrics.schema.ts';
import {
  type BillingConsumer,
  type BillingContext,
  type ConsumerCharges,
  loadConsumerCharges,
} from './billing.context.ts';
import { type BillReadings, compute } from './bills.service.ts';

/**
 * What a billing run and its dry run share: the routes of a scope, their periods, the consumptions
 * read in chunks, and the bills computed for a chunk with a handful of queries (no query per consumer).
 */

export const RUN_CHUNK = 500;

export interface RunScope {
  year: number;
  period: number;
  scope: 'all' | 'sectors' | 'routes';
  ids: number[];
  issueDate: string;
}

/** The company's routes a scope means, in reading order. */
export async function routesOfScope(tx: Tx, companyId: number, scope: RunScope) {
  return tx
    .select({ id: waterRoutes.id, code: waterRoutes.code })
    .from(waterRoutes)
    .where(
      and(
        eq(waterRoutes.companyId, companyId),
        scope.scope === 'routes' ? inArray(waterRoutes.id, scope.ids) : undefined,
        scope.scope === 'sectors' ? inArray(waterRoutes.sectorId, scope.ids) : undefined,
      ),
    )
    .orderBy(waterRoutes.sectorId, waterRoutes.readingOrder, waterRoutes.code);
}

export interface RoutePeriodInfo {
  from: string;
  to: string;
  label: string;
  state: number;
}

/** The reading periods of the routes (a route nobody read yet has none). */
export async function periodsOf(
  tx: Tx,
  companyId: number,
  routeIds: number[],
  key: Pick<RunScope, 'year' | 'period'>,
) {
  const rows =
    routeIds.length === 0
      ? []
      : await tx
          .select()
          .from(readoutRoutePeriods)
          .where(
            and(
              eq(readoutRoutePeriods.companyId, companyId),
              inArray(readoutRoutePeriods.routeId, routeIds),
              eq(readoutRoutePeriods.year, key.year),
              eq(readoutRoutePeriods.period, key.period),
            ),
          );
  return new Map<number, RoutePeriodInfo>(
    rows.map((r) => [
      r.routeId,
      { from: r.fromDate, to: r.toDate, label: periodName(r.year, r.period, r.months), state: r.state },
    ]),
  );
}

/** The billable readings of routes: one per consumer (the first meter's, when a consumer has two). */
export async function readingsOf(tx: Tx, companyId: number, key: RunScope, routeIds: number[]) {
  if (routeIds.length === 0) return [];
  const rows = await consumptionFor(tx, companyId, key, { routeIds });
  const seen = new Set<number>();
  return rows.filter((r) => r.consumption !== null && !seen.has(r.consumerId) && seen.add(r.consumerId));
}

export interface ComputedRunBill {
  consumerId: number;
  /** The id reserved for the bill should it be new (a run's chunk only; null in a dry run). */
  reservedId: number | null;
  /** The period's bill was there already (open) when the chunk read it: recomputed in place. */
  stored: boolean;
  period: { from: string; to: string };
  readings: BillReadings;
  bill: ComputedBill;
  expiredays: number;
}

type Problem = BillingRunProblem;

/**
 * What a chunk's bills need of each reading's consumer, in one query: the consumer, the date of the
 * reading's previous one (the same meter's last reading before it, else the meter's installation,
 * whose initial reading the consumption started from), the state of the period's bill if it has one
 * (finalized: 9, or −2 once carried: its corrected bill, if any, is final too), and, for a run, an id
 * reserved from the bills' sequence (so a new bill is written once, with the RF code its id gives;
 * the sequence looked up once a chunk, not per consumer, where it cost a catalog scan each).
 * The bill's state is a scalar subquery, one probe of the bills' partial unique index per consumer:
 * as EXISTS the planner hashed every finalized bill of the company, a scan of the whole bills table
 * per chunk.
 */
export async function readingConsumers(
  tx: Tx,
  companyId: number,
  periods: Map<number, RoutePeriodInfo>,
  chunk: PeriodConsumption[],
  reserve: boolean,
) {
  const readings = JSON.stringify(
    chunk.flatMap((r) => {
      const period = periods.get(r.routeId);
      return period
        ? [
            {
              consumer_id: r.consumerId,
              meter_id: r.meterId,
              read_on: r.currentDate,
              period_from: period.from,
            },
          ]
        : [];
    }),
  );
  const result = await tx.execute(sql`
    SELECT c.id, c.code, c.property_usage_id AS "propertyUsageId", c.invoice_policy_id AS "invoicePolicyId",
      c.pipe_diameter_id AS "pipeDiameterId", c.sewerage_indicator_id AS "sewerageIndicatorId",
      c.special_regulation_id AS "specialRegulationId", c.special_from::text AS "specialFrom",
      c.special_to::text AS "specialTo",
      coalesce(
        (SELECT max(p.read_on) FROM readout_readings p
         WHERE p.consumer_id = x.consumer_id AND p.company_id = ${companyId} AND p.superseded_at IS NULL
           AND p.reading IS NOT NULL AND p.read_on < x.read_on AND p.meter_id IS NOT DISTINCT FROM x.meter_id),
        (SELECT max(i.installed_on) FROM water_meter_installations i
         WHERE i.consumer_id = x.consumer_id AND i.meter_id = x.meter_id AND i.installed_on <= x.read_on)
      )::text AS "previousDate",
      (SELECT b.entry_state FROM billing_bills b
        WHERE b.consumer_id = c.id AND b.period_from = x.period_from AND b.kind = ${PERIOD_CHARGE_KIND}
          AND b.replaces_id IS NULL) AS "billState",
      ${reserve ? sql`nextval((SELECT pg_get_serial_sequence('billing_bills', 'id'))::regclass)::int` : sql`NULL::int`} AS "reservedId"
    FROM json_to_recordset(${readings}::json) AS x(consumer_id int, meter_id int, read_on date, period_from date)
    JOIN water_consumers c ON c.id = x.consumer_id AND c.company_id = ${companyId}`);
  const rows = (
    result as unknown as {
      rows: (BillingConsumer & {
        code: string;
        previousDate: string | null;
        billState: number | null;
        finalized: boolean;
        reservedId: number | null;
      })[];
    }
  ).rows;
  for (const row of rows) {
    row.finalized =
      row.billState !== null &&
      row.billState !== billEntryStates.new &&
      row.billState !== billEntryStates.editing;
  }
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Computes the bills of a chunk of readings: their consumers in one query, their extras and unpaid
 * bills in two more; the finalized bills are left alone. A consumer the computation refuses (no
 * tariff, a negative correction) is a problem of the run, not its end. `reserve`: ids for new bills.
 */
export async function computeChunk(
  tx: Tx,
  companyId: number,
  context: BillingContext,
  periods: Map<number, RoutePeriodInfo>,
  issueDate: string,
  chunk: PeriodConsumption[],
  reserve = false,
) {
  const consumers = await readingConsumers(tx, companyId, periods, chunk, reserve);
  const bills: ComputedRunBill[] = [];
  const problems: Problem[] = [];
  let finalized = 0;
  // Routes of one period share its dates in practice; group by them to load charges once per date span.
  const spans = new Map<string, PeriodConsumption[]>();
  for (const row of chunk) {
    const period = periods.get(row.routeId);
    if (!period) continue;
    const key = `${period.from}/${period.to}`;
    const rows = spans.get(key);
    if (rows) rows.push(row);
    else spans.set(key, [row]);
  }
  for (const [span, rows] of spans) {
    const [from, to] = span.split('/') as [string, string];
    const open = rows.filter((r) => consumers.get(r.consumerId)?.finalized === false);
    finalized += rows.filter((r) => consumers.get(r.consumerId)?.finalized).length;
    const charges = await loadConsumerCharges(
      tx,
      companyId,
      open.map((r) => r.consumerId),
      { from, to },
    );
    for (const row of open) {
      const consumer = consumers.get(row.consumerId) as NonNullable<ReturnType<typeof consumers.get>>;
      const period = periods.get(row.routeId) as RoutePeriodInfo;
      const readings: BillReadings = {
        periodLabel: period.label,
        previousReading: row.previousReading,
        previousDate: consumer.previousDate,
        currentReading: row.currentReading,
        currentDate: row.currentDate,
        consumption: String(row.consumption),
        issueDate,
      };
      try {
        const { bill, expiredays } = computeOnce(
          context,
          consumer,
          charges,
          { from, to },
          readings.consumption,
        );
        bills.push({
          consumerId: consumer.id,
          reservedId: consumer.reservedId,
          stored: consumer.billState !== null,
          period: { from, to },
          readings,
          bill,
          expiredays,
        });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        problems.push({ consumerId: consumer.id, code: consumer.code, key: error.key });
      }
    }
  }
  return { bills, problems, finalized };
}

/**
 * Bills of equal inputs are equal: within a run (its context) each distinct class of consumer
 * (tariffs, invoice policy, diameter, sewerage, regulation and its dates) and consumption of a period
 * is computed once and its bill shared, read-only, by every consumer it fits. A consumer with extra
 * charges or unpaid bills has inputs of its own and is computed on its own.
 */
const billsOfRun = new WeakMap<BillingContext, Map<string, ReturnType<typeof compute>>>();
export function computeOnce(
  context: BillingContext,
  consumer: BillingConsumer,
  charges: ConsumerCharges,
  period: { from: string; to: string },
  consumption: string,
) {
  if (charges.extras.has(consumer.id) || charges.unpaid.has(consumer.id)) {
    return compute(context, consumer, charges, period, consumption);
  }
  const key = [
    consumer.propertyUsageId,
    consumer.invoicePolicyId,
    consumer.pipeDiameterId,
    consumer.sewerageIndicatorId,
    consumer.specialRegulationId,
    consumer.specialFrom,
    consumer.specialTo,
    period.from,
    period.to,
    consumption,
  ].join('|');
  let bills = billsOfRun.get(context);
  if (!bills) {
    bills = new Map();
    billsOfRun.set(context, bills);
  }
  let computed = bills.get(key);
  if (!computed) {
    computed = compute(context, consumer, charges, period, consumption);
    bills.set(key, computed);
  }
  return computed;
}

/** Totals per charge, net, VAT and total of computed bills, summed as decimals. */
export function sumBills(bills: readonly ComputedBill[]) {
  const byCharge = new Map<string, Decimal>();
  let net = new Decimal(0);
  let vat = new Decimal(0);
  let total = new Decimal(0);
  for (const bill of bills) {
    for (const line of bill.lines) {
      byCharge.set(line.charge, (byCharge.get(line.charge) ?? new Decimal(0)).plus(line.amount));
    }
    net = net.plus(bill.net);
    vat = vat.plus(bill.vatTotal);
    total = total.plus(bill.total);
  }
  return {
    bills: bills.length,
    charges: billCharges
      .filter((c) => byCharge.has(c))
      .map((charge) => ({ charge, amount: moneyString(byCharge.get(charge) as Decimal) })),
    net: moneyString(net),
    vat: moneyString(vat),
    total: moneyString(total),
  };
}

/** The scope's active consumers, and how many of its readings the readouts review flagged. */
export async function scopeCounts(tx: Tx, companyId: number, key: RunScope, routeIds: number[]) {
  if (routeIds.length === 0) return { consumers: [] as number[], flagged: 0 };
  const consumers = await tx
    .select({ id: waterConsumers.id })
    .from(waterConsumers)
    .where(
      and(
        eq(waterConsumers.companyId, companyId),
        inArray(waterConsumers.routeId, routeIds),
        eq(waterConsumers.status, 1),
      ),
    );
  const [flagged] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(readoutReadings)
    .innerJoin(readoutRoutePeriods, eq(readoutRoutePeriods.id, readoutReadings.routePeriodId))
    .where(
      and(
        eq(readoutReadings.companyId, companyId),
        inArray(readoutRoutePeriods.routeId, routeIds),
        eq(readoutRoutePeriods.year, key.year),
        eq(readoutRoutePeriods.period, key.period),
        isNull(readoutReadings.supersededAt),
        or(
          sql`${readoutReadings.flags} && ${sql.raw(`ARRAY[${readingFlags.map((f) => `'${f}'`).join(',')}]::text[]`)}`,
          eq(readoutReadings.review, reviewStates.pending),
        ),
      ),
    );
  return { consumers: consumers.map((c) => c.id), flagged: flagged?.n ?? 0 };
}

/** How many consumers `readingsOf` answers for the routes, counted (a run's progress total). */
export async function readingsCount(tx: Tx, companyId: number, key: RunScope, routeIds: number[]) {
  if (routeIds.length === 0) return 0;
  const [row] = await tx
    .select({ n: sql<number>`count(DISTINCT ${readoutReadings.consumerId})::int` })
    .from(readoutReadings)
    .innerJoin(readoutRoutePeriods, eq(readoutRoutePeriods.id, readoutReadings.routePeriodId))
    .where(
      and(
        eq(readoutReadings.companyId, companyId),
        eq(readoutRoutePeriods.year, key.year),
        eq(readoutRoutePeriods.period, key.period),
        inArray(readoutRoutePeriods.routeId, routeIds),
        isNull(readoutReadings.supersededAt),
        isNotNull(readoutReadings.consumption),
      ),
    );
  return row?.n ?? 0;
}
