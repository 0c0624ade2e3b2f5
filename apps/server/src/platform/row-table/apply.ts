import type { Tx } from '../../db/client.ts';

/**
 * The save of a row table (spec §4 'Row tables'): the whole table arrives as one array, new rows
 * with a null id. Within the caller's transaction: rows of the array are inserted or updated, rows
 * missing from it are deleted. Ids that are not the caller's rows are refused.
 */
export async function applyRowTable<Row extends { id: number | null }>(
  tx: Tx,
  rows: Row[],
  store: {
    existingIds(tx: Tx): Promise<number[]>;
    insert(tx: Tx, row: Row): Promise<void>;
    update(tx: Tx, id: number, row: Row): Promise<void>;
    remove(tx: Tx, ids: number[]): Promise<void>;
    /** A row id that is not among the existing ones. */
    unknownRow(id: number): Error;
  },
): Promise<void> {
  const existing = new Set(await store.existingIds(tx));
  const kept = new Set<number>();
  for (const row of rows) {
    if (row.id === null) continue;
    if (!existing.has(row.id) || kept.has(row.id)) throw store.unknownRow(row.id);
    kept.add(row.id);
  }
  const removed = [...existing].filter((id) => !kept.has(id));
  if (removed.length > 0) await store.remove(tx, removed);
  for (const row of rows) {
    if (row.id === null) await store.insert(tx, row);
    else await store.update(tx, row.id, row);
  }
}
