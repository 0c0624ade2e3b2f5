import {
  ACCOUNT_IMPORT_MAX_BYTES,
  accountImportRowSchema,
  codeFitsMask,
  issueToFieldError,
} from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import {
  ImportRefused,
  type ImportRun,
  type ImportSpec,
  importFileDropper,
  importJobOf,
  type RowProblem,
} from '../../platform/imports/pipeline.ts';
import { sheetRows } from '../../platform/imports/sheet.ts';
import { financeAccounts, financeImportFiles } from './finance.schema.ts';
import { accountMaskOf } from './master-data.ts';

export const ACCOUNTS_IMPORT_JOB = 'finance.accounts.import';
/** Accounts per multi-row upsert, each chunk one transaction. */
const CHUNK = 500;

const COLUMNS = ['code', 'descr', 'kind', 'aggregate'] as const;

interface RawRow {
  line: number;
  cells: string[];
}
interface Account {
  line: number;
  code: string;
  descr: string;
  kind: number;
  aggregate: number;
}
interface Counts extends Record<string, number> {
  created: number;
  updated: number;
}
type Run = ImportRun<null, { mask: string }>;

/** The sheet's non-blank rows (line as Excel numbers it), without a header row. */
async function readRows(file: Buffer): Promise<RawRow[]> {
  const raw = (await sheetRows(file)).flatMap((row, at) => {
    const cells = COLUMNS.map((_, column) => row[column] ?? '');
    return cells.some(Boolean) ? [{ line: at + 1, cells }] : [];
  });
  // A first row whose kind is not a number is the header.
  if (raw[0] && !/^\d+$/.test(raw[0].cells[2] ?? '')) raw.shift();
  if (raw.length === 0) throw new ImportRefused('finance.error.emptyImport');
  return raw;
}

/** Every row by the row schema and the company's mask; a code twice in the file names its first line. */
async function checkRows(raw: RawRow[], { context }: Run) {
  const problems: RowProblem[] = [];
  const columnKey = (name: string) => `finance.accounts.${name}`;
  const firstLineOf = new Map<string, number>();
  const checked = raw.flatMap(({ line, cells }): Account[] => {
    const parsed = accountImportRowSchema.safeParse({
      code: cells[0],
      descr: cells[1],
      kind: Number(cells[2]),
      aggregate: Number(cells[3] || 0),
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const { key, params } = issueToFieldError(issue);
        problems.push({ line, columnKey: columnKey(String(issue.path[0] ?? 'code')), key, params });
      }
      return [];
    }
    const { code } = parsed.data;
    if (!codeFitsMask(code, context.mask))
      problems.push({
        line,
        columnKey: columnKey('code'),
        key: 'finance.error.codeMask',
        params: { mask: context.mask },
      });
    const first = firstLineOf.get(code);
    if (first !== undefined)
      problems.push({
        line,
        columnKey: columnKey('code'),
        key: 'finance.error.duplicateCodeInFile',
        params: { line: first },
      });
    else firstLineOf.set(code, line);
    return [{ line, ...parsed.data }];
  });
  return { problems, checked };
}

/** One multi-row upsert by (company, code): an existing code is updated, a new one created. */
async function upsertAccounts(tx: Tx, rows: Account[], { payload: p }: Run, counts: Counts) {
  const written = await tx
    .insert(financeAccounts)
    .values(
      rows.map(({ line: _, ...account }) => ({ companyId: p.companyId, ...account, createuser: p.username })),
    )
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
    .returning({ created: sql<boolean>`(xmax = 0)` });
  return written.map((row) => {
    if (row.created) counts.created++;
    else counts.updated++;
    return row.created ? 'imports.outcome.created' : 'imports.outcome.updated';
  });
}

/**
 * The accounting plan's import on the platform pipeline: columns code, description, kind (1/2/3/9),
 * aggregate (0/1). Every row is checked first and every bad one reported; a dry run stops there, and
 * so does a file with a bad row. Otherwise the accounts are upserted by code in chunks, so running it
 * again (or again after a restart) changes nothing twice; one audit line for the import.
 */
export const accountsImport: ImportSpec<null, { mask: string }, RawRow, Account, Counts> = {
  kind: ACCOUNTS_IMPORT_JOB,
  files: financeImportFiles,
  upload: {
    maxBytes: ACCOUNT_IMPORT_MAX_BYTES,
    csvName: null,
    noFile: 'finance.error.notXlsx',
    fileType: 'finance.error.notXlsx',
  },
  chunkSize: CHUNK,
  counts: () => ({ created: 0, updated: 0 }),
  prepare: async (db, payload) => ({ mask: await accountMaskOf(db, payload.companyId) }),
  read: (file) => readRows(file),
  check: checkRows,
  apply: upsertAccounts,
  finish: (tx, { payload: p }, counts) =>
    recordAudit(tx, {
      entity: 'financeAccount',
      entityId: p.companyId,
      action: 'import',
      companyId: p.companyId,
      user: { userId: p.userId, username: p.username },
      requestId: p.requestId,
      comments: `${counts.created} + ${counts.updated}`,
    }),
};

export const importAccountsJob = importJobOf(accountsImport);
export const dropAccountsFile = importFileDropper(accountsImport);
