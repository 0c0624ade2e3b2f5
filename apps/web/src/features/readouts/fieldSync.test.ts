import type { ReadoutRow } from '@protocol/contracts';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../lib/api.ts';
import { sendQueued } from './fieldSync.ts';
import type { QueuedReading } from './outbox.ts';

const entry = (key: string, consumerId: number): QueuedReading => ({
  key,
  companyId: 1,
  queuedAt: consumerId,
  body: {
    routeId: 1,
    year: 2026,
    period: 3,
    consumerId,
    reading: 100 + consumerId,
    readOn: '2026-11-25',
    idempotencyKey: key,
  },
});

function memoryOutbox(entries: QueuedReading[]) {
  const kept = new Map(entries.map((e) => [e.key, e]));
  return { kept, list: async () => [...kept.values()], drop: async (key: string) => kept.delete(key) };
}
const failure = (status: number, key: string) =>
  new ApiRequestError({ status, key, params: {}, message: key });
const row = (e: QueuedReading) => ({ consumerId: e.body.consumerId }) as ReadoutRow;

describe('sending the queued field readings', () => {
  it('sends them in order and empties the queue', async () => {
    const outbox = memoryOutbox([entry('k-aaaaaaaa', 1), entry('k-bbbbbbbb', 2)]);
    const sent: string[] = [];
    const result = await sendQueued(outbox, async (e) => {
      sent.push(e.body.idempotencyKey);
      return row(e);
    });
    expect(sent).toEqual(['k-aaaaaaaa', 'k-bbbbbbbb']);
    expect(result).toMatchObject({ waiting: 0, refused: [] });
    expect(outbox.kept.size).toBe(0);
  });

  it('keeps the rest, keys unchanged, when the connection is lost or the route is held', async () => {
    for (const error of [failure(0, 'error.network'), failure(409, 'readouts.busy'), failure(503, 'x')]) {
      const outbox = memoryOutbox([entry('k-aaaaaaaa', 1), entry('k-bbbbbbbb', 2), entry('k-cccccccc', 3)]);
      const result = await sendQueued(outbox, async (e) => {
        if (e.body.consumerId === 2) throw error;
        return row(e);
      });
      expect(result.saved.map((r) => r.consumerId)).toEqual([1]);
      expect(result.waiting).toBe(2);
      expect([...outbox.kept.keys()]).toEqual(['k-bbbbbbbb', 'k-cccccccc']);
    }
  });

  it('takes a refused reading out of the queue and reports it, then goes on', async () => {
    const outbox = memoryOutbox([entry('k-aaaaaaaa', 1), entry('k-bbbbbbbb', 2)]);
    const result = await sendQueued(outbox, async (e) => {
      if (e.body.consumerId === 1) throw failure(400, 'readouts.lower');
      return row(e);
    });
    expect(result.refused.map((r) => r.entry.key)).toEqual(['k-aaaaaaaa']);
    expect(result.saved.map((r) => r.consumerId)).toEqual([2]);
    expect(outbox.kept.size).toBe(0);
  });
});
