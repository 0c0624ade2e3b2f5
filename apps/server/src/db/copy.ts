import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Tx } from './client.ts';

/**
 * COPY … FROM STDIN for bulk writes: PostgreSQL reads its plain text format several times faster than
 * the same rows as a JSON or array parameter. Only node-postgres streams it; on PGlite `copyConnection`
 * answers null and the caller writes its rows as before.
 */

/** The node-postgres connection a transaction runs on, or null (PGlite, or not in a transaction). */
export function copyConnection(tx: Tx): pg.ClientBase | null {
  const client = (tx as unknown as { _: { session: { client?: unknown } } })._.session.client;
  return client instanceof pg.Client ? client : null;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value as a field of COPY's text format: `\N` for null, the separators and backslash escaped. */
export function copyField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  return typeof value === 'string'
    ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c] as string)
    : String(value);
}

/** Writes `text` (rows of `copyField`s, tab-separated, each ending in a newline) into `columns` of `table`. */
export async function copyInto(
  client: pg.ClientBase,
  table: string,
  columns: string[],
  text: string,
): Promise<void> {
  const stream = client.query(
    copyFrom(`COPY ${table} (${columns.map((c) => `"${c}"`).join(', ')}) FROM STDIN`),
  );
  await pipeline(Readable.from([text]), stream);
}
