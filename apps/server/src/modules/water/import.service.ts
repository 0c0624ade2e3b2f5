import {
  CONSUMER_IMPORT_MAX_BYTES,
  consumerImportColumns,
  consumerImportLevelHeaders,
  consumerStatuses,
  type EncodingCodeDefinition,
  isIsoDate,
  isValidVatNumber,
  normalizeVatNumber,
  utilityToday,
} from '@protocol/contracts';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../db/client.ts';
import { insertRecords } from '../../db/prepared.ts';
import { auditLog } from '../../platform/audit.schema.ts';
import {
  ImportRefused,
  type ImportRun,
  type ImportSpec,
  importFileDropper,
  importJobOf,
  type RowProblem,
} from '../../platform/imports/pipeline.ts';
import { traders } from '../traders/traders.schema.ts';
import {
  type CodeLevels,
  checkParts,
  LOOKUP_BATCH,
  loadLevelLookups,
  requireDefinition,
} from './consumer-code.ts';
import { waterConsumers } from './consumers.schema.ts';
import { ImportFileError, type ImportRow, readImportFile } from './import.file.ts';
import { waterImportFiles } from './import.schema.ts';
import { waterMeterInstallations, waterMeters } from './meters.schema.ts';
import { waterPropertyUsages } from './parametrics.schema.ts';

export const IMPORT_JOB = 'water.consumers.import';
/** Rows written per transaction: a rerun after a crash repeats at most one chunk's work, harmlessly. */
const CHUNK = 1000;

/** What a run loads once: the code's definition, and the owners found or made so far (by ΑΦΜ or name). */
interface Context {
  def: EncodingCodeDefinition;
  owners: Map<string, number>;
}
type Run = ImportRun<null, Context>;
interface Counts extends Record<string, number> {
  created: number;
  updated: number;
  tradersCreated: number;
  metersInstalled: number;
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

/** Every row checked; nothing is written. Problems name the line, the column and why. */
async function checkRows(rows: ImportRow[], { db, payload, context }: Run) {
  const { companyId } = payload;
  const { def } = context;
  // Every lookup the file names is loaded once; the rows are then checked in memory.
  const lookups = await loadLevelLookups(
    db,
    companyId,
    def,
    rows.map((r) => r.parts),
  );
  const levelHeaders = consumerImportLevelHeaders(def);
  const errors: RowProblem[] = [];
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
      errors.push({ line: row.line, column, key, params });
    const before = errors.length;
    const checkedCode = checkParts(def, lookups, row.parts);
    const resolved = 'errors' in checkedCode ? null : checkedCode;
    if ('errors' in checkedCode) {
      for (const fe of checkedCode.errors) {
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
  const codeOf = new Map<string, string>();
  for (let at = 0; at < wanted.length; at += LOOKUP_BATCH) {
    const on = await db
      .select({ serial: waterMeters.serialNumber, code: waterConsumers.code })
      .from(waterMeterInstallations)
      .innerJoin(waterMeters, eq(waterMeters.id, waterMeterInstallations.meterId))
      .innerJoin(waterConsumers, eq(waterConsumers.id, waterMeterInstallations.consumerId))
      .where(
        and(
          eq(waterMeters.companyId, companyId),
          inArray(waterMeters.serialNumber, wanted.slice(at, at + LOOKUP_BATCH)),
          isNull(waterMeterInstallations.removedOn),
        ),
      );
    for (const m of on) codeOf.set(m.serial, m.code);
  }
  for (const row of checked) {
    const on = row.meter ? codeOf.get(row.meter.serialNumber) : undefined;
    if (on !== undefined && on !== row.code)
      errors.push({ line: row.line, column: header('serialNumber'), key: 'validation.meter_serial_taken' });
  }
  return { problems: errors, checked };
}

const fullnameOf = (row: CheckedRow) => (row.firstname ? `${row.lastname} ${row.firstname}` : row.lastname);
const ownerKey = (row: CheckedRow) => row.vatnumber ?? `name:${row.lastname}|${row.firstname}`;

/**
 * The owner of each row: a consumer already there keeps its owner when the row names the same
 * person without an ΑΦΜ (a name alone cannot tell two people apart, so it is never matched across
 * consumers); else the trader of the ΑΦΜ in the company, else a new one (an individual when a first
 * name is given), one per ΑΦΜ or name in the run. Three statements per chunk, however many rows.
 */
async function ownersOf(
  tx: Tx,
  { payload: p, context }: Run,
  rows: CheckedRow[],
  result: Counts,
): Promise<Map<string, number>> {
  const cache = context.owners;
  const owners = new Map<string, number>();
  const nameOnly = rows.filter((r) => !r.vatnumber);
  if (nameOnly.length > 0) {
    const current = await tx
      .select({ code: waterConsumers.code, id: traders.id, fullname: traders.fullname })
      .from(waterConsumers)
      .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
      .where(
        and(
          eq(waterConsumers.companyId, p.companyId),
          inArray(
            waterConsumers.code,
            nameOnly.map((r) => r.code),
          ),
        ),
      );
    const byCode = new Map(current.map((c) => [c.code, c]));
    for (const row of nameOnly) {
      const found = byCode.get(row.code);
      if (found && found.fullname === fullnameOf(row)) owners.set(row.code, found.id);
    }
  }
  const vats = [
    ...new Set(rows.flatMap((r) => (r.vatnumber && !cache.has(r.vatnumber) ? [r.vatnumber] : []))),
  ];
  if (vats.length > 0) {
    const found = await tx
      .select({ id: traders.id, vatnumber: traders.vatnumber })
      .from(traders)
      .where(and(eq(traders.companyId, p.companyId), inArray(traders.vatnumber, vats)))
      .orderBy(traders.id);
    for (const t of found) if (t.vatnumber && !cache.has(t.vatnumber)) cache.set(t.vatnumber, t.id);
  }
  const missing = new Map<string, CheckedRow>();
  for (const row of rows) {
    const key = ownerKey(row);
    if (!owners.has(row.code) && !cache.has(key) && !missing.has(key)) missing.set(key, row);
  }
  if (missing.size > 0) {
    const news = [...missing.entries()];
    // RETURNING answers the rows in the order given (`insertRecords`).
    const created = rowsOf<{ id: number }>(
      await tx.execute(
        sql`${insertRecords(
          traders,
          ['companyId', 'individual', 'lastname', 'firstname', 'fullname', 'vatnumber', 'createuser'],
          news.map(([, row]) => {
            const individual = row.firstname !== '';
            return {
              companyId: p.companyId,
              individual,
              lastname: individual ? row.lastname : null,
              firstname: individual ? row.firstname : null,
              fullname: fullnameOf(row),
              vatnumber: row.vatnumber,
              createuser: p.username,
            };
          }),
        )} RETURNING ${traders.id} AS id`,
      ),
    );
    for (const [i, [key]] of news.entries()) cache.set(key, created[i]?.id ?? 0);
    result.tradersCreated += created.length;
  }
  for (const row of rows) if (!owners.has(row.code)) owners.set(row.code, cache.get(ownerKey(row)) ?? 0);
  return owners;
}

/** What an imported row sets on a consumer already there. */
const UPDATED = [
  'sectorId',
  'routeId',
  'departmentId',
  'areaId',
  'addressId',
  'buildingId',
  'ownerId',
  'supplyAddress',
  'supplyPostalCode',
  'propertyUsageId',
  'connectionDate',
  'status',
] as const;

/** The columns an imported row writes. */
const CONSUMER_COLUMNS = ['companyId', 'code', ...UPDATED, 'createuser'] as const;

/**
 * Writes checked rows in multi-row statements: consumers upserted by code, traders matched by ΑΦΜ,
 * meters installed once (a consumer with a meter on keeps it), one audit line per consumer.
 */
async function applyChunk(tx: Tx, rows: CheckedRow[], run: Run, result: Counts): Promise<string[]> {
  const p = run.payload;
  const owners = await ownersOf(tx, run, rows, result);
  const updated = UPDATED.map((key) => {
    const name = waterConsumers[key].name;
    return `"${name}" = excluded."${name}"`;
  }).join(', ');
  const saved = rowsOf<{ id: number; code: string; inserted: boolean }>(
    await tx.execute(
      sql`${insertRecords(
        waterConsumers,
        [...CONSUMER_COLUMNS],
        rows.map((row) => ({
          companyId: p.companyId,
          code: row.code,
          ...row.levels,
          ownerId: owners.get(row.code) ?? 0,
          supplyAddress: row.supplyAddress,
          supplyPostalCode: row.supplyPostalCode,
          propertyUsageId: row.usageId,
          connectionDate: row.connectionDate,
          status: row.status,
          createuser: p.username,
        })),
      )}
    ON CONFLICT (${sql.identifier(waterConsumers.companyId.name)}, ${sql.identifier(waterConsumers.code.name)}) DO UPDATE SET ${sql.raw(updated)},
      ${sql.identifier(waterConsumers.updateuser.name)} = ${p.username}, ${sql.identifier(waterConsumers.updatedate.name)} = now()
    RETURNING ${waterConsumers.id} AS id, ${waterConsumers.code} AS code, (xmax = 0) AS inserted`,
    ),
  );
  const idOf = new Map(saved.map((c) => [c.code, c.id]));
  const inserted = new Set(saved.flatMap((c) => (c.inserted ? [c.code] : [])));
  const outcomes = rows.map((r) =>
    inserted.has(r.code) ? 'imports.outcome.created' : 'imports.outcome.updated',
  );
  for (const c of saved) {
    if (c.inserted) result.created++;
    else result.updated++;
  }
  await tx.execute(
    insertRecords(
      auditLog,
      ['entity', 'entityId', 'action', 'companyId', 'userId', 'username'],
      saved.map((c) => ({
        entity: 'consumer',
        entityId: String(c.id),
        action: c.inserted ? 'import_create' : 'import_update',
        companyId: p.companyId,
        userId: p.userId,
        username: p.username,
      })),
    ),
  );
  const withMeter = rows.filter((r) => r.meter);
  if (withMeter.length === 0) return outcomes;
  const metered = new Set(
    (
      await tx
        .select({ consumerId: waterMeterInstallations.consumerId })
        .from(waterMeterInstallations)
        .where(
          and(
            inArray(
              waterMeterInstallations.consumerId,
              withMeter.map((r) => idOf.get(r.code) ?? 0),
            ),
            isNull(waterMeterInstallations.removedOn),
          ),
        )
    ).map((m) => m.consumerId),
  );
  const toInstall = withMeter.filter((r) => !metered.has(idOf.get(r.code) ?? 0));
  if (toInstall.length === 0) return outcomes;
  const serials = toInstall.map((r) => r.meter?.serialNumber ?? '');
  const meterOf = new Map(
    (
      await tx
        .select({ id: waterMeters.id, serial: waterMeters.serialNumber })
        .from(waterMeters)
        .where(and(eq(waterMeters.companyId, p.companyId), inArray(waterMeters.serialNumber, serials)))
    ).map((m) => [m.serial, m.id]),
  );
  const newMeters = toInstall.filter((r) => !meterOf.has(r.meter?.serialNumber ?? ''));
  if (newMeters.length > 0) {
    const created = rowsOf<{ id: number; serial: string }>(
      await tx.execute(
        sql`${insertRecords(
          waterMeters,
          ['companyId', 'serialNumber', 'kind', 'digits', 'createuser'],
          newMeters.map((r) => ({
            companyId: p.companyId,
            serialNumber: r.meter?.serialNumber ?? '',
            kind: 1,
            digits: r.meter?.digits ?? 5,
            createuser: p.username,
          })),
        )} RETURNING ${waterMeters.id} AS id, ${waterMeters.serialNumber} AS serial`,
      ),
    );
    for (const m of created) meterOf.set(m.serial, m.id);
  }
  const today = utilityToday();
  await tx.execute(
    insertRecords(
      waterMeterInstallations,
      ['companyId', 'consumerId', 'meterId', 'installedOn', 'initialReading', 'createuser'],
      toInstall.map((r) => ({
        companyId: p.companyId,
        consumerId: idOf.get(r.code) ?? 0,
        meterId: meterOf.get(r.meter?.serialNumber ?? '') ?? 0,
        installedOn: r.connectionDate ?? today,
        initialReading: r.meter?.initialReading ?? 0,
        createuser: p.username,
      })),
    ),
  );
  result.metersInstalled += toInstall.length;
  return outcomes;
}

/**
 * The register's import on the platform pipeline: every row checked first (a dry run stops there,
 * and so does a file with a bad row), then written in chunks that each commit; consumers are upserted
 * by their code, so running it again (or again after a crash) changes nothing twice.
 */
export const consumerImport: ImportSpec<null, Context, ImportRow, CheckedRow, Counts> = {
  kind: IMPORT_JOB,
  files: waterImportFiles,
  upload: {
    maxBytes: CONSUMER_IMPORT_MAX_BYTES,
    csvName: /\.csv$/,
    noFile: 'error.import_no_file',
    fileType: 'error.import_file_type',
  },
  chunkSize: CHUNK,
  counts: () => ({ created: 0, updated: 0, tradersCreated: 0, metersInstalled: 0 }),
  prepare: async (db, payload) => ({
    def: await requireDefinition(db, payload.companyId),
    owners: new Map(),
  }),
  read: async (file, { context }) => {
    try {
      return await readImportFile(file, context.def);
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      throw new ImportRefused('validation.import_missing_columns', {}, error.message);
    }
  },
  check: checkRows,
  apply: applyChunk,
};

export const importJob = importJobOf(consumerImport);
export const dropRegisterFile = importFileDropper(consumerImport);
