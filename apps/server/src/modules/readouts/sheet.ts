import {
  defaultThresholds,
  monthsInForce,
  periodDates,
  periodName,
  READOUT_MAX_SETTING,
  READOUT_MULTIPLE_SETTING,
  type ReadoutRow,
  type ReadoutThresholds,
  type RoutePeriod,
  seasonalAverage,
} from '@protocol/contracts';
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { badRequest } from '../../platform/errors.ts';
import { generalSettings } from '../settings/settings.schema.ts';
import { periodicities } from '../settings/settings-tables.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { waterMeterInstallations, waterMeters } from '../water/meters.schema.ts';
import { waterRoutes, waterSectors } from '../water/parametrics.schema.ts';
import { anyOf, type PeriodKey, pastConsumptions, previousReadings, routePeriodIs } from './history.ts';
import { readoutReadings, readoutRoutePeriods } from './readouts.schema.ts';

/*
 * What the grid, the phone, the route sheet and billing read of a route's period: each meter in
 * route order with what was read before it (across a swap), its seasonal average and its reading.
 */

/**
 * Months per period of `at` (a year's period): the company's periodicity row in force then (spec §3
 * rows start at a year and period, so a company that changed its periodicity has several), four
 * when it has none.
 */
export async function periodMonths(
  tx: Tx,
  companyId: number,
  at: Pick<PeriodKey, 'year' | 'period'>,
): Promise<number> {
  const rows = await tx
    .select({
      months: periodicities.periodicityType,
      startyear: periodicities.startyear,
      startperiod: periodicities.startperiod,
    })
    .from(periodicities)
    .where(eq(periodicities.companyId, companyId));
  return monthsInForce(rows, at) ?? 4;
}

/** The thresholds of the checks from the general settings, the defaults where unset. */
export async function thresholdsOf(tx: Tx, companyId: number): Promise<ReadoutThresholds> {
  const rows = await tx
    .select({ name: generalSettings.parName, value: generalSettings.parValue })
    .from(generalSettings)
    .where(
      and(
        eq(generalSettings.companyId, companyId),
        inArray(generalSettings.parName, [READOUT_MULTIPLE_SETTING, READOUT_MAX_SETTING]),
      ),
    );
  const value = (name: string, fallback: number) => {
    const n = Number(rows.find((r) => r.name === name)?.value);
    return Number.isFinite(n) && n > 0 ? n : fallback;
  };
  return {
    multiple: value(READOUT_MULTIPLE_SETTING, defaultThresholds.multiple),
    maxConsumption: value(READOUT_MAX_SETTING, defaultThresholds.maxConsumption),
  };
}

/** The route of the company, or undefined (another company's route is as good as missing). */
export async function routeOf(tx: Tx, companyId: number, routeId: number) {
  const [route] = await tx
    .select({ id: waterRoutes.id, code: waterRoutes.code, description: waterRoutes.description })
    .from(waterRoutes)
    .where(and(eq(waterRoutes.id, routeId), eq(waterRoutes.companyId, companyId)));
  return route;
}

type PeriodRow = typeof readoutRoutePeriods.$inferSelect;

/** The dates of period `key.period` of `months` months; one past the year's last is refused. */
export function periodOfYear(key: Pick<PeriodKey, 'year' | 'period'>, months: number) {
  // A 4-month periodicity has three periods: a fourth is no period of the year.
  if (key.period > Math.floor(12 / months))
    throw badRequest([
      { field: 'period', key: 'readouts.no_such_period', params: { periods: Math.floor(12 / months) } },
    ]);
  return periodDates(key.year, key.period, months);
}

/** The route's period as stored, or as it will be when its first reading is saved. */
export async function describePeriod(
  tx: Tx,
  companyId: number,
  key: PeriodKey,
  lang: 'el' | 'en' = 'el',
): Promise<RoutePeriod & { row: PeriodRow | undefined }> {
  const [row] = await tx.select().from(readoutRoutePeriods).where(routePeriodIs(companyId, key));
  const months = row?.months ?? (await periodMonths(tx, companyId, key));
  const dates = periodOfYear(key, months);
  const held = row?.heldBy && row.heldUntil && row.heldUntil > new Date() ? row.heldBy : null;
  return {
    id: row?.id ?? null,
    routeId: key.routeId,
    year: key.year,
    period: key.period,
    months,
    name: periodName(key.year, key.period, months, lang),
    fromDate: row?.fromDate ?? dates.fromDate,
    toDate: row?.toDate ?? dates.toDate,
    state: row?.state ?? 0,
    defuser: row?.defuser ?? null,
    defdate: row?.defdate?.toISOString() ?? null,
    heldBy: held,
    row,
  };
}

/**
 * The rows of the route's period in route order; `consumerIds` narrows them (one save).
 * A consumer counts on the route while it points at it; its current meter is the one on.
 */
export async function loadRows(
  tx: Tx,
  companyId: number,
  key: PeriodKey,
  periodId: number | null,
  consumerIds?: number[],
): Promise<ReadoutRow[]> {
  const rows = await consumerRows(
    tx,
    companyId,
    key,
    { routeIds: [key.routeId], consumerIds },
    new Map([[key.routeId, periodId]]),
  );
  return rows.map(({ routeId: _, ...row }) => row);
}

/**
 * The rows of consumers of several routes in one go (an import's chunk), each with its route and
 * its reading of that route's period (`periodOf`: route to period id, null before the first reading).
 */
export async function consumerRows(
  tx: Tx,
  companyId: number,
  key: Omit<PeriodKey, 'routeId'>,
  which: { routeIds: number[]; consumerIds?: number[] | undefined },
  periodOf: Map<number, number | null>,
): Promise<(ReadoutRow & { routeId: number })[]> {
  const consumers = await tx
    .select({
      consumerId: waterConsumers.id,
      routeId: waterConsumers.routeId,
      code: waterConsumers.code,
      ownerName: traders.fullname,
      supplyAddress: waterConsumers.supplyAddress,
      status: waterConsumers.status,
      locationNotes: waterConsumers.notes,
      meterId: waterMeters.id,
      serialNumber: waterMeters.serialNumber,
      digits: waterMeters.digits,
      direction: waterMeters.direction,
      initialReading: waterMeterInstallations.initialReading,
      installedOn: waterMeterInstallations.installedOn,
    })
    .from(waterConsumers)
    .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .leftJoin(
      waterMeterInstallations,
      and(
        eq(waterMeterInstallations.consumerId, waterConsumers.id),
        isNull(waterMeterInstallations.removedOn),
      ),
    )
    .leftJoin(waterMeters, eq(waterMeters.id, waterMeterInstallations.meterId))
    .where(
      and(
        eq(waterConsumers.companyId, companyId),
        which.routeIds.length === 1
          ? eq(waterConsumers.routeId, which.routeIds[0] ?? 0)
          : anyOf(waterConsumers.routeId, which.routeIds),
        which.consumerIds ? anyOf(waterConsumers.id, which.consumerIds) : undefined,
      ),
    )
    .orderBy(sql`${waterConsumers.routePosition} NULLS LAST`, asc(waterConsumers.code));
  if (consumers.length === 0) return [];
  const ids = consumers.map((c) => c.consumerId);

  const previousOf = await previousReadings(tx, ids, key);
  const pastOf = await pastConsumptions(tx, ids, key);

  // Removed meters: the old side of a swap made since the previous reading.
  const removed = await tx
    .select({
      consumerId: waterMeterInstallations.consumerId,
      meterId: waterMeterInstallations.meterId,
      finalReading: waterMeterInstallations.finalReading,
      digits: waterMeters.digits,
    })
    .from(waterMeterInstallations)
    .innerJoin(waterMeters, eq(waterMeters.id, waterMeterInstallations.meterId))
    .where(and(anyOf(waterMeterInstallations.consumerId, ids), isNotNull(waterMeterInstallations.removedOn)));

  const periodIds = [...periodOf.values()].filter((id): id is number => id !== null);
  const current =
    periodIds.length === 0
      ? []
      : await tx
          .select()
          .from(readoutReadings)
          .where(
            and(
              inArray(readoutReadings.routePeriodId, periodIds),
              anyOf(readoutReadings.consumerId, ids),
              isNull(readoutReadings.supersededAt),
            ),
          );
  // A consumer's reading of its own route's period (one that moved route has one on the old one too).
  const currentOf = new Map(current.map((r) => [`${r.routePeriodId}:${r.consumerId}`, r]));

  return consumers.map((c) => {
    const prev = previousOf.get(c.consumerId);
    let previousReading: number | null = c.initialReading;
    let previousDate: string | null = c.installedOn;
    let swap: ReadoutRow['swap'] = null;
    let previousEstimate: ReadoutRow['previousEstimate'] = null;
    if (prev && prev.reading !== null) {
      if (prev.meterId === c.meterId) {
        previousReading = prev.reading;
        previousDate = prev.readOn;
        if (prev.estimated) previousEstimate = { readingId: prev.id, consumption: prev.consumption ?? 0 };
      } else {
        const old = removed.find((r) => r.consumerId === c.consumerId && r.meterId === prev.meterId);
        if (old?.finalReading != null)
          swap = { oldPrevious: prev.reading, oldFinal: old.finalReading, oldDigits: old.digits };
        previousDate = prev.readOn;
      }
    }
    const r = currentOf.get(`${periodOf.get(c.routeId ?? 0) ?? null}:${c.consumerId}`);
    return {
      consumerId: c.consumerId,
      routeId: c.routeId ?? 0,
      code: c.code,
      ownerName: c.ownerName,
      supplyAddress: c.supplyAddress,
      active: c.status === 1,
      meterId: c.meterId,
      serialNumber: c.serialNumber,
      digits: c.digits,
      direction: c.direction,
      locationNotes: c.locationNotes,
      previousReading: c.meterId === null ? null : previousReading,
      previousDate,
      swap,
      previousEstimate,
      average: seasonalAverage(pastOf.get(c.consumerId) ?? [], key.period),
      reading: r ? readingView(r) : null,
    };
  });
}

/** A stored reading as a row of the sheet shows it. */
export function readingView(r: typeof readoutReadings.$inferSelect): NonNullable<ReadoutRow['reading']> {
  return {
    id: r.id,
    reading: r.reading,
    readOn: r.readOn,
    source: r.source,
    consumption: r.consumption,
    basis: r.basis,
    unableReason: r.unableReason,
    note: r.note,
    flags: r.flags,
    review: r.review,
    estimated: r.estimated,
    updatedBy: r.updateuser ?? r.createuser,
  };
}

/** The company's reading routes, by sector and reading order. */
export async function routesOf(tx: Tx, companyId: number) {
  return tx
    .select({
      id: waterRoutes.id,
      code: waterRoutes.code,
      description: waterRoutes.description,
      sector: waterSectors.description,
    })
    .from(waterRoutes)
    .innerJoin(waterSectors, eq(waterSectors.id, waterRoutes.sectorId))
    .where(and(eq(waterRoutes.companyId, companyId), eq(waterRoutes.active, true)))
    .orderBy(asc(waterSectors.code), asc(waterRoutes.readingOrder), asc(waterRoutes.code));
}
