import type {
  Debt,
  Plan,
  SaveSettlement,
  Settlement,
  SettlementListItem,
  SettlementPreviewRequest,
} from '@protocol/contracts';
import { withCompany } from '../../app/company.tsx';
import { api } from '../../lib/api.ts';
import { openFile } from '../../lib/files.ts';

export const SETTLEMENTS_SEARCH_URL = '/api/settlements/search';
export const SETTLEMENTS_META_KEY = 'settlements.list';
export const CATEGORIES_PATH = '/api/settlements/categories';

/** The settlements' API (issue 18): a consumer's debts, the plan, save, read, cancel, the PDF. */
export const settlementsApi = {
  debts: (consumerId: number, companyId: number | null, signal?: AbortSignal) =>
    api.get<Debt[]>(withCompany(`/api/settlements/consumers/${consumerId}/debts`, companyId), { signal }),
  ofConsumer: (consumerId: number, companyId: number | null, signal?: AbortSignal) =>
    api.get<SettlementListItem[]>(withCompany(`/api/settlements/consumers/${consumerId}`, companyId), {
      signal,
    }),
  preview: (body: SettlementPreviewRequest, companyId: number | null, signal?: AbortSignal) =>
    api.post<Plan>(withCompany('/api/settlements/preview', companyId), body, { signal }),
  create: (body: SaveSettlement, companyId: number | null) =>
    api.post<Settlement>(withCompany('/api/settlements', companyId), body),
  one: (id: number, companyId: number | null, signal?: AbortSignal) =>
    api.get<Settlement>(withCompany(`/api/settlements/${id}`, companyId), { signal }),
  cancel: (id: number, companyId: number | null) =>
    api.post<Settlement>(withCompany(`/api/settlements/${id}/cancel`, companyId), {}),
};

/** Opens the settlement decision (PDF) in a new tab, in the screen's language. */
export async function openSettlementPdf(
  id: number,
  companyId: number | null,
  language: string,
): Promise<void> {
  await openFile(withCompany(`/api/settlements/${id}/pdf?lang=${language}`, companyId), 'application/pdf');
}
