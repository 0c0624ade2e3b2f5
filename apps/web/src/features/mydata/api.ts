import type {
  MydataSettings,
  MydataSource,
  SaveMydataSettings,
  Transmission,
  TransmitRequest,
} from '@protocol/contracts';
import { withCompany } from '../../app/company.tsx';
import { api } from '../../lib/api.ts';

export const MYDATA_SEARCH_URL = '/api/mydata/documents/search';
export const MYDATA_META_KEY = 'mydata.documents.list';
export const settingsKey = (companyId: number | null) => ['mydataSettings', companyId] as const;
export const transmissionKey = (source: MydataSource, id: number) =>
  ['mydataTransmission', source, id] as const;

/** myDATA: parameters, transmissions (background jobs) and cancellation. */
export const mydataApi = {
  settings: (companyId: number | null, signal?: AbortSignal) =>
    api.get<MydataSettings>(withCompany('/api/mydata/settings', companyId), { signal }),
  saveSettings: (companyId: number | null, body: SaveMydataSettings) =>
    api.put<MydataSettings>(withCompany('/api/mydata/settings', companyId), body),
  transmission: (documentId: number, signal?: AbortSignal) =>
    api.get<Transmission>(`/api/mydata/documents/${documentId}`, { signal }),
  billTransmission: (companyId: number | null, billId: number, signal?: AbortSignal) =>
    api.get<Transmission>(withCompany(`/api/mydata/bills/${billId}`, companyId), { signal }),
  transmit: (companyId: number | null, body: TransmitRequest) =>
    api.post<{ jobId: number; documents: number; created: boolean }>(
      withCompany('/api/mydata/transmissions', companyId),
      body,
    ),
  cancel: (documentId: number) => api.post<Transmission>(`/api/mydata/documents/${documentId}/cancel`, {}),
  cancelBill: (companyId: number | null, billId: number) =>
    api.post<Transmission>(withCompany(`/api/mydata/bills/${billId}/cancel`, companyId), {}),
};

export interface TransmitResult {
  sent: number;
  failed: number;
  uncertain: number;
  skipped: number;
}
