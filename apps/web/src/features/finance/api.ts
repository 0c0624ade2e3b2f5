import {
  type Account,
  accountSchema,
  type FinanceDocument,
  type Item,
  itemSchema,
  type SaveFinanceDocument,
  type Series,
  type Service,
  seriesSchema,
  serviceSchema,
  type Warehouse,
  warehouseSchema,
} from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { z } from 'zod';
import { api } from '../../lib/api.ts';

export const ACCOUNTS_PATH = '/api/finance/accounts';
export const SERVICES_PATH = '/api/finance/services';
export const ITEMS_PATH = '/api/finance/items';
export const WAREHOUSES_PATH = '/api/finance/warehouses';
export const SERIES_PATH = '/api/finance/series';
export const DOCUMENTS_SEARCH_URL = '/api/finance/documents/search';
export const DOCUMENTS_META_KEY = 'finance.documents.list';

/**
 * The saved rows of a master-data table, under the row table's own query key: a select of another
 * screen (a service's account, a document's series) follows the table after each save.
 */
export function useRows<T>(tablePath: string, itemSchema: z.ZodType<T>): { rows: T[]; loading: boolean } {
  const path = tablePath;
  const listSchema = useMemo(() => z.array(itemSchema), [itemSchema]);
  const query = useQuery({
    queryKey: ['rowTable', path],
    queryFn: async ({ signal }) => listSchema.parse(await api.get<unknown>(path, { signal })),
    staleTime: 0,
  });
  return { rows: query.data ?? [], loading: query.isPending };
}

export const useAccounts = () => useRows<Account>(ACCOUNTS_PATH, accountSchema);
export const useServices = () => useRows<Service>(SERVICES_PATH, serviceSchema);
export const useItems = () => useRows<Item>(ITEMS_PATH, itemSchema);
export const useWarehouses = () => useRows<Warehouse>(WAREHOUSES_PATH, warehouseSchema);
export const useSeries = () => useRows<Series>(SERIES_PATH, seriesSchema);

export const documentKey = (id: number) => ['financeDocument', id] as const;

/** Commercial documents. */
export const documentsApi = {
  get: (id: number, signal?: AbortSignal) =>
    api.get<FinanceDocument>(`/api/finance/documents/${id}`, { signal }),
  create: (body: SaveFinanceDocument) => api.post<FinanceDocument>('/api/finance/documents', body),
  update: (id: number, body: SaveFinanceDocument) =>
    api.put<FinanceDocument>(`/api/finance/documents/${id}`, body),
  remove: (id: number) => api.delete<void>(`/api/finance/documents/${id}`),
  finalize: (id: number) => api.post<FinanceDocument>(`/api/finance/documents/${id}/finalize`, {}),
  creditNote: (id: number, date: string) =>
    api.post<FinanceDocument>(`/api/finance/documents/${id}/credit_note`, { date }),
  pdfPath: (id: number, language: string) => `/api/finance/documents/${id}/pdf?lang=${language}`,
};
