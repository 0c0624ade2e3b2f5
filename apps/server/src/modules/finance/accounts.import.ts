import {
  type AccountImportResult,
  accountImportRowSchema,
  codeFitsMask,
  type ImportError,
  issueToFieldError,
  type Language,
} from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { translate } from '../../platform/i18n.ts';
import { dropImportFile, readImportFile, storeImportFile } from '../../platform/imports/files.ts';
import { XLSX_MAX_ROWS } from '../../platform/imports/sheet.ts';
import type { JobContext } from '../../platform/jobs/jobs.ts';
import type { Storage } from '../../platform/storage.ts';
import { financeAccounts, financeImportFiles } from './finance.schema.ts';
import { accountMaskOf } from './master-data.ts';

export const ACCOUNTS_IMPORT_JOB = 'finance.accounts.import';
/** Accounts per multi-row upsert; all chunks share one transaction, so the file is still all or nothing. */
const CHUNK = 500;

export interface AccountImportPayload {
  fileId: number;
  dryRun: boolean;
  language: Language;
  companyId: number;
  username: string;
  userId: number;
  requestId: string;
}

const cellText = (value: ExcelJS.CellValue): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && 'text' in value) return String(value.text);
  if (typeof value === 'object' && 'result' in value) return String(value.result ?? '');
  return String(value).trim();
};

const COLUMNS = ['code', 'descr', 'kind', 'aggregate'] as const;

/** The sheet's non-blank rows (line as Excel numbers it), without a header row; null when unreadable. */
async function readRows(file: Buffer): Promise<{ line: number; cells: string[] }[] | null> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    return null;
  }
  // Reading the rows walks every row number up to the last the file names (issue 29 item 1).
  if ((workbook.worksheets[0]?.rowCount ?? 0) > XLSX_MAX_ROWS) return null;
  const raw: { line: number; cells: string[] }[] = [];
  workbook.worksheets[0]?.eachRow((row, line) => {
    const cells = COLUMNS.map((_, at) => cellText(row.getCell(at + 1).value));
    if (cells.some(Boolean)) raw.push({ line, cells });
  });
  // A first row whose kind is not a number is the header.
  if (raw[0] && !/^\d+$/.test(raw[0].cells[2] ?? '')) raw.shift();
  return raw;
}

/**
 * The accounting plan's import job: columns code, description, kind (1/2/3/9), aggregate (0/1). Every
 * row is checked first and every bad one reported (line, column, reason in the uploader's language);
 * a dry run stops there, and so does a file with a bad row. Otherwise all accounts are written in one
 * transaction: an existing code is updated, a new one created, so running it again (or again after a
 * restart, the transaction having rolled back) changes nothing twice.
 */
export async function importAccountsJob({
  payload: p,
  db,
  progress,
  signal,
}: JobContext<AccountImportPayload>): Promise<AccountImportResult> {
  const result: AccountImportResult = { dryRun: p.dryRun, rows: 0, errors: [], created: 0, updated: 0 };
  const reason = (key: string, params: Record<string, string | number> = {}) =>
    translate(p.language, key, params);
  const column = (name: string) => reason(`finance.accounts.${name}`);
  const file = await readImportFile(db, financeImportFiles, p.fileId);
  if (!file) throw new Error('The uploaded file is gone');
  const raw = await readRows(file);
  if (raw === null || raw.length === 0) {
    const key = raw === null ? 'finance.error.notXlsx' : 'finance.error.emptyImport';
    result.errors.push({ line: 1, column: '', reason: reason(key) });
    return result;
  }
  result.rows = raw.length;
  await progress(0, raw.length, 'check');

  const mask = await accountMaskOf(db, p.companyId);
  const errors: ImportError[] = [];
  const firstLineOf = new Map<string, number>();
  const rows = raw.flatMap(({ line, cells }) => {
    const parsed = accountImportRowSchema.safeParse({
      code: cells[0],
      descr: cells[1],
      kind: Number(cells[2]),
      aggregate: Number(cells[3] || 0),
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const { key, params } = issueToFieldError(issue);
        errors.push({ line, column: column(String(issue.path[0] ?? 'code')), reason: reason(key, params) });
      }
      return [];
    }
    const { code } = parsed.data;
    if (!codeFitsMask(code, mask))
      errors.push({ line, column: column('code'), reason: reason('finance.error.codeMask', { mask }) });
    const first = firstLineOf.get(code);
    if (first !== undefined)
      errors.push({
        line,
        column: column('code'),
        reason: reason('finance.error.duplicateCodeInFile', { line: first }),
      });
    else firstLineOf.set(code, line);
    return [parsed.data];
  });
  result.errors = errors;
  if (p.dryRun || errors.length > 0) {
    await progress(raw.length, raw.length, 'check');
    return result;
  }

  // Progress is told around the transaction, not inside it: it is written on another connection.
  await progress(0, rows.length, 'import');
  await db.transaction(async (tx) => {
    for (let at = 0; at < rows.length; at += CHUNK) {
      if (signal.aborted) throw new Error('Stopped');
      const written = await upsertAccounts(tx, p, rows.slice(at, at + CHUNK));
      result.created += written.filter((row) => row.created).length;
      result.updated += written.filter((row) => !row.created).length;
    }
    await recordAudit(tx, {
      entity: 'financeAccount',
      entityId: p.companyId,
      action: 'import',
      companyId: p.companyId,
      user: { userId: p.userId, username: p.username },
      requestId: p.requestId,
      comments: `${result.created} + ${result.updated}`,
    });
  });
  await progress(rows.length, rows.length, 'import');
  return result;
}

/** One multi-row upsert by (company, code). */
function upsertAccounts(
  tx: Tx,
  p: AccountImportPayload,
  rows: { code: string; descr: string; kind: number; aggregate: number }[],
) {
  return (
    tx
      .insert(financeAccounts)
      .values(rows.map((account) => ({ companyId: p.companyId, ...account, createuser: p.username })))
      .onConflictDoUpdate({
        target: [financeAccounts.companyId, financeAccounts.code],
        set: {
          descr: sql`excluded.descr`,
          kind: sql`excluded.kind`,
          aggregate: sql`excluded.aggregate`,
          updateuser: p.username,
          updatedate: sql`now()`,
        },
      })
      // xmax = 0 only on a freshly inserted row: tells created from updated.
      .returning({ created: sql<boolean>`(xmax = 0)` })
  );
}

/** The uploaded file, kept on the storage adapter for the job; its row goes when the job ends. */
export const storeAccountsFile = (tx: Tx, storage: Storage, companyId: number, content: Buffer) =>
  storeImportFile(tx, storage, financeImportFiles, companyId, content);

/** Told that a job ended: an accounting plan import's file is no longer needed. */
export async function dropAccountsFile(tx: Tx, job: { kind: string; payload: unknown }): Promise<void> {
  if (job.kind !== ACCOUNTS_IMPORT_JOB) return;
  await dropImportFile(tx, financeImportFiles, (job.payload as Partial<AccountImportPayload>).fileId);
}
