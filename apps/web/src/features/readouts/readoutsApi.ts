import {
  type ReadoutRow,
  type ReadoutSheet,
  type ReviewItem,
  type SaveReading,
  utilityDay,
} from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { api, isApiError } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';

export interface PeriodKey {
  routeId: number;
  year: number;
  period: number;
}

export interface RouteOption {
  id: number;
  code: string;
  description: string;
  sector: string;
}

const periodQuery = (k: PeriodKey) => `routeId=${k.routeId}&year=${k.year}&period=${k.period}`;
export const sheetKey = (k: PeriodKey | null) => ['readouts', 'sheet', k];

export function useRoutes() {
  return useQuery({
    queryKey: ['readouts', 'routes'],
    queryFn: ({ signal }) => api.get<RouteOption[]>('/api/readouts/routes', { signal }),
  });
}

export function useSheet(key: PeriodKey | null) {
  return useQuery({
    queryKey: sheetKey(key),
    enabled: key !== null,
    queryFn: ({ signal }) =>
      api.get<ReadoutSheet>(`/api/readouts/sheet?${periodQuery(key as PeriodKey)}`, {
        signal,
      }),
  });
}

export function useReview(key: PeriodKey | null) {
  return useQuery({
    queryKey: ['readouts', 'review', key],
    enabled: key !== null,
    queryFn: ({ signal }) =>
      api.get<ReviewItem[]>(`/api/readouts/review?${periodQuery(key as PeriodKey)}`, {
        signal,
      }),
  });
}

/** A reading saved; one queued offline names the company it was typed under, which may no longer be in use. */
export const saveReading = (body: SaveReading, companyId?: number | null) =>
  api.post<ReadoutRow>('/api/readouts/readings', body, { companyId });

/**
 * Whether a failed save should be sent again by itself: a lost connection, a server error or a
 * route held by an import or a billing run (409 busy). A refused reading (400) waits for the operator.
 */
export function retriable(error: unknown) {
  if (!isApiError(error)) return true;
  return error.status === 0 || error.status >= 500 || error.key === 'readouts.busy';
}

/** The text of a refused save: its first field's message (what is wrong with the reading), else the error's. */
export function refusalOf(t: TFunction, error: unknown) {
  const field = isApiError(error) ? error.fieldErrors[0] : undefined;
  return field ? t(field.key, field.params) : errorMessage(t, error);
}

/** A new idempotency key: one per reading typed, kept across its retries. */
export const newIdempotencyKey = () =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;

/** Today in Athens, as the reading's date. */
export const today = () => utilityDay(new Date());
