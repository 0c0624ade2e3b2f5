import { periodStates, type ReadoutThresholds } from '@protocol/contracts';
import { eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { updatedBy } from '../../platform/audit-columns.ts';
import { AppError } from '../../platform/errors.ts';
import { readoutReadings, readoutRoutePeriods } from './readouts.schema.ts';
import { assess, readingRowOf } from './readouts.service.ts';
import { consumerRows } from './sheet.ts';

/*
 * An import's writes, a chunk of lines at a time, in one transaction per chunk: the routes' periods
 * held, what each consumer read before loaded with a few set queries (the lines already matched to
 * their consumers and keys seen before, import.service.ts), each line assessed as one
 * saved reading is (`assess`: same checks, same flags), and the readings written with multi-row
 * statements. A crash leaves whole chunks; a rerun finds their idempotency keys and adds nothing.
 */

/** What a chunk's lines are saved as: the company, the period, the holder and its lease. */
export interface ChunkTarget {
  companyId: number;
  year: number;
  period: number;
  /** Months and dates of the period, for the routes' period rows made on their first reading. */
  months: number;
  fromDate: string;
  toDate: string;
  source: number;
  username: string;
  holder: string;
  leaseSeconds: number;
  thresholds: ReadoutThresholds;
}

/** A line of the file already matched to its consumer and checked for form. */
export interface ChunkLine {
  consumerId: number;
  routeId: number;
  reading: number;
  readOn: string;
  note: string | null;
  idempotencyKey: string;
  /** Its idempotency key was saved before (the same file again, or a rerun after a crash). */
  seen: boolean;
}

/** What became of a line: saved (with its flags), already imported, or refused with the reason. */
export type ChunkOutcome =
  | { saved: true; consumption: number; flags: string[] }
  | { saved: false; already: true }
  | { saved: false; already: false; key: string; params: Record<string, string | number> };

/** The periods of the routes the import holds so far (route → period), and those it could not. */
export interface Holdings {
  periods: Map<number, { id: number; state: number }>;
  busy: Set<number>;
}

const refused = (key: string, params: Record<string, string | number> = {}): ChunkOutcome => ({
  saved: false,
  already: false,
  key,
  params,
});

/**
 * Holds the routes' periods not met before, in one statement: made where missing (held from the
 * start), taken where free, lapsed or already this holder's; someone else's stay busy.
 */
async function holdNew(tx: Tx, target: ChunkTarget, holdings: Holdings, routeIds: number[]) {
  const fresh = routeIds.filter((id) => !holdings.periods.has(id) && !holdings.busy.has(id));
  if (fresh.length === 0) return;
  const now = new Date();
  const heldUntil = new Date(now.getTime() + target.leaseSeconds * 1000);
  const taken = await tx
    .insert(readoutRoutePeriods)
    .values(
      fresh.map((routeId) => ({
        companyId: target.companyId,
        routeId,
        year: target.year,
        period: target.period,
        months: target.months,
        fromDate: target.fromDate,
        toDate: target.toDate,
        heldBy: target.holder,
        heldUntil,
        createuser: target.holder,
      })),
    )
    .onConflictDoUpdate({
      target: [
        readoutRoutePeriods.companyId,
        readoutRoutePeriods.routeId,
        readoutRoutePeriods.year,
        readoutRoutePeriods.period,
      ],
      set: { heldBy: target.holder, heldUntil },
      setWhere: or(
        isNull(readoutRoutePeriods.heldBy),
        isNull(readoutRoutePeriods.heldUntil),
        lte(readoutRoutePeriods.heldUntil, now),
        eq(readoutRoutePeriods.heldBy, target.holder),
      ),
    })
    .returning({
      id: readoutRoutePeriods.id,
      routeId: readoutRoutePeriods.routeId,
      state: readoutRoutePeriods.state,
    });
  for (const p of taken) holdings.periods.set(p.routeId, { id: p.id, state: p.state });
  for (const id of fresh) if (!holdings.periods.has(id)) holdings.busy.add(id);
}

/** The values of a reading row as an import saves it. */
type ReadingValues = typeof readoutReadings.$inferInsert;

/** Saves a chunk of lines in a transaction of its own (a smart-meter pull's chunk). */
export const saveChunk = (db: Db, target: ChunkTarget, holdings: Holdings, lines: ChunkLine[]) =>
  db.transaction((tx) => saveChunkIn(tx, target, holdings, lines));

/**
 * Saves a chunk of lines in `tx` and answers each line's outcome, in order. Two lines of one
 * consumer are each assessed (against the same previous reading) and the later one is kept, as
 * saving them one after the other would.
 */
export async function saveChunkIn(
  tx: Tx,
  target: ChunkTarget,
  holdings: Holdings,
  lines: ChunkLine[],
): Promise<ChunkOutcome[]> {
  const outcomes: (ChunkOutcome | null)[] = lines.map(() => null);
  await holdNew(tx, target, holdings, [...new Set(lines.map((l) => l.routeId))]);
  lines.forEach((line, i) => {
    if (holdings.busy.has(line.routeId)) outcomes[i] = refused('readouts.busy');
  });

  lines.forEach((line, i) => {
    if (outcomes[i]) return;
    if (line.seen) outcomes[i] = { saved: false, already: true };
    else if (holdings.periods.get(line.routeId)?.state === periodStates.finalized)
      outcomes[i] = refused('readouts.finalized');
  });

  const open = lines.filter((_, i) => !outcomes[i]);
  const routeIds = [...new Set(open.map((l) => l.routeId))];
  const rows =
    open.length === 0
      ? []
      : await consumerRows(
          tx,
          target.companyId,
          target,
          { routeIds, consumerIds: [...new Set(open.map((l) => l.consumerId))] },
          new Map(routeIds.map((id) => [id, holdings.periods.get(id)?.id ?? null])),
        );
  const rowOf = new Map(rows.map((r) => [r.consumerId, r]));

  // Each line assessed; the latest line of a consumer is the reading kept.
  const kept = new Map<number, { values: ReadingValues; existing: number | null; line: number }>();
  lines.forEach((line, i) => {
    if (outcomes[i]) return;
    const row = rowOf.get(line.consumerId);
    const period = holdings.periods.get(line.routeId);
    if (!row || !period || row.routeId !== line.routeId) {
      outcomes[i] = refused('readouts.not_on_route');
      return;
    }
    let assessed: ReturnType<typeof assess>;
    try {
      assessed = assess(row, line.reading, target.thresholds);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const field = error.fieldErrors?.[0];
      outcomes[i] = field ? refused(field.key, field.params) : refused(error.key, error.params);
      return;
    }
    outcomes[i] = { saved: true, consumption: assessed.value ?? 0, flags: assessed.flags };
    kept.set(line.consumerId, {
      line: i,
      existing: row.reading?.id ?? null,
      values: {
        companyId: target.companyId,
        routePeriodId: period.id,
        consumerId: line.consumerId,
        ...readingRowOf(row, assessed, {
          reading: line.reading,
          readOn: line.readOn,
          source: target.source,
          unableReason: null,
          note: line.note,
          idempotencyKey: line.idempotencyKey,
        }),
        createuser: target.username,
      },
    });
  });

  const inserts = [...kept.values()].filter((k) => k.existing === null);
  const updates = [...kept.values()].filter((k) => k.existing !== null);
  if (inserts.length > 0) {
    // A key someone else saved meanwhile is theirs: that line was already imported.
    const written = await insertReadings(tx, target, inserts);
    for (const k of inserts)
      if (!written.has(k.values.idempotencyKey ?? '')) outcomes[k.line] = { saved: false, already: true };
  }
  if (updates.length > 0) await updateReadings(tx, target.username, updates);
  // A route's period turns from new to being edited with its first reading.
  const touched = new Set([...kept.values()].map((k) => k.values.routePeriodId));
  const opening = [...holdings.periods.values()].filter(
    (p) => p.state === periodStates.new && touched.has(p.id),
  );
  if (opening.length > 0) {
    await tx
      .update(readoutRoutePeriods)
      .set({ state: periodStates.editing, ...updatedBy(target.username) })
      .where(
        inArray(
          readoutRoutePeriods.id,
          opening.map((p) => p.id),
        ),
      );
    for (const p of opening) p.state = periodStates.editing;
  }
  return outcomes as ChunkOutcome[];
}

/** The rows of a chunk's statement, as one JSON parameter: one statement, however many rows. */
const recordset = (rows: { values: ReadingValues; existing: number | null }[]) =>
  JSON.stringify(
    rows.map(({ values: v, existing }) => ({
      id: existing,
      route_period_id: v.routePeriodId,
      consumer_id: v.consumerId,
      meter_id: v.meterId,
      reading: v.reading,
      read_on: v.readOn,
      source: v.source,
      note: v.note,
      previous_reading: v.previousReading,
      consumption: v.consumption,
      basis: v.basis,
      flags: v.flags,
      review: v.review,
      corrects_id: v.correctsId,
      idempotency_key: v.idempotencyKey,
    })),
  );
const recordsetColumns = sql`id int, route_period_id int, consumer_id int, meter_id int, reading int, read_on date,
  source smallint, note text, previous_reading int, consumption int, basis text, flags text[],
  review smallint, corrects_id int, idempotency_key text`;

/** New readings in one statement; answers the keys written (not those already there). */
async function insertReadings(
  tx: Tx,
  target: ChunkTarget,
  inserts: { values: ReadingValues; existing: number | null }[],
) {
  const result = await tx.execute(sql`
    INSERT INTO ${readoutReadings} (company_id, route_period_id, consumer_id, meter_id, reading, read_on,
      source, note, previous_reading, consumption, basis, flags, review, estimated, corrects_id,
      idempotency_key, createuser)
    SELECT ${target.companyId}::int, v.route_period_id, v.consumer_id, v.meter_id, v.reading, v.read_on,
      v.source, v.note, v.previous_reading, v.consumption, v.basis, v.flags, v.review, false,
      v.corrects_id, v.idempotency_key, ${target.username}::text
    FROM jsonb_to_recordset(${recordset(inserts)}::jsonb) AS v(${recordsetColumns})
    ON CONFLICT (company_id, idempotency_key) DO NOTHING
    RETURNING idempotency_key`);
  return new Set(
    (result as unknown as { rows: { idempotency_key: string }[] }).rows.map((r) => r.idempotency_key),
  );
}

/** The period's readings the grid (or an earlier import) saved, replaced by the file's in one statement. */
async function updateReadings(
  tx: Tx,
  username: string,
  updates: { values: ReadingValues; existing: number | null }[],
) {
  const at = new Date().toISOString();
  await tx.execute(sql`
    UPDATE ${readoutReadings} AS r SET
      meter_id = v.meter_id, reading = v.reading, read_on = v.read_on, source = v.source,
      unable_reason = NULL, note = v.note, previous_reading = v.previous_reading,
      consumption = v.consumption, basis = v.basis, flags = v.flags, review = v.review,
      estimated = false, corrects_id = v.corrects_id, idempotency_key = v.idempotency_key,
      updateuser = ${username}, updatedate = ${at}::timestamptz,
      changeuser = ${username}, changedate = ${at}::timestamptz
    FROM jsonb_to_recordset(${recordset(updates)}::jsonb) AS v(${recordsetColumns})
    WHERE r.id = v.id`);
}
