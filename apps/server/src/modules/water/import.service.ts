import {
  type ConsumerImportResult,
  consumerImportColumns,
  consumerImportLevelHeaders,
  consumerStatuses,
  type ImportError,
  isIsoDate,
  isValidVatNumber,
  type Language,
  normalizeVatNumber,
} from '@protocol/contracts';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { translate } from '../../platform/i18n.ts';
import type { JobContext } from '../../platform/jobs/jobs.ts';
import { traders } from '../traders/traders.schema.ts';
import { type CodeLevels, requireDefinition, resolveCode } from './consumer-code.ts';
import { waterConsumers } from './consumers.schema.ts';
import { ImportFileError, type ImportRow, readImportFile } from './import.file.ts';
import { waterImportFiles } from './import.schema.ts';
import { waterMeterInstallations, waterMeters } from './meters.schema.ts';
import { waterPropertyUsages } from './parametrics.schema.ts';

export const IMPORT_JOB = 'water.consumers.import';
/** Rows written per transaction: a rerun after a crash repeats at most one chunk's work, harmlessly. */
const CHUNK = 250;

export interface ImportPayload {
  fileId: number;
  dryRun: boolean;
  language: Language;
  companyId: number;
  username: string;
  userId: number;
}

interface CheckedRow {
  line: number;
  code: string;
  levels: CodeLevels;
  vatnumber: string | null;
  lastname: string;
  firstname: string;
  supplyAddress: string;
  supplyPostalCode: string | null;
  usageId: number | null;
  connectionDate: string | null;
  status: number;
  meter: { serialNumber: string; digits: number; initialReading: number } | null;
}

const header = (key: string) => consumerImportColumns.find((c) => c.key === key)?.header ?? key;

/** DD/MM/YYYY (as the utility writes it) or YYYY-MM-DD, as an ISO day; null when neither. */
function isoDay(text: string): string | null {
  const shown = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const iso = shown ? `${shown[3]}-${shown[2]?.padStart(2, '0')}-${shown[1]?.padStart(2, '0')}` : text;
  return isIsoDate(iso) ? iso : null;
}

/** Every row checked; nothing is written. Errors name the line, the column and why, in `language`. */
async function checkRows(db: Db, companyId: number, rows: ImportRow[], language: Language) {
  const def = await requireDefinition(db, companyId);
  const levelHeaders = consumerImportLevelHeaders(def);
  const errors: ImportError[] = [];
  const checked: CheckedRow[] = [];
  const usages = new Map(
    (
      await db
        .select({ id: waterPropertyUsages.id, code: waterPropertyUsages.code })
        .from(waterPropertyUsages)
        .where(eq(waterPropertyUsages.companyId, companyId))
    ).map((u) => [u.code, u.id]),
  );
  const seen = new Map<string, number>();
  const serials = new Map<string, number>();
  for (const row of rows) {
    const fail = (column: string, key: string, params: Record<string, string | number> = {}) =>
      errors.push({ line: row.line, column, reason: translate(language, key, params) });
    const before = errors.length;
    let resolved: Awaited<ReturnType<typeof resolveCode>> | null = null;
    try {
      resolved = await resolveCode(db, companyId, row.parts);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      for (const fe of error.fieldErrors ?? []) {
        const level = Number(fe.field.split('.')[1] ?? 0);
        fail(
          levelHeaders[level] ?? levelHeaders[0] ?? '',
          fe.key,
          fe.params as Record<string, string | number>,
        );
      }
    }
    if (resolved) {
      const first = seen.get(resolved.code);
      if (first !== undefined)
        fail(levelHeaders[levelHeaders.length - 1] ?? '', 'validation.import_duplicate_code', {
          line: first,
        });
      else seen.set(resolved.code, row.line);
    }
    const v = row.values;
    const vat = v.vatnumber ? normalizeVatNumber(v.vatnumber) : null;
    if (vat !== null && !isValidVatNumber(vat)) fail(header('vatnumber'), 'validation.vatnumber');
    if (!v.lastname && vat === null) fail(header('lastname'), 'validation.required');
    if (!v.supplyAddress) fail(header('supplyAddress'), 'validation.required');
    if (v.supplyPostalCode && !/^\d{5}$/.test(v.supplyPostalCode))
      fail(header('supplyPostalCode'), 'validation.postal_code');
    const usageId = v.usage ? (usages.get(v.usage) ?? null) : null;
    if (v.usage && usageId === null) fail(header('usage'), 'validation.level_value_unknown');
    const connectionDate = v.connectionDate ? isoDay(v.connectionDate) : null;
    if (v.connectionDate && connectionDate === null) fail(header('connectionDate'), 'validation.day');
    const status = v.status === '' || v.status === undefined ? consumerStatuses.active : Number(v.status);
    if (!(Object.values(consumerStatuses) as number[]).includes(status))
      fail(header('status'), 'validation.invalid');
    let meter: CheckedRow['meter'] = null;
    if (v.serialNumber) {
      const digits = v.digits ? Number(v.digits) : 5;
      const initialReading = v.initialReading ? Number(v.initialReading) : 0;
      if (!Number.isInteger(digits) || digits < 3 || digits > 9) fail(header('digits'), 'validation.invalid');
      if (!Number.isInteger(initialReading) || initialReading < 0)
        fail(header('initialReading'), 'validation.invalid');
      const other = serials.get(v.serialNumber);
      if (other !== undefined)
        fail(header('serialNumber'), 'validation.import_duplicate_serial', { line: other });
      serials.set(v.serialNumber, row.line);
      meter = { serialNumber: v.serialNumber, digits, initialReading };
    }
    if (errors.length === before && resolved) {
      checked.push({
        line: row.line,
        code: resolved.code,
        levels: resolved.levels,
        vatnumber: vat,
        lastname: v.lastname ?? '',
        firstname: v.firstname ?? '',
        supplyAddress: v.supplyAddress ?? '',
        supplyPostalCode: v.supplyPostalCode || null,
        usageId,
        connectionDate,
        status,
        meter,
      });
    }
  }
  // A serial on another consumer of the company (not the row's own, which a rerun finds again).
  const wanted = checked.filter((r) => r.meter).map((r) => r.meter?.serialNumber ?? '');
  if (wanted.length > 0) {
    const on = await db
      .select({ serial: waterMeters.serialNumber, code: waterConsumers.code })
      .from(waterMeterInstallations)
      .innerJoin(waterMeters, eq(waterMeters.id, waterMeterInstallations.meterId))
      .innerJoin(waterConsumers, eq(waterConsumers.id, waterMeterInstallations.consumerId))
      .where(
        and(
          eq(waterMeters.companyId, companyId),
          inArray(waterMeters.serialNumber, wanted),
          isNull(waterMeterInstallations.removedOn),
        ),
      );
    const codeOf = new Map(on.map((m) => [m.serial, m.code]));
    for (const row of checked) {
      const at = row.meter ? codeOf.get(row.meter.serialNumber) : undefined;
      if (at !== undefined && at !== row.code)
        errors.push({
          line: row.line,
          column: header('serialNumber'),
          reason: translate(language, 'validation.meter_serial_taken'),
        });
    }
  }
  errors.sort((a, b) => a.line - b.line);
  return { errors, checked };
}

/** The trader of an ΑΦΜ in the company, else a new one (an individual when a first name is given). */
async function traderOf(
  tx: Tx,
  companyId: number,
  row: CheckedRow,
  username: string,
  cache: Map<string, number>,
) {
  const key = row.vatnumber ?? `name:${row.lastname}|${row.firstname}`;
  const known = cache.get(key);
  if (known !== undefined) return { id: known, created: false };
  if (row.vatnumber) {
    const [found] = await tx
      .select({ id: traders.id })
      .from(traders)
      .where(and(eq(traders.companyId, companyId), eq(traders.vatnumber, row.vatnumber)))
      .limit(1);
    if (found) {
      cache.set(key, found.id);
      return { id: found.id, created: false };
    }
  }
  const individual = row.firstname !== '';
  const [created] = await tx
    .insert(traders)
    .values({
      companyId,
      individual,
      lastname: individual ? row.lastname : null,
      firstname: individual ? row.firstname : null,
      fullname: fullnameOf(row),
      vatnumber: row.vatnumber,
      createuser: username,
    })
    .returning({ id: traders.id });
  const id = created?.id ?? 0;
  cache.set(key, id);
  return { id, created: true };
}

/**
 * A rerun keeps the owner a consumer already has when the row names the same person without an
 * ΑΦΜ: a name alone cannot tell two people apart, so it is never matched across consumers.
 */
async function currentOwner(tx: Tx, companyId: number, row: CheckedRow) {
  if (row.vatnumber) return null;
  const [found] = await tx
    .select({ id: traders.id, fullname: traders.fullname })
    .from(waterConsumers)
    .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .where(and(eq(waterConsumers.companyId, companyId), eq(waterConsumers.code, row.code)));
  return found && found.fullname === fullnameOf(row) ? { id: found.id, created: false } : null;
}

const fullnameOf = (row: CheckedRow) => (row.firstname ? `${row.lastname} ${row.firstname}` : row.lastname);

/** Writes checked rows: consumers upserted by code, traders matched by ΑΦΜ, meters installed once. */
async function applyChunk(
  tx: Tx,
  p: ImportPayload,
  rows: CheckedRow[],
  result: ConsumerImportResult,
  cache: Map<string, number>,
) {
  for (const row of rows) {
    const owner =
      (await currentOwner(tx, p.companyId, row)) ?? (await traderOf(tx, p.companyId, row, p.username, cache));
    if (owner.created) result.tradersCreated++;
    const values = {
      ...row.levels,
      ownerId: owner.id,
      supplyAddress: row.supplyAddress,
      supplyPostalCode: row.supplyPostalCode,
      propertyUsageId: row.usageId,
      connectionDate: row.connectionDate,
      status: row.status,
    };
    const [saved] = await tx
      .insert(waterConsumers)
      .values({ companyId: p.companyId, code: row.code, ...values, createuser: p.username })
      .onConflictDoUpdate({
        target: [waterConsumers.companyId, waterConsumers.code],
        set: { ...values, updateuser: p.username, updatedate: new Date() },
      })
      .returning({ id: waterConsumers.id, inserted: sql<boolean>`(xmax = 0)` });
    const consumerId = saved?.id ?? 0;
    if (saved?.inserted) result.created++;
    else result.updated++;
    await recordAudit(tx, {
      entity: 'consumer',
      entityId: consumerId,
      action: saved?.inserted ? 'import_create' : 'import_update',
      companyId: p.companyId,
      user: { userId: p.userId, username: p.username },
    });
    if (!row.meter) continue;
    const [on] = await tx
      .select({ id: waterMeterInstallations.id })
      .from(waterMeterInstallations)
      .where(
        and(eq(waterMeterInstallations.consumerId, consumerId), isNull(waterMeterInstallations.removedOn)),
      );
    if (on) continue;
    let [meter] = await tx
      .select({ id: waterMeters.id })
      .from(waterMeters)
      .where(
        and(eq(waterMeters.companyId, p.companyId), eq(waterMeters.serialNumber, row.meter.serialNumber)),
      );
    if (!meter) {
      [meter] = await tx
        .insert(waterMeters)
        .values({
          companyId: p.companyId,
          serialNumber: row.meter.serialNumber,
          kind: 1,
          digits: row.meter.digits,
          createuser: p.username,
        })
        .returning({ id: waterMeters.id });
    }
    await tx.insert(waterMeterInstallations).values({
      companyId: p.companyId,
      consumerId,
      meterId: meter?.id ?? 0,
      installedOn: row.connectionDate ?? new Date().toISOString().slice(0, 10),
      initialReading: row.meter.initialReading,
      createuser: p.username,
    });
    result.metersInstalled++;
  }
}

/**
 * The import job: reads the stored file, checks every row (a dry run stops there), and only a file
 * without a bad row is written, in chunks that each commit; consumers are upserted by their code,
 * so running it again (or again after a crash) changes nothing twice.
 */
export async function importJob({
  payload,
  db,
  progress,
  signal,
}: JobContext<ImportPayload>): Promise<ConsumerImportResult> {
  const [file] = await db.select().from(waterImportFiles).where(eq(waterImportFiles.id, payload.fileId));
  if (!file) throw new Error('The uploaded file is gone');
  const def = await requireDefinition(db, payload.companyId);
  let rows: ImportRow[];
  const result: ConsumerImportResult = {
    dryRun: payload.dryRun,
    rows: 0,
    errors: [],
    created: 0,
    updated: 0,
    tradersCreated: 0,
    metersInstalled: 0,
  };
  try {
    rows = await readImportFile(Buffer.from(file.content), def);
  } catch (error) {
    if (!(error instanceof ImportFileError)) throw error;
    result.errors.push({
      line: 1,
      column: error.message,
      reason: translate(payload.language, 'validation.import_missing_columns'),
    });
    return result;
  }
  result.rows = rows.length;
  await progress(0, rows.length, 'check');
  const { errors, checked } = await checkRows(db, payload.companyId, rows, payload.language);
  result.errors = errors;
  if (payload.dryRun || errors.length > 0) {
    await progress(rows.length, rows.length, 'check');
    return result;
  }
  const cache = new Map<string, number>();
  for (let at = 0; at < checked.length; at += CHUNK) {
    if (signal.aborted) throw new Error('Stopped');
    await db.transaction((tx) => applyChunk(tx, payload, checked.slice(at, at + CHUNK), result, cache));
    await progress(Math.min(at + CHUNK, checked.length), checked.length, 'import');
  }
  return result;
}

/** The uploaded file, kept for the job; its row goes when the job ends. */
export async function storeImportFile(tx: Tx, companyId: number, content: Buffer): Promise<number> {
  const [row] = await tx
    .insert(waterImportFiles)
    .values({ companyId, content })
    .returning({ id: waterImportFiles.id });
  return row?.id ?? 0;
}

/** Told that a job ended: an import's file is no longer needed. */
export async function dropImportFile(tx: Tx, job: { kind: string; payload: unknown }): Promise<void> {
  if (job.kind !== IMPORT_JOB) return;
  const fileId = (job.payload as Partial<ImportPayload>).fileId;
  if (typeof fileId === 'number') await tx.delete(waterImportFiles).where(eq(waterImportFiles.id, fileId));
}
