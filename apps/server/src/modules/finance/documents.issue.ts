import { Decimal, FINALIZED, type FinanceDocument, type SaveFinanceDocument } from '@protocol/contracts';
import { and, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
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

/**
 * Issuing at once (the form's "save and finalize", and bulk issuing): after the query that checks the
 * input, ONE statement writes the document, its lines, taxes and stock moves, takes its number from
 * the series' counter row and writes both audit lines. It runs alone (its own transaction), so the
 * counter row is locked inside the database for that statement only, never across a round trip to
 * this process: concurrent issues in a series take turns at the speed of the database. A date
 * before the series' last (checkdates) leaves the counter row untouched and the statement fails as a
 * whole: neither a document nor a number is left behind.
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
  const year = Number(input.date.slice(0, 4));
  const documentId = sql`(SELECT id FROM doc)`;
  const audit = {
    entity: 'financeDocument',
    companyId,
    userId: principal.userId,
    username: principal.username,
    requestId,
  };
  const lines = lineValues(documentId, input, resolved, totals);
  const taxes = taxValues(documentId, input, totals);
  // An item line of a series that moves stock moves it at once: out for a debit series, in for a credit one.
  const moves = head.series.movesStock
    ? lines.flatMap((line) =>
        line.itemId !== null && line.warehouseId !== null
          ? [
              {
                companyId,
                itemId: line.itemId,
                warehouseId: line.warehouseId,
                documentId,
                quantity: new Decimal(line.quantity).times(head.series.debitCredit === 2 ? 1 : -1).toFixed(3),
              },
            ]
          : [],
      )
    : [];
  const optional = (name: string, rows: unknown[], statement: () => SQL) =>
    rows.length === 0 ? sql`` : sql`, ${sql.raw(name)} AS (${statement()})`;
  // Refused by checkdates, the counter answers no number and the document's check constraint
  // (numbered when finalized) fails the statement.
  const result = await refusedBeforeLastDate(db, input, () =>
    db.execute(sql`
      WITH taken AS (
        INSERT INTO ${financeSeriesCounters} (series_id, year, last, last_date)
        VALUES (${input.seriesId}, ${year}, 1, ${input.date}::date)
        ON CONFLICT (series_id, year) DO UPDATE
          SET last = ${financeSeriesCounters}.last + 1,
              last_date = greatest(${financeSeriesCounters}.last_date, excluded.last_date)
          WHERE ${!head.series.checkdates} OR ${financeSeriesCounters}.last_date <= excluded.last_date
        RETURNING last
      ), doc AS (${db
        .insert(financeDocuments)
        .values({
          companyId,
          ...headerOf(input),
          ...header,
          number: sql`(SELECT last FROM taken)`,
          year,
          entryState: FINALIZED,
          createuser: principal.username,
          defuser: principal.username,
          defdate: sql`clock_timestamp()`,
        })
        .returning()
        .getSQL()}),
      lines AS (${db.insert(financeDocumentLines).values(lines).returning().getSQL()})
      ${optional('taxes', taxes, () => db.insert(financeDocumentTaxes).values(taxes).returning().getSQL())}
      ${optional('moves', moves, () => db.insert(financeStockMoves).values(moves).getSQL())},
      logged AS (${auditInsert(
        db,
        ['create', 'finalized'].map((action) => ({
          ...audit,
          entityId: sql`(SELECT id::text FROM doc)`,
          action,
        })),
      ).getSQL()})
      SELECT
        (SELECT ${jsonRowOf(financeDocuments, 'doc')} FROM doc) AS doc,
        (SELECT json_agg(${jsonRowOf(financeDocumentLines, 'lines')} ORDER BY lines.position) FROM lines) AS lines,
        ${taxes.length === 0 ? sql`NULL` : sql`(SELECT json_agg(${jsonRowOf(financeDocumentTaxes, 'taxes')} ORDER BY taxes.id) FROM taxes)`} AS taxes`),
  );
  const [written] = (
    result as unknown as {
      rows: { doc: JsonRow; lines: JsonRow[]; taxes: JsonRow[] | null }[];
    }
  ).rows;
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

type JsonRow = Record<string, unknown>;

/**
 * A row of `alias` (a CTE returning `table`'s columns) as JSON keyed by the columns' TS names, numeric
 * values as text so no amount passes through a binary float.
 */
function jsonRowOf(table: PgTable, alias: string): SQL {
  const pairs = Object.entries(getTableColumns(table)).map(([key, column]) => {
    const value = sql`${sql.identifier(alias)}.${sql.identifier(column.name)}`;
    return sql`${sql.raw(`'${key}'`)}, ${column.columnType === 'PgNumeric' ? sql`${value}::text` : value}`;
  });
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

/** The typed row of a `jsonRowOf` object: timestamps become Dates as drizzle answers them. */
function rowOf<T>(table: PgTable, json: JsonRow): T {
  const row: JsonRow = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[key];
    row[key] = column.columnType === 'PgTimestamp' && typeof value === 'string' ? new Date(value) : value;
  }
  return row as T;
}
