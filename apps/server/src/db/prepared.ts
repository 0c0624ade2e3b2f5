import { createHash } from 'node:crypto';
import { type Column, getTableColumns, type Query, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from './client.ts';

const dialect = new PgDialect();

/**
 * A statement of the hot request path (authentication, registration, invoice issuing), built once:
 * its SQL text is made by `build` on first use (given the database only to build with its query
 * builders) with `sql.placeholder(name)` for every value, and it
 * runs as a named prepared statement. PostgreSQL then parses and plans it once per connection, and no
 * request spends time building SQL or sending its text again. The name is the text's hash, so two
 * statements can never share one. PgBouncer in transaction mode needs `max_prepared_statements` set
 * (1.21 or later) to pass named statements through.
 */
export function preparedStatement(build: (db: Tx) => SQL) {
  let query: (Query & { name: string }) | undefined;
  return async <Row = Record<string, unknown>>(tx: Tx, values: Record<string, unknown>): Promise<Row[]> => {
    if (!query) {
      const built = dialect.sqlToQuery(build(tx));
      query = { ...built, name: `p${createHash('sha1').update(built.sql).digest('hex').slice(0, 20)}` };
    }
    const result: unknown = await tx._.session
      .prepareQuery(query, undefined, query.name, false)
      .execute(values);
    return (result as { rows: Row[] }).rows;
  };
}

/**
 * The rows a JSON array parameter holds (`[{ "column_name": value, … }]`), typed by `table`'s
 * columns, as a FROM item aliased `alias`: a statement takes any number of rows in one parameter, so
 * its text, and its prepared plan, are the same for one line or fifty.
 */
export function jsonRecords(table: PgTable, columns: string[], json: SQLWrapper, alias: string): SQL {
  const all = getTableColumns(table);
  const definitions = columns.map((key) => {
    const column = all[key];
    if (!column) throw new Error(`no column ${key}`);
    return `${column.name} ${column.getSQLType().replace(/^(big)?serial$/, 'integer')}`;
  });
  return sql`jsonb_to_recordset(${json}::jsonb) AS ${sql.raw(`${alias}(${definitions.join(', ')})`)}`;
}

/** `rows` as the JSON of `jsonRecords`: keyed by `table`'s column names, only `columns`. */
export function recordsJson<K extends string>(
  table: PgTable,
  columns: K[],
  rows: Record<K, unknown>[],
): string {
  const all = getTableColumns(table);
  const names = columns.map((key) => [key, all[key]?.name ?? key] as const);
  return JSON.stringify(rows.map((row) => Object.fromEntries(names.map(([key, name]) => [name, row[key]]))));
}

export type JsonRow = Record<string, unknown>;

const columnsOf = new WeakMap<PgTable, [string, Column][]>();

/**
 * A row of `alias` (a table or a CTE returning `table`'s columns) as JSON keyed by the columns' TS
 * names, numeric values as text so no amount passes through a binary float.
 */
export function jsonRowOf(table: PgTable, alias: string): SQL {
  const pairs = Object.entries(getTableColumns(table)).map(([key, column]) => {
    const value = sql`${sql.identifier(alias)}.${sql.identifier(column.name)}`;
    return sql`${sql.raw(`'${key}'`)}, ${column.columnType === 'PgNumeric' ? sql`${value}::text` : value}`;
  });
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

/** The typed row of a `jsonRowOf` object: timestamps become Dates as drizzle answers them. */
export function rowOf<T>(table: PgTable, json: JsonRow): T {
  const row: JsonRow = {};
  let columns = columnsOf.get(table);
  if (!columns) {
    columns = Object.entries(getTableColumns(table));
    columnsOf.set(table, columns);
  }
  for (const [key, column] of columns) {
    const value = json[key];
    row[key] = column.columnType === 'PgTimestamp' && typeof value === 'string' ? new Date(value) : value;
  }
  return row as T;
}
