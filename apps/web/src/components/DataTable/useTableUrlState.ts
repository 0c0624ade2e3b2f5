import type { EntityCatalog } from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { type QueryState, queryFromUrl, urlHasQuery, urlParams, VIEW_PARAM } from './state.ts';

export interface UrlTableState {
  /** The view id the URL names, if any. */
  viewId: number | null;
  /** The list state the URL holds, or null when the URL leaves it to the view. */
  query: (fallback: QueryState) => QueryState | null;
  /** Writes the whole list state (and the view id) into the URL; `replace` for typing. */
  write: (query: QueryState, viewId: number | null, replace?: boolean) => void;
  /** Shows a view as saved: only its id in the URL. */
  showView: (viewId: number | null) => void;
}

/**
 * The table state lives in the query string (both languages, the path is kept as is), so a copied
 * link reopens the same list and back/forward walk through its states.
 */
export function useTableUrlState(catalog: EntityCatalog): UrlTableState {
  const [params, setParams] = useSearchParams();
  const raw = params.get(VIEW_PARAM);
  const parsedView = raw === null ? Number.NaN : Number.parseInt(raw, 10);
  const viewId = Number.isInteger(parsedView) ? parsedView : null;
  const hasQuery = urlHasQuery(catalog, params);

  const query = useCallback(
    (fallback: QueryState) => (hasQuery ? queryFromUrl(catalog, params, fallback) : null),
    [catalog, params, hasQuery],
  );

  const write = useCallback(
    (next: QueryState, view: number | null, replace = false) => {
      const nextParams = urlParams(next, view);
      if (nextParams.toString() === params.toString()) return;
      setParams(nextParams, { replace, preventScrollReset: true });
    },
    [params, setParams],
  );

  const showView = useCallback(
    (view: number | null) => {
      const nextParams = new URLSearchParams();
      if (view !== null) nextParams.set(VIEW_PARAM, String(view));
      setParams(nextParams, { preventScrollReset: true });
    },
    [setParams],
  );

  return useMemo(() => ({ viewId, query, write, showView }), [viewId, query, write, showView]);
}
