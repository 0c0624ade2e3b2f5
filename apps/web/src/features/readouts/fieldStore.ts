import type { ReadoutRow, ReadoutSheet } from '@protocol/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, isApiError } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { sendQueued } from './fieldSync.ts';
import {
  dropQueued,
  keepSheet,
  keptSheet,
  type QueuedReading,
  queuedReadings,
  queueReading,
  sheetStoreKey,
} from './outbox.ts';
import { newIdempotencyKey, type PeriodKey, saveReading, today } from './readoutsApi.ts';

const SYNC_MS = 5000;
const outbox = { list: queuedReadings, drop: dropQueued };

/**
 * The field entry's data: the route's sheet from the server, or the copy kept in the browser when
 * there is no connection, and the queue of readings typed and not yet saved, sent in the background.
 */
export function useFieldSheet(key: PeriodKey | null) {
  const { companyId } = useCompany();
  const stored = key ? sheetStoreKey(companyId, key.routeId, key.year, key.period) : '';
  return useQuery({
    queryKey: ['readouts', 'field', key],
    enabled: key !== null,
    retry: false,
    queryFn: async ({ signal }) => {
      const k = key as PeriodKey;
      try {
        const sheet = await api.get<ReadoutSheet>(
          `/api/readouts/sheet?routeId=${k.routeId}&year=${k.year}&period=${k.period}`,
          { signal },
        );
        await keepSheet(stored, sheet);
        return { sheet, offline: false };
      } catch (error) {
        const kept = isApiError(error) && error.status === 0 ? await keptSheet(stored) : null;
        if (!kept) throw error;
        return { sheet: kept, offline: true };
      }
    },
  });
}

export interface Refusal {
  consumerId: number;
  error: unknown;
}

export function useFieldQueue(key: PeriodKey | null) {
  const { companyId } = useCompany();
  const queryClient = useQueryClient();
  const [queued, setQueued] = useState<QueuedReading[]>([]);
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const syncing = useRef(false);

  const reload = useCallback(async () => setQueued(await queuedReadings()), []);

  // A saved reading replaces its row in the sheet on screen and in the browser's copy.
  const applySaved = useCallback(
    (rows: ReadoutRow[]) => {
      if (rows.length === 0 || !key) return;
      const byConsumer = new Map(rows.map((r) => [r.consumerId, r]));
      queryClient.setQueryData<{ sheet: ReadoutSheet; offline: boolean }>(
        ['readouts', 'field', key],
        (old) => {
          if (!old) return old;
          const sheet = { ...old.sheet, rows: old.sheet.rows.map((r) => byConsumer.get(r.consumerId) ?? r) };
          void keepSheet(sheetStoreKey(companyId, key.routeId, key.year, key.period), sheet);
          return { ...old, sheet };
        },
      );
    },
    [queryClient, companyId, key],
  );

  const sync = useCallback(async () => {
    if (syncing.current) return;
    syncing.current = true;
    try {
      const result = await sendQueued(outbox, (entry) => saveReading(entry.body, entry.companyId));
      applySaved(result.saved);
      if (result.refused.length > 0)
        setRefusals((all) => [
          ...all.filter((r) => !result.refused.some((x) => x.entry.body.consumerId === r.consumerId)),
          ...result.refused.map((x) => ({ consumerId: x.entry.body.consumerId, error: x.error })),
        ]);
    } finally {
      syncing.current = false;
      await reload();
    }
  }, [applySaved, reload]);

  useEffect(() => {
    void sync();
    const timer = window.setInterval(() => void sync(), SYNC_MS);
    const online = () => void sync();
    window.addEventListener('online', online);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('online', online);
    };
  }, [sync]);

  /** Keeps a reading in the browser first (it survives a reload), then tries to send it. */
  const enqueue = useCallback(
    async (consumerId: number, reading: number | null, unableReason: number, note: string) => {
      if (!key) return;
      const idempotencyKey = newIdempotencyKey();
      // A second reading of the same meter before the first was sent replaces it in the queue.
      for (const q of await queuedReadings())
        if (q.body.consumerId === consumerId && q.body.routeId === key.routeId) await dropQueued(q.key);
      await queueReading({
        key: idempotencyKey,
        companyId,
        queuedAt: Date.now(),
        body: {
          ...key,
          consumerId,
          reading,
          unableReason: reading === null ? unableReason : null,
          note: note || null,
          readOn: today(),
          idempotencyKey,
        },
      });
      setRefusals((all) => all.filter((r) => r.consumerId !== consumerId));
      await reload();
      void sync();
    },
    [key, companyId, reload, sync],
  );

  return { queued, refusals, enqueue, sync };
}
