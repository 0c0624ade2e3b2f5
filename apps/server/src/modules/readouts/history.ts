import { and, desc, eq, gte, isNotNull, isNull, lt, or, type SQLWrapper, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { readoutReadings, readoutRoutePeriods } from './readouts.schema.ts';

/*
 * The reading history of consumers, asked one way wherever it is read: the grid's previous reading
 * and seasonal average, the close's estimates, a consumer's history. Every query here answers all
 * the consumers it is given at once (a route, an import's chunk), never one query a consumer.
 */

export interface PeriodKey {
  routeId: number;
  year: number;
  period: number;
}

/** `column` is one of `ids`: one array parameter, however many ids (a chunk's thousand). */
export const anyOf = (column: SQLWrapper, ids: number[]) => sql`${column} = ANY(${sql.param(ids)}::int[])`;

/** The route's period `key` of the company (its row is unique). */
export const routePeriodIs = (companyId: number, key: PeriodKey) =>
  and(
    eq(readoutRoutePeriods.companyId, companyId),
    eq(readoutRoutePeriods.routeId, key.routeId),
    eq(readoutRoutePeriods.year, key.year),
    eq(readoutRoutePeriods.period, key.period),
  );

/** Readings of earlier periods than `key` (year, period): the history of the consumers. */
const earlier = (key: Pick<PeriodKey, 'year' | 'period'>) =>
  or(
    lt(readoutRoutePeriods.year, key.year),
    and(eq(readoutRoutePeriods.year, key.year), lt(readoutRoutePeriods.period, key.period)),
  );

/**
 * Each consumer's latest reading before `key`'s period, by consumer (an estimate counts: the next
 * actual one corrects it).
 */
export async function previousReadings(
  tx: Tx,
  consumerIds: number[],
  key: Pick<PeriodKey, 'year' | 'period'>,
) {
  const rows = await tx
    .selectDistinctOn([readoutReadings.consumerId], {
      consumerId: readoutReadings.consumerId,
      meterId: readoutReadings.meterId,
      id: readoutReadings.id,
      reading: readoutReadings.reading,
      readOn: readoutReadings.readOn,
      estimated: readoutReadings.estimated,
      consumption: readoutReadings.consumption,
    })
    .from(readoutReadings)
    .innerJoin(readoutRoutePeriods, eq(readoutRoutePeriods.id, readoutReadings.routePeriodId))
    .where(
      and(
        anyOf(readoutReadings.consumerId, consumerIds),
        isNull(readoutReadings.supersededAt),
        isNotNull(readoutReadings.reading),
        earlier(key),
      ),
    )
    .orderBy(readoutReadings.consumerId, desc(readoutRoutePeriods.year), desc(readoutRoutePeriods.period));
  return new Map(rows.map((p) => [p.consumerId, p]));
}

export interface PastConsumption {
  year: number;
  period: number;
  fromDate: string;
  toDate: string;
  consumption: number;
}

/**
 * The consumptions actually read (no estimates, none superseded, none negative) of each consumer
 * in periods before `key`'s, by consumer: what the seasonal average and the estimates come from.
 */
export async function pastConsumptions(
  tx: Tx,
  consumerIds: number[],
  key: Pick<PeriodKey, 'year' | 'period'>,
): Promise<Map<number, PastConsumption[]>> {
  const past = new Map<number, PastConsumption[]>();
  if (consumerIds.length === 0) return past;
  const rows = await tx
    .select({
      consumerId: readoutReadings.consumerId,
      year: readoutRoutePeriods.year,
      period: readoutRoutePeriods.period,
      fromDate: readoutRoutePeriods.fromDate,
      toDate: readoutRoutePeriods.toDate,
      consumption: readoutReadings.consumption,
    })
    .from(readoutReadings)
    .innerJoin(readoutRoutePeriods, eq(readoutRoutePeriods.id, readoutReadings.routePeriodId))
    .where(
      and(
        anyOf(readoutReadings.consumerId, consumerIds),
        isNull(readoutReadings.supersededAt),
        eq(readoutReadings.estimated, false),
        gte(readoutReadings.consumption, 0),
        earlier(key),
      ),
    );
  for (const { consumerId, consumption, ...period } of rows) {
    const list = past.get(consumerId) ?? [];
    list.push({ ...period, consumption: consumption ?? 0 });
    past.set(consumerId, list);
  }
  return past;
}

/** A consumer's readings: the current ones and every one they replaced, latest first. */
export function readingsOf(tx: Tx, companyId: number, consumerId: number) {
  return tx
    .select({
      id: readoutReadings.id,
      year: readoutRoutePeriods.year,
      period: readoutRoutePeriods.period,
      months: readoutRoutePeriods.months,
      reading: readoutReadings.reading,
      readOn: readoutReadings.readOn,
      consumption: readoutReadings.consumption,
      source: readoutReadings.source,
      estimated: readoutReadings.estimated,
      flags: readoutReadings.flags,
      note: readoutReadings.note,
      superseded: sql<boolean>`${readoutReadings.supersededAt} IS NOT NULL`,
      createuser: readoutReadings.createuser,
    })
    .from(readoutReadings)
    .innerJoin(readoutRoutePeriods, eq(readoutRoutePeriods.id, readoutReadings.routePeriodId))
    .where(and(eq(readoutReadings.companyId, companyId), eq(readoutReadings.consumerId, consumerId)))
    .orderBy(
      sql`${readoutRoutePeriods.year} DESC, ${readoutRoutePeriods.period} DESC, ${readoutReadings.id} DESC`,
    );
}
