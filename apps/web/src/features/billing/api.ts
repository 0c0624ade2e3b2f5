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
import { useCompany, withCompany } from '../../app/company.tsx';
import { api } from '../../lib/api.ts';
import { openFile } from '../../lib/files.ts';

export const BILLS_SEARCH_URL = '/api/billing/bills/search';
export const BILLS_META_KEY = 'billing.bills.list';
export const CONSUMERS_SEARCH_URL = '/api/protocol/consumers/search';
export const pricingKey = ['billing', 'pricing'] as const;
export const discountKey = ['billing', 'discount'] as const;

/** Pricing and discount policies, the "try it" computation and the stored bills (issue 17). */
export const billingApi = {
  pricing: (companyId: number | null, signal?: AbortSignal) =>
    api.get<PricingPolicy[]>(withCompany('/api/billing/pricing_policies', companyId), { signal }),
  pricingOne: (id: number, companyId: number | null, signal?: AbortSignal) =>
    api.get<PricingPolicy>(withCompany(`/api/billing/pricing_policies/${id}`, companyId), { signal }),
  createPricing: (body: SavePricingPolicyInput, companyId: number | null) =>
    api.post<PricingPolicy>(withCompany('/api/billing/pricing_policies', companyId), body),
  updatePricing: (id: number, body: SavePricingPolicyInput, companyId: number | null) =>
    api.put<PricingPolicy>(withCompany(`/api/billing/pricing_policies/${id}`, companyId), body),
  discounts: (companyId: number | null, signal?: AbortSignal) =>
    api.get<DiscountPolicyItem[]>(withCompany('/api/billing/discount_policies', companyId), { signal }),
  discountOne: (id: number, companyId: number | null, signal?: AbortSignal) =>
    api.get<DiscountPolicyItem>(withCompany(`/api/billing/discount_policies/${id}`, companyId), { signal }),
  createDiscount: (body: SaveDiscountPolicyInput, companyId: number | null) =>
    api.post<DiscountPolicyItem>(withCompany('/api/billing/discount_policies', companyId), body),
  updateDiscount: (id: number, body: SaveDiscountPolicyInput, companyId: number | null) =>
    api.put<DiscountPolicyItem>(withCompany(`/api/billing/discount_policies/${id}`, companyId), body),
  tryBill: (body: TryBillRequest, companyId: number | null) =>
    api.post<ComputedBill>(withCompany('/api/billing/try', companyId), body),
  bill: (id: number, companyId: number | null, signal?: AbortSignal) =>
    api.get<Bill>(withCompany(`/api/billing/bills/${id}`, companyId), { signal }),
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
  const { companyId } = useCompany();
  const query = useQuery({
    queryKey: ['billing', 'coded', table, companyId],
    queryFn: ({ signal }) =>
      api.get<CodedRow[]>(withCompany(`/api/water/parametrics/${table}`, companyId), { signal }),
    staleTime: 60_000,
  });
  return query.data ?? [];
}

/** The VAT percentages of the settings (global), for the charges' VAT choices. */
export function useVatPercentages() {
  const { companyId } = useCompany();
  const query = useQuery({
    queryKey: ['billing', 'vat', companyId],
    queryFn: ({ signal }) =>
      api.get<{ id: number; description: string; percentage: string }[]>(
        withCompany('/api/billing/vat_percentages', companyId),
        { signal },
      ),
    staleTime: 60_000,
  });
  return query.data ?? [];
}

/** A PDF of the API in a new tab. */
export async function openPdf(url: string): Promise<void> {
  await openFile(url, 'application/pdf');
}

/** A stored bill's PDF in a new tab. */
export function openBillPdf(id: number, companyId: number | null, language: string): Promise<void> {
  return openPdf(withCompany(`/api/billing/bills/${id}/pdf?lang=${language}`, companyId));
}
