import type { DocumentAssignees, Page } from '@protocol/contracts';
import { ApiRequestError, api, companyHeaders, getToken, NETWORK_ERROR_KEY } from '../../lib/api.ts';
import { fetchFile } from '../../lib/files.ts';
import type {
  Attachment,
  AttachmentList,
  AttachmentUploadResult,
  BookOption,
  DocumentActionRequest,
  DocumentActionResult,
  DocumentListItem,
  DocumentListVariant,
  ProtocolDocument,
  SaveDocumentRequest,
  SettingOption,
} from './model.ts';

export const DOCUMENTS_META_URL = '/api/users/meta';

/** Each list's endpoint and the kind a new document gets from it. */
export const LIST_SEARCH_URL: Record<DocumentListVariant, string> = {
  inbox: '/api/inbox/search',
  outbox: '/api/outbox/search',
  all: '/api/document/search',
  archived: '/api/document/archived/search',
  deleted: '/api/document/deleted/search',
};

export const documentsKey = ['documents'] as const;
export const documentKey = (id: number) => ['documents', id] as const;

/** A settings table's rows, whether answered as a page or as an array. */
function rowsOf<T>(answer: Page<T> | T[] | { content?: T[] }): T[] {
  if (Array.isArray(answer)) return answer;
  return answer.content ?? [];
}

export const documentsApi = {
  get: (id: number, signal?: AbortSignal) => api.get<ProtocolDocument>(`/api/document/${id}`, { signal }),
  create: (body: SaveDocumentRequest) => api.post<ProtocolDocument>('/api/document', body),
  update: (id: number, body: SaveDocumentRequest) => api.put<ProtocolDocument>(`/api/document/${id}`, body),
  action: (body: DocumentActionRequest) => api.post<DocumentActionResult>('/api/document/actions', body),
  books: async (kind: number, signal?: AbortSignal) =>
    rowsOf(
      await api.get<BookOption[] | Page<BookOption>>(`/api/document/books?kind=${kind}`, {
        signal,
      }),
    ),
  search: (search: string, signal?: AbortSignal) =>
    api.get<Page<DocumentListItem>>(
      `/api/document/search?${new URLSearchParams({ search, page: '0', size: '20' }).toString()}`,
      { signal },
    ),
};

/** The settings tables the form and the dialogs choose from. */
export const referenceApi = {
  table: async (path: string, signal?: AbortSignal) =>
    rowsOf(
      await api.get<Page<SettingOption> | SettingOption[]>(`${path}?page=0&size=-1`, {
        signal,
      }),
    ),
  documentTypes: (signal?: AbortSignal) => referenceApi.table('/api/protocol/document_types/search', signal),
  subjectCategories: (signal?: AbortSignal) =>
    referenceApi.table('/api/protocol/subject_categories/search', signal),
  caseTypes: (signal?: AbortSignal) => referenceApi.table('/api/protocol/case_types/search', signal),
  /** Whom a document may be charged or shared to (protocol:read suffices). */
  assignees: (signal?: AbortSignal) => api.get<DocumentAssignees>('/api/document/assignees', { signal }),
  cases: async (search: string, signal?: AbortSignal) =>
    rowsOf(
      await api.get<Page<{ id: number; code: string; name: string }>>(
        `/api/cases/search?${new URLSearchParams({ search, page: '0', size: '20' })}`,
        { signal },
      ),
    ),
};

export function optionLabel(option: SettingOption): string {
  const text = option.descr ?? option.name ?? '';
  const code =
    option.code ?? (option.seqnr === null || option.seqnr === undefined ? null : String(option.seqnr));
  return code ? `${code} · ${text}` : text;
}

// ----- attachments -----

export const attachmentsPath = (documentId: number) => `/api/document/${documentId}/attachments`;
export const contentPath = (documentId: number, attachmentId: number, inline = false) =>
  `${attachmentsPath(documentId)}/${attachmentId}/content${inline ? '?disposition=inline' : ''}`;

function errorFromXhr(xhr: XMLHttpRequest): ApiRequestError {
  try {
    const body = JSON.parse(xhr.responseText) as { key?: string; params?: Record<string, string | number> };
    if (body && typeof body.key === 'string') {
      return new ApiRequestError({
        status: xhr.status,
        key: body.key,
        params: body.params ?? {},
        message: body.key,
      });
    }
  } catch {
    // not JSON
  }
  const key =
    xhr.status === 0
      ? NETWORK_ERROR_KEY
      : xhr.status === 413
        ? 'error.payload_too_large'
        : xhr.status >= 500
          ? 'error.server'
          : 'error.bad_data';
  return new ApiRequestError({ status: xhr.status, key, params: {}, message: xhr.statusText || key });
}

/**
 * Uploads one file (multipart, field `file`) with progress; `replacesId` makes it a new version of
 * that attachment. The answer is the stored attachment.
 */
export function uploadAttachment(
  documentId: number,
  file: File,
  onProgress: (fraction: number) => void,
  replacesId?: number,
): Promise<Attachment> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const url = replacesId
      ? `${attachmentsPath(documentId)}?replaces=${replacesId}`
      : attachmentsPath(documentId);
    xhr.open('POST', url);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(companyHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          const body = JSON.parse(xhr.responseText) as AttachmentUploadResult;
          resolve(body.uploaded[0] as Attachment);
        } catch {
          resolve({} as Attachment);
        }
      } else reject(errorFromXhr(xhr));
    };
    xhr.onerror = () => reject(errorFromXhr(xhr));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** The file's bytes with the session's token (an <a href> or <iframe src> would carry none). */
export function fetchContent(documentId: number, attachmentId: number, inline = false): Promise<Blob> {
  return fetchFile(contentPath(documentId, attachmentId, inline)).then((response) => response.blob());
}

/** The registration receipt (PDF) of a registered document, in `language`. */
export const receiptPath = (documentId: number, language: string) =>
  `/api/document/${documentId}/receipt?lang=${language === 'en' ? 'en' : 'el'}`;

export function fetchReceipt(documentId: number, language: string): Promise<Blob> {
  return fetchFile(receiptPath(documentId, language)).then((response) => response.blob());
}

export const attachmentsKey = (documentId: number) => ['documents', documentId, 'attachments'] as const;

export const attachmentsApi = {
  list: (documentId: number, signal?: AbortSignal) =>
    api.get<AttachmentList>(attachmentsPath(documentId), { signal }),
  remove: (documentId: number, attachmentId: number) =>
    api.delete<void>(`${attachmentsPath(documentId)}/${attachmentId}`),
};
