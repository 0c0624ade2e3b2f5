import type { Company, SaveCompanyRequest } from '@protocol/contracts';
import { api } from '../../lib/api.ts';

export const COMPANIES_SEARCH_URL = '/api/companies/search';
export const companiesKey = ['companies'] as const;
export const companyKey = (id: number) => ['companies', id] as const;

/** The installation's companies (super administrator): GET, POST and PUT /api/companies. */
export const companiesApi = {
  get: (id: number, signal?: AbortSignal) => api.get<Company>(`/api/companies/${id}`, { signal }),
  create: (body: SaveCompanyRequest) => api.post<Company>('/api/companies', body),
  update: (id: number, body: SaveCompanyRequest) => api.put<Company>(`/api/companies/${id}`, body),
};
