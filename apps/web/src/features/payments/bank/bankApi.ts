import type {
  BankFile,
  BankFileReport,
  BankLayout,
  BankLine,
  BankLineStatus,
  BankUnmatched,
  MatchBankLine,
  SaveBankLayout,
} from '@protocol/contracts';
import { ApiRequestError, api, companyHeaders, getToken } from '../../../lib/api.ts';
import { langFromPath } from '../../../lib/lang.ts';

/** The banks' payment files: layouts, uploads, reports, the unmatched lines and matching by hand. */
export const bankApi = {
  layouts: (signal?: AbortSignal) => api.get<BankLayout[]>('/api/payments/bank/layouts', { signal }),
  saveLayout: (id: number | null, body: SaveBankLayout) =>
    id === null
      ? api.post<BankLayout>('/api/payments/bank/layouts', body)
      : api.put<BankLayout>(`/api/payments/bank/layouts/${id}`, body),
  files: (signal?: AbortSignal) => api.get<BankFile[]>('/api/payments/bank/files', { signal }),
  report: (id: number, status: BankLineStatus | null, signal?: AbortSignal) =>
    api.get<BankFileReport>(`/api/payments/bank/files/${id}${status ? `?status=${status}` : ''}`, { signal }),
  unmatched: (signal?: AbortSignal) => api.get<BankUnmatched>('/api/payments/bank/unmatched', { signal }),
  match: (lineId: number, body: MatchBankLine) =>
    api.post<BankLine>(`/api/payments/bank/lines/${lineId}/match`, body),
  /** The upload is multipart: fetch with the session's token, errors as the API's own. */
  async upload(layoutId: number, file: File): Promise<{ jobId: number; fileId: number }> {
    const form = new FormData();
    form.append('file', file);
    const response = await fetch(`/api/payments/bank/files?layoutId=${layoutId}`, {
      method: 'POST',
      body: form,
      headers: {
        Authorization: `Bearer ${getToken() ?? ''}`,
        'Accept-Language': langFromPath(window.location.pathname),
        ...companyHeaders(),
      },
    });
    const body = await response.json().catch(() => null);
    if (!response.ok)
      throw new ApiRequestError(
        body ?? { status: response.status, key: 'error.server', params: {}, message: response.statusText },
      );
    return body as { jobId: number; fileId: number };
  },
};
