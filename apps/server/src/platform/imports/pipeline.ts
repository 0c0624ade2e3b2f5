import { errorKeys, type ImportError, type Language } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { principalOf } from '../auth.ts';
import { AppError } from '../errors.ts';
import { requestLanguage, translate } from '../i18n.ts';
import { type JobContext, JobError, type JobQueue, JobStopped, jobAborted } from '../jobs/jobs.ts';
import type { Storage } from '../storage.ts';
import { dropImportFile, type ImportFileTable, readImportFile, storeImportFile } from './files.ts';
import { ImportFileLimitError, isXlsx, limitErrorLine } from './limits.ts';
import { checkUploadedImport, uploadedSheet } from './upload.ts';

/*
 * The one import pipeline: the stored upload (size, type and IMPORT_LIMITS checked
 * here, once) → every row read and checked into a report (line, column, why in the uploader's
 * language) → a dry run stops there and writes nothing → the import writes the checked rows in
 * chunks, each chunk one transaction, with progress, and stops between chunks when its owner aborts
 * it (`POST /api/imports/{job}/abort`) → the result (counts, errors, each row's outcome), also as a
 * file (`GET /api/imports/{job}/result`). A module gives only its parts (`ImportSpec`); its writes
 * must be idempotent (upserts by a natural key), so a rerun, or a run again after a crash, changes
 * nothing twice.
 */

type Params = Record<string, string | number>;

/** A bad row: its line, its column (a header as the file writes it, or a catalog key), why. */
export interface RowProblem {
  line: number;
  column?: string;
  columnKey?: string;
  key: string;
  params?: Params;
}

/** Thrown by a module's `read` for a file it cannot use at all (a column missing, no rows). */
export class ImportRefused extends Error {
  constructor(
    readonly key: string,
    readonly params: Params = {},
    readonly column = '',
  ) {
    super(key);
  }
}

/** What every import's job carries; `options` is the module's own (e.g. a readings period). */
export interface ImportPayload<O = unknown> {
  /** Marks a pipeline job: the abort and result routes serve only these. */
  pipeline: 1;
  fileId: number;
  dryRun: boolean;
  language: Language;
  companyId: number;
  username: string;
  userId: number;
  requestId: string;
  options: O;
  /** Set by the owner's abort; read between chunks. */
  abort?: boolean;
}

/** How a row's outcome stands: written, written with a warning (or already there), or not written. */
export type OutcomeLevel = 'success' | 'warning' | 'failed';

/** A written row's outcome as `apply` answers it: a catalog key, or a key with its level and params. */
export type Outcome = string | { key: string; level?: OutcomeLevel; params?: Params };

/**
 * The outcome of a run of consecutive written rows, as the result file lists them: their first and
 * last line, a catalog key and, when not a plain success, its level and params. Runs, not rows: a
 * register of 100,000 rows, all new, is a few runs, and the job's result (which the jobs list
 * answers) stays small. Rows with params are a run each (their texts differ).
 */
export type OutcomeRun =
  | [from: number, to: number, key: string]
  | [from: number, to: number, key: string, level: OutcomeLevel, params: Params];

/** A line of a per-line import that is not a plain success: its level and why, translated. */
export interface LineNote {
  line: number;
  level: Exclude<OutcomeLevel, 'success'>;
  message: string;
}

/** What every import's job answers; a module's counts come beside these. */
export interface ImportReport {
  dryRun: boolean;
  rows: number;
  errors: ImportError[];
  /** Rows written so far (the import), in whole chunks. */
  applied: number;
  /** The owner stopped it between chunks: the chunks before stay written, none after. */
  aborted: boolean;
  outcomes: OutcomeRun[];
}

/** What a per-line import answers beside: its lines by level, and every line not a plain success. */
export interface PerLineReport {
  success: number;
  warnings: number;
  failed: number;
  lines: LineNote[];
}

export interface ImportRun<O, C> {
  db: Db;
  payload: ImportPayload<O>;
  jobId: number;
  /** What `prepare` loaded once for the run (a company's code definition, a mask, caches). */
  context: C;
}

/** How an upload of the import is accepted: its largest size, its types, the keys of its refusals. */
export interface ImportUpload {
  maxBytes: number;
  /** The names of the text files it takes beside .xlsx; null for .xlsx only. */
  csvName: RegExp | null;
  noFile: string;
  fileType: string;
}

/** A module's parts of its import. `Row` (as read) and `Checked` (as written) carry their line. */
export interface ImportSpec<
  O,
  C,
  Row extends { line: number },
  Checked extends { line: number },
  Counts extends Record<string, number>,
> {
  /** The job kind (the module declares `jobs: { [kind]: importJobOf(spec) }`). */
  kind: string;
  /** The module's table of stored uploads (platform/imports/files.ts). */
  files: ImportFileTable;
  upload: ImportUpload;
  /** Rows per transaction. */
  chunkSize: number;
  /**
   * A bad row is recorded (a failed line) and skipped, and the other rows are written; without it a
   * bad row refuses the whole file (nothing written). A per-line import's report adds `PerLineReport`.
   */
  perLine?: boolean;
  counts(): Counts;
  prepare(db: Db, payload: ImportPayload<O>, jobId: number): Promise<C>;
  /** The file's rows; throws ImportFileLimitError or ImportRefused for a file it cannot use. */
  read(file: Buffer, run: ImportRun<O, C>): Promise<Row[]>;
  /** Every row checked (lookups per file, not per row); writes nothing. The problems, and the good rows. */
  check(rows: Row[], run: ImportRun<O, C>): Promise<{ problems: RowProblem[]; checked: Checked[] }>;
  /** Writes one chunk of checked rows in `tx`; answers each row's outcome, in order. */
  apply(tx: Tx, rows: Checked[], run: ImportRun<O, C>, counts: Counts): Promise<Outcome[]>;
  /** Once, in the last chunk's transaction, when every chunk is written (e.g. one audit line). */
  finish?(tx: Tx, run: ImportRun<O, C>, counts: Counts): Promise<void>;
  /**
   * Once the writing ends, however it ends (written, aborted, failed): lets go of what `apply` took
   * for the run beyond its transactions (e.g. the routes an import holds).
   */
  release?(run: ImportRun<O, C>): Promise<void>;
}

type AnySpec = ImportSpec<never, never, { line: number }, { line: number }, Record<string, number>>;

const refusedAt = (language: Language, error: unknown): ImportError | null => {
  if (error instanceof ImportFileLimitError) return { ...limitErrorLine(error, language), column: '' };
  if (error instanceof ImportRefused)
    return { line: 1, column: error.column, reason: translate(language, error.key, error.params) };
  return null;
};

/** Whether the owner asked the job to stop (read between chunks, from the job's own row). */
async function abortAsked(db: Db, jobId: number): Promise<boolean> {
  const [row] = rowsOf<{ abort: boolean | null }>(
    await db.execute(sql`SELECT (payload->>'abort')::boolean AS abort FROM jobs WHERE id = ${jobId}`),
  );
  return row?.abort === true;
}

/** The job of an import: read, check, and (unless a dry run, or a row is bad) apply in chunks. */
export function importJobOf<
  O,
  C,
  Row extends { line: number },
  Checked extends { line: number },
  Counts extends Record<string, number>,
>(spec: ImportSpec<O, C, Row, Checked, Counts>) {
  return async ({
    payload,
    db,
    progress,
    signal,
    job,
  }: JobContext<ImportPayload<O>>): Promise<ImportReport & Partial<PerLineReport> & Counts> => {
    const counts = spec.counts();
    const report: ImportReport & Partial<PerLineReport> & Counts = {
      ...counts,
      dryRun: payload.dryRun,
      rows: 0,
      errors: [],
      applied: 0,
      aborted: false,
      outcomes: [],
      ...(spec.perLine ? { success: 0, warnings: 0, failed: 0, lines: [] } : {}),
    };
    const t = (key: string, params: Params = {}) => translate(payload.language, key, params);
    /** A per-line report's counts and notes, from its bad rows and its written rows' outcomes. */
    const tally = () => {
      if (!spec.perLine) return;
      const notes: LineNote[] = report.errors.map((e) => ({
        line: e.line,
        level: 'failed',
        message: e.reason,
      }));
      let warnings = 0;
      let failed = report.errors.length;
      let success = 0;
      for (const [from, to, key, level, params] of report.outcomes) {
        const size = to - from + 1;
        if (!level || level === 'success') success += size;
        else {
          if (level === 'warning') warnings += size;
          else failed += size;
          const message = t(key, params);
          for (let line = from; line <= to; line++) notes.push({ line, level, message });
        }
      }
      notes.sort((a, b) => a.line - b.line);
      Object.assign(report, { success, warnings, failed, lines: notes });
    };
    const stop = () => {
      report.aborted = true;
      Object.assign(report, counts);
      tally();
      return new JobStopped(report);
    };
    if (payload.abort) throw stop();
    const file = await readImportFile(db, spec.files, payload.fileId);
    if (!file) throw new JobError(errorKeys.jobFileGone);
    const run: ImportRun<O, C> = {
      db,
      payload,
      jobId: job.id,
      context: await spec.prepare(db, payload, job.id),
    };
    let rows: Row[];
    try {
      rows = await spec.read(file, run);
    } catch (error) {
      const refused = refusedAt(payload.language, error);
      if (!refused) throw error;
      report.errors.push(refused);
      tally();
      return report;
    }
    report.rows = rows.length;
    await progress(0, rows.length, 'check');
    const { problems, checked } = await spec.check(rows, run);
    report.errors = problems
      .map((p) => ({
        line: p.line,
        column: p.columnKey ? t(p.columnKey) : (p.column ?? ''),
        reason: t(p.key, p.params),
      }))
      .sort((a, b) => a.line - b.line);
    if (payload.dryRun || (!spec.perLine && report.errors.length > 0)) {
      await progress(rows.length, rows.length, 'check');
      tally();
      return report;
    }
    // Per line, a bad row is skipped (and reported), whatever the module's `checked` holds.
    const bad = new Set(problems.map((p) => p.line));
    const due = bad.size === 0 ? checked : checked.filter((row) => !bad.has(row.line));
    await progress(0, due.length, 'import');
    try {
      for (let at = 0; at < due.length; at += spec.chunkSize) {
        if (signal.aborted) throw jobAborted();
        if (await abortAsked(db, job.id)) throw stop();
        const chunk = due.slice(at, at + spec.chunkSize);
        const last = at + spec.chunkSize >= due.length;
        // Counted on a copy: a chunk that rolls back counts nothing.
        const chunkCounts = { ...counts };
        const outcomes = await db.transaction(async (tx) => {
          const done = await spec.apply(tx, chunk, run, chunkCounts);
          if (last) await spec.finish?.(tx, run, chunkCounts);
          return done;
        });
        Object.assign(counts, chunkCounts);
        for (const [i, row] of chunk.entries()) addOutcome(report.outcomes, row.line, outcomes[i] ?? '');
        report.applied += chunk.length;
        await progress(report.applied, due.length, 'import');
      }
    } finally {
      await spec.release?.(run);
    }
    tally();
    return Object.assign(report, counts);
  };
}

/** A written row's outcome, joined to the run of the line before when it has the same key, level and no params. */
function addOutcome(runs: OutcomeRun[], line: number, outcome: Outcome): void {
  const { key, level = 'success', params = {} } = typeof outcome === 'string' ? { key: outcome } : outcome;
  const plain = level === 'success' && Object.keys(params).length === 0;
  const last = runs.at(-1);
  // Only the next line joins a run: a skipped line (a bad row, a blank one) is in none.
  if (last && last[1] + 1 === line && last[2] === key) {
    const [, , , lastLevel = 'success', lastParams = {}] = last;
    if (Object.keys(params).length === 0 && Object.keys(lastParams).length === 0 && lastLevel === level) {
      last[1] = line;
      return;
    }
  }
  runs.push(plain ? [line, line, key] : [line, line, key, level, params]);
}

/** Told that a job ended: an import's stored upload is no longer needed. */
export function importFileDropper(spec: { kind: string; files: ImportFileTable }) {
  return async (tx: Tx, job: { kind: string; payload: unknown }): Promise<void> => {
    if (job.kind !== spec.kind) return;
    await dropImportFile(tx, spec.files, (job.payload as Partial<ImportPayload>).fileId);
  };
}

/**
 * The upload of an import, checked before any job: a multipart file part (an .xlsx, or a text file
 * its `csvName` takes) or, for an .xlsx-only import, the request's body; 400 without a file, 413
 * above its size, 415 of another type, 413/415 beyond IMPORT_LIMITS.
 */
export async function uploadedImport(request: FastifyRequest, upload: ImportUpload): Promise<Buffer> {
  // `isMultipart` is there only where the routes' plugin accepts uploads (`acceptOneFile`).
  if (typeof request.isMultipart === 'function' && request.isMultipart())
    return uploadedSheet(request, { ...upload, csvName: upload.csvName ?? /(?!)/ });
  const body = request.body;
  if (body == null || (Buffer.isBuffer(body) && body.length === 0)) throw new AppError(400, upload.noFile);
  // A body of another type (JSON, a form) reaches here parsed, not as bytes.
  if (!Buffer.isBuffer(body)) throw new AppError(415, upload.fileType);
  if (body.length > upload.maxBytes)
    throw new AppError(413, 'error.payload_too_large', { mb: upload.maxBytes / 1024 / 1024 });
  if (!isXlsx(body)) throw new AppError(415, upload.fileType);
  await checkUploadedImport(body);
  return body;
}

/** Stores the upload and queues its job (a dry run or the import), both or neither; answers the job. */
export async function startImport<O>(
  deps: { db: Db; jobs: JobQueue; storage: Storage },
  spec: Pick<AnySpec, 'kind' | 'files' | 'upload'>,
  request: FastifyRequest,
  start: { companyId: number; dryRun: boolean; options: O },
): Promise<number> {
  const content = await uploadedImport(request, spec.upload);
  const principal = principalOf(request);
  return deps.jobs.enqueueWith(
    deps.db,
    { kind: spec.kind, companyId: start.companyId, owner: principal.userId, maxAttempts: 2 },
    async (tx): Promise<ImportPayload<O>> => ({
      pipeline: 1,
      fileId: await storeImportFile(tx, deps.storage, spec.files, start.companyId, content),
      dryRun: start.dryRun,
      language: requestLanguage(request.cookies?.locale, request.headers['accept-language']),
      companyId: start.companyId,
      username: principal.username,
      userId: principal.userId,
      requestId: request.id,
      options: start.options,
    }),
  );
}
