import { BOOK_TYPE_OF_KIND, type DocumentKind, UTILITY_TIME_ZONE } from '@protocol/contracts';
import { and, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../../db/client.ts';
import type { Principal } from '../../../platform/auth.ts';
import { AppError } from '../../../platform/errors.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { protocolCounters } from '../protocol.schema.ts';
import { auditUser, type DocumentRow, documentErrorKeys, type SaveOptions } from './documents.common.ts';
import type { BookRef } from './documents.references.ts';

/*
 * Numbering: a registration takes the book's next number for the year from its counter row. The SQL
 * is kept here, apart from the saves that embed it, because the counter row's lock is what every
 * registration in a book waits for and must be held for one statement only.
 */

/** The registration time of a save: the database's clock, unless a test injects one (year roll-over). */
const registrationTime = (options: SaveOptions) =>
  options.now ? sql`${options.now.toISOString()}::timestamptz` : sql`clock_timestamp()`;

/**
 * Takes the book's next number for the registration year: the counter row of (book, year), created
 * at 1 or incremented, locked until the transaction ends. Only an active book of the company and
 * type yields a row. Returns `last`, `year` and `at` (the clock read AFTER the lock, so registration
 * dates follow the numbers). The values may be placeholders of a prepared statement.
 */
export function takeNumberSql(
  companyId: number | Placeholder,
  booktype: number | Placeholder,
  bookId: number | Placeholder | SQL,
  at: SQL,
) {
  return sql`INSERT INTO ${protocolCounters} (book_id, year, last)
    SELECT ${protocolBooks.id}, extract(year FROM (${at} AT TIME ZONE ${UTILITY_TIME_ZONE}))::int, 1
    FROM ${protocolBooks}
    WHERE ${and(
      eq(protocolBooks.id, bookId),
      eq(protocolBooks.companyId, companyId),
      eq(protocolBooks.booktype, booktype),
      eq(protocolBooks.isActive, true),
    )}
    ON CONFLICT (book_id, year) DO UPDATE SET last = ${protocolCounters}.last + 1
    RETURNING book_id, last, year, ${at} AS at`;
}

/** The 'registered' audit line's changes, from the protocol id (N/YYYY) taken. */
export const registeredChanges = (
  book: { descr: string | Placeholder | SQL },
  protocolId: SQL,
) => sql`jsonb_build_object(
  'protocolId', jsonb_build_object('before', NULL, 'after', ${protocolId}),
  'protocolBook', jsonb_build_object('before', NULL, 'after', ${book.descr}::text))`;

/**
 * Registers an existing unregistered document in `book`: the last step of its transaction. The
 * number is taken, written on the document and recorded in the audit trail by ONE statement, so the
 * counter row stays locked for that statement and the commit only.
 */
export async function register(
  tx: Tx,
  principal: Principal,
  row: DocumentRow,
  book: BookRef,
  options: SaveOptions,
): Promise<void> {
  const user = auditUser(principal);
  const result = await tx.execute(sql`
    WITH taken AS (${takeNumberSql(row.companyId, BOOK_TYPE_OF_KIND[row.kind as DocumentKind], book.id, registrationTime(options))}),
    registered AS (
      UPDATE documents
      SET protocol_book_id = ${book.id}, protocol_number = taken.last, protocol_year = taken.year,
        protocol_date = taken.at
      FROM taken
      WHERE documents.id = ${row.id} AND documents.protocol_number IS NULL
      RETURNING taken.last, taken.year
    ), logged AS (
      INSERT INTO audit_log (company_id, entity, entity_id, action, user_id, username, changes, request_id)
      SELECT ${row.companyId}::int, 'document', ${String(row.id)}::text, 'registered', ${user.userId}::int,
        ${user.username}::text, ${registeredChanges(book, sql`registered.last || '/' || registered.year`)}, ${options.requestId ?? null}::text
      FROM registered
    )
    SELECT last FROM registered`);
  // Someone registered it meanwhile, or the book was closed: roll back, so the number goes back too.
  if (rowsOf(result).length !== 1)
    throw new AppError(409, documentErrorKeys.bookInactive, { book: book.descr }, [
      { field: 'protocolBookId', key: documentErrorKeys.bookInactive, params: { book: book.descr } },
    ]);
}
