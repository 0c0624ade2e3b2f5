import {
  customColumnId,
  type EntityCatalog,
  LIST_EXACT_COUNT_LIMIT,
  type Page,
  withCustomFields,
} from '@protocol/contracts';
import { and, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  type CustomFieldsOfList,
  customFieldCells,
  customFieldColumns,
} from '../custom-fields/list-columns.ts';
import { type ListQuery, type ListQuerystring, parseListQuery } from './query.ts';
import {
  type FieldColumn,
  type FieldColumns,
  listOrderBy,
  listWhere,
  pageOf,
  searchCondition,
  searchedFields,
} from './sql.ts';

/** How one entity's list reads its rows; the engine adds filters, search, sort and paging. */
export interface ListSpec<Row> {
  catalog: EntityCatalog;
  /** The SQL of each field; the quick search runs over those the catalog marks `searchable`. */
  columns: FieldColumns;
  /** The primary key: the last sort key, so pages are stable. */
  id: AnyPgColumn;
  /**
   * The entity's custom fields, as extra columns `custom.<key>`: `fetch` then selects their jsonb
   * column as `customFields`, which the engine turns into one cell per field of the company.
   */
  customFields?: CustomFieldsOfList;
  fetch(where: SQL | undefined, orderBy: SQL[], limit: number, offset: number): Promise<Row[]>;
  /**
   * The `id` of every row `where` selects, in `orderBy`'s order: an export reads them first and then
   * its rows a batch at a time by id. Without it an export pages by OFFSET, which makes PostgreSQL
   * read (and join) every earlier row again for each batch: quadratic in the rows.
   */
  ids?(where: SQL | undefined, orderBy: SQL[], id: AnyPgColumn): Promise<unknown[]>;
  /** The rows `where` selects, all of them, or at most `limit`. */
  count(where: SQL | undefined, limit?: number): Promise<number>;
  /**
   * How `totalElements` is counted. 'exact' (the default) for lists whose totals people rely on (bills,
   * book numbers); 'estimated above the limit' for large lists where an exact count of every match is
   * what a page would wait for: exact up to LIST_EXACT_COUNT_LIMIT rows, PostgreSQL's estimate above it
   * (flagged `totalEstimated`; needs `estimate`).
   */
  total?: 'exact' | 'estimatedAboveLimit';
  /** The planner's estimate of the rows `where` selects. */
  estimate?(where: SQL | undefined): Promise<number>;
}

export interface EntityList<Row> {
  catalog: EntityCatalog;
  /** The catalog with the company's custom fields, for lists that have them. */
  catalogFor(companyId: number | undefined): Promise<EntityCatalog>;
  /**
   * One page of the list as the screen asks for it, within `scope` (who may see what); `companyId`
   * is the company whose custom fields the list offers. `held`, a condition of the page's own
   * statement only (a remembered session that still holds, auth.ts): false, the page has no rows.
   */
  page(
    scope: SQL | undefined,
    querystring: ListQuerystring,
    companyId?: number,
    held?: SQL,
  ): Promise<Page<Row>>;
  /**
   * Every row of the same query, in batches, for exports: memory holds the rows' ids and one batch of
   * rows, whatever the size.
   */
  batches(
    scope: SQL | undefined,
    querystring: ListQuerystring,
    options?: { companyId?: number; batchSize?: number },
  ): AsyncIterable<Row[]>;
}

/** Whether a list request filters or sorts by a custom field (`custom.<key>`). */
function namesCustomField(querystring: ListQuerystring): boolean {
  const custom = customColumnId('');
  if (Object.keys(querystring).some((name) => name.startsWith(custom))) return true;
  const sorts = querystring.sort === undefined ? [] : [querystring.sort].flat();
  return sorts.some((entry) => entry.trim().startsWith(custom));
}

/**
 * `id = ANY($1)`: a batch's ids as one array parameter, not a thousand (`IN ($1, … $1000)`), which
 * cost building, sending and parsing for every batch.
 */
function anyOf(id: AnyPgColumn, ids: unknown[]): SQL {
  const type = id
    .getSQLType()
    .replace(/^(big|small)?serial$/, (_, size?: string) =>
      size === 'big' ? 'bigint' : size === 'small' ? 'smallint' : 'integer',
    );
  return sql`${id} = ANY(${sql.param(ids)}::${sql.raw(type)}[])`;
}

/** Above this many rows expected, a list that allows estimates does not count at all. */
const ESTIMATE_ONLY = 20 * LIST_EXACT_COUNT_LIMIT;

export function defineList<Row>(spec: ListSpec<Row>): EntityList<Row> {
  // The catalog says what the search box searches, for the screen and the server alike.
  const searchable: FieldColumn[] = spec.catalog.fields
    .filter((field) => field.searchable)
    .map((field) => {
      const column = spec.columns[field.id];
      if (!column) throw new Error(`List ${spec.catalog.entity}: searchable field ${field.id} has no column`);
      return column;
    });
  /** The catalog, the columns and the row reader of a company's list. */
  async function shapeOf(companyId: number | undefined) {
    const custom = spec.customFields;
    if (!custom || companyId === undefined) {
      return { catalog: spec.catalog, columns: spec.columns, read: (rows: Row[]) => rows };
    }
    const definitions = await custom.definitions(companyId);
    return {
      catalog: withCustomFields(spec.catalog, definitions),
      columns: { ...spec.columns, ...customFieldColumns(custom.column, definitions) },
      read: (rows: Row[]) => customFieldCells(rows as Record<string, unknown>[], definitions) as Row[],
    };
  }
  /**
   * The total of a page: exact; or, for lists that allow it, estimated where PostgreSQL expects more
   * than ESTIMATE_ONLY rows (counting them is what a page would wait for), else counted up to the
   * limit: exact below it, estimated (never below it) above.
   */
  async function total(condition: SQL | undefined): Promise<{ n: number; estimated?: true }> {
    const estimate = spec.estimate;
    if (spec.total !== 'estimatedAboveLimit' || !estimate) return { n: await spec.count(condition) };
    const expected = await estimate(condition);
    if (expected > ESTIMATE_ONLY) return { n: expected, estimated: true };
    const n = await spec.count(condition, LIST_EXACT_COUNT_LIMIT + 1);
    if (n <= LIST_EXACT_COUNT_LIMIT) return { n };
    return { n: Math.max(LIST_EXACT_COUNT_LIMIT + 1, expected), estimated: true };
  }
  const where = (scope: SQL | undefined, query: ListQuery, columns: FieldColumns) =>
    and(scope, listWhere(query, columns), searchCondition(query, searchable));
  return {
    catalog: spec.catalog,
    async catalogFor(companyId) {
      return (await shapeOf(companyId)).catalog;
    },
    async page(scope, querystring, companyId, held) {
      const pageFor = (catalog: EntityCatalog, columns: FieldColumns) => {
        const query = parseListQuery(catalog, querystring);
        const condition = where(scope, query, columns);
        const orderBy = listOrderBy(query, columns, spec.id, searchedFields(query));
        return pageOf(
          query,
          (limit, offset) => spec.fetch(and(condition, held), orderBy, limit, offset),
          () => total(condition),
        );
      };
      const custom = spec.customFields;
      // A page that neither filters nor sorts by a custom field reads the company's definitions beside
      // its rows instead of before them (a round trip less to wait for): they only make its cells.
      if (custom && companyId !== undefined && !namesCustomField(querystring)) {
        const [definitions, page] = await Promise.all([
          custom.definitions(companyId),
          pageFor(spec.catalog, spec.columns),
        ]);
        return {
          ...page,
          content: customFieldCells(page.content as Record<string, unknown>[], definitions) as Row[],
        };
      }
      const { catalog, columns, read } = await shapeOf(companyId);
      const page = await pageFor(catalog, columns);
      return { ...page, content: read(page.content) };
    },
    async *batches(scope, querystring, { companyId, batchSize = 1000 } = {}) {
      const { page: _page, size: _size, itemsPerPage: _alias, ...rest } = querystring;
      const { catalog, columns, read } = await shapeOf(companyId);
      const query = parseListQuery(catalog, rest);
      const condition = where(scope, query, columns);
      const orderBy = listOrderBy(query, columns, spec.id, searchedFields(query));
      if (spec.ids) {
        // The rows' order once (ids only: a few MB for a million rows), then each batch by its ids. The
        // batch keeps the condition: a row changed meanwhile so that it no longer matches is left out.
        const ids = await spec.ids(condition, orderBy, spec.id);
        for (let start = 0; start < ids.length; start += batchSize) {
          const batch = ids.slice(start, start + batchSize);
          const rows = read(
            await spec.fetch(and(condition, anyOf(spec.id, batch)), orderBy, batch.length, 0),
          );
          if (rows.length > 0) yield rows;
        }
        return;
      }
      for (let offset = 0; ; offset += batchSize) {
        const rows = read(await spec.fetch(condition, orderBy, batchSize, offset));
        if (rows.length > 0) yield rows;
        if (rows.length < batchSize) return;
      }
    },
  };
}
