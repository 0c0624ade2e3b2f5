import {
  type AccountImportResult,
  accountImportRowSchema,
  codeFitsMask,
  type FieldError,
  issueToFieldError,
} from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { ROW_TABLE_MAX_ROWS } from '../../platform/row-table/routes.ts';
import { financeAccounts } from './finance.schema.ts';
import { accountMaskOf } from './master-data.ts';

/** An .xlsx is a zip: it starts with the local file header "PK\x03\x04". */
const isXlsx = (file: Buffer) => file.length > 4 && file.readUInt32LE(0) === 0x04034b50;

const cellText = (value: ExcelJS.CellValue): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && 'text' in value) return String(value.text);
  if (typeof value === 'object' && 'result' in value) return String(value.result ?? '');
  return String(value).trim();
};

/**
 * Imports an accounting plan from Excel: columns code, description, kind (1/2/3/9), aggregate (0/1),
 * a header row allowed. All or nothing in one transaction, bounded like a row-table save; an existing
 * code is updated, a new one created, so importing the same file twice changes nothing.
 */
export async function importAccounts(
  db: Db,
  principal: Principal,
  companyId: number,
  file: Buffer,
  requestId: string,
): Promise<AccountImportResult> {
  if (!isXlsx(file)) throw new AppError(415, 'finance.error.notXlsx');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw new AppError(415, 'finance.error.notXlsx');
  }
  const sheet = workbook.worksheets[0];
  const raw: { row: number; cells: string[] }[] = [];
  sheet?.eachRow((row, number) => {
    const cells = [1, 2, 3, 4].map((column) => cellText(row.getCell(column).value));
    if (cells.some(Boolean)) raw.push({ row: number, cells });
  });
  // A first row whose kind is not a number is the header.
  if (raw[0] && !/^\d+$/.test(raw[0].cells[2] ?? '')) raw.shift();
  if (raw.length === 0) throw new AppError(400, 'finance.error.emptyImport');
  if (raw.length > ROW_TABLE_MAX_ROWS)
    throw new AppError(413, 'finance.error.importTooLarge', { max: ROW_TABLE_MAX_ROWS });

  const mask = await accountMaskOf(db, companyId);
  const errors: FieldError[] = [];
  const rows = raw.flatMap(({ row, cells }) => {
    const parsed = accountImportRowSchema.safeParse({
      code: cells[0],
      descr: cells[1],
      kind: Number(cells[2]),
      aggregate: Number(cells[3] || 0),
    });
    if (!parsed.success) {
      errors.push(
        ...parsed.error.issues.map((issue) => ({
          ...issueToFieldError(issue),
          field: `rows.${row}.${issue.path.join('.')}`,
        })),
      );
      return [];
    }
    if (!codeFitsMask(parsed.data.code, mask))
      errors.push({ field: `rows.${row}.code`, key: 'finance.error.codeMask', params: { mask } });
    return [{ ...parsed.data, row }];
  });
  const seen = new Set<string>();
  for (const [index, row] of rows.entries()) {
    if (seen.has(row.code))
      errors.push({ field: `rows.${raw[index]?.row}.code`, key: 'finance.error.duplicateCode', params: {} });
    seen.add(row.code);
  }
  if (errors.length > 0) throw badRequest(errors.slice(0, 50));

  return db.transaction(async (tx) => {
    const written = await tx
      .insert(financeAccounts)
      .values(
        rows.map(({ row: _, ...account }) => ({ companyId, ...account, createuser: principal.username })),
      )
      .onConflictDoUpdate({
        target: [financeAccounts.companyId, financeAccounts.code],
        set: {
          descr: sql`excluded.descr`,
          kind: sql`excluded.kind`,
          aggregate: sql`excluded.aggregate`,
          updateuser: principal.username,
          updatedate: sql`now()`,
        },
      })
      // xmax = 0 only on a freshly inserted row: tells created from updated.
      .returning({ created: sql<boolean>`(xmax = 0)` });
    const created = written.filter((row) => row.created).length;
    await recordAudit(tx, {
      entity: 'financeAccount',
      entityId: companyId,
      action: 'import',
      companyId,
      user: principal,
      requestId,
      comments: `${created} + ${written.length - created}`,
    });
    return { created, updated: written.length - created };
  });
}
