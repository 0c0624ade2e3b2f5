import type { ConsumerAccount, ConsumerDebts, DaySummary, Payment, RecordPayment } from '@protocol/contracts';
import { withCompany } from '../../app/company.tsx';
import { api } from '../../lib/api.ts';
import { openFile as openApiFile, saveFile } from '../../lib/files.ts';

/** The consumer's account, the debt search, the cashier's payments and their printouts (issue 18). */
export const paymentsApi = {
  account: (consumerId: number, companyId: number | null, signal?: AbortSignal) =>
    api.get<ConsumerAccount>(withCompany(`/api/payments/accounts/${consumerId}`, companyId), { signal }),
  findDebts: (text: string, companyId: number | null, signal?: AbortSignal) =>
    api.get<ConsumerDebts[]>(withCompany(`/api/payments/debts?q=${encodeURIComponent(text)}`, companyId), {
      signal,
    }),
  pay: (body: RecordPayment, companyId: number | null) =>
    api.post<Payment>(withCompany('/api/payments/payments', companyId), body),
  day: (companyId: number | null, signal?: AbortSignal) =>
    api.get<DaySummary>(withCompany('/api/payments/day_summary', companyId), { signal }),
};

/** Fetches a printout with the session's token and opens it in a new tab (or downloads a sheet). */
export async function openFile(path: string, companyId: number | null, download?: string): Promise<void> {
  if (download) await saveFile(withCompany(path, companyId), download);
  else await openApiFile(withCompany(path, companyId));
}
