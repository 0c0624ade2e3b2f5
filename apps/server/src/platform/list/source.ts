import { count, type SQL, type Subquery } from 'drizzle-orm';
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
): Pick<ListSpec<Row>, 'fetch' | 'count'> {
  return {
    async fetch(where, orderBy, limit, offset) {
      const page: Awaited<Q> = await rows()
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset);
      return map ? page.map(map) : (page as Row[]);
    },
    async count(where: SQL | undefined) {
      // The selection is generic here; drizzle's check that it is not empty cannot resolve it.
      const counted = rows().where(where).as('list_rows') as unknown as Subquery;
      const [row] = await db.select({ n: count() }).from(counted);
      return row?.n ?? 0;
    },
  };
}
