import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { z } from 'zod';
import { api } from '../../../lib/api.ts';

/**
 * The saved rows of a settings table, shared with its RowTable (same query key): options of a
 * reference column (a parent department, a values table) follow the table after each save.
 */
export function useSavedRows<T>(tablePath: string, itemSchema: z.ZodType<T>): T[] {
  const path = tablePath;
  const listSchema = useMemo(() => z.array(itemSchema), [itemSchema]);
  const query = useQuery({
    queryKey: ['rowTable', path],
    queryFn: async ({ signal }) => listSchema.parse(await api.get<unknown>(path, { signal })),
    staleTime: 0,
  });
  return query.data ?? [];
}
