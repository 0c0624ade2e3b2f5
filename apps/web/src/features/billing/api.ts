import type {
  Bill,
  ComputedBill,
  DiscountPolicyItem,
  PricingPolicy,
  SaveDiscountPolicyInput,
  SavePricingPolicyInput,
  TryBillRequest,
} from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { openFile } from '../../lib/files.ts';

export const BILLS_SEARCH_URL = '/api/billing/bills/search';
export const BILLS_META_KEY = 'billing.bills.list';
export const CONSUMERS_SEARCH_URL = '/api/protocol/consumers/search';
export const pricingKey = ['billing', 'pricing'] as const;
export const discountKey = ['billing', 'discount'] as const;

/** Pricing and discount policies, the "try it" computation and the stored bills. */
export const billingApi = {
  pricing: (signal?: AbortSignal) => api.get<PricingPolicy[]>('/api/billing/pricing_policies', { signal }),
  pricingOne: (id: number, signal?: AbortSignal) =>
    api.get<PricingPolicy>(`/api/billing/pricing_policies/${id}`, { signal }),
  createPricing: (body: SavePricingPolicyInput) =>
    api.post<PricingPolicy>('/api/billing/pricing_policies', body),
  updatePricing: (id: number, body: SavePricingPolicyInput) =>
    api.put<PricingPolicy>(`/api/billing/pricing_policies/${id}`, body),
  discounts: (signal?: AbortSignal) =>
    api.get<DiscountPolicyItem[]>('/api/billing/discount_policies', { signal }),
  discountOne: (id: number, signal?: AbortSignal) =>
    api.get<DiscountPolicyItem>(`/api/billing/discount_policies/${id}`, { signal }),
  createDiscount: (body: SaveDiscountPolicyInput) =>
    api.post<DiscountPolicyItem>('/api/billing/discount_policies', body),
  updateDiscount: (id: number, body: SaveDiscountPolicyInput) =>
    api.put<DiscountPolicyItem>(`/api/billing/discount_policies/${id}`, body),
  tryBill: (body: TryBillRequest) => api.post<ComputedBill>('/api/billing/try', body),
  bill: (id: number, signal?: AbortSignal) => api.get<Bill>(`/api/billing/bills/${id}`, { signal }),
};

/** A coded parametric row of the water service (usages, diameters, indicators, regulations). */
export interface CodedRow {
  id: number;
  code: string;
  description: string;
  active: boolean;
}

/** One of the water service's parametric tables, for the policies' selects. */
export function useCoded(table: string) {
  const query = useQuery({
    queryKey: ['billing', 'coded', table],
    queryFn: ({ signal }) => api.get<CodedRow[]>(`/api/water/parametrics/${table}`, { signal }),
    staleTime: 60_000,
  });
  return query.data ?? [];
}

/** The VAT percentages of the settings (global), for the charges' VAT choices. */
export function useVatPercentages() {
  const query = useQuery({
    queryKey: ['billing', 'vat'],
    queryFn: ({ signal }) =>
      api.get<{ id: number; description: string; percentage: string }[]>('/api/billing/vat_percentages', {
        signal,
      }),
    staleTime: 60_000,
  });
  return query.data ?? [];
}

/** A PDF of the API in a new tab. */
export async function openPdf(url: string): Promise<void> {
  await openFile(url, 'application/pdf');
}

/** A stored bill's PDF in a new tab. */
export function openBillPdf(id: number, language: string): Promise<void> {
  return openPdf(`/api/billing/bills/${id}/pdf?lang=${language}`);
}
