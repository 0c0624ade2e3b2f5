import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Storage } from './storage.ts';

/**
 * The sweep of stored objects no row points at. A crash between storing an upload and inserting its
 * row leaves such an object behind (rows are never deleted while their object is needed: records
 * keep their keys, copies share them). Modules declare the columns that hold storage keys
 * (`AppModule.storageColumns`); an object older than the grace period that none of them names is removed.
 */
export interface StorageColumn {
  /** The SQL table name, e.g. 'document_attachments'. */
  table: string;
  /** Its column holding the storage key. */
  column: string;
}

/** Uploads finish in seconds: an object a day old without a row will never get one. */
export const SWEEP_GRACE_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

/** Removes the unreferenced objects stored before `before`; returns how many it removed. */
export async function sweepStorage(
  db: Db,
  storage: Storage,
  references: readonly StorageColumn[],
  before: Date = new Date(Date.now() - SWEEP_GRACE_MS),
): Promise<number> {
  // Without a declared column every object would look orphaned: sweep nothing.
  if (references.length === 0) return 0;
  let removed = 0;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const referenced = sql.join(
      references.map(
        (r) =>
          sql`EXISTS (SELECT 1 FROM ${sql.identifier(r.table)} WHERE ${sql.identifier(r.column)} = candidate.key)`,
      ),
      sql` OR `,
    );
    const result = await db.execute(sql`
      SELECT candidate.key
      FROM unnest(ARRAY[${sql.join(
        batch.map((key) => sql`${key}`),
        sql`, `,
      )}]::text[]) AS candidate(key)
      WHERE NOT (${referenced})`);
    for (const { key } of (result as unknown as { rows: { key: string }[] }).rows) {
      await storage.delete(key);
      removed += 1;
    }
    batch = [];
  };
  for await (const key of storage.keysStoredBefore(before)) {
    batch.push(key);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return removed;
}
