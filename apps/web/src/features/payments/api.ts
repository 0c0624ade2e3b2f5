import type { ConsumerAccount, ConsumerDebts, DaySummary, Payment, RecordPayment } from '@protocol/contracts';
import { api } from '../../lib/api.ts';
import { openFile as openApiFile, saveFile } from '../../lib/files.ts';

/** The consumer's account, the debt search, the cashier's payments and their printouts. */
export const paymentsApi = {
  account: (consumerId: number, signal?: AbortSignal) =>
    api.get<ConsumerAccount>(`/api/payments/accounts/${consumerId}`, { signal }),
  findDebts: (text: string, signal?: AbortSignal) =>
    api.get<ConsumerDebts[]>(`/api/payments/debts?q=${encodeURIComponent(text)}`, {
      signal,
    }),
  pay: (body: RecordPayment) => api.post<Payment>('/api/payments/payments', body),
  day: (signal?: AbortSignal) => api.get<DaySummary>('/api/payments/day_summary', { signal }),
};

/** Fetches a printout with the session's token and opens it in a new tab (or downloads a sheet). */
export async function openFile(path: string, download?: string): Promise<void> {
  if (download) await saveFile(path, download);
  else await openApiFile(path);
}
