import { createHash } from 'node:crypto';
import { isIsoDate, type Language, utilityDay } from '@protocol/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { translate } from '../../platform/i18n.ts';
import { sheetRows } from '../../platform/imports/sheet.ts';
import type { JobContext } from '../../platform/jobs/jobs.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { waterMeterInstallations, waterMeters } from '../water/meters.schema.ts';
import { type ChunkLine, type ChunkTarget, type Holdings, saveChunk } from './import.batch.ts';
import { type ImportLine, importLines } from './import.file.ts';
import { readoutImportFiles } from './readouts.schema.ts';
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

/** Who each line is: the consumer by code (handheld) or by the meter on it (drive-by), with the route. */
async function consumersOf(db: Tx, companyId: number, source: ImportSource) {
  const byKey = new Map<string, { id: number; routeId: number | null }>();
  if (source === 4) {
    const rows = await db
      .select({ id: waterConsumers.id, code: waterConsumers.code, routeId: waterConsumers.routeId })
      .from(waterConsumers)
      .where(eq(waterConsumers.companyId, companyId));
    for (const r of rows) byKey.set(compact(r.code), { id: r.id, routeId: r.routeId });
  } else {
    const rows = await db
      .select({ id: waterConsumers.id, serial: waterMeters.serialNumber, routeId: waterConsumers.routeId })
      .from(waterMeterInstallations)
      .innerJoin(waterMeters, eq(waterMeters.id, waterMeterInstallations.meterId))
      .innerJoin(waterConsumers, eq(waterConsumers.id, waterMeterInstallations.consumerId))
      .where(
        and(eq(waterMeterInstallations.companyId, companyId), isNull(waterMeterInstallations.removedOn)),
      );
    for (const r of rows) byKey.set(r.serial.trim(), { id: r.id, routeId: r.routeId });
  }
  return byKey;
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
  const [file] = await db.select().from(readoutImportFiles).where(eq(readoutImportFiles.id, payload.fileId));
  if (!file) throw new Error('The uploaded file is gone');
  const content = Buffer.from(file.content);
  const digest = createHash('sha256').update(content).digest('hex').slice(0, 24);
  const lines = importLines(await sheetRows(content), payload.source);
  if (!lines)
    return {
      lines: [
        {
          line: 1,
          result: -1,
          reference: '',
          message: translate(payload.language, 'readouts.import.columns'),
        },
      ],
      success: 0,
      warnings: 0,
      failed: 1,
    };
  return importReadingLines(
    { db, progress, signal },
    payload,
    `import-${job.id}`,
    lines,
    (line) => `imp:${digest}:${line.line}`,
  );
}

/** A refusal as the job's error, in the operator's language (the import panel shows it as it is). */
function inWords<T>(t: (key: string, params?: Record<string, string | number>) => string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const field = error.fieldErrors?.[0];
    throw new Error(field ? t(field.key, field.params) : t(error.key, error.params));
  }
}

/** Lines saved per transaction: a few set queries each, whatever its size. */
export const IMPORT_CHUNK = 1000;
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
  const who = await consumersOf(db, payload.companyId, payload.source);
  const months = await periodMonths(db, payload.companyId, payload);
  const target: ChunkTarget = {
    ...payload,
    ...inWords(t, () => periodOfYear(payload, months)),
    months,
    holder,
    leaseSeconds: LEASE_SECONDS,
    thresholds: await thresholdsOf(db, payload.companyId),
  };
  // The form of each line first; what passes is saved by chunks.
  const due: { index: number; line: ChunkLine }[] = [];
  for (const [index, line] of lines.entries()) {
    const fail = (key: string, params: Record<string, string | number> = {}) => {
      outcomes[index] = { result: -1, message: t(key, params) };
    };
    const consumer = who.get(payload.source === 4 ? compact(line.code) : line.serial.trim());
    const readOn = dayOf(line.readOn);
    if (!consumer)
      fail(payload.source === 4 ? 'readouts.import.unknown_code' : 'readouts.import.unknown_meter');
    else if (consumer.routeId === null) fail('readouts.import.no_route');
    else if (!/^\d{1,9}$/.test(line.reading)) fail('readouts.import.bad_reading', { value: line.reading });
    else if (!readOn) fail('readouts.import.bad_date', { value: line.readOn });
    else
      due.push({
        index,
        line: {
          consumerId: consumer.id,
          routeId: consumer.routeId,
          reading: Number(line.reading),
          readOn,
          note: line.note || null,
          idempotencyKey: keyOf(line),
        },
      });
  }
  const holdings: Holdings = { periods: new Map(), busy: new Set() };
  await progress(0, lines.length);
  try {
    for (let from = 0; from < due.length; from += chunkSize) {
      if (signal.aborted) throw new Error('Stopped');
      const chunk = due.slice(from, from + chunkSize);
      const saved = await saveChunk(
        db,
        target,
        holdings,
        chunk.map((c) => c.line),
      );
      saved.forEach((outcome, i) => {
        const index = chunk[i]?.index ?? 0;
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
      await progress(Math.min(lines.length, (chunk.at(-1)?.index ?? 0) + 1), lines.length);
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

export async function storeImportFile(tx: Tx, companyId: number, content: Buffer): Promise<number> {
  const [row] = await tx
    .insert(readoutImportFiles)
    .values({ companyId, content })
    .returning({ id: readoutImportFiles.id });
  return row?.id ?? 0;
}

/** Told that a job ended: an import's file is no longer needed. */
export async function dropImportFile(tx: Tx, job: { kind: string; payload: unknown }): Promise<void> {
  if (job.kind !== IMPORT_JOB) return;
  const fileId = (job.payload as Partial<ImportPayload>).fileId;
  if (typeof fileId === 'number')
    await tx.delete(readoutImportFiles).where(eq(readoutImportFiles.id, fileId));
}
