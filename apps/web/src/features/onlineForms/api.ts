import type {
  FileRef,
  OnlineForm,
  PublicForm,
  PublicReceipt,
  PublicSubmitResult,
  SaveForm,
  SaveSubmission,
  Submission,
  SubmissionValues,
} from '@protocol/contracts';
import { ApiRequestError, api, request } from '../../lib/api.ts';

export const FORMS_SEARCH_URL = '/api/onlineForms/search';
export const SUBMISSIONS_SEARCH_URL = '/api/onlineForms/submissions/search';
export const FORMS_META_URL = '/api/users/meta';
export const FORMS_LIST_META_KEY = 'onlineForms.list';
export const SUBMISSIONS_LIST_META_KEY = 'onlineForms.submissions.list';

/** The builder and the review desk (spec §7). */
export const formsApi = {
  get: (id: number | 'createDraft', signal?: AbortSignal) =>
    api.get<OnlineForm>(`/api/onlineForms/${id}`, { signal }),
  save: (body: SaveForm) => api.put<number>('/api/onlineForms', body),
  submission: (id: number, signal?: AbortSignal) =>
    api.get<Submission>(`/api/onlineForms/submissions/${id}`, { signal }),
  saveSubmission: (body: SaveSubmission) => api.put<number>('/api/onlineForms/submissions', body),
  pdfUrl: (id: number) => `/api/onlineForms/submissions/${id}/pdf`,
};

/** The citizen's side: no sign-in. */
export const publicFormsApi = {
  get: (formId: string, signal?: AbortSignal) =>
    api.get<PublicForm>(`/api/public/forms/${formId}`, { signal }),
  submit: (
    formId: string,
    body: { values: SubmissionValues; website?: string; draft?: boolean; draftToken?: string },
  ) => api.post<PublicSubmitResult>(`/api/public/forms/${formId}/submissions`, body),
  lookup: (formId: string, field: string, text: string) =>
    api.get<string[]>(
      `/api/public/forms/${formId}/lookup?field=${encodeURIComponent(field)}&q=${encodeURIComponent(text)}`,
    ),
  /** Whether the receipt PDF is ready (a job draws it after the answer); `receiptUrl` downloads it. */
  receipt: (formId: string, receipt: string, signal?: AbortSignal) =>
    api.get<PublicReceipt>(`/api/public/forms/${formId}/receipts/${receipt}`, { signal }),
  receiptUrl: (formId: string, receipt: string) => `/api/public/forms/${formId}/receipts/${receipt}/pdf`,
  draft: (formId: string, token: string) =>
    api.get<{ values: SubmissionValues }>(`/api/public/forms/${formId}/drafts/${token}`),
  async upload(formId: string, field: string, file: File): Promise<FileRef> {
    const body = new FormData();
    body.append('file', file, file.name);
    const response = await fetch(`/api/public/forms/${formId}/uploads?field=${encodeURIComponent(field)}`, {
      method: 'POST',
      body,
    });
    const json = await response.json();
    if (!response.ok) throw new ApiRequestError(json);
    return json as FileRef;
  },
};

export { request };
