import type { ReadoutSheet, SaveReading } from '@protocol/contracts';

/**
 * The field entry's browser store (IndexedDB): the readings typed and not yet accepted by the server
 * (the outbox) and the last sheet of each route's period, so a meter reader without a connection
 * keeps working and nothing typed is lost on a reload. Each queued reading carries the idempotency
 * key it was made with: a resend after a lost answer adds nothing on the server.
 */
const DB_NAME = 'protocol-readouts';
const OUTBOX = 'outbox';
const SHEETS = 'sheets';

export interface QueuedReading {
  key: string;
  companyId: number | null;
  body: SaveReading & { idempotencyKey: string };
  queuedAt: number;
}

let opened: Promise<IDBDatabase> | null = null;

function database(): Promise<IDBDatabase> {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(OUTBOX, { keyPath: 'key' });
      request.result.createObjectStore(SHEETS);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opened = null;
      reject(request.error);
    };
  });
  return opened;
}

async function run<T>(store: string, mode: IDBTransactionMode, work: (s: IDBObjectStore) => IDBRequest<T>) {
  const db = await database();
  return new Promise<T>((resolve, reject) => {
    const tx = db.transaction(store, mode);
    const request = work(tx.objectStore(store));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

export const sheetStoreKey = (companyId: number | null, routeId: number, year: number, period: number) =>
  `${companyId ?? 0}:${routeId}:${year}:${period}`;

export const queueReading = (entry: QueuedReading) => run(OUTBOX, 'readwrite', (s) => s.put(entry));
export const dropQueued = (key: string) => run(OUTBOX, 'readwrite', (s) => s.delete(key));
/** The queued readings, oldest first (the order they were typed in). */
export const queuedReadings = async () =>
  ((await run(OUTBOX, 'readonly', (s) => s.getAll())) as QueuedReading[]).sort(
    (a, b) => a.queuedAt - b.queuedAt,
  );

export const keepSheet = (key: string, sheet: ReadoutSheet) =>
  run(SHEETS, 'readwrite', (s) => s.put(sheet, key));
export const keptSheet = async (key: string) =>
  ((await run(SHEETS, 'readonly', (s) => s.get(key))) as ReadoutSheet | undefined) ?? null;
