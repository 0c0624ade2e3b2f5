import {
  type Consumption,
  type ConsumptionBasis,
  consumptionFlags,
  correctedConsumption,
  daysBetween,
  estimateConsumption,
  estimatedReading,
  LOWER_READING_FLAG,
  type MeterContext,
  NO_ESTIMATE_FLAG,
  periodStates,
  type ReadoutRow,
  type ReadoutSheet,
  type ReadoutThresholds,
  type ReviewItem,
  readingConsumption,
  readingSources,
  reviewStates,
  type saveReadingSchema,
} from '@protocol/contracts';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { type PeriodKey, pastConsumptions, readingsOf, routePeriodIs } from './history.ts';
import { readoutReadings, readoutRoutePeriods } from './readouts.schema.ts';
import { describePeriod, loadRows, readingView, routeOf, thresholdsOf } from './sheet.ts';

/** Spec §8: an import or a billing run holds the route and period. */
export const READOUTS_BUSY = 'readouts.busy';
export const busy = () => new AppError(409, READOUTS_BUSY);
const finalized = () => new AppError(409, 'readouts.finalized');

export type SaveReadingInput = z.output<typeof saveReadingSchema>;

/** The grid's sheet: the period, the thresholds and every meter of the route in route order. */
export async function loadSheet(
  db: Db,
  companyId: number,
  key: PeriodKey,
  lang: 'el' | 'en',
): Promise<ReadoutSheet> {
  if (!(await routeOf(db, companyId, key.routeId))) throw notFound();
  const { row, ...period } = await describePeriod(db, companyId, key, lang);
  const [thresholds, rows] = await Promise.all([
    thresholdsOf(db, companyId),
    loadRows(db, companyId, key, period.id),
  ]);
  return { period, thresholds, rows };
}

/** The route's period row, made on the first reading; locked for the save that follows. */
async function openPeriod(tx: Tx, username: string, companyId: number, key: PeriodKey) {
  const locked = () =>
    tx.select().from(readoutRoutePeriods).where(routePeriodIs(companyId, key)).for('update');
  const [open] = await locked();
  if (open) return open;
  const described = await describePeriod(tx, companyId, key);
  await tx
    .insert(readoutRoutePeriods)
    .values({
      companyId,
      routeId: key.routeId,
      year: key.year,
      period: key.period,
      months: described.months,
      fromDate: described.fromDate,
      toDate: described.toDate,
      createuser: username,
    })
    .onConflictDoNothing();
  const [row] = await locked();
  if (!row) throw notFound();
  return row;
}

const isHeld = (row: { heldBy: string | null; heldUntil: Date | null }, holder?: string) =>
  row.heldBy !== null && row.heldUntil !== null && row.heldUntil > new Date() && row.heldBy !== holder;

/** The meter context of a row: what its reading is measured from. */
export function meterOf(row: ReadoutRow): MeterContext | null {
  if (row.meterId === null || row.previousReading === null || row.digits === null) return null;
  return {
    digits: row.digits,
    direction: row.direction === -1 ? -1 : 1,
    previous: row.previousReading,
    swap: row.swap,
  };
}

/**
 * The consumption, flags and review of a reading of `row`, or the field error that refuses it. A lower
 * reading nothing on the meter explains is refused without a reason (`note`); with one it is taken as
 * no consumption and flagged for review (README "Readouts").
 */
export function assess(
  row: ReadoutRow,
  reading: number,
  thresholds: ReadoutThresholds,
  note?: string | null,
): { value: number | null; basis: ConsumptionBasis | null; flags: string[] } {
  const meter = meterOf(row);
  if (!meter) throw badRequest([{ field: 'reading', key: 'readouts.no_meter', params: {} }]);
  const result: Consumption = row.previousEstimate
    ? correctedConsumption(meter, reading, row.previousEstimate.consumption)
    : readingConsumption(meter, reading);
  if (result.value === null) {
    if (note?.trim()) return { value: 0, basis: 'lower', flags: [LOWER_READING_FLAG] };
    throw badRequest([
      { field: 'reading', key: 'readouts.reading_lower', params: { previous: meter.previous } },
      { field: 'note', key: 'readouts.reading_lower_reason', params: {} },
    ]);
  }
  const total = row.previousEstimate ? result.value + row.previousEstimate.consumption : result.value;
  const flags = consumptionFlags(total, { average: row.average, active: row.active }, thresholds);
  return { ...result, flags };
}

/** What a saved reading of `row` stores, whoever took it (the grid, the phone, an import's line). */
export function readingRowOf(
  row: ReadoutRow,
  assessed: ReturnType<typeof assess>,
  taken: Pick<
    typeof readoutReadings.$inferInsert,
    'reading' | 'readOn' | 'source' | 'unableReason' | 'note' | 'idempotencyKey'
  >,
) {
  return {
    meterId: row.meterId,
    ...taken,
    previousReading: row.previousReading,
    consumption: assessed.value,
    basis: assessed.basis,
    flags: assessed.flags,
    review: assessed.flags.length > 0 ? reviewStates.pending : reviewStates.none,
    estimated: false,
    correctsId: row.previousEstimate?.readingId ?? null,
  };
}

/**
 * Saves one reading of a route's period (the grid's row, the phone's queued reading, an import's
 * line). A resend with the same idempotency key answers the first save; a held route and period is
 * a 409; a finalized one changes only through `correctReading`.
 */
export async function saveReading(
  db: Db,
  principal: Pick<Principal, 'username'>,
  companyId: number,
  input: SaveReadingInput,
  options: { source?: number; holder?: string } = {},
): Promise<ReadoutRow> {
  const key = { routeId: input.routeId, year: input.year, period: input.period };
  if (!(await routeOf(db, companyId, key.routeId))) throw notFound();
  return db.transaction(async (tx) => {
    if (input.idempotencyKey) {
      const [seen] = await tx
        .select({ consumerId: readoutReadings.consumerId, periodId: readoutReadings.routePeriodId })
        .from(readoutReadings)
        .where(
          and(
            eq(readoutReadings.companyId, companyId),
            eq(readoutReadings.idempotencyKey, input.idempotencyKey),
          ),
        );
      if (seen) {
        const [row] = await loadRows(tx, companyId, key, seen.periodId, [seen.consumerId]);
        if (row) return row;
      }
    }
    const period = await openPeriod(tx, principal.username, companyId, key);
    if (isHeld(period, options.holder)) throw busy();
    if (period.state === periodStates.finalized) throw finalized();
    const [row] = await loadRows(tx, companyId, key, period.id, [input.consumerId]);
    if (!row) throw badRequest([{ field: 'consumerId', key: 'readouts.not_on_route', params: {} }]);
    const thresholds = await thresholdsOf(tx, companyId);
    const assessed =
      input.reading === null
        ? { value: null, basis: null, flags: [] as string[] }
        : assess(row, input.reading, thresholds, input.note);
    const values = readingRowOf(row, assessed, {
      reading: input.reading,
      readOn: input.readOn,
      source: options.source ?? readingSources.entry,
      unableReason: input.reading === null ? input.unableReason : null,
      note: input.note,
      idempotencyKey: input.idempotencyKey ?? null,
    });
    const [stored] = row.reading
      ? await tx
          .update(readoutReadings)
          .set({ ...values, ...updatedBy(principal.username) })
          .where(eq(readoutReadings.id, row.reading.id))
          .returning()
      : await tx
          .insert(readoutReadings)
          .values({
            ...values,
            companyId,
            routePeriodId: period.id,
            consumerId: row.consumerId,
            createuser: principal.username,
          })
          .returning();
    if (period.state === periodStates.new)
      await tx
        .update(readoutRoutePeriods)
        .set({ state: periodStates.editing, ...updatedBy(principal.username) })
        .where(eq(readoutRoutePeriods.id, period.id));
    if (!stored) throw notFound();
    // What was read before, the average and the meter are as loaded: only the reading is new.
    return { ...row, reading: readingView(stored) };
  });
}

/** Every flagged reading of the period, waiting or accepted, in route order. */
export async function reviewList(db: Db, companyId: number, key: PeriodKey): Promise<ReviewItem[]> {
  if (!(await routeOf(db, companyId, key.routeId))) throw notFound();
  const period = await describePeriod(db, companyId, key);
  if (period.id === null) return [];
  const rows = await loadRows(db, companyId, key, period.id);
  return rows
    .filter((r) => r.reading && r.reading.flags.length > 0)
    .map((r) => ({
      readingId: r.reading?.id ?? 0,
      consumerId: r.consumerId,
      code: r.code,
      ownerName: r.ownerName,
      serialNumber: r.serialNumber,
      previousReading: r.previousReading,
      reading: r.reading?.reading ?? null,
      consumption: r.reading?.consumption ?? null,
      average: r.average,
      flags: r.reading?.flags ?? [],
      review: r.reading?.review ?? 0,
      note: r.reading?.note ?? null,
    }));
}

/** The reading of the company with its period, for a review or a correction. */
async function readingOf(tx: Tx, companyId: number, readingId: number) {
  const [found] = await tx
    .select({ reading: readoutReadings, period: readoutRoutePeriods })
    .from(readoutReadings)
    .innerJoin(readoutRoutePeriods, eq(readoutRoutePeriods.id, readoutReadings.routePeriodId))
    .where(
      and(
        eq(readoutReadings.id, readingId),
        eq(readoutReadings.companyId, companyId),
        isNull(readoutReadings.supersededAt),
      ),
    );
  if (!found) throw notFound();
  return found;
}

/** One click of the review list: the flagged reading accepted as it is. */
export async function acceptReading(
  db: Db,
  principal: Principal,
  companyId: number,
  readingId: number,
  note: string | null,
) {
  await db.transaction(async (tx) => {
    const { reading, period } = await readingOf(tx, companyId, readingId);
    if (isHeld(period)) throw busy();
    if (period.state === periodStates.finalized) throw finalized();
    await tx
      .update(readoutReadings)
      .set({ review: reviewStates.accepted, note: note ?? reading.note, ...updatedBy(principal.username) })
      .where(eq(readoutReadings.id, readingId));
  });
}

/**
 * The correction of a reading of a finalized period: the original stays in the history
 * (superseded) and the corrected one replaces it, with its consumption checked again.
 */
export async function correctReading(
  db: Db,
  principal: Principal,
  companyId: number,
  readingId: number,
  input: { reading: number; note: string | null },
): Promise<ReadoutRow> {
  return db.transaction(async (tx) => {
    const { reading: original, period } = await readingOf(tx, companyId, readingId);
    if (isHeld(period)) throw busy();
    const key = { routeId: period.routeId, year: period.year, period: period.period };
    const [row] = await loadRows(tx, companyId, key, period.id, [original.consumerId]);
    if (!row) throw notFound();
    const note = input.note ?? original.note;
    const assessed = assess(row, input.reading, await thresholdsOf(tx, companyId), note);
    const now = new Date();
    await tx
      .update(readoutReadings)
      .set({ supersededAt: now, changeuser: principal.username, changedate: now })
      .where(eq(readoutReadings.id, readingId));
    await tx.insert(readoutReadings).values({
      companyId,
      routePeriodId: period.id,
      consumerId: original.consumerId,
      meterId: original.meterId,
      reading: input.reading,
      readOn: original.readOn,
      source: original.source,
      note,
      previousReading: original.previousReading,
      consumption: assessed.value,
      basis: assessed.basis,
      flags: assessed.flags,
      // A correction is the reviewer's own reading: it needs no second review.
      review: assessed.flags.length > 0 ? reviewStates.accepted : reviewStates.none,
      correctsId: original.correctsId,
      replacesId: original.id,
      createuser: principal.username,
    });
    const [saved] = await loadRows(tx, companyId, key, period.id, [original.consumerId]);
    if (!saved) throw notFound();
    return saved;
  });
}

/** A reading's history: the current one and every one it replaced, latest first. */
export async function readingHistory(db: Db, companyId: number, consumerId: number) {
  const [consumer] = await db
    .select({ id: waterConsumers.id })
    .from(waterConsumers)
    .where(and(eq(waterConsumers.id, consumerId), eq(waterConsumers.companyId, companyId)));
  if (!consumer) throw notFound();
  return readingsOf(db, companyId, consumerId);
}

/**
 * Closes a route's period: every meter without a reading gets an estimate (same period last year,
 * else the average daily consumption × days), marked estimated; a meter with no history to estimate
 * from is flagged `no_estimate` for the review list instead (billing counts it without a reading).
 * Then the period is finalized. Readings still waiting for review stop it (400 naming them).
 */
export async function finalizePeriod(db: Db, principal: Principal, companyId: number, key: PeriodKey) {
  if (!(await routeOf(db, companyId, key.routeId))) throw notFound();
  return db.transaction(async (tx) => {
    const period = await openPeriod(tx, principal.username, companyId, key);
    if (isHeld(period)) throw busy();
    if (period.state === periodStates.finalized) throw finalized();
    const rows = await loadRows(tx, companyId, key, period.id);
    const waiting = rows.filter((r) => r.reading?.review === reviewStates.pending);
    if (waiting.length > 0)
      throw badRequest([
        { field: 'review', key: 'readouts.review_pending', params: { count: waiting.length } },
      ]);
    const missing = rows.flatMap((row) => {
      const meter = meterOf(row);
      return (row.reading && row.reading.reading !== null) || !meter ? [] : [{ row, meter }];
    });
    const estimates = await estimatesFor(
      tx,
      missing.map((m) => m.row.consumerId),
      key,
      period,
    );
    let estimated = 0;
    let noEstimate = 0;
    const inserts: (typeof readoutReadings.$inferInsert)[] = [];
    for (const { row, meter } of missing) {
      const value = estimates.get(row.consumerId) ?? null;
      const values =
        value === null
          ? // Nothing to estimate from: left without a reading, visibly, for the reviewer.
            { meterId: row.meterId, previousReading: meter.previous, flags: [NO_ESTIMATE_FLAG] }
          : {
              meterId: row.meterId,
              reading: estimatedReading(meter.previous, value, meter.digits, meter.direction),
              readOn: period.toDate,
              source: readingSources.entry,
              previousReading: meter.previous,
              consumption: value,
              basis: 'estimate',
              estimated: true,
            };
      if (value === null) noEstimate++;
      else estimated++;
      if (row.reading)
        await tx
          .update(readoutReadings)
          .set({ ...values, ...updatedBy(principal.username) })
          .where(eq(readoutReadings.id, row.reading.id));
      else
        inserts.push({
          readOn: period.toDate,
          source: readingSources.entry,
          ...values,
          companyId,
          routePeriodId: period.id,
          consumerId: row.consumerId,
          createuser: principal.username,
        });
    }
    if (inserts.length > 0) await tx.insert(readoutReadings).values(inserts);
    const now = new Date();
    await tx
      .update(readoutRoutePeriods)
      .set({
        state: periodStates.finalized,
        defuser: principal.username,
        defdate: now,
        ...updatedBy(principal.username),
      })
      .where(eq(readoutRoutePeriods.id, period.id));
    return { estimated, noEstimate };
  });
}

/**
 * The estimates of consumers' missing readings (one query for all): same period last year, else the
 * daily average of their actual readings × days of the period; none for a consumer with no history.
 */
async function estimatesFor(
  tx: Tx,
  consumerIds: number[],
  key: PeriodKey,
  period: { fromDate: string; toDate: string },
) {
  const pastOf = await pastConsumptions(tx, consumerIds, key);
  const days = daysBetween(period.fromDate, period.toDate) + 1;
  return new Map(
    consumerIds.map((consumerId) => {
      const own = pastOf.get(consumerId) ?? [];
      const same = own.find((p) => p.year === key.year - 1 && p.period === key.period);
      const value = estimateConsumption({
        sameLastYear: same?.consumption ?? null,
        history: own.map((p) => ({
          consumption: p.consumption,
          days: daysBetween(p.fromDate, p.toDate) + 1,
        })),
        days,
      });
      return [consumerId, value] as const;
    }),
  );
}

/**
 * Holds a route's period for `holder` (an import, a billing run) for at most `seconds`: entry
 * answers 409 meanwhile. Answers false when someone else holds it. The lease ends by itself.
 */
export async function holdRoutePeriod(
  db: Db,
  companyId: number,
  key: PeriodKey,
  holder: string,
  seconds = 600,
): Promise<boolean> {
  return db.transaction((tx) => holdRoutePeriodIn(tx, companyId, key, holder, seconds));
}

/** As `holdRoutePeriod`, in the caller's transaction: the hold is taken when it commits. */
export async function holdRoutePeriodIn(
  tx: Tx,
  companyId: number,
  key: PeriodKey,
  holder: string,
  seconds = 600,
): Promise<boolean> {
  const period = await openPeriod(tx, holder, companyId, key);
  if (isHeld(period, holder)) return false;
  await tx
    .update(readoutRoutePeriods)
    .set({ heldBy: holder, heldUntil: new Date(Date.now() + seconds * 1000) })
    .where(eq(readoutRoutePeriods.id, period.id));
  return true;
}

/** Lets go of a route's period held by `holder`. */
export async function releaseRoutePeriod(db: Tx, companyId: number, key: PeriodKey, holder: string) {
  await releaseRoutePeriods(db, { companyId, year: key.year, period: key.period, holder }, [key.routeId]);
}

/** Lets go of the periods of several routes held by `holder` (an import ending), in one statement. */
export async function releaseRoutePeriods(
  db: Tx,
  held: { companyId: number; year: number; period: number; holder: string },
  routeIds: number[],
) {
  await db
    .update(readoutRoutePeriods)
    .set({ heldBy: null, heldUntil: null })
    .where(
      and(
        eq(readoutRoutePeriods.companyId, held.companyId),
        inArray(readoutRoutePeriods.routeId, routeIds),
        eq(readoutRoutePeriods.year, held.year),
        eq(readoutRoutePeriods.period, held.period),
        eq(readoutRoutePeriods.heldBy, held.holder),
      ),
    );
}
