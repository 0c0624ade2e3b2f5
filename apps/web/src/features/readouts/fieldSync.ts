import type { ReadoutRow } from '@protocol/contracts';
import type { QueuedReading } from './outbox.ts';
import { retriable } from './readoutsApi.ts';

export interface Outbox {
  list(): Promise<QueuedReading[]>;
  drop(key: string): Promise<unknown>;
}

export interface SyncResult {
  saved: ReadoutRow[];
  refused: { entry: QueuedReading; error: unknown }[];
  /** Readings still queued: the connection (or the route, held by an import) is not back yet. */
  waiting: number;
}

/**
 * Sends the queued readings in the order they were typed. A reading leaves the queue only when the
 * server has answered it: saved (with its idempotency key, so a resend of one whose answer was lost
 * adds nothing) or refused for a reason a resend will not fix. The first lost connection or busy
 * route stops the round; the rest wait for the next one.
 */
export async function sendQueued(
  outbox: Outbox,
  send: (entry: QueuedReading) => Promise<ReadoutRow>,
): Promise<SyncResult> {
  const queue = await outbox.list();
  const result: SyncResult = { saved: [], refused: [], waiting: 0 };
  for (const [index, entry] of queue.entries()) {
    try {
      result.saved.push(await send(entry));
    } catch (error) {
      if (retriable(error)) {
        result.waiting = queue.length - index;
        return result;
      }
      result.refused.push({ entry, error });
    }
    await outbox.drop(entry.key);
  }
  return result;
}
