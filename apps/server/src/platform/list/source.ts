import { count, type SQL, type Subquery, sql } from 'drizzle-orm';
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
      const page: Awaited<Q> = await rows()
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset);
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
      const result = (await db.execute(sql`EXPLAIN (FORMAT JSON) ${rows().where(where)}`)) as unknown as {
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
