import { utilityDay } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Principal } from '../../../platform/auth.ts';
import { AppError } from '../../../platform/errors.ts';
import type { documents } from '../protocol.schema.ts';

/*
 * The vocabulary the parts of the documents core share (the row, the codes of its link tables, its
 * error keys, the utility's calendar) and the small helpers more than one part uses; no rules here.
 */

export type DocumentRow = typeof documents.$inferSelect;

/** Roles of document_traders. */
export const TRADER_ROLE = { sender: 1, receiver: 2 } as const;

/** Assignment kinds of document_assignments. */
export const ASSIGNMENT_KIND = { charge: 1, share: 2 } as const;

/** Error keys of the documents (texts in i18n/protocol under "error"). */
export const documentErrorKeys = {
  registeredLocked: 'error.document_registered_locked',
  bookInvalid: 'error.document_book_invalid',
  bookWrongType: 'error.document_book_wrong_type',
  bookInactive: 'error.document_book_inactive',
  traderInvalid: 'error.document_trader_invalid',
  sendDateFuture: 'error.document_send_date_future',
  sendDateAfterRegistration: 'error.document_send_date_after_registration',
} as const;

export interface SaveOptions {
  requestId?: string;
  /** The registration time; tests inject it (year roll-over). The API always uses the real time. */
  now?: Date;
  /** A creation's registration also links this row of the caller to the document (`RegistrationLink`). */
  link?: { to: RegistrationLink; id: number };
}

/**
 * A row of another module that names the document it registers (an online form's submission): the
 * creation statement itself writes the document's id and protocol id (N/YYYY) on it, so nothing
 * follows the registration in the caller's transaction and the book's counter row is locked for
 * that statement and the commit only.
 */
export interface RegistrationLink {
  /** The row's key column; its value is given with each registration. */
  key: AnyPgColumn;
  documentId: AnyPgColumn;
  protocolId: AnyPgColumn;
}

export const auditUser = (principal: Principal) => ({
  userId: principal.userId,
  username: principal.username,
});
export const iso = (value: Date | string | null | undefined) =>
  value === null || value === undefined ? null : new Date(value).toISOString();
/** The rows of a raw `tx.execute` result. */
/** An operator's full name; NULL when the (left-joined) operator is absent. */
export const fullNameSql = (table: { id: AnyPgColumn; firstname: AnyPgColumn; lastname: AnyPgColumn }) =>
  sql<string>`CASE WHEN ${table.id} IS NULL THEN NULL ELSE trim(${table.firstname} || ' ' || ${table.lastname}) END`;

/** The registration day (YYYY-MM-DD) and the protocol year of an instant: the utility's calendar. */
export const protocolDay = utilityDay;
export const protocolYearOf = (at: Date): number => Number(protocolDay(at).slice(0, 4));

/** An operator as a document shows them (creator, chargee). */
export type OperatorRef = { id: number; username: string; fullName: string };

/** A 4xx naming the one form field at fault. */
export const fieldError = (
  status: number,
  key: string,
  field: string,
  params: Record<string, string | number> = {},
) => new AppError(status, key, params, [{ field, key, params }]);

export const unique = (ids: readonly number[]) => [...new Set(ids)];
