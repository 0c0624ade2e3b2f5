/**
 * The last list query per entity, kept in sessionStorage: the edit page's fast switch shows the
 * list the user came from, with the same view, filters and sort.
 */
export interface ListMemory {
  /** The search endpoint, e.g. /api/users/search. */
  searchUrl: string;
  /** The API query string, page and size included. */
  query: string;
  /** Visible column ids in order. */
  columns: string[];
  /** Language-neutral path and query of the list page, to go back to it. */
  listPath: string;
  /** Translated title of the list. */
  title: string;
}

const key = (entity: string) => `protocol.list.${entity}`;

export function rememberList(entity: string, memory: ListMemory): void {
  try {
    sessionStorage.setItem(key(entity), JSON.stringify(memory));
  } catch {
    // storage unavailable: the fast switch then shows the default list
  }
}

export function recallList(entity: string): ListMemory | null {
  try {
    const raw = sessionStorage.getItem(key(entity));
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<ListMemory>;
    if (typeof value.searchUrl !== 'string' || typeof value.query !== 'string') return null;
    return {
      searchUrl: value.searchUrl,
      query: value.query,
      columns: Array.isArray(value.columns) ? value.columns.filter((id) => typeof id === 'string') : [],
      listPath: typeof value.listPath === 'string' ? value.listPath : '/',
      title: typeof value.title === 'string' ? value.title : '',
    };
  } catch {
    return null;
  }
}
