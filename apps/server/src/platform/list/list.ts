import type { EntityCatalog, Page } from '@protocol/contracts';
import { and, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type ListQuery, type ListQuerystring, parseListQuery } from './query.ts';
import {
  type FieldColumn,
  type FieldColumns,
  listOrderBy,
  listWhere,
  pageOf,
  searchCondition,
} from './sql.ts';

/** How one entity's list reads its rows; the engine adds filters, search, sort and paging. */
export interface ListSpec<Row> {
  catalog: EntityCatalog;
  columns: FieldColumns;
  /** Text fields of the quick search. */
  searchable: FieldColumn[];
  /** The primary key: the last sort key, so pages are stable. */
  id: AnyPgColumn;
  fetch(where: SQL | undefined, orderBy: SQL[], limit: number, offset: number): Promise<Row[]>;
  count(where: SQL | undefined): Promise<number>;
}

export interface EntityList<Row> {
  catalog: EntityCatalog;
  /** One page of the list as the screen asks for it, within `scope` (who may see what). */
  page(scope: SQL | undefined, querystring: ListQuerystring): Promise<Page<Row>>;
  /** Every row of the same query, in batches, for exports: bounded memory whatever the size. */
  batches(scope: SQL | undefined, querystring: ListQuerystring, batchSize?: number): AsyncIterable<Row[]>;
}

export function defineList<Row>(spec: ListSpec<Row>): EntityList<Row> {
  const where = (scope: SQL | undefined, query: ListQuery) =>
    and(scope, listWhere(query, spec.columns), searchCondition(query, spec.searchable));
  return {
    catalog: spec.catalog,
    page(scope, querystring) {
      const query = parseListQuery(spec.catalog, querystring);
      const condition = where(scope, query);
      const orderBy = listOrderBy(query, spec.columns, spec.id);
      return pageOf(
        query,
        (limit, offset) => spec.fetch(condition, orderBy, limit, offset),
        () => spec.count(condition),
      );
    },
    async *batches(scope, querystring, batchSize = 1000) {
      const { page: _page, size: _size, itemsPerPage: _alias, ...rest } = querystring;
      const query = parseListQuery(spec.catalog, rest);
      const condition = where(scope, query);
      const orderBy = listOrderBy(query, spec.columns, spec.id);
      for (let offset = 0; ; offset += batchSize) {
        const rows = await spec.fetch(condition, orderBy, batchSize, offset);
        if (rows.length > 0) yield rows;
        if (rows.length < batchSize) return;
      }
    },
  };
}
