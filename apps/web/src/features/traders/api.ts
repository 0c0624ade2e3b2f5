import type { Bank, CodedEntry, Page } from '@protocol/contracts';
import { ApiRequestError, api, isApiError } from '../../lib/api.ts';
import type {
  MergeTradersRequest,
  SaveTraderRequest,
  Trader,
  TraderListItem,
  TraderLookup,
} from './model.ts';

export const TRADERS_SEARCH_URL = '/api/traders/search';
export const TRADERS_CUSTOM_FIELDS_URL = '/api/traders/custom_fields';
export const TRADERS_META_URL = '/api/users/meta';
export const TRADERS_LIST_META_KEY = 'traders.list';

// The traders feature shares the picker's key and label, so both refresh and read alike.
export { traderLabel, tradersKey } from '../../components/TraderPicker/api.ts';
export const traderKey = (id: number) => ['traders', id] as const;

/** Traders (spec §2 /traders, §3 Trader). */
export const tradersApi = {
  get: (id: number, signal?: AbortSignal) => api.get<Trader>(`/api/traders/${id}`, { signal }),
  create: (body: SaveTraderRequest) => api.post<Trader>('/api/traders', body),
  update: (id: number, body: SaveTraderRequest) => api.put<Trader>(`/api/traders/${id}`, body),
  /** A 409 error.linked_elsewhere becomes a message suggesting deactivation instead. */
  deleteMany: async (ids: number[]) => {
    try {
      return await api.delete<void>('/api/traders', { ids });
    } catch (failure) {
      if (isApiError(failure) && failure.status === 409) {
        throw new ApiRequestError({
          status: 409,
          key: 'traders.linkedElsewhere',
          params: failure.params,
          message: failure.message,
        });
      }
      throw failure;
    }
  },
  search: (query: string, signal?: AbortSignal) =>
    api.get<Page<TraderListItem>>(`${TRADERS_SEARCH_URL}?${query}`, { signal }),
  lookup: (vatnumber: string) =>
    api.get<TraderLookup>(
      `/api/traders/lookup?vatnumber=${encodeURIComponent(vatnumber)}`,
      // a registry error is shown next to the field, not as a snackbar
    ),
  merge: (body: MergeTradersRequest) => api.post<Trader>('/api/traders/merge', body),
};

/** The reference lists the form needs. */
export const referenceApi = {
  banks: (signal?: AbortSignal) => api.get<Bank[]>('/api/settings/banks', { signal }),
  vatCategories: (signal?: AbortSignal) => api.get<CodedEntry[]>('/api/settings/vat_categories', { signal }),
  vatStatuses: (signal?: AbortSignal) => api.get<CodedEntry[]>('/api/settings/vat_statuses', { signal }),
};
