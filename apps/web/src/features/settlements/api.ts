import type {
  Debt,
  Plan,
  SaveSettlement,
  Settlement,
  SettlementListItem,
  SettlementPreviewRequest,
} from '@protocol/contracts';
import { api } from '../../lib/api.ts';
import { openFile } from '../../lib/files.ts';

export const SETTLEMENTS_SEARCH_URL = '/api/settlements/search';
export const SETTLEMENTS_META_KEY = 'settlements.list';
export const CATEGORIES_PATH = '/api/settlements/categories';

/** The settlements' API: a consumer's debts, the plan, save, read, cancel, the PDF. */
export const settlementsApi = {
  debts: (consumerId: number, signal?: AbortSignal) =>
    api.get<Debt[]>(`/api/settlements/consumers/${consumerId}/debts`, { signal }),
  ofConsumer: (consumerId: number, signal?: AbortSignal) =>
    api.get<SettlementListItem[]>(`/api/settlements/consumers/${consumerId}`, {
      signal,
    }),
  preview: (body: SettlementPreviewRequest, signal?: AbortSignal) =>
    api.post<Plan>('/api/settlements/preview', body, { signal }),
  create: (body: SaveSettlement) => api.post<Settlement>('/api/settlements', body),
  one: (id: number, signal?: AbortSignal) => api.get<Settlement>(`/api/settlements/${id}`, { signal }),
  cancel: (id: number) => api.post<Settlement>(`/api/settlements/${id}/cancel`, {}),
};

/** Opens the settlement decision (PDF) in a new tab, in the screen's language. */
export async function openSettlementPdf(id: number, language: string): Promise<void> {
  await openFile(`/api/settlements/${id}/pdf?lang=${language}`, 'application/pdf');
}
