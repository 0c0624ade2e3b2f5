import { type EntityCatalog, type TableView, tableViewSchema, type UserMeta } from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { api } from '../../lib/api.ts';
import { DEFAULT_VIEW_TITLE, defaultView, stateToView, type TableState } from './state.ts';

/** A saved view row with its parsed metaValue. */
export interface SavedView {
  row: UserMeta & { id: number };
  view: TableView;
}

/** The views of a list in a company: a company's shared views are shown in that company only. */
export const viewsKey = (metaKey: string) => ['table-views', metaKey] as const;

function metaPath(metaUrl: string, metaKey: string): string {
  return `${metaUrl}?metaKey=${encodeURIComponent(metaKey)}`;
}

function parseRows(rows: UserMeta[]): SavedView[] {
  const result: SavedView[] = [];
  for (const row of rows) {
    if (row.id === null) continue;
    try {
      const parsed = tableViewSchema.safeParse(JSON.parse(row.metaValue));
      if (parsed.success) result.push({ row: { ...row, id: row.id }, view: parsed.data });
    } catch {
      // a metaValue that is not JSON: not a view we can show
    }
  }
  return result;
}

/** Spec §4: the active view is the one flagged active, else the first. */
export function activeView(views: SavedView[]): SavedView | undefined {
  return views.find((item) => item.view.active === 1) ?? views[0];
}

// One default-view creation per metaKey at a time (StrictMode mounts effects twice).
const creating = new Map<string, Promise<unknown>>();

export interface TableViews {
  views: SavedView[];
  loading: boolean;
  /** The view flagged active (or the first). */
  active: SavedView | undefined;
  choose: (id: number) => Promise<void>;
  /** Saves the table state into an existing view, keeping its title, flag and scope. */
  saveInto: (target: SavedView, state: TableState) => Promise<void>;
  /** Spec §4: a copy of the current state with a title and a global flag, then made the active one. */
  saveNew: (title: string, global: boolean, state: TableState) => Promise<number>;
  /** Spec §4: catalog defaults, title kept. */
  reset: (target: SavedView) => Promise<void>;
  remove: (target: SavedView) => Promise<void>;
  busy: boolean;
}

/**
 * Saved table views of one list (GET/POST/DELETE /api/users/meta?metaKey=…), with the rules of
 * spec §4. Failures raise the general red snackbar (mutation default).
 */
export function useTableViews(options: {
  catalog: EntityCatalog;
  metaKey: string;
  metaUrl: string;
}): TableViews {
  const { catalog, metaKey, metaUrl } = options;
  const queryClient = useQueryClient();
  const path = metaPath(metaUrl, metaKey);
  const query = useQuery({
    queryKey: viewsKey(metaKey),
    queryFn: ({ signal }) => api.get<UserMeta[]>(path, { signal }),
    staleTime: 60_000,
    meta: { errorSnackbar: true },
  });
  const views = useMemo(() => parseRows(query.data ?? []), [query.data]);
  const reload = () => queryClient.invalidateQueries({ queryKey: viewsKey(metaKey) });

  const save = (row: Omit<UserMeta, 'id'> & { id: number | null }) => api.post<UserMeta>(path, row);

  // Spec §4: with no views at all, a default view is saved and the list reloaded.
  const empty = query.isSuccess && query.data.length === 0;
  useEffect(() => {
    if (!empty || creating.has(metaKey)) return;
    const promise = api
      .post<UserMeta>(path, {
        id: null,
        global: 0,
        metaKey,
        metaValue: JSON.stringify(defaultView(catalog, DEFAULT_VIEW_TITLE)),
      })
      .catch(() => undefined) // spec §7: meta save failures are only logged
      .finally(() => {
        creating.delete(metaKey);
        void queryClient.invalidateQueries({ queryKey: viewsKey(metaKey) });
      });
    creating.set(metaKey, promise);
  }, [empty, metaKey, path, catalog, queryClient]);

  const chooseMutation = useMutation({
    mutationFn: async (id: number) => {
      // Spec §4: flag the chosen one, clear the others, save all of them.
      for (const item of views) {
        const view = { ...item.view, active: item.row.id === id ? 1 : 0 } as TableView;
        await save({ ...item.row, metaValue: JSON.stringify(view) });
      }
    },
    onSettled: reload,
  });

  const saveIntoMutation = useMutation({
    mutationFn: ({ target, state }: { target: SavedView; state: TableState }) =>
      save({
        ...target.row,
        metaValue: JSON.stringify(stateToView(target.view.title, target.view.active, state)),
      }),
    onSettled: reload,
  });

  const saveNewMutation = useMutation({
    mutationFn: async ({ title, global, state }: { title: string; global: boolean; state: TableState }) => {
      const saved = await save({
        id: null,
        global: global ? 1 : 0,
        metaKey,
        metaValue: JSON.stringify(stateToView(title, 1, state)),
      });
      if (saved.id === null) throw new Error('no id');
      // The list is reloaded and the newest view becomes the active one.
      const fresh = parseRows(await api.get<UserMeta[]>(path));
      for (const item of fresh) {
        const view = { ...item.view, active: item.row.id === saved.id ? 1 : 0 } as TableView;
        if (item.view.active === view.active && item.row.id !== saved.id) continue;
        await save({ ...item.row, metaValue: JSON.stringify(view) }).catch(() => undefined);
      }
      return saved.id;
    },
    onSettled: reload,
  });

  const resetMutation = useMutation({
    mutationFn: (target: SavedView) =>
      save({
        ...target.row,
        metaValue: JSON.stringify(defaultView(catalog, target.view.title, target.view.active)),
      }),
    onSettled: reload,
  });

  const removeMutation = useMutation({
    mutationFn: (target: SavedView) => api.delete<void>(path, target.row),
    onSettled: reload,
  });

  return {
    views,
    loading: query.isPending || empty,
    active: activeView(views),
    choose: async (id) => {
      await chooseMutation.mutateAsync(id);
    },
    saveInto: async (target, state) => {
      await saveIntoMutation.mutateAsync({ target, state });
    },
    saveNew: (title, global, state) => saveNewMutation.mutateAsync({ title, global, state }),
    reset: async (target) => {
      await resetMutation.mutateAsync(target);
    },
    remove: async (target) => {
      await removeMutation.mutateAsync(target);
    },
    busy:
      chooseMutation.isPending ||
      saveIntoMutation.isPending ||
      saveNewMutation.isPending ||
      resetMutation.isPending ||
      removeMutation.isPending,
  };
}
