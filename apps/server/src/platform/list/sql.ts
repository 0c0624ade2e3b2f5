import { codeKey, type FieldDef, type Page, UTILITY_TIME_ZONE } from '@protocol/contracts';
import { and, asc, desc, eq, inArray, is, or, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, PgColumn } from 'drizzle-orm/pg-core';
import type { ListQuery } from './query.ts';

/** Dates in filters are days of the utility's calendar, not UTC days. */

/**
 * Where each catalog field lives in SQL: a column or an expression of the list's query. A text
 * field may name its stored Greek-normalised copy, which filters and sorts then use (and index).
 * A date field whose values are calendar days ('YYYY-MM-DD', not instants) says so with `day`.
 */
export type FieldColumn =
  | AnyPgColumn
  | SQL
  | {
      value: AnyPgColumn | SQL;
      normalized: AnyPgColumn | SQL;
      /**
       * A code's copy without separators and padding (contracts' codeKey): the quick search also
       * finds "01001101" or "01-001-101" in "01-001-  101".
       */
      key?: AnyPgColumn | SQL;
    }
  | { day: SQL };
export type FieldColumns = Record<string, FieldColumn>;

const isDay = (column: FieldColumn): column is { day: SQL } => 'day' in column;
type NormalisedColumn = Extract<FieldColumn, { normalized: unknown }>;
const isNormalised = (column: FieldColumn): column is NormalisedColumn =>
  'normalized' in column && 'value' in column;
const plainOf = (column: FieldColumn): AnyPgColumn | SQL =>
  isDay(column) ? column.day : isNormalised(column) ? column.value : column;
/**
 * A column that is not text (an amount, a number) is searched and filtered as its text: there is no
 * norm_text(numeric). Text columns are left as they are, as the trigram indexes name them.
 */
const asText = (value: AnyPgColumn | SQL): AnyPgColumn | SQL =>
  is(value, PgColumn) && !/^(text|varchar|char)/.test(value.getSQLType()) ? sql`${value}::text` : value;
const normalizedOf = (column: FieldColumn): AnyPgColumn | SQL =>
  isNormalised(column) ? column.normalized : normText(asText(plainOf(column)));

/** The Greek-aware normal form: the same function that backs the trigram indexes. */
export const normText = (value: AnyPgColumn | SQL | string) => sql`norm_text(${value})`;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const dayStart = (day: string) => sql`((${day})::timestamp AT TIME ZONE ${UTILITY_TIME_ZONE})`;
const nextDayStart = (day: string) =>
  sql`(((${day})::date + 1)::timestamp AT TIME ZONE ${UTILITY_TIME_ZONE})`;

function condition(def: FieldDef, field: FieldColumn, op: string, value: string): SQL | undefined {
  if (def.type === 'text') {
    const normalized = normalizedOf(field);
    if (op === 'contains') return sql`${normalized} LIKE '%' || norm_text(${escapeLike(value)}) || '%'`;
    return sql`${normalized} = norm_text(${value})`;
  }
  const column = plainOf(field);
  const operators = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
  const symbol = operators[op as keyof typeof operators] ?? '=';
  // Calendar days compare as they are written: 'YYYY-MM-DD' sorts as the days do.
  if (isDay(field)) return sql`${column} ${sql.raw(symbol)} ${value}`;
  if (def.type === 'date') {
    switch (op) {
      case 'eq':
        return and(sql`${column} >= ${dayStart(value)}`, sql`${column} < ${nextDayStart(value)}`);
      case 'gt':
        return sql`${column} >= ${nextDayStart(value)}`;
      case 'gte':
        return sql`${column} >= ${dayStart(value)}`;
      case 'lt':
        return sql`${column} < ${dayStart(value)}`;
      default:
        return sql`${column} < ${nextDayStart(value)}`;
    }
  }
  return sql`${column} ${sql.raw(symbol)} ${value}`;
}

/** WHERE of a list: header filters (AND; several `eq` on one field mean any of them) and search. */
export function listWhere(query: ListQuery, columns: FieldColumns): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  const equals = new Map<string, string[]>();
  for (const filter of query.filters) {
    const column = columns[filter.field];
    if (!column) continue;
    if (filter.op === 'eq' && filter.def.type !== 'text' && filter.def.type !== 'date') {
      equals.set(filter.field, [...(equals.get(filter.field) ?? []), filter.value]);
      continue;
    }
    parts.push(condition(filter.def, column, filter.op, filter.value));
  }
  for (const [field, values] of equals) {
    const column = plainOf(columns[field] as FieldColumn) as AnyPgColumn;
    parts.push(values.length === 1 ? eq(column, values[0]) : inArray(column, values));
  }
  return and(...parts);
}

/** The quick search: any of the searchable fields contains the text. */
export function searchCondition(query: ListQuery, searchable: FieldColumn[]): SQL | undefined {
  if (!query.search || searchable.length === 0) return undefined;
  const pattern = escapeLike(query.search);
  const key = codeKey(query.search);
  return or(
    ...searchable.map((field) => sql`${normalizedOf(field)} LIKE '%' || norm_text(${pattern}) || '%'`),
    ...searchable.flatMap((field) =>
      isNormalised(field) && field.key && key !== ''
        ? [sql`${field.key} LIKE '%' || norm_text(${key}) || '%'`]
        : [],
    ),
  );
}

/**
 * The text fields a page's rows are filtered on by their contents (`contains`): their matches cluster
 * in the field's own order. (The quick search is not one: it looks in several fields at once, and its
 * matches in the others spread over the sort order.)
 */
export function searchedFields(query: ListQuery): Set<string> {
  const fields = new Set<string>();
  for (const filter of query.filters)
    if (filter.def.type === 'text' && filter.op === 'contains') fields.add(filter.field);
  return fields;
}

/**
 * ORDER BY of a list; text sorts in the Greek-aware order; the id keeps pages stable. A text field
 * that is also filtered by its contents sorts by an expression no index has (`|| ''`, same order):
 * the planner, which assumes matches spread evenly, would otherwise walk that field's sort index and
 * throw away every row before the matches' cluster (147,000 of 200,000 operators for
 * "παπαδοπουλ"), where the trigram index finds the matches and a top-N sort orders them.
 */
export function listOrderBy(
  query: ListQuery,
  columns: FieldColumns,
  id: AnyPgColumn,
  searched: Set<string> = new Set(),
): SQL[] {
  const order: SQL[] = [];
  for (const { field, desc: descending } of query.sort) {
    const column = columns[field.id];
    if (!column) continue;
    const text = field.type === 'text';
    const expression = !text
      ? plainOf(column)
      : searched.has(field.id)
        ? sql`(${normalizedOf(column)} || '')`
        : normalizedOf(column);
    order.push(descending ? desc(expression) : asc(expression));
  }
  order.push(asc(id));
  return order;
}

/**
 * The paged response of spec §3 from a page query and a count query, run side by side (on PostgreSQL
 * two pool connections; PGlite has one and runs them in turn). A page that shows where the list ends
 * (partly filled, or the first and empty) gives the total itself.
 */
export async function pageOf<T>(
  query: ListQuery,
  fetchPage: (limit: number, offset: number) => Promise<T[]>,
  count: () => Promise<number | { n: number; estimated?: true }>,
): Promise<Page<T>> {
  const offset = query.page * query.size;
  const [content, result] = await Promise.all([fetchPage(query.size, offset), count()]);
  const counted = typeof result === 'number' ? { n: result } : result;
  const ended = content.length > 0 && content.length < query.size;
  const empty = offset === 0 && content.length === 0;
  // A page that shows where the list ends knows the total, exactly.
  const estimated = !ended && !empty && counted.estimated === true;
  // An estimate never says the list ends before the rows already read.
  const totalElements = ended
    ? offset + content.length
    : empty
      ? 0
      : estimated
        ? Math.max(counted.n, offset + content.length + 1)
        : counted.n;
  const totalPages = Math.ceil(totalElements / query.size);
  return {
    content,
    number: query.page,
    totalPages,
    totalElements,
    ...(estimated ? { totalEstimated: true } : {}),
    size: query.size,
    offset,
    first: query.page === 0,
    last: query.page >= totalPages - 1,
  };
}
