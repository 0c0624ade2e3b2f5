import { FINALIZED, type FinanceDocument, moneyString, type SaveFinanceDocument } from '@protocol/contracts';
import { and, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
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
import { auditLog } from '../../platform/audit.schema.ts';
import type { Principal } from '../../platform/auth.ts';
import { pgError } from '../../platform/db-errors.ts';
import { AppError } from '../../platform/errors.ts';
import { traders } from '../traders/traders.schema.ts';
import { sessionHolds, sessionValues } from '../users/api.ts';
import {
  type DocumentHead,
  type DocumentRow,
  describe,
  financeErrors,
  headerOf,
  type LineRow,
  resolve,
  type TaxRow,
  taxValues,
  totalsOf,
} from './documents.service.ts';
import {
  financeDocumentLines,
  financeDocuments,
  financeDocumentTaxes,
  financeItems,
  financeSeries,
  financeSeriesCounters,
  financeServices,
  financeStockMoves,
  financeWarehouses,
} from './finance.schema.ts';

const p = (name: string) => sql.placeholder(name);
const companyId = p('companyId');

/** The lines as the form sends them with their amounts (the rest is resolved in the statement). */
const INPUT_LINE_COLUMNS = [
  'position',
  'serviceId',
  'itemId',
  'warehouseId',
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
const column = (table: PgTable, key: string) => sql.identifier(getTableColumns(table)[key]?.name ?? key);
const line = (key: string) => sql`r.${column(financeDocumentLines, key)}`;

/** `INSERT INTO table (document_id, columns…)` of the rows a JSON parameter holds, for the new document. */
function insertRecords(table: PgTable, columns: readonly string[], json: string) {
  const names = columns.map((key) => column(table, key));
  return sql`INSERT INTO ${table} (document_id, ${sql.join(names, sql`, `)})
    SELECT doc.id, ${sql.join(
      names.map((name) => sql`r.${name}`),
      sql`, `,
    )} FROM doc, ${jsonRecords(table, [...columns], p(json), 'r')}`;
}

/** A parameter typed as `key`'s column (an INSERT … SELECT does not infer it). */
const typed = (key: keyof typeof financeDocuments.$inferInsert, name: string = key) =>
  sql`${p(name)}::${sql.raw(getTableColumns(financeDocuments)[key].getSQLType())}`;

/** The new document's columns and their values (`valid` is its series). */
const DOCUMENT_VALUES: [keyof typeof financeDocuments.$inferInsert, SQL][] = [
  ['companyId', typed('companyId')],
  ['seriesId', sql`valid.id`],
  ...(
    [
      'date',
      'traderId',
      'paymentMethod',
      'status',
      'notes',
      'net',
      'discount',
      'vat',
      'gross',
      'taxesCharged',
      'withheld',
      'payable',
      'year',
    ] as const
  ).map((key): [typeof key, SQL] => [key, typed(key)]),
  ['number', sql`(SELECT last FROM taken)`],
  ['entryState', sql.raw(String(FINALIZED))],
  ['createuser', typed('createuser', 'username')],
  ['defuser', typed('defuser', 'username')],
  ['defdate', sql`clock_timestamp()`],
];

/**
 * The issuing statement, prepared once for every document. It checks what the form refers to (the
 * company's active series, its trader, the lines' services, items and warehouses) and resolves each
 * line's description, account and warehouse as `resolve` does; only when all of it holds does it take
 * the counter row and write the document, its lines, taxes and stock moves (any number of each, as
 * JSON parameters) and both audit lines. Otherwise it writes nothing and answers no document, and
 * `resolve` names the fields (or, on a session the node remembered that no longer holds as it was,
 * the session is confirmed and the document issued again). Refused by checkdates, the counter answers no number and the
 * document's check constraint (numbered when finalized) fails the statement.
 */
const issuing = preparedStatement(
  () => sql`
    WITH series AS (
      SELECT * FROM ${financeSeries}
      WHERE ${financeSeries.id} = ${p('seriesId')} AND ${financeSeries.companyId} = ${companyId}
        AND ${financeSeries.active}
    ), trader AS (
      SELECT ${traders.fullname} AS fullname, ${traders.vatnumber} AS vatnumber FROM ${traders}
      WHERE ${traders.id} = ${p('traderId')} AND ${traders.companyId} = ${companyId}
    ), resolved AS (
      SELECT ${line('position')} AS position, ${line('serviceId')} AS service_id, ${line('itemId')} AS item_id,
        CASE WHEN ${line('serviceId')} IS NULL THEN coalesce(${line('warehouseId')}, ${financeItems.warehouseId}) END
          AS warehouse_id,
        coalesce(${financeServices.accountId}, ${financeItems.accountId}) AS account_id,
        coalesce(${line('descr')}, ${financeServices.descr}, ${financeItems.descr}, '') AS descr,
        ${line('quantity')} AS quantity, ${line('price')} AS price, ${line('discount')} AS discount,
        ${line('vatPercent')} AS vat_percent, ${line('net')} AS net, ${line('vat')} AS vat, ${line('total')} AS total,
        CASE WHEN ${line('serviceId')} IS NULL THEN ${financeItems.id} IS NOT NULL
          AND (${financeItems.warehouseId} IS NOT NULL OR ${line('warehouseId')} IS NOT NULL
            OR NOT (SELECT moves_stock FROM series))
          ELSE ${financeServices.id} IS NOT NULL END
          AND (${line('warehouseId')} IS NULL OR ${financeWarehouses.id} IS NOT NULL) AS found
      FROM ${jsonRecords(financeDocumentLines, [...INPUT_LINE_COLUMNS], p('lines'), 'r')}
      LEFT JOIN ${financeServices} ON ${financeServices.id} = ${line('serviceId')}
        AND ${financeServices.companyId} = ${companyId}
      LEFT JOIN ${financeItems} ON ${line('serviceId')} IS NULL AND ${financeItems.id} = ${line('itemId')}
        AND ${financeItems.companyId} = ${companyId}
      LEFT JOIN ${financeWarehouses} ON ${financeWarehouses.id} = ${line('warehouseId')}
        AND ${financeWarehouses.companyId} = ${companyId}
    ), valid AS (
      SELECT * FROM series
      WHERE ${sessionHolds()} AND (SELECT bool_and(found) FROM resolved) IS NOT FALSE
        AND CASE WHEN ${p('traderId')}::integer IS NULL THEN series.kind = 'retailReceipt'
          ELSE EXISTS (SELECT FROM trader) END
    ), taken AS (
      INSERT INTO ${financeSeriesCounters} (series_id, year, last, last_date)
      SELECT valid.id, ${p('year')}, 1, ${p('date')}::date FROM valid
      ON CONFLICT (series_id, year) DO UPDATE
        SET last = ${financeSeriesCounters}.last + 1,
            last_date = greatest(${financeSeriesCounters}.last_date, excluded.last_date)
        WHERE NOT (SELECT checkdates FROM valid) OR ${financeSeriesCounters}.last_date <= excluded.last_date
      RETURNING last
    ), doc AS (
      INSERT INTO ${financeDocuments} (${sql.join(
        DOCUMENT_VALUES.map(([key]) => column(financeDocuments, key)),
        sql`, `,
      )})
      SELECT ${sql.join(
        DOCUMENT_VALUES.map(([, value]) => value),
        sql`, `,
      )} FROM valid
      RETURNING *),
    lines AS (
      INSERT INTO ${financeDocumentLines} (document_id, position, service_id, item_id, warehouse_id, account_id,
        descr, quantity, price, discount, vat_percent, net, vat, total)
      SELECT doc.id, r.position, r.service_id, r.item_id, r.warehouse_id, r.account_id, r.descr, r.quantity,
        r.price, r.discount, r.vat_percent, r.net, r.vat, r.total
      FROM doc, resolved r
      RETURNING *
    ),
    taxes AS (${insertRecords(financeDocumentTaxes, TAX_COLUMNS, 'taxes')} RETURNING *),
    moves AS (
      INSERT INTO ${financeStockMoves} (document_id, company_id, item_id, warehouse_id, quantity)
      SELECT doc.id, ${companyId}, r.item_id, r.warehouse_id,
        r.quantity * CASE WHEN valid.debit_credit = 2 THEN 1 ELSE -1 END
      FROM doc, valid, resolved r
      WHERE valid.moves_stock AND r.item_id IS NOT NULL AND r.warehouse_id IS NOT NULL
    ),
    logged AS (
      INSERT INTO ${auditLog} (company_id, entity, entity_id, action, user_id, username, request_id)
      SELECT doc.company_id, 'financeDocument', doc.id::text, a.action, ${p('userId')}::integer,
        doc.createuser, ${p('requestId')}::text
      FROM doc, (VALUES ('create'), ('finalized')) AS a(action)
    )
    SELECT
      (SELECT ${jsonRowOf(financeDocuments, 'doc')} FROM doc) AS doc,
      (SELECT json_agg(${jsonRowOf(financeDocumentLines, 'lines')} ORDER BY lines.position) FROM lines) AS lines,
      (SELECT json_agg(${jsonRowOf(financeDocumentTaxes, 'taxes')} ORDER BY taxes.id) FROM taxes) AS taxes,
      (SELECT ${jsonRowOf(financeSeries, 'valid')} FROM valid) AS series,
      (SELECT fullname FROM trader) AS fullname,
      (SELECT vatnumber FROM trader) AS vatnumber`,
);

/**
 * Issuing at once (the form's "save and finalize", and bulk issuing): ONE prepared statement checks
 * what the document refers to, writes the document, its lines, taxes and stock moves, takes its number
 * from the series' counter row and writes both audit lines. It runs alone (its own transaction), so
 * the counter row is locked inside the database for that statement only, never across a round trip
 * to this process: concurrent issues in a series take turns at the speed of the database. When a
 * reference does not hold, the statement writes nothing and `resolve` answers which fields are wrong,
 * as the draft form does. A date before the series' last (checkdates) leaves the counter row
 * untouched and the statement fails as a whole: neither a document nor a number is left behind.
 */
export async function issueFinanceDocument(
  db: Db,
  principal: Principal,
  companyId: number,
  input: SaveFinanceDocument,
  requestId: string,
): Promise<FinanceDocument> {
  const { totals, header } = totalsOf(input);
  const lines = input.lines.map((line, index) => {
    const amounts = totals.lines[index];
    return {
      position: index + 1,
      serviceId: line.serviceId,
      itemId: line.itemId,
      warehouseId: line.warehouseId,
      descr: line.descr ?? null,
      quantity: line.quantity,
      price: line.price,
      discount: line.discount,
      vatPercent: line.vatPercent,
      net: moneyString(amounts?.net ?? 0),
      vat: moneyString(amounts?.vat ?? 0),
      total: moneyString(amounts?.total ?? 0),
    };
  });
  const [written] = await refusedBeforeLastDate(db, input, () =>
    issuing<{
      doc: JsonRow | null;
      lines: JsonRow[];
      taxes: JsonRow[] | null;
      series: JsonRow;
      fullname: string | null;
      vatnumber: string | null;
    }>(db, {
      ...headerOf(input),
      ...header,
      companyId,
      year: Number(input.date.slice(0, 4)),
      username: principal.username,
      ...sessionValues(principal),
      requestId,
      lines: recordsJson(financeDocumentLines, [...INPUT_LINE_COLUMNS], lines),
      taxes: recordsJson(financeDocumentTaxes, [...TAX_COLUMNS], taxValues(0, input, totals)),
    }),
  );
  if (!written?.doc) {
    // The session this node remembered has changed: issued again for the principal as it is now.
    if (principal.remembered)
      return issueFinanceDocument(db, await principal.remembered.confirm(), companyId, input, requestId);
    // Something the document refers to is not the company's (or not active): name the fields.
    await resolve(db, companyId, input);
    throw new Error('the issuing statement wrote no document, yet every reference holds');
  }
  return describe(
    db,
    rowOf<DocumentRow>(financeDocuments, written.doc),
    {
      lines: written.lines.map((line) => rowOf<LineRow>(financeDocumentLines, line)),
      taxes: (written.taxes ?? []).map((tax) => rowOf<TaxRow>(financeDocumentTaxes, tax)),
    },
    {
      series: rowOf<DocumentHead['series']>(financeSeries, written.series),
      fullname: written.fullname,
      vatnumber: written.vatnumber,
    },
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
