import type { CustomFieldDefinition } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

const NONE: CustomFieldDefinition[] = [];

/**
 * The custom fields of an entity for the company in use, from the entity's own address (e.g.
 * `/api/traders/custom_fields`). A failure leaves none: the form and the list work without them.
 */
export function useCustomFieldDefinitions(url: string): {
  definitions: CustomFieldDefinition[];
  loading: boolean;
} {
  const query = useQuery({
    queryKey: ['customFields', url],
    queryFn: ({ signal }) => api.get<CustomFieldDefinition[]>(url, { signal }),
    staleTime: 60_000,
  });
  return { definitions: query.data ?? NONE, loading: query.isPending && !query.error };
}
