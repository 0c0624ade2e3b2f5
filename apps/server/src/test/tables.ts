// The whole content of a database and of a storage folder, to compare before and after a backup
// round trip or an upgrade.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

export interface TableState {
  rows: number;
  /** md5 of every row's text, in a fixed order. */
  checksum: string;
}

async function rowsOf<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Every table outside the system schemas (`public` and drizzle's migration journal), keyed
 * `schema.table`, with its row count and checksum; and every sequence (`sequence schema.name`) with
 * its position, so that ids handed out after a restore do not collide.
 */
export async function databaseState(db: Db): Promise<Record<string, TableState | string>> {
  const state: Record<string, TableState | string> = {};
  const tables = await rowsOf<{ schema: string; name: string }>(
    db,
    sql`SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
        ORDER BY 1, 2`,
  );
  for (const { schema, name } of tables) {
    const table = sql.raw(`"${schema}"."${name}"`);
    const [row] = await rowsOf<{ rows: number; checksum: string }>(
      db,
      sql`SELECT count(*)::int AS rows, md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) AS checksum
          FROM ${table} t`,
    );
    if (row) state[`${schema}.${name}`] = row;
  }
  const sequences = await rowsOf<{ schema: string; name: string }>(
    db,
    sql`SELECT sequence_schema AS schema, sequence_name AS name FROM information_schema.sequences ORDER BY 1, 2`,
  );
  for (const { schema, name } of sequences) {
    const [row] = await rowsOf<{ position: string }>(
      db,
      sql`SELECT last_value || ' ' || is_called AS position FROM ${sql.raw(`"${schema}"."${name}"`)}`,
    );
    state[`sequence ${schema}.${name}`] = row?.position ?? '';
  }
  return state;
}

/** The storage folder's files (relative path → SHA-256), without uploads in progress (`tmp/`). */
export async function storageState(storageDir: string): Promise<Record<string, string>> {
  if (!existsSync(storageDir)) return {};
  const state: Record<string, string> = {};
  const entries = await readdir(storageDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(storageDir, file).split(path.sep).join('/');
    if (relative.startsWith('tmp/')) continue;
    state[relative] = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  }
  return state;
}
