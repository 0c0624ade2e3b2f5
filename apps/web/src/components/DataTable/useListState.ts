import type { EntityCatalog } from '@protocol/contracts';
import { useCallback, useMemo, useState } from 'react';
import {
  type ColumnSetting,
  defaultColumns,
  defaultQuery,
  type FilterValue,
  type QueryState,
  stateSignature,
  type TableState,
  viewToState,
  withFilter,
} from './state.ts';
import { useTableUrlState } from './useTableUrlState.ts';
import { type SavedView, useTableViews } from './useTableViews.ts';

/**
 * What the list shows: the saved view the URL names (or the active one), the query in the URL on
 * top of it, and column changes not saved yet (dropped when another view is shown).
 */
export function useListState({
  catalog,
  metaKey,
  metaUrl,
}: {
  catalog: EntityCatalog;
  metaKey: string;
  metaUrl: string;
}) {
  const views = useTableViews({ catalog, metaKey, metaUrl });
  const url = useTableUrlState(catalog);
  const displayed: SavedView | undefined =
    (url.viewId !== null ? views.views.find((item) => item.row.id === url.viewId) : undefined) ??
    views.active;
  const displayedKey = displayed ? `${displayed.row.id}:${displayed.row.metaValue}` : 'none';
  const viewState: TableState = useMemo(
    () =>
      displayed
        ? viewToState(catalog, displayed.view)
        : { query: defaultQuery(catalog), columns: defaultColumns(catalog) },
    [catalog, displayed],
  );
  const query: QueryState = useMemo(() => url.query(viewState.query) ?? viewState.query, [url, viewState]);

  const [columnOverride, setColumnOverride] = useState<{ key: string; columns: ColumnSetting[] } | null>(
    null,
  );
  const columns = columnOverride?.key === displayedKey ? columnOverride.columns : viewState.columns;
  const setColumns = useCallback(
    (next: ColumnSetting[]) => setColumnOverride({ key: displayedKey, columns: next }),
    [displayedKey],
  );
  const tableState: TableState = useMemo(() => ({ query, columns }), [query, columns]);
  const modified = displayed !== undefined && stateSignature(tableState) !== stateSignature(viewState);
  const viewId = displayed?.row.id ?? null;

  const setQuery = useCallback(
    (next: QueryState, replace = false) => url.write(next, viewId, replace),
    [url, viewId],
  );
  const setSearch = useCallback(
    (search: string) => setQuery({ ...query, search, page: 0 }, true),
    [query, setQuery],
  );
  const setFieldFilter = useCallback(
    (field: string, values: FilterValue[], typing?: boolean) =>
      setQuery({ ...query, filters: withFilter(query.filters, field, values), page: 0 }, typing),
    [query, setQuery],
  );

  return {
    views,
    url,
    displayed,
    modified,
    query,
    columns,
    setColumns,
    tableState,
    setQuery,
    setSearch,
    setFieldFilter,
  };
}
