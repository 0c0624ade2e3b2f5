import { count, is, Placeholder, type SQL, type Subquery, sql } from 'drizzle-orm';
import { PgDialect, type PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { flatReader } from '../../db/prepared.ts';
import type { ListSpec } from './list.ts';

const dialect = new PgDialect();
/** What stands for a value while a statement's shape is read (no SQL text holds a NUL character). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the mark is a NUL character, which no SQL text holds
const VALUE = /\u0000(\d+)\u0000/;

/** `parts` (a statement's WHERE and ORDER BY) with their values taken out, and the text that keys them. */
interface Shape {
  key: string;
  parts: (SQL | undefined)[];
  values: Record<string, unknown>;
}

/**
 * The shape of `parts`: their SQL text with a mark for each value (the key), the same parts with a
 * placeholder `v<n>` for each value, and the values. Undefined for parts that already hold placeholders.
 */
function shapeOf(parts: (SQL | undefined)[]): Shape | undefined {
  const index = { value: 0 };
  const values: Record<string, unknown> = {};
  const texts: string[] = [];
  const shaped: (SQL | undefined)[] = [];
  for (const part of parts) {
    if (!part) {
      texts.push('');
      shaped.push(undefined);
      continue;
    }
    const { sql: text, params } = part.toQuery({
      casing: (dialect as unknown as { casing: never }).casing,
      escapeName: dialect.escapeName,
      escapeParam: (n) => `\u0000${n}\u0000`,
      escapeString: dialect.escapeString,
      paramStartIndex: index,
    });
    const first = index.value - params.length;
    for (const [i, value] of params.entries()) {
      if (is(value, Placeholder)) return undefined;
      values[`v${first + i}`] = value;
    }
    texts.push(text);
    shaped.push(
      sql.join(
        text.split(VALUE).map((piece, i) => (i % 2 === 1 ? sql.placeholder(`v${piece}`) : sql.raw(piece))),
      ),
    );
  }
  return { key: texts.join('\u0001'), parts: shaped, values };
}

/** Statements by shape, at most this many of each kind per list (a full cache starts again). */
const SHAPES_MAX = 500;

/**
 * A list's statements built once per shape (the SQL text of its WHERE and ORDER BY, values aside),
 * with placeholders for the values: a request of a shape already seen builds no SQL but its WHERE,
 * which costs a fraction of building the whole statement with its columns and joins again. They still
 * run unnamed, planned for their values (a plan for any value could walk the wrong index).
 */
function statementCache<T>(build: (parts: (SQL | undefined)[]) => T) {
  const built = new Map<string, T>();
  return (parts: (SQL | undefined)[]): { statement: T; values: Record<string, unknown> } | undefined => {
    const shape = shapeOf(parts);
    if (!shape) return undefined;
    let statement = built.get(shape.key);
    if (!statement) {
      if (built.size >= SHAPES_MAX) built.clear();
      statement = build(shape.parts);
      built.set(shape.key, statement);
    }
    return { statement, values: shape.values };
  };
}

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
  const session = db._.session;
  const pages = statementCache(([where, ...orderBy]) =>
    flatReader(
      rows()
        .where(where)
        .orderBy(...(orderBy as SQL[]))
        .limit(sql.placeholder('limit') as unknown as number)
        .offset(sql.placeholder('offset') as unknown as number),
    ),
  );
  const estimateOf = ([where]: (SQL | undefined)[]) => {
    // Its rows, not its columns: selecting a constant lets PostgreSQL drop the left joins no filter
    // reads before planning (a third of the planning time of the consumers list), and drizzle build
    // less; the estimate of the rows is the same. `config.fields` as in `ids`.
    const statement = rows().where(where);
    (statement as unknown as { config: { fields: Record<string, unknown> } }).config.fields = {
      one: sql`1`,
    };
    return dialect.sqlToQuery(sql`EXPLAIN (FORMAT JSON) ${statement}`);
  };
  const estimates = statementCache(estimateOf);
  return {
    async fetch(where, orderBy, limit, offset) {
      const cached = pages([where, ...orderBy]);
      const page = (
        cached
          ? await cached.statement(session, { ...cached.values, limit, offset })
          : await readFlat(
              db,
              rows()
                .where(where)
                .orderBy(...orderBy)
                .limit(limit)
                .offset(offset),
            )
      ) as Awaited<Q>;
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
      const cached = estimates([where]) ?? { statement: estimateOf([where]), values: {} };
      const result = (await session
        .prepareQuery(cached.statement, undefined, undefined, false)
        .execute(cached.values)) as unknown as { rows: Record<string, unknown>[] };
      const plan = Object.values(result.rows[0] ?? {})[0];
      const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as {
        Plan: { 'Plan Rows': number };
      }[];
      return Math.round(parsed[0]?.Plan['Plan Rows'] ?? 0);
    },
  };
}

/** The rows of a flat select built for one request (see `flatReader`). */
const readFlat = (db: Db, statement: PgSelect) => flatReader(statement)(db._.session, {});
