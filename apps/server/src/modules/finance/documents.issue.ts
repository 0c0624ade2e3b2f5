import { Decimal, FINALIZED, type FinanceDocument, type SaveFinanceDocument } from '@protocol/contracts';
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  type JsonRow,
  jsonRecords,
  jsonRowOf,
  preparedStatement,
  recordsJson,
  rowOf,
} from '../../db/prepared.ts';
import { auditInsert } from '../../platform/audit.ts';
import type { Principal } from '../../platform/auth.ts';
import { pgError } from '../../platform/db-errors.ts';
import { AppError } from '../../platform/errors.ts';
import {
  type DocumentRow,
  describe,
  financeErrors,
  headerOf,
  type LineRow,
  lineValues,
  resolve,
  type TaxRow,
  taxValues,
  totalsOf,
} from './documents.service.ts';
import {
  financeDocumentLines,
  financeDocuments,
  financeDocumentTaxes,
  financeSeriesCounters,
  financeStockMoves,
} from './finance.schema.ts';

const p = (name: string) => sql.placeholder(name);

const LINE_COLUMNS = [
  'position',
  'serviceId',
  'itemId',
  'warehouseId',
  'accountId',
  'descr',
  'quantity',
  'price',
  'discount',
  'vatPercent',
  'net',
  'vat',
  'total',
] as const;
const TAX_COLUMNS = ['kind', 'percent', 'amount'] as const;
const MOVE_COLUMNS = ['companyId', 'itemId', 'warehouseId', 'quantity'] as const;

/** `INSERT INTO table (document_id, columns…)` of the rows a JSON parameter holds, for the new document. */
function insertRecords(table: PgTable, columns: readonly string[], json: string) {
  const all = getTableColumns(table);
  const names = columns.map((key) => sql.identifier(all[key]?.name ?? key));
  return sql`INSERT INTO ${table} (document_id, ${sql.join(names, sql`, `)})
    SELECT doc.id, ${sql.join(
      names.map((name) => sql`r.${name}`),
      sql`, `,
    )} FROM doc, ${jsonRecords(table, [...columns], p(json), 'r')}`;
}

/**
 * The issuing statement, prepared once for every document: the counter row, the document, its
 * lines, taxes and stock moves (any number of each, as JSON parameters) and both audit lines.
 * Refused by checkdates, the counter answers no number and the document's check constraint
 * (numbered when finalized) fails the statement.
 */
const issuing = preparedStatement(
  (db) => sql`
    WITH taken AS (
      INSERT INTO ${financeSeriesCounters} (series_id, year, last, last_date)
      VALUES (${p('seriesId')}, ${p('year')}, 1, ${p('date')}::date)
      ON CONFLICT (series_id, year) DO UPDATE
        SET last = ${financeSeriesCounters}.last + 1,
            last_date = greatest(${financeSeriesCounters}.last_date, excluded.last_date)
        WHERE NOT ${p('checkdates')}::boolean OR ${financeSeriesCounters}.last_date <= excluded.last_date
      RETURNING last
    ), doc AS (${db
      .insert(financeDocuments)
      .values({
        companyId: p('companyId'),
        seriesId: p('seriesId'),
        date: p('date'),
        traderId: p('traderId'),
        paymentMethod: p('paymentMethod'),
        status: p('status'),
        notes: p('notes'),
        net: p('net'),
        discount: p('discount'),
        vat: p('vat'),
        gross: p('gross'),
        taxesCharged: p('taxesCharged'),
        withheld: p('withheld'),
        payable: p('payable'),
        number: sql`(SELECT last FROM taken)`,
        year: p('year'),
        entryState: FINALIZED,
        createuser: p('username'),
        defuser: p('username'),
        defdate: sql`clock_timestamp()`,
      })
      .returning()
      .getSQL()}),
    lines AS (${insertRecords(financeDocumentLines, LINE_COLUMNS, 'lines')} RETURNING *),
    taxes AS (${insertRecords(financeDocumentTaxes, TAX_COLUMNS, 'taxes')} RETURNING *),
    moves AS (${insertRecords(financeStockMoves, MOVE_COLUMNS, 'moves')}),
    logged AS (${auditInsert(
      db,
      ['create', 'finalized'].map((action) => ({
        entity: 'financeDocument',
        companyId: p('companyId'),
        userId: p('userId'),
        username: p('username'),
        requestId: p('requestId'),
        entityId: sql`(SELECT id::text FROM doc)`,
        action,
      })),
    ).getSQL()})
    SELECT
      (SELECT ${jsonRowOf(financeDocuments, 'doc')} FROM doc) AS doc,
      (SELECT json_agg(${jsonRowOf(financeDocumentLines, 'lines')} ORDER BY lines.position) FROM lines) AS lines,
      (SELECT json_agg(${jsonRowOf(financeDocumentTaxes, 'taxes')} ORDER BY taxes.id) FROM taxes) AS taxes`,
);

/**
 * Issuing at once (the form's "save and finalize", and bulk issuing): after the query that checks the
 * input, ONE prepared statement writes the document, its lines, taxes and stock moves, takes its
 * number from the series' counter row and writes both audit lines. It runs alone (its own
 * transaction), so the counter row is locked inside the database for that statement only, never
 * across a round trip to this process: concurrent issues in a series take turns at the speed of the
 * database. A date before the series' last (checkdates) leaves the counter row untouched and the
 * statement fails as a whole: neither a document nor a number is left behind.
 */
export async function issueFinanceDocument(
  db: Db,
  principal: Principal,
  companyId: number,
  input: SaveFinanceDocument,
  requestId: string,
): Promise<FinanceDocument> {
  const { resolved, head } = await resolve(db, companyId, input);
  const { totals, header } = totalsOf(input);
  const lines = lineValues(0, input, resolved, totals);
  const taxes = taxValues(0, input, totals);
  // An item line of a series that moves stock moves it at once: out for a debit series, in for a credit one.
  const moves = head.series.movesStock
    ? lines.flatMap((line) =>
        line.itemId !== null && line.warehouseId !== null
          ? [
              {
                companyId,
                itemId: line.itemId,
                warehouseId: line.warehouseId,
                quantity: new Decimal(line.quantity).times(head.series.debitCredit === 2 ? 1 : -1).toFixed(3),
              },
            ]
          : [],
      )
    : [];
  const [written] = await refusedBeforeLastDate(db, input, () =>
    issuing<{ doc: JsonRow; lines: JsonRow[]; taxes: JsonRow[] | null }>(db, {
      ...headerOf(input),
      ...header,
      companyId,
      year: Number(input.date.slice(0, 4)),
      checkdates: head.series.checkdates,
      username: principal.username,
      userId: principal.userId,
      requestId,
      lines: recordsJson(financeDocumentLines, [...LINE_COLUMNS], lines),
      taxes: recordsJson(financeDocumentTaxes, [...TAX_COLUMNS], taxes),
      moves: recordsJson(financeStockMoves, [...MOVE_COLUMNS], moves),
    }),
  );
  if (!written) throw new Error('the issuing statement returned no row');
  return describe(
    db,
    rowOf<DocumentRow>(financeDocuments, written.doc),
    {
      lines: written.lines.map((line) => rowOf<LineRow>(financeDocumentLines, line)),
      taxes: (written.taxes ?? []).map((tax) => rowOf<TaxRow>(financeDocumentTaxes, tax)),
    },
    head,
  );
}

/** Runs the issuing statement; its failure by the refused number (checkdates) is a 409 naming the last date. */
async function refusedBeforeLastDate<T>(db: Db, input: SaveFinanceDocument, statement: () => Promise<T>) {
  try {
    return await statement();
  } catch (error) {
    const failed = pgError(error);
    if (failed?.code !== CHECK_VIOLATION || failed.constraint !== 'finance_documents_numbered') throw error;
    const [counter] = await db
      .select({ lastDate: financeSeriesCounters.lastDate })
      .from(financeSeriesCounters)
      .where(
        and(
          eq(financeSeriesCounters.seriesId, input.seriesId),
          eq(financeSeriesCounters.year, Number(input.date.slice(0, 4))),
        ),
      );
    throw new AppError(409, financeErrors.dateBeforeLast, { date: counter?.lastDate ?? input.date });
  }
}

const CHECK_VIOLATION = '23514';
