import type { Page, SaveTraderRequest, Trader, TraderListItem } from '@protocol/contracts';
import { api } from '../../lib/api.ts';

/** The query key of everything trader: the traders feature and the picker invalidate it together. */
export const tradersKey = ['traders'] as const;

/** The calls of the picker: the search it offers and its quick create. */
export const traderPickerApi = {
  search: (query: string, signal?: AbortSignal) =>
    api.get<Page<TraderListItem>>(`/api/traders/search?${query}`, { signal }),
  create: (body: SaveTraderRequest) => api.post<Trader>('/api/traders', body),
};

/** A trader as pickers and messages show them: the full name, or the ΑΦΜ without one. */
export function traderLabel(trader: { fullname?: string | null; vatnumber?: string | null }): string {
  return trader.fullname?.trim() || trader.vatnumber || '';
}
