import { createHash } from 'node:crypto';
import { errorKeys, isIsoDate, type Language, utilityDay } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { translate } from '../../platform/i18n.ts';
import { dropImportFile, readImportFile, storeImportFile } from '../../platform/imports/files.ts';
import { ImportFileLimitError, limitErrorLine } from '../../platform/imports/limits.ts';
import { sheetRows } from '../../platform/imports/sheet.ts';
import { type JobContext, JobError, jobAborted } from '../../platform/jobs/jobs.ts';
import type { Storage } from '../../platform/storage.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { waterMeterInstallations, waterMeters } from '../water/meters.schema.ts';
import { type ChunkLine, type ChunkTarget, type Holdings, saveChunk } from './import.batch.ts';
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

export interface ImportPayload {
  fileId: number;
  companyId: number;
  /** Spec §3 reading source: 3 drive-by (AMR), 4 file (handheld). */
  source: 3 | 4;
  year: number;
  period: number;
  username: string;
  language: Language;
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

/**
 * The import job: every line of the file is saved as a reading of its consumer's route in the
 * period, each route held for the import while it runs (entry answers 409 meanwhile). Each line
 * carries an idempotency key made of the file's digest and its line, so the same file twice (or a
 * rerun after a crash) adds nothing: those lines report a warning that they were already imported.
 */
export async function importJob({
  payload,
  db,
  progress,
  signal,
  job,
}: JobContext<ImportPayload>): Promise<ImportResult> {
  const content = await readImportFile(db, readoutImportFiles, payload.fileId);
  if (!content) throw new JobError(errorKeys.jobFileGone);
  const digest = createHash('sha256').update(content).digest('hex').slice(0, 24);
  let lines: ImportLine[] | null;
  try {
    lines = importLines(await sheetRows(content), payload.source);
  } catch (error) {
    if (!(error instanceof ImportFileLimitError)) throw error;
    const { line, reason } = limitErrorLine(error, payload.language);
    return fileRefused(line, reason);
  }
  if (!lines) return fileRefused(1, translate(payload.language, 'readouts.import.columns'));
  return importReadingLines(
    { db, progress, signal },
    payload,
    `import-${job.id}`,
    lines,
    (line) => `imp:${digest}:${line.line}`,
  );
}

/** A file none of whose lines is read: one failed line saying why. */
const fileRefused = (line: number, message: string): ImportResult => ({
  lines: [{ line, result: -1, reference: '', message }],
  success: 0,
  warnings: 0,
  failed: 1,
});

/**
 * Lines saved per transaction: a few set queries each, whatever its size (every list is one array
 * or JSON parameter, so no statement nears PostgreSQL's parameter limit); a crash loses at most one.
 */
export const IMPORT_CHUNK = 5000;
/** How long an import holds a route's period at most (it lets go when it ends). */
const LEASE_SECONDS = 900;

/**
 * Saves reading lines (of a file or a smart-meter pull) as readings of their consumers' routes in
 * the period, a chunk at a time (import.batch.ts), each route held by `holder` while it runs (entry
 * answers 409 meanwhile), every line reported 1 success, 0 warning or -1 failed with its reason.
 * `keyOf` gives a line's idempotency key: a line already saved with it reports a warning and adds
 * nothing.
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
  const outcomes: (Omit<ImportLineResult, 'line' | 'reference'> | null)[] = lines.map(() => null);
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
  await progress(0, lines.length);
  try {
    for (let from = 0; from < lines.length; from += chunkSize) {
      if (signal.aborted) throw jobAborted();
      const chunk = lines.slice(from, from + chunkSize);
      const keys = chunk.map(keyOf);
      const who = await whoOf(db, payload.companyId, payload.source, chunk, keys);
      // The form of each line first; what passes is saved.
      const due: { index: number; line: ChunkLine }[] = [];
      for (const [i, line] of chunk.entries()) {
        const index = from + i;
        const fail = (key: string, params: Record<string, string | number> = {}) => {
          outcomes[index] = { result: -1, message: t(key, params) };
        };
        const found = who[i];
        const readOn = dayOf(line.readOn);
        if (!found || found.consumerId === null)
          fail(payload.source === 4 ? 'readouts.import.unknown_code' : 'readouts.import.unknown_meter');
        else if (found.routeId === null) fail('readouts.import.no_route');
        else if (!/^\d{1,9}$/.test(line.reading))
          fail('readouts.import.bad_reading', { value: line.reading });
        else if (!readOn) fail('readouts.import.bad_date', { value: line.readOn });
        else
          due.push({
            index,
            line: {
              consumerId: found.consumerId,
              routeId: found.routeId,
              reading: Number(line.reading),
              readOn,
              note: line.note || null,
              idempotencyKey: keys[i] ?? '',
              seen: found.seen,
            },
          });
      }
      const saved =
        due.length === 0
          ? []
          : await saveChunk(
              db,
              target,
              holdings,
              due.map((c) => c.line),
            );
      saved.forEach((outcome, i) => {
        const index = due[i]?.index ?? 0;
        if (!outcome.saved)
          outcomes[index] = outcome.already
            ? { result: 0, message: t(alreadyKey) }
            : { result: -1, message: t(outcome.key, outcome.params) };
        else if (outcome.flags.length > 0)
          outcomes[index] = {
            result: 0,
            message: outcome.flags.map((f) => t(`readouts.flag.${f}`)).join(', '),
          };
        else
          outcomes[index] = {
            result: 1,
            message: t('readouts.import.saved', { consumption: outcome.consumption }),
          };
      });
      await progress(from + chunk.length, lines.length);
    }
  } finally {
    if (holdings.periods.size > 0) await releaseRoutePeriods(db, target, [...holdings.periods.keys()]);
  }
  await progress(lines.length, lines.length);
  const result: ImportResult = { lines: [], success: 0, warnings: 0, failed: 0 };
  lines.forEach((line, index) => {
    const outcome = outcomes[index] ?? { result: -1 as const, message: '' };
    result.lines.push({ line: line.line, reference: line.code || line.serial, ...outcome });
    if (outcome.result === 1) result.success++;
    else if (outcome.result === 0) result.warnings++;
    else result.failed++;
  });
  return result;
}

/** The uploaded file, kept on the storage adapter for the job; its row goes when the job ends. */
export const storeReadingsFile = (tx: Tx, storage: Storage, companyId: number, content: Buffer) =>
  storeImportFile(tx, storage, readoutImportFiles, companyId, content);

/** Told that a job ended: an import's file is no longer needed. */
export async function dropReadingsFile(tx: Tx, job: { kind: string; payload: unknown }): Promise<void> {
  if (job.kind !== IMPORT_JOB) return;
  await dropImportFile(tx, readoutImportFiles, (job.payload as Partial<ImportPayload>).fileId);
}
