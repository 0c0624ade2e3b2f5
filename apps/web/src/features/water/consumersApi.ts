import type {
  Consumer,
  EncodingCodeDefinition,
  LevelLookup,
  LevelLookupItem,
  SaveConsumerRequest,
} from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

export const CONSUMERS_SEARCH_URL = '/api/protocol/consumers/search';
export const CONSUMERS_CUSTOM_FIELDS_URL = '/api/protocol/consumers/custom_fields';
export const CONSUMERS_META_URL = '/api/users/meta';
export const CONSUMERS_LIST_META_KEY = 'consumers.list';
export const consumersKey = ['consumers'] as const;
export const consumerKey = (id: number) => ['consumers', id] as const;

/** Consumers (spec §7 /api/protocol/consumers/…). */
export const consumersApi = {
  get: (id: number, signal?: AbortSignal) => api.get<Consumer>(`/api/protocol/consumers/${id}`, { signal }),
  create: (body: SaveConsumerRequest) => api.post<Consumer>('/api/protocol/consumers', body),
  update: (id: number, body: SaveConsumerRequest) => api.put<Consumer>(`/api/protocol/consumers/${id}`, body),
  existCode: (code: string) =>
    api.get<boolean>(`/api/protocol/consumers/exist_code?code=${encodeURIComponent(code)}`),
  lastPart: (preview: string) =>
    api.get<{ lastPart: string | null }>(
      `/api/protocol/consumers/generateEncodingCodeLastPart?code=${encodeURIComponent(preview)}`,
    ),
};

/** The company's encoding code definition (null while none is defined). */
export function useEncodingDefinition() {
  const path = '/api/protocol/parametrics/encoding_code';
  return useQuery({
    queryKey: ['water', 'encoding_code', path],
    queryFn: ({ signal }) => api.get<EncodingCodeDefinition | null>(path, { signal }),
  });
}

/** The values of one level type (spec §7 lookups). */
export function useLevelLookup(lookup: LevelLookup | null) {
  const path = `/api/protocol/parametrics/${lookup ?? 'sectors'}`;
  return useQuery({
    queryKey: ['water', 'lookup', path],
    queryFn: ({ signal }) => api.get<LevelLookupItem[]>(path, { signal }),
    enabled: lookup !== null,
    staleTime: 60_000,
  });
}

/** A coded parametric table's rows (usages, connection types, …) for the form's selects. */
export function useWaterTable<T extends { id: number; active?: boolean }>(path: string) {
  const url = path;
  return useQuery({
    queryKey: ['water', 'table', url],
    queryFn: ({ signal }) => api.get<T[]>(url, { signal }),
    staleTime: 60_000,
  });
}
