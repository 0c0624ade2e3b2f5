import type {
  MydataSettings,
  MydataSource,
  SaveMydataSettings,
  Transmission,
  TransmitRequest,
} from '@protocol/contracts';
import { api } from '../../lib/api.ts';

export const MYDATA_SEARCH_URL = '/api/mydata/documents/search';
export const MYDATA_META_KEY = 'mydata.documents.list';
export const settingsKey = () => ['mydataSettings'] as const;
export const transmissionKey = (source: MydataSource, id: number) =>
  ['mydataTransmission', source, id] as const;

/** myDATA: parameters, transmissions (background jobs) and cancellation. */
export const mydataApi = {
  settings: (signal?: AbortSignal) => api.get<MydataSettings>('/api/mydata/settings', { signal }),
  saveSettings: (body: SaveMydataSettings) => api.put<MydataSettings>('/api/mydata/settings', body),
  transmission: (documentId: number, signal?: AbortSignal) =>
    api.get<Transmission>(`/api/mydata/documents/${documentId}`, { signal }),
  billTransmission: (billId: number, signal?: AbortSignal) =>
    api.get<Transmission>(`/api/mydata/bills/${billId}`, { signal }),
  transmit: (body: TransmitRequest) =>
    api.post<{ jobId: number; documents: number; created: boolean }>('/api/mydata/transmissions', body),
  cancel: (documentId: number) => api.post<Transmission>(`/api/mydata/documents/${documentId}/cancel`, {}),
  cancelBill: (billId: number) => api.post<Transmission>(`/api/mydata/bills/${billId}/cancel`, {}),
};

export interface TransmitResult {
  sent: number;
  failed: number;
  uncertain: number;
  skipped: number;
}
