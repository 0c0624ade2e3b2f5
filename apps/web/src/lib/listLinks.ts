import { formatFilter, type ListFilter } from '@protocol/contracts';

/**
 * A list's path with header filters in the query string, as the DataTable reads its URL state
 * (components/DataTable/state.ts `queryFromUrl`): a dashboard card opens the list that shows what it
 * counts.
 */
export function filteredList(path: string, filters: ListFilter[], sort?: string): string {
  const params = new URLSearchParams();
  if (sort) params.append('sort', sort);
  for (const filter of filters) params.append(filter.field, formatFilter(filter));
  return `${path}?${params.toString()}`;
}
