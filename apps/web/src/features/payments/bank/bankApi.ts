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
import { withCompany } from '../../../app/company.tsx';
import { ApiRequestError, api, getToken } from '../../../lib/api.ts';
import { langFromPath } from '../../../lib/lang.ts';

/** The banks' payment files: layouts, uploads, reports, the unmatched lines and matching by hand. */
export const bankApi = {
  layouts: (companyId: number | null, signal?: AbortSignal) =>
    api.get<BankLayout[]>(withCompany('/api/payments/bank/layouts', companyId), { signal }),
  saveLayout: (id: number | null, body: SaveBankLayout, companyId: number | null) =>
    id === null
      ? api.post<BankLayout>(withCompany('/api/payments/bank/layouts', companyId), body)
      : api.put<BankLayout>(withCompany(`/api/payments/bank/layouts/${id}`, companyId), body),
  files: (companyId: number | null, signal?: AbortSignal) =>
    api.get<BankFile[]>(withCompany('/api/payments/bank/files', companyId), { signal }),
  report: (id: number, status: BankLineStatus | null, companyId: number | null, signal?: AbortSignal) =>
    api.get<BankFileReport>(
      withCompany(`/api/payments/bank/files/${id}${status ? `?status=${status}` : ''}`, companyId),
      { signal },
    ),
  unmatched: (companyId: number | null, signal?: AbortSignal) =>
    api.get<BankUnmatched>(withCompany('/api/payments/bank/unmatched', companyId), { signal }),
  match: (lineId: number, body: MatchBankLine, companyId: number | null) =>
    api.post<BankLine>(withCompany(`/api/payments/bank/lines/${lineId}/match`, companyId), body),
  /** The upload is multipart: fetch with the session's token, errors as the API's own. */
  async upload(
    layoutId: number,
    file: File,
    companyId: number | null,
  ): Promise<{ jobId: number; fileId: number }> {
    const form = new FormData();
    form.append('file', file);
    const response = await fetch(withCompany(`/api/payments/bank/files?layoutId=${layoutId}`, companyId), {
      method: 'POST',
      body: form,
      headers: {
        Authorization: `Bearer ${getToken() ?? ''}`,
        'Accept-Language': langFromPath(window.location.pathname),
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
