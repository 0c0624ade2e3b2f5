import { createHash } from 'node:crypto';
import { isIsoDate, type Language, utilityDay } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { translate } from '../../platform/i18n.ts';
import {
  ImportRefused,
  type ImportSpec,
  importFileDropper,
  importJobOf,
  type Outcome,
  type OutcomeLevel,
  type ImportPayload as PipelinePayload,
  type RowProblem,
} from '../../platform/imports/pipeline.ts';
import { sheetRows } from '../../platform/imports/sheet.ts';
import { type JobContext, jobAborted } from '../../platform/jobs/jobs.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { waterMeterInstallations, waterMeters } from '../water/meters.schema.ts';
import {
  type ChunkLine,
  type ChunkOutcome,
  type ChunkTarget,
  type Holdings,
  saveChunk,
  saveChunkIn,
} from './import.batch.ts';
import { type ImportLine, importLines } from './import.file.ts';
import { readoutImportFiles, readoutReadings } from './readouts.schema.ts';
import { releaseRoutePeriods } from './readouts.service.ts';
import { periodMonths, periodOfYear, thresholdsOf } from './sheet.ts';

export const IMPORT_JOB = 'readouts.import';
/** The largest readings file accepted (a 100,000-line drive-by file is about 4 MB). */
export const READOUT_IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/** Spec §3 reading source of an import: 2 smartville, 3 drive-by (AMR), 4 file (handheld). */
export type ImportSource = 2 | 3 | 4;

/** What a run of reading lines is saved as: the company, the period, who and in what language. */
export interface ImportTarget {
  companyId: number;
  source: ImportSource;
  year: number;
  period: number;
  username: string;
  language: Language;
}

/** A date of a file: ISO, DD/MM/YYYY, or a timestamp (its day in Athens); today when empty. */
function dayOf(value: string): string | null {
  if (!value) return utilityDay(new Date());
  const greek = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  const iso = greek ? `${greek[3]}-${greek[2]?.padStart(2, '0')}-${greek[1]?.padStart(2, '0')}` : value;
  if (isIsoDate(iso)) return iso;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : utilityDay(at);
}

const compact = (code: string) => code.replace(/\s+/g, '');

/** Who a line is: its consumer and route (null when unknown), and whether its key was saved before. */
interface Who {
  consumerId: number | null;
  routeId: number | null;
  seen: boolean;
}

/**
 * Who the lines of a chunk are, by their own keys only: the consumer by code (handheld) or by the
 * meter on it (drive-by, smart meters), with its route, and whether the line's idempotency key is
 * already saved, in one statement through the unique indexes. A handheld code that differs from
 * the stored one only in spaces is looked up again, compacted, for the lines still unknown.
 */
async function whoOf(db: Db, companyId: number, source: ImportSource, lines: ImportLine[], keys: string[]) {
  const refs = lines.map((l) => (source === 4 ? l.code.trim() : l.serial.trim()));
  const found = await db.execute(
    source === 4
      ? sql`SELECT x.i::int AS i, c.id AS "consumerId", c.route_id AS "routeId", r.id IS NOT NULL AS seen
          FROM unnest(${sql.param(refs)}::text[], ${sql.param(keys)}::text[]) WITH ORDINALITY AS x(ref, key, i)
          LEFT JOIN ${waterConsumers} c ON c.company_id = ${companyId} AND c.code = x.ref
          LEFT JOIN ${readoutReadings} r ON r.company_id = ${companyId} AND r.idempotency_key = x.key
          ORDER BY x.i`
      : sql`SELECT DISTINCT ON (x.i) x.i::int AS i, c.id AS "consumerId", c.route_id AS "routeId",
            r.id IS NOT NULL AS seen
          FROM unnest(${sql.param(refs)}::text[], ${sql.param(keys)}::text[]) WITH ORDINALITY AS x(ref, key, i)
          LEFT JOIN ${waterMeters} m ON m.company_id = ${companyId} AND m.serial_number = x.ref
          LEFT JOIN ${waterMeterInstallations} mi
            ON mi.meter_id = m.id AND mi.company_id = ${companyId} AND mi.removed_on IS NULL
          LEFT JOIN ${waterConsumers} c ON c.id = mi.consumer_id
          LEFT JOIN ${readoutReadings} r ON r.company_id = ${companyId} AND r.idempotency_key = x.key
          ORDER BY x.i, mi.installed_on DESC`,
  );
  const who = (found as unknown as { rows: (Who & { i: number })[] }).rows.map(({ i: _, ...w }): Who => w);
  if (source !== 4) return who;
  const unknown = [
    ...new Set(lines.flatMap((l, i) => (who[i]?.consumerId == null ? [compact(l.code)] : []))),
  ];
  if (unknown.every((code) => code === '')) return who;
  const loose = await db.execute(sql`
    SELECT * FROM (
      SELECT c.id AS "consumerId", c.route_id AS "routeId",
        regexp_replace(c.code, '[[:space:]]+', '', 'g') AS code
      FROM ${waterConsumers} c WHERE c.company_id = ${companyId}
    ) c WHERE c.code = ANY(${sql.param(unknown)}::text[])`);
  const byCode = new Map(
    (loose as unknown as { rows: { consumerId: number; routeId: number | null; code: string }[] }).rows.map(
      (r) => [r.code, r],
    ),
  );
  return who.map((w, i) => {
    const match = w.consumerId === null ? byCode.get(compact(lines[i]?.code ?? '')) : undefined;
    return match ? { ...w, consumerId: match.consumerId, routeId: match.routeId } : w;
  });
}

/** What a file's import is of: its reading source and the period its lines are saved in. */
export interface ImportOptions {
  /** Spec §3 reading source: 3 drive-by (AMR), 4 file (handheld). */
  source: 3 | 4;
  year: number;
  period: number;
}

/** Spec §3 result of a line: 1 success, 0 warning, -1 failed, with the reason in the user's language. */
export interface ImportLineResult {
  line: number;
  result: 1 | 0 | -1;
  reference: string;
  message: string;
}
export interface ImportResult {
  lines: ImportLineResult[];
  success: number;
  warnings: number;
  failed: number;
}

/**
 * Lines saved per transaction: a few set queries each, whatever its size (every list is one array
 * or JSON parameter, so no statement nears PostgreSQL's parameter limit); a crash loses at most one.
 */
export const IMPORT_CHUNK = 5000;
/** How long an import holds a route's period at most (it lets go when it ends). */
const LEASE_SECONDS = 900;

/** A line of the file with its idempotency key. */
type KeyedLine = ImportLine & { key: string };
/** A line ready to save, with its line in the file. */
type DueLine = ChunkLine & { line: number };
type Problem = { key: string; params: Record<string, string | number> };

/** What lines are saved as (the route periods held by `holder`), and the routes held so far. */
async function savingTo(db: Db, payload: ImportTarget, holder: string) {
  const months = await periodMonths(db, payload.companyId, payload);
  const target: ChunkTarget = {
    ...payload,
    ...periodOfYear(payload, months),
    months,
    holder,
    leaseSeconds: LEASE_SECONDS,
    thresholds: await thresholdsOf(db, payload.companyId),
  };
  const holdings: Holdings = { periods: new Map(), busy: new Set() };
  return { target, holdings };
}

/**
 * The per-row engine's check (a file's import and a smart-meter pull): who each line is (by its own
 * keys, a chunk of lines per statement) and its form; each line answers the line to save or why not.
 */
async function checkLines(db: Db, payload: ImportTarget, lines: KeyedLine[]): Promise<(DueLine | Problem)[]> {
  const out: (DueLine | Problem)[] = [];
  for (let from = 0; from < lines.length; from += IMPORT_CHUNK) {
    const chunk = lines.slice(from, from + IMPORT_CHUNK);
    const who = await whoOf(
      db,
      payload.companyId,
      payload.source,
      chunk,
      chunk.map((l) => l.key),
    );
    for (const [i, line] of chunk.entries()) {
      const found = who[i];
      const readOn = dayOf(line.readOn);
      const fail = (key: string, params: Record<string, string | number> = {}) => out.push({ key, params });
      if (!found || found.consumerId === null)
        fail(payload.source === 4 ? 'readouts.import.unknown_code' : 'readouts.import.unknown_meter');
      else if (found.routeId === null) fail('readouts.import.no_route');
      else if (!/^\d{1,9}$/.test(line.reading)) fail('readouts.import.bad_reading', { value: line.reading });
      else if (!readOn) fail('readouts.import.bad_date', { value: line.readOn });
      else
        out.push({
          line: line.line,
          consumerId: found.consumerId,
          routeId: found.routeId,
          reading: Number(line.reading),
          readOn,
          note: line.note || null,
          idempotencyKey: line.key,
          seen: found.seen,
        });
    }
  }
  return out;
}

/** The per-row engine's outcome of a line saveChunk answered, as a pipeline outcome. */
function outcomeOf(outcome: ChunkOutcome, alreadyKey: string, t: (key: string) => string): Outcome {
  if (!outcome.saved)
    return outcome.already
      ? { key: alreadyKey, level: 'warning' }
      : { key: outcome.key, level: 'failed', params: outcome.params };
  const [flag, ...more] = outcome.flags;
  if (flag === undefined)
    return { key: 'readouts.import.saved', params: { consumption: outcome.consumption } };
  if (more.length === 0) return { key: `readouts.flag.${flag}`, level: 'warning' };
  // Several flags at once: one line naming them all, in the import's language.
  return {
    key: 'readouts.import.flags',
    level: 'warning',
    params: { flags: outcome.flags.map((f) => t(`readouts.flag.${f}`)).join(', ') },
  };
}

interface Context {
  target: ChunkTarget;
  holdings: Holdings;
}

/**
 * The readings file's import on the platform pipeline, per line: a bad line (an unknown consumer, a
 * reading not a number) is a failed line and the others are saved, each a reading of its consumer's
 * route in the period, each route held for the import while it runs (entry answers 409 meanwhile)
 * and let go when it ends, however it ends. Each line carries an idempotency key made of the file's
 * digest and its line, so the same file twice (or a rerun after a crash) adds nothing: those lines
 * are a warning that they were already imported.
 */
export const readingsImport: ImportSpec<ImportOptions, Context, KeyedLine, DueLine, Record<string, never>> = {
  kind: IMPORT_JOB,
  files: readoutImportFiles,
  upload: {
    maxBytes: READOUT_IMPORT_MAX_BYTES,
    csvName: /\.(csv|txt)$/,
    noFile: 'readouts.import.no_file',
    fileType: 'readouts.import.file_type',
  },
  chunkSize: IMPORT_CHUNK,
  perLine: true,
  counts: () => ({}),
  prepare: (db, payload, jobId) => savingTo(db, targetOf(payload), `import-${jobId}`),
  read: async (file, { payload }) => {
    const lines = importLines(await sheetRows(file), payload.options.source);
    if (!lines) throw new ImportRefused('readouts.import.columns');
    const digest = createHash('sha256').update(file).digest('hex').slice(0, 24);
    return lines.map((line) => ({ ...line, key: `imp:${digest}:${line.line}` }));
  },
  check: async (rows, { db, payload }) => {
    const checked = await checkLines(db, targetOf(payload), rows);
    const problems: RowProblem[] = [];
    const due: DueLine[] = [];
    checked.forEach((c, i) => {
      if ('line' in c) due.push(c);
      else problems.push({ line: rows[i]?.line ?? 0, ...c });
    });
    return { problems, checked: due };
  },
  apply: async (tx, rows, { context, payload }) => {
    const t = (key: string) => translate(payload.language, key);
    const saved = await saveChunkIn(tx, context.target, context.holdings, rows);
    return saved.map((outcome) => outcomeOf(outcome, 'readouts.import.already', t));
  },
  release: ({ db, context }) => releaseHeld(db, context),
};

/** The target of a file's import, from its job. */
const targetOf = (payload: PipelinePayload<ImportOptions>): ImportTarget => ({
  companyId: payload.companyId,
  source: payload.options.source,
  year: payload.options.year,
  period: payload.options.period,
  username: payload.username,
  language: payload.language,
});

/** Lets go of the routes' periods an import held. */
async function releaseHeld(db: Db, { target, holdings }: Context): Promise<void> {
  if (holdings.periods.size > 0) await releaseRoutePeriods(db, target, [...holdings.periods.keys()]);
}

export const importJob = importJobOf(readingsImport);
export const dropReadingsFile = importFileDropper(readingsImport);

/**
 * Saves reading lines of a smart-meter pull through the same per-row engine as a file's lines, a
 * chunk at a time, each route held by `holder` while it runs, every line reported 1 success,
 * 0 warning or -1 failed with its reason. `keyOf` gives a line's idempotency key: a line already
 * saved with it reports a warning (`alreadyKey`) and adds nothing.
 */
export async function importReadingLines(
  { db, progress, signal }: Pick<JobContext<unknown>, 'db' | 'progress' | 'signal'>,
  payload: ImportTarget,
  holder: string,
  lines: ImportLine[],
  keyOf: (line: ImportLine) => string,
  alreadyKey = 'readouts.import.already',
  chunkSize = IMPORT_CHUNK,
): Promise<ImportResult> {
  const t = (key: string, params: Record<string, string | number> = {}) =>
    translate(payload.language, key, params);
  const context = await savingTo(db, payload, holder);
  const result: ImportResult = { lines: [], success: 0, warnings: 0, failed: 0 };
  const report = (line: ImportLine, level: OutcomeLevel, message: string) => {
    const value = level === 'success' ? 1 : level === 'warning' ? 0 : -1;
    result.lines.push({ line: line.line, result: value, reference: line.code || line.serial, message });
    if (value === 1) result.success++;
    else if (value === 0) result.warnings++;
    else result.failed++;
  };
  await progress(0, lines.length);
  try {
    for (let from = 0; from < lines.length; from += chunkSize) {
      if (signal.aborted) throw jobAborted();
      const chunk = lines.slice(from, from + chunkSize);
      const checked = await checkLines(
        db,
        payload,
        chunk.map((line) => ({ ...line, key: keyOf(line) })),
      );
      const due = checked.filter((c): c is DueLine => 'line' in c);
      const saved = due.length === 0 ? [] : await saveChunk(db, context.target, context.holdings, due);
      let at = 0;
      for (const [i, line] of chunk.entries()) {
        const c = checked[i];
        if (!c) continue;
        if (!('line' in c)) {
          report(line, 'failed', t(c.key, c.params));
          continue;
        }
        const outcome = outcomeOf(saved[at++] as ChunkOutcome, alreadyKey, t);
        if (typeof outcome === 'string') report(line, 'success', t(outcome));
        else report(line, outcome.level ?? 'success', t(outcome.key, outcome.params));
      }
      await progress(from + chunk.length, lines.length);
    }
  } finally {
    await releaseHeld(db, context);
  }
  await progress(lines.length, lines.length);
  return result;
}
