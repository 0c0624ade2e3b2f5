import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Tx } from './client.ts';
import { companyBehindWall, wallCrossings } from './wall.ts';

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

/**
 * COPY text built as bytes: a bulk write repeats the same fields (a shared bill's lines, its dates)
 * on many rows, which are encoded once and copied as bytes, not concatenated and encoded per row.
 */
export class CopyBytes {
  private buffer = Buffer.allocUnsafe(1 << 16);
  private length = 0;

  private room(bytes: number) {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  /** Text known to be ASCII (numbers, dates, codes): one byte a character. */
  ascii(text: string) {
    this.room(text.length);
    this.length += this.buffer.write(text, this.length, 'latin1');
    return this;
  }

  /** Bytes encoded beforehand (`CopyBytes.encode`). */
  bytes(bytes: Buffer) {
    this.room(bytes.length);
    this.length += bytes.copy(this.buffer, this.length);
    return this;
  }

  get empty() {
    return this.length === 0;
  }

  /** The bytes written so far (a view, valid until the next write). */
  view() {
    return this.buffer.subarray(0, this.length);
  }

  static encode(text: string) {
    return Buffer.from(text, 'utf8');
  }
}

/**
 * Writes `text` (rows of `copyField`s, tab-separated, each ending in a newline; as a string or its
 * UTF-8 bytes) into `columns` of `table`. Into a company-owned table, `companyOf` names the company
 * every row carries: PostgreSQL runs no COPY under row-level security, so behind a company's wall
 * (db/wall.ts) the copy steps out of it for this statement alone, only for rows of that company.
 */
export async function copyInto(
  client: pg.ClientBase,
  table: string,
  columns: string[],
  text: string | Buffer,
  companyOf?: number,
): Promise<void> {
  const copy = () =>
    pipeline(
      Readable.from([text]),
      client.query(copyFrom(`COPY ${table} (${columns.map((c) => `"${c}"`).join(', ')}) FROM STDIN`)),
    );
  const walled = companyBehindWall();
  if (companyOf === undefined || walled === undefined) return copy();
  if (companyOf !== walled)
    throw new Error(`COPY into ${table} of company ${companyOf} behind ${walled}'s wall`);
  wallCrossings.set('copy', (wallCrossings.get('copy') ?? 0) + 1);
  const [{ role }] = (await client.query(`SELECT current_setting('role') AS role`)).rows as [
    { role: string },
  ];
  await client.query(`SELECT set_config('role', 'none', true)`);
  await copy();
  await client.query(`SELECT set_config('role', $1, true)`, [role]);
}
