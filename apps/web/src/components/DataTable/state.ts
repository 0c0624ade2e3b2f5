import {
  type EntityCatalog,
  type FieldDef,
  type FilterOperator,
  formatFilter,
  LIST_DEFAULT_SIZE,
  LIST_RESERVED_PARAMS,
  parseFilter,
  TABLE_VIEW_VERSION,
  type TableView,
} from '@protocol/contracts';

/**
 * The table's state as plain data, and every conversion it needs: saved view ↔ state, URL ↔ state,
 * state → API query string. No React here, so the rules of spec §4 are easy to read and test.
 */

export interface SortItem {
  id: string;
  desc: boolean;
}

export interface FilterValue {
  op: FilterOperator;
  value: string;
}

export type FilterMap = Record<string, FilterValue[]>;

export interface ColumnSetting {
  id: string;
  visible: boolean;
  width?: number;
}

/** What the server is asked for: the URL carries exactly this (plus the view id). */
export interface QueryState {
  page: number;
  size: number;
  sort: SortItem[];
  search: string;
  filters: FilterMap;
}

export interface TableState {
  query: QueryState;
  columns: ColumnSetting[];
}

/** The URL parameter naming the saved view shown. */
export const VIEW_PARAM = 'view';

export function fieldOf(catalog: EntityCatalog, id: string): FieldDef | undefined {
  return catalog.fields.find((field) => field.id === id);
}

export function defaultColumns(catalog: EntityCatalog): ColumnSetting[] {
  return catalog.fields.map((field) => ({
    id: field.id,
    visible: !field.hiddenByDefault,
    width: field.width,
  }));
}

export function defaultQuery(catalog: EntityCatalog): QueryState {
  return {
    page: 0,
    size: LIST_DEFAULT_SIZE,
    sort: [{ id: catalog.defaultSort.field, desc: catalog.defaultSort.desc }],
    search: '',
    filters: {},
  };
}

/** Known columns in the saved order, unknown ids dropped, new catalog columns appended. */
export function normalizeColumns(catalog: EntityCatalog, columns: readonly ColumnSetting[]): ColumnSetting[] {
  const seen = new Set<string>();
  const result: ColumnSetting[] = [];
  for (const column of columns) {
    const field = fieldOf(catalog, column.id);
    if (!field || seen.has(column.id)) continue;
    seen.add(column.id);
    result.push({ id: column.id, visible: column.visible, width: column.width ?? field.width });
  }
  for (const field of catalog.fields) {
    if (!seen.has(field.id))
      result.push({ id: field.id, visible: !field.hiddenByDefault, width: field.width });
  }
  return result;
}

function normalizeSize(size: number): number {
  if (size === -1) return -1;
  return Number.isInteger(size) && size > 0 ? size : LIST_DEFAULT_SIZE;
}

function normalizeSort(catalog: EntityCatalog, sort: readonly SortItem[]): SortItem[] {
  const seen = new Set<string>();
  return sort.filter((item) => {
    const field = fieldOf(catalog, item.id);
    if (!field?.sortable || seen.has(item.id)) return false;
    seen.add(item.id);
    return true;
  });
}

/** Filters of known fields with operators the field allows, empty values dropped. */
export function normalizeFilters(
  catalog: EntityCatalog,
  filters: Record<string, readonly FilterValue[]>,
): FilterMap {
  const result: FilterMap = {};
  for (const [id, values] of Object.entries(filters)) {
    const field = fieldOf(catalog, id);
    if (!field) continue;
    const kept = values.filter((item) => item.value !== '' && field.filters.includes(item.op));
    if (kept.length > 0) result[id] = kept.map((item) => ({ op: item.op, value: item.value }));
  }
  return result;
}

/** A saved view (metaValue) as table state; anything the catalog no longer knows is ignored. */
export function viewToState(catalog: EntityCatalog, view: TableView): TableState {
  const options = view.defaultTableOptions;
  const sort = options.sortBy.map((id, index) => ({ id, desc: options.sortDesc[index] ?? false }));
  return {
    query: {
      page: Math.max(0, options.page),
      size: normalizeSize(options.itemsPerPage),
      sort: normalizeSort(catalog, sort),
      search: view.search ?? '',
      filters: normalizeFilters(catalog, view.headerAvancedFilters ?? {}),
    },
    columns: normalizeColumns(catalog, view.columns),
  };
}

export function stateToView(title: string, active: 0 | 1, state: TableState): TableView {
  return {
    version: TABLE_VIEW_VERSION,
    title,
    search: state.query.search,
    active,
    columns: state.columns.map((column) => ({
      id: column.id,
      visible: column.visible,
      ...(column.width ? { width: Math.round(Math.min(2000, Math.max(40, column.width))) } : {}),
    })),
    headerAvancedFilters: state.query.filters,
    defaultTableOptions: {
      itemsPerPage: state.query.size,
      page: state.query.page,
      sortBy: state.query.sort.map((item) => item.id),
      sortDesc: state.query.sort.map((item) => item.desc),
    },
  };
}

export function defaultView(catalog: EntityCatalog, title: string, active: 0 | 1 = 1): TableView {
  return stateToView(title, active, { query: defaultQuery(catalog), columns: defaultColumns(catalog) });
}

/** A stable text of what a view decides (not the page): equal texts mean 'not modified'. */
export function stateSignature(state: TableState): string {
  const filters = Object.keys(state.query.filters)
    .sort()
    .map((id) => [id, state.query.filters[id]]);
  return JSON.stringify({
    size: state.query.size,
    sort: state.query.sort,
    search: state.query.search.trim(),
    filters,
    columns: state.columns.map((column) => [column.id, column.visible, column.width ?? null]),
  });
}

const TABLE_PARAMS: readonly string[] = [...LIST_RESERVED_PARAMS];

/** True when the URL says something about the list itself (not only which view). */
export function urlHasQuery(catalog: EntityCatalog, params: URLSearchParams): boolean {
  for (const key of params.keys()) {
    if (TABLE_PARAMS.includes(key) || fieldOf(catalog, key)) return true;
  }
  return false;
}

/** The URL's list state; sort and size fall back to the view's when the link leaves them out. */
export function queryFromUrl(
  catalog: EntityCatalog,
  params: URLSearchParams,
  fallback: QueryState,
): QueryState {
  const page = Number.parseInt(params.get('page') ?? '', 10);
  const size = Number.parseInt(params.get('size') ?? params.get('itemsPerPage') ?? '', 10);
  const sortParams = params.getAll('sort');
  const sort = sortParams.flatMap((raw) => {
    const [id, direction] = raw.split(',');
    return id ? [{ id, desc: direction?.toUpperCase() === 'DESC' }] : [];
  });
  const filters: Record<string, FilterValue[]> = {};
  for (const field of catalog.fields) {
    const values = params.getAll(field.id).flatMap((raw) => {
      const parsed = parseFilter(raw);
      return parsed ? [parsed] : [];
    });
    if (values.length > 0) filters[field.id] = values;
  }
  return {
    page: Number.isInteger(page) && page >= 0 ? page : 0,
    size: Number.isNaN(size) ? fallback.size : normalizeSize(size),
    sort: sortParams.length > 0 ? normalizeSort(catalog, sort) : fallback.sort,
    search: params.get('search') ?? '',
    filters: normalizeFilters(catalog, filters),
  };
}

/** The list part of a query string: sort, search and filters (what exports and print send). */
export function appendQuery(params: URLSearchParams, query: QueryState): URLSearchParams {
  for (const item of query.sort) params.append('sort', `${item.id},${item.desc ? 'DESC' : 'ASC'}`);
  if (query.search.trim()) params.set('search', query.search.trim());
  for (const [id, values] of Object.entries(query.filters)) {
    for (const value of values) params.append(id, formatFilter(value));
  }
  return params;
}

/** The API query string: page and size first when asked for, then the list part. */
export function apiParams(query: QueryState, paging = true): URLSearchParams {
  const params = new URLSearchParams();
  if (paging) {
    params.set('page', String(query.page));
    params.set('size', String(query.size));
  }
  return appendQuery(params, query);
}

/** `url` followed by `query`: a search URL may already carry parameters. */
export function withQuery(url: string, query: string): string {
  if (!query) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** The page's URL query: the view id and the whole list state, so a copied link reopens it. */
export function urlParams(query: QueryState, viewId: number | null): URLSearchParams {
  const params = new URLSearchParams();
  if (viewId !== null) params.set(VIEW_PARAM, String(viewId));
  for (const [key, value] of apiParams(query)) params.append(key, value);
  return params;
}

/** Replace the filters of one field (an empty list clears it). */
export function withFilter(filters: FilterMap, field: string, values: FilterValue[]): FilterMap {
  const next = { ...filters };
  const kept = values.filter((item) => item.value !== '');
  if (kept.length > 0) next[field] = kept;
  else delete next[field];
  return next;
}

/**
 * The title of the view saved automatically on a first visit: stored as this key and shown
 * translated, so it reads right in either language whoever opened the list first.
 */
export const DEFAULT_VIEW_TITLE = 'views.defaultTitle';

/** A view's title as shown: the default view's in the current language, others as typed. */
export function viewTitle(t: (key: string) => string, title: string): string {
  return title === DEFAULT_VIEW_TITLE ? t(DEFAULT_VIEW_TITLE) : title;
}
