import { buffer } from 'node:stream/consumers';
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import type { Storage } from '../storage.ts';

/**
 * An import's uploaded file, kept for its background job (which may run on another node, or after a
 * restart) on the storage adapter, beside attachments and generated PDFs: the database holds only its
 * key. A module's table of them has the columns `id`, `company_id`, `storage_key` and `content`
 * (the bytes of a file uploaded before migration 0029, when they were kept in the database: still
 * read). The row goes when the job ends (the module's `onJobSettled`); its object is then named by no
 * row and the storage sweep removes it, as it does every object no row names.
 */
export type ImportFileTable = PgTable;

const storages = new WeakMap<Db, Storage>();

/** The app keeps import files in `storage`: job handlers, which get only the database, read them there. */
export const keepImportFilesIn = (db: Db, storage: Storage) => storages.set(db, storage);

function storageOf(db: Db): Storage {
  const storage = storages.get(db);
  if (!storage) throw new Error('import files: no storage for this database');
  return storage;
}

/** Stores `content` and its row (in `tx`, with the job it is for); answers the row's id. */
export async function storeImportFile(
  tx: Tx,
  storage: Storage,
  table: ImportFileTable,
  companyId: number,
  content: Uint8Array,
): Promise<number> {
  // Stored first: a rolled-back transaction leaves an object no row names, which the sweep removes.
  const { key } = await storage.put(content);
  const [row] = rowsOf<{ id: number }>(
    await tx.execute(
      sql`INSERT INTO ${table} (company_id, storage_key) VALUES (${companyId}, ${key}) RETURNING id`,
    ),
  );
  return row?.id ?? 0;
}

/** The bytes of the import file `id`, or null when it is gone (its job already ended). */
export async function readImportFile(db: Db, table: ImportFileTable, id: number): Promise<Buffer | null> {
  const [row] = rowsOf<{ storage_key: string | null; content: Uint8Array | null }>(
    await db.execute(sql`SELECT storage_key, content FROM ${table} WHERE id = ${id}`),
  );
  if (!row) return null;
  if (row.storage_key === null) return row.content ? Buffer.from(row.content) : null;
  const file = await storageOf(db).get(row.storage_key);
  return file ? buffer(file.stream) : null;
}

/** Drops the row of import file `id` when its job ends; the sweep removes its object. */
export async function dropImportFile(tx: Tx, table: ImportFileTable, id: unknown): Promise<void> {
  if (typeof id === 'number') await tx.execute(sql`DELETE FROM ${table} WHERE id = ${id}`);
}
