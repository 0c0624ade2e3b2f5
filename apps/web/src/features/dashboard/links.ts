import { formatFilter, type ListFilter } from '@protocol/contracts';

/**
 * A list's path with header filters in the query string, as the DataTable reads its URL state
 * (components/DataTable/state.ts `queryFromUrl`): each card opens the list that shows what it counts.
 */
export function filteredList(path: string, filters: ListFilter[], sort?: string): string {
  const params = new URLSearchParams();
  if (sort) params.append('sort', sort);
  for (const filter of filters) params.append(filter.field, formatFilter(filter));
  return `${path}?${params.toString()}`;
}

/** The active documents (both kinds) whose current charge is this operator. */
export const chargedToMeList = (userId: number) =>
  filteredList('/document', [{ field: 'chargedUserId', op: 'eq', value: String(userId) }]);

/** The active documents registered in one book on one day, or since a day when `since` is set. */
export const registrationsList = (book: string | null, day: string, since = false) =>
  filteredList(
    '/document',
    [
      ...(book === null ? [] : [{ field: 'protocolBook', op: 'eq' as const, value: book }]),
      { field: 'protocolDate', op: since ? 'gte' : 'eq', value: day },
    ],
    'protocolDate,DESC',
  );
