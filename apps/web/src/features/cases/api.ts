import type {
  Case,
  CaseListItem,
  caseTimelineEntrySchema,
  DocumentListItem,
  Page,
  SaveCaseRequest,
} from '@protocol/contracts';
import type { z } from 'zod';
import { api } from '../../lib/api.ts';

export type CaseTimelineEntry = z.infer<typeof caseTimelineEntrySchema>;
export type { Case, CaseListItem };

export const CASES_SEARCH_URL = '/api/cases/search';
export const CASES_META_URL = '/api/users/meta';
export const CASES_LIST_META_KEY = 'cases.list';
export const DOCUMENTS_SEARCH_URL = '/api/document/search';
export const CASE_TYPES_URL = '/api/protocol/case_types/search';

export const casesKey = ['cases'] as const;
export const caseKey = (id: number) => ['cases', id] as const;
export const timelineKey = (id: number) => ['cases', id, 'timeline'] as const;

/** Case folders (spec §2 /cases, §3 Case) and their linked documents. */
export const casesApi = {
  get: (id: number, signal?: AbortSignal) => api.get<Case>(`/api/cases/${id}`, { signal }),
  timeline: (id: number, signal?: AbortSignal) =>
    api.get<CaseTimelineEntry[]>(`/api/cases/${id}/timeline`, { signal }),
  create: (body: SaveCaseRequest) => api.post<Case>('/api/cases', body),
  update: (id: number, body: SaveCaseRequest) => api.put<Case>(`/api/cases/${id}`, body),
  deleteMany: (ids: number[]) => api.delete<void>('/api/cases', { ids }),
  addDocuments: (id: number, documentIds: number[]) =>
    api.post<Case>(`/api/cases/${id}/documents`, { documentIds }),
  removeDocument: (id: number, documentId: number) =>
    api.delete<Case>(`/api/cases/${id}/documents/${documentId}`),
  /** The active case types of the company, for the select (protocol:read may list them). */
  caseTypes: async (signal?: AbortSignal) =>
    (
      await api.get<Page<{ id: number; descr: string; active: boolean }>>(
        `${CASE_TYPES_URL}?size=-1&sort=descr,ASC`,
        { signal },
      )
    ).content,
  /** Documents the asker sees, by a Greek-aware search. */
  searchDocuments: (search: string, signal?: AbortSignal) =>
    api.get<Page<DocumentListItem>>(`${DOCUMENTS_SEARCH_URL}?search=${encodeURIComponent(search)}&size=20`, {
      signal,
    }),
};
