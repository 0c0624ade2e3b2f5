import { Column, count, is, SQL, Subquery, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import type { ListSpec } from './list.ts';

/**
 * A list's `fetch` and `count` from one from…join (`rows`: `db.select(fields).from(…).…Join(…).$dynamic()`):
 * the count counts the rows of the very statement the page reads, so a join added to one can never be
 * missed in the other. PostgreSQL flattens the counted subquery: its columns are not computed.
 */
export function listSource<Q extends PgSelect, Row = Awaited<Q>[number]>(
  db: Db,
  rows: () => Q,
  map?: (row: Awaited<Q>[number]) => Row,
): Pick<ListSpec<Row>, 'fetch' | 'count' | 'estimate' | 'ids'> {
  return {
    async fetch(where, orderBy, limit, offset) {
      const page = (await readFlat(
        db,
        rows()
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(offset),
      )) as Awaited<Q>;
      return map ? page.map(map) : (page as Row[]);
    },
    async ids(where, orderBy, id) {
      const statement = rows()
        .where(where)
        .orderBy(...orderBy);
      // The very statement, its joins and order, selecting only the id: drizzle has no public way to
      // change a built select's fields (its `config.fields` is what the SQL and the mapping read), and
      // a subquery would not keep the order. exports.content.test.ts fails if drizzle changes that.
      (statement as unknown as { config: { fields: Record<string, unknown> } }).config.fields = { id };
      return ((await statement) as unknown as { id: unknown }[]).map((row) => row.id);
    },
    async count(where: SQL | undefined, limit?: number) {
      // The selection is generic here; drizzle's check that it is not empty cannot resolve it. With a
      // limit the subquery is not flattened, but PostgreSQL still drops its unread columns and joins.
      const statement = rows().where(where);
      const counted = (limit === undefined ? statement : statement.limit(limit)).as(
        'list_rows',
      ) as unknown as Subquery;
      const [row] = await db.select({ n: count() }).from(counted);
      return row?.n ?? 0;
    },
    async estimate(where: SQL | undefined) {
      // Its rows, not its columns: selecting a constant lets PostgreSQL drop the left joins no filter
      // reads before planning (a third of the planning time of the consumers list), and drizzle build
      // less; the estimate of the rows is the same. `config.fields` as in `ids`.
      const statement = rows().where(where);
      (statement as unknown as { config: { fields: Record<string, unknown> } }).config.fields = {
        one: sql`1`,
      };
      const result = (await db.execute(sql`EXPLAIN (FORMAT JSON) ${statement}`)) as unknown as {
        rows: Record<string, unknown>[];
      };
      const plan = Object.values(result.rows[0] ?? {})[0];
      const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as {
        Plan: { 'Plan Rows': number };
      }[];
      return Math.round(parsed[0]?.Plan['Plan Rows'] ?? 0);
    },
  };
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

/**
 * The rows of a flat select (every field a column or an expression), each decoded as drizzle does,
 * with the decoders looked up once per statement: drizzle's reader asks each cell's field what it is
 * (a prototype walk per check), which cost an export of 100,000 rows a tenth of its time. A select of
 * nested objects is left to drizzle.
 */
async function readFlat(db: Db, statement: PgSelect): Promise<Record<string, unknown>[]> {
  // The fields as the SQL selects them (`config.fields`, as `ids` reads it; `getSelectedFields()`
  // answers a proxy for subqueries that refuses unaliased expressions).
  const fields = Object.entries(
    (statement as unknown as { config: { fields: Record<string, unknown> } }).config.fields,
  );
  const decoders = fields.map(([, field]) => decoderOf(field));
  if (decoders.some((decoder) => decoder === undefined))
    return (await statement) as Record<string, unknown>[];
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
  const session = (db as unknown as { _: { session: Db['_']['session'] } })._.session;
  return (await session
    .prepareQuery(statement.toSQL(), undefined, undefined, true, read)
    .execute()) as Record<string, unknown>[];
}
