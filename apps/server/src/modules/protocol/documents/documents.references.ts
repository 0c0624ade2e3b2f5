import {
  BOOK_TYPE_OF_KIND,
  DEFAULT_DOCUMENT_TYPE_SEQNR,
  type DocumentKind,
  type DocumentTrader,
  type FieldError,
  type SaveDocument,
} from '@protocol/contracts';
import { and, asc, desc, eq, type SQLWrapper, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { preparedStatement } from '../../../db/prepared.ts';
import { AppError } from '../../../platform/errors.ts';
import { companyUsers } from '../../companies/companies.schema.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { traders } from '../../traders/traders.schema.ts';
import { users } from '../../users/users.schema.ts';
import { documentTypes, subjectCategories } from '../protocol.schema.ts';
import {
  documentErrorKeys,
  fieldError,
  fullNameSql,
  type OperatorRef,
  protocolDay,
  unique,
} from './documents.common.ts';

/*
 * The checks of a save: what a document names (type, category, traders, chargee, book) must be of
 * its company and usable, resolved in ONE query because a registration's round trips limit its
 * throughput; and the book and sender's-date rules.
 */

/** The book as a save needs it: the document shows id, descr, year and booktype. */
export interface BookRef {
  id: number;
  companyId: number;
  descr: string;
  year: number;
  booktype: number;
  isActive: boolean;
}
/** The document type as a save and its answer need it. */
export interface TypeRef {
  id: number;
  companyId: number;
  descr: string;
  seqnr: number;
  autonr: boolean;
  checkdates: boolean;
  printype: number;
  copies: number;
}

/** What a save names, found and checked: the parts its statement and its answer are built from. */
export interface Resolved {
  type: TypeRef | undefined;
  category: { id: number; descr: string } | null;
  book: BookRef | undefined;
  charged: OperatorRef | null;
  /** Trader id → display name. */
  names: Map<number, string>;
  /** The named traders as a document shows them. */
  traders: Map<number, DocumentTrader>;
  senders: number[];
  receivers: number[];
}

/** The book a document of `kind` may be registered in: the company's, of the right type, active. */
function assertBook(book: BookRef | null | undefined, companyId: number, kind: number): BookRef {
  if (!book || book.companyId !== companyId)
    throw fieldError(400, documentErrorKeys.bookInvalid, 'protocolBookId');
  if (book.booktype !== BOOK_TYPE_OF_KIND[kind as DocumentKind])
    throw fieldError(400, documentErrorKeys.bookWrongType, 'protocolBookId', { book: book.descr });
  if (!book.isActive)
    throw fieldError(409, documentErrorKeys.bookInactive, 'protocolBookId', { book: book.descr });
  return book;
}

/** The active books a document of `kind` may be registered in (the form's select), newest year first. */
export async function booksForKind(tx: Tx, companyId: number, kind: number) {
  return tx
    .select({
      id: protocolBooks.id,
      descr: protocolBooks.descr,
      year: protocolBooks.year,
      booktype: protocolBooks.booktype,
    })
    .from(protocolBooks)
    .where(
      and(
        eq(protocolBooks.companyId, companyId),
        eq(protocolBooks.isActive, true),
        eq(protocolBooks.booktype, BOOK_TYPE_OF_KIND[kind as DocumentKind]),
      ),
    )
    .orderBy(desc(protocolBooks.year), asc(protocolBooks.id));
}

/** `json_build_object('key', value, …)` of code-defined keys. */
const jsonObject = (fields: Record<string, SQLWrapper>) =>
  sql`json_build_object(${sql.join(
    Object.entries(fields).map(([key, value]) => sql`${sql.raw(`'${key}'`)}, ${value}`),
    sql`, `,
  )})`;

const bookJson = jsonObject({
  id: protocolBooks.id,
  companyId: protocolBooks.companyId,
  descr: protocolBooks.descr,
  year: protocolBooks.year,
  booktype: protocolBooks.booktype,
  isActive: protocolBooks.isActive,
});

const p = (name: string) => sql.placeholder(name);
const operatorJson = jsonObject({ id: users.id, username: users.username, fullName: fullNameSql(users) });

/**
 * Type (default: code 3), category, traders, charged operator and book, all of the company, in ONE
 * prepared statement. What a save does not name is NULL and finds nothing. A new document is checked
 * by its creation statement itself (documents.creation.ts), which comes here only to name the fields.
 */
const references = preparedStatement(
  () => sql`SELECT
    (SELECT ${jsonObject({
      id: documentTypes.id,
      companyId: documentTypes.companyId,
      descr: documentTypes.descr,
      seqnr: documentTypes.seqnr,
      autonr: documentTypes.autonr,
      checkdates: documentTypes.checkdates,
      printype: documentTypes.printype,
      copies: documentTypes.copies,
    })} FROM ${documentTypes}
      WHERE ${documentTypes.id} = ${p('typeId')}
        OR (${p('typeId')}::int IS NULL AND ${and(
          eq(documentTypes.companyId, p('companyId')),
          eq(documentTypes.seqnr, DEFAULT_DOCUMENT_TYPE_SEQNR),
          eq(documentTypes.active, true),
        )})
      ORDER BY ${documentTypes.id} LIMIT 1) AS "type",
    (SELECT ${jsonObject({
      id: subjectCategories.id,
      companyId: subjectCategories.companyId,
      descr: subjectCategories.descr,
    })} FROM ${subjectCategories} WHERE ${subjectCategories.id} = ${p('categoryId')}) AS "category",
    (SELECT json_agg(${jsonObject({
      id: traders.id,
      companyId: traders.companyId,
      fullname: traders.fullname,
      vatnumber: traders.vatnumber,
      email: traders.email,
    })}) FROM ${traders} WHERE ${traders.id} = ANY(${p('traderIds')}::int[])) AS "traders",
    (SELECT ${operatorJson} FROM ${users}
      JOIN ${companyUsers} ON ${companyUsers.userId} = ${users.id} AND ${companyUsers.companyId} = ${p('companyId')}
      WHERE ${users.id} = ${p('chargedUserId')} AND ${users.active}) AS "charged",
    (SELECT ${bookJson} FROM ${protocolBooks} WHERE ${protocolBooks.id} = ${p('bookId')}) AS "book"`,
);

export async function resolveReferences(
  tx: Tx,
  companyId: number,
  input: SaveDocument,
  bookId: number | null | undefined,
): Promise<Resolved> {
  const senders = unique(input.senders);
  const receivers = unique(input.receivers);
  const traderIds = unique([...senders, ...receivers]);
  const [found] = await references<{
    type: TypeRef | null;
    category: { id: number; companyId: number; descr: string } | null;
    traders: (DocumentTrader & { companyId: number })[] | null;
    charged: OperatorRef | null;
    book: BookRef | null;
  }>(tx, {
    companyId,
    typeId: input.documentTypeId ?? null,
    categoryId: input.subjectCategoryId ?? null,
    traderIds: `{${traderIds.join(',')}}`,
    chargedUserId: input.chargedUserId ?? null,
    bookId: bookId ?? null,
  });
  if (!found) throw new Error('no references row');
  const errors: FieldError[] = [];
  const type = found.type ?? undefined;
  if (input.documentTypeId && (!type || type.companyId !== companyId))
    errors.push({ field: 'documentTypeId', key: 'validation.invalid', params: {} });
  if (input.subjectCategoryId && found.category?.companyId !== companyId)
    errors.push({ field: 'subjectCategoryId', key: 'validation.invalid', params: {} });
  if (input.chargedUserId && !found.charged)
    errors.push({ field: 'chargedUserId', key: 'validation.invalid', params: {} });
  const names = new Map<number, string>();
  const known = new Map<number, DocumentTrader>();
  for (const { companyId: owner, ...t } of found.traders ?? []) {
    if (owner !== companyId) continue;
    names.set(t.id, t.fullname ?? '');
    known.set(t.id, t);
  }
  const traderErrors: FieldError[] = [];
  for (const [role, ids] of [
    ['senders', senders],
    ['receivers', receivers],
  ] as const) {
    ids.forEach((traderId, index) => {
      if (!names.has(traderId))
        traderErrors.push({
          field: `${role}.${index}`,
          key: documentErrorKeys.traderInvalid,
          params: { id: traderId },
        });
    });
  }
  if (traderErrors.length > 0)
    throw new AppError(400, documentErrorKeys.traderInvalid, {}, [...traderErrors, ...errors]);
  if (errors.length > 0) throw new AppError(400, 'error.bad_data', {}, errors);
  return {
    type,
    category: found.category ? { id: found.category.id, descr: found.category.descr } : null,
    book: bookId ? assertBook(found.book, companyId, input.kind) : undefined,
    charged: found.charged,
    names,
    traders: known,
    senders,
    receivers,
  };
}

/** Spec §3 checkdates: the sender's date is not in the future nor after the registration day. */
export function checkSendDate(
  type: TypeRef | undefined,
  sendDate: string | null,
  now: Date,
  registeredAt: Date | null,
) {
  if (!type?.checkdates || !sendDate) return;
  if (sendDate > protocolDay(now))
    throw fieldError(400, documentErrorKeys.sendDateFuture, 'protocolSendDate', { date: sendDate });
  if (registeredAt && sendDate > protocolDay(registeredAt))
    throw fieldError(400, documentErrorKeys.sendDateAfterRegistration, 'protocolSendDate', {
      date: sendDate,
      registered: protocolDay(registeredAt),
    });
}
