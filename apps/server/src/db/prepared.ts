import { createHash } from 'node:crypto';
import { Column, getTableColumns, is, type Query, SQL, type SQLWrapper, Subquery, sql } from 'drizzle-orm';
import { PgDialect, type PgSelect, type PgTable } from 'drizzle-orm/pg-core';
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

/** `table`'s columns of the given keys, in their order. */
function columnsNamed(table: PgTable, keys: string[]): Column[] {
  const all = getTableColumns(table);
  return keys.map((key) => {
    const column = all[key];
    if (!column) throw new Error(`no column ${key}`);
    return column;
  });
}

/**
 * The rows a JSON array parameter holds (`[{ "column_name": value, … }]`), typed by `table`'s
 * columns, as a FROM item aliased `alias`: a statement takes any number of rows in one parameter, so
 * its text, and its prepared plan, are the same for one line or fifty.
 */
export function jsonRecords(table: PgTable, columns: string[], json: SQLWrapper, alias: string): SQL {
  const definitions = columnsNamed(table, columns).map(
    (column) => `${column.name} ${column.getSQLType().replace(/^(big)?serial$/, 'integer')}`,
  );
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

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** How drizzle decodes a selected field's value (a column, an SQL expression, an alias or a subquery). */
function decoderOf(field: unknown): Decoder | undefined {
  // An expression's decoder is its `mapWith`, kept on the SQL object (not in drizzle's types).
  const ofSql = (expression: SQL) => (expression as unknown as { decoder: Decoder }).decoder;
  if (is(field, Column)) return field;
  if (is(field, SQL)) return ofSql(field);
  if (is(field, SQL.Aliased)) return ofSql(field.sql);
  if (is(field, Subquery)) return ofSql((field._ as unknown as { sql: SQL }).sql);
  return undefined;
}

type Session = Tx['_']['session'];
export type Reader = (
  session: Session,
  values: Record<string, unknown>,
) => Promise<Record<string, unknown>[]>;

/**
 * The reader of a flat select (every field a column or an expression): its rows, each decoded as
 * drizzle does, with the decoders looked up once per statement: drizzle's reader asks each cell's
 * field what it is (a prototype walk per check), which cost an export of 100,000 rows a tenth of its
 * time. A select of nested objects is left to drizzle.
 */
export function flatReader(statement: PgSelect): Reader {
  // The fields as the SQL selects them (`config.fields`, as `ids` reads it; `getSelectedFields()`
  // answers a proxy for subqueries that refuses unaliased expressions).
  const fields = Object.entries(
    (statement as unknown as { config: { fields: Record<string, unknown> } }).config.fields,
  );
  const decoders = fields.map(([, field]) => decoderOf(field));
  if (decoders.some((decoder) => decoder === undefined)) {
    const prepared = statement.prepare('');
    return async (_session, values) => (await prepared.execute(values)) as Record<string, unknown>[];
  }
  const names = fields.map(([name]) => name);
  const read = (rows: unknown[][]) =>
    rows.map((values) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) {
        const value = values[i];
        row[names[i] as string] = value === null ? null : (decoders[i] as Decoder).mapFromDriverValue(value);
      }
      return row;
    });
  const query = statement.toSQL();
  return async (session, values) =>
    (await session.prepareQuery(query, undefined, undefined, true, read).execute(values)) as Record<
      string,
      unknown
    >[];
}

/**
 * A select built once, on first use, with `sql.placeholder(name)` for its values, and run unnamed:
 * PostgreSQL plans it for each request's values (a named statement's plan for any value could walk
 * the wrong index for a rare word), while no request spends time building its SQL again (the global
 * search's sources: ten statements a request). Rows as drizzle answers them (`flatReader`).
 */
export function builtSelect<Q extends PgSelect>(build: (db: Tx) => Q) {
  let reader: Reader | undefined;
  return async (db: Tx, values: Record<string, unknown>): Promise<Awaited<Q>> => {
    reader ??= flatReader(build(db));
    return (await reader(db._.session, values)) as Awaited<Q>;
  };
}

/**
 * `INSERT INTO <table> (<columns>) SELECT … FROM jsonb_to_recordset(<rows>)`: many rows in one
 * statement with one parameter, their JSON (`recordsJson`); the caller appends ON CONFLICT or
 * RETURNING. Drizzle's multi-row VALUES binds every cell as a parameter and checks each one while
 * building the statement: a register import of 100,000 rows spent 26 s of the server's CPU there.
 * Rows are inserted, and RETURNING answers them, in the order given.
 */
export function insertRecords<K extends string>(
  table: PgTable,
  columns: K[],
  rows: Record<K, unknown>[],
): SQL {
  const names = columnsNamed(table, columns).map((column) => `"${column.name}"`);
  const json = recordsJson(table, columns, rows);
  return sql`INSERT INTO ${table} (${sql.raw(names.join(', '))}) SELECT ${sql.raw(
    names.map((name) => `r.${name}`).join(', '),
  )} FROM ${jsonRecords(table, columns, sql`${json}`, 'r')}`;
}
