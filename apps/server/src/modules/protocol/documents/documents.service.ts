import { createHash } from 'node:crypto';
import {
  BOOK_TYPE_OF_KIND,
  DEFAULT_DOCUMENT_TYPE_SEQNR,
  type DocumentActionName,
  type DocumentKind,
  type DocumentTrader,
  type FieldError,
  formatProtocolId,
  type ProtocolDocument,
  type SaveDocument,
  UTILITY_TIME_ZONE,
  utilityDay,
} from '@protocol/contracts';
import {
  and,
  asc,
  desc,
  eq,
  inArray,
  isNull,
  ne,
  or,
  type SQL,
  type SQLWrapper,
  sql,
  type WithSubquery,
} from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import { concurrently, type Tx } from '../../../db/client.ts';
import { auditInsert, recordAudit } from '../../../platform/audit.ts';
import { auditFieldsOf, updatedBy } from '../../../platform/audit-columns.ts';
import type { Principal } from '../../../platform/auth.ts';
import { pgError } from '../../../platform/db-errors.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { companyUsers } from '../../companies/companies.schema.ts';
import { notificationInsert, notify } from '../../notifications/api.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { traders } from '../../traders/traders.schema.ts';
import { userGroupMembers, userGroups } from '../../users/groups.schema.ts';
import { users } from '../../users/users.schema.ts';
import {
  caseDocuments,
  cases,
  documentAssignments,
  documentAttachments,
  documentSignatures,
  documents,
  documentTraders,
  documentTypes,
  protocolCounters,
  subjectCategories,
} from '../protocol.schema.ts';
import {
  actionAvailability,
  availableActions,
  type DocumentFacts,
  isProtocolWriter,
  reasonKeys,
} from './documents.rules.ts';

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
}

const auditUser = (principal: Principal) => ({ userId: principal.userId, username: principal.username });
const iso = (value: Date | string | null | undefined) =>
  value === null || value === undefined ? null : new Date(value).toISOString();
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
/** An operator's full name; NULL when the (left-joined) operator is absent. */
export const fullNameSql = (table: { id: AnyPgColumn; firstname: AnyPgColumn; lastname: AnyPgColumn }) =>
  sql<string>`CASE WHEN ${table.id} IS NULL THEN NULL ELSE trim(${table.firstname} || ' ' || ${table.lastname}) END`;

/** The registration day (YYYY-MM-DD) and the protocol year of an instant: the utility's calendar. */
export const protocolDay = utilityDay;
export const protocolYearOf = (at: Date): number => Number(protocolDay(at).slice(0, 4));

// ----- visibility -----

/** The groups (departments) the operator belongs to, as a subquery. */
const groupsOf = (userId: number) =>
  sql`(SELECT ${userGroupMembers.groupId} FROM ${userGroupMembers} WHERE ${userGroupMembers.userId} = ${userId})`;

/**
 * Which documents the operator may see, as a condition on `documents` (undefined: all of the
 * company). protocol:write and above see everything; protocol:read sees what they created, what is
 * or was charged to them or to one of their groups, and what is shared with them or their groups.
 */
export function visibilityCondition(principal: Principal): SQL | undefined {
  if (isProtocolWriter(principal)) return undefined;
  const me = principal.userId;
  return or(
    eq(documents.createUserId, me),
    eq(documents.chargedUserId, me),
    sql`${documents.chargedGroupId} IN ${groupsOf(me)}`,
    sql`EXISTS (SELECT 1 FROM ${documentAssignments} WHERE ${documentAssignments.documentId} = ${documents.id} AND (${documentAssignments.userId} = ${me} OR ${documentAssignments.groupId} IN ${groupsOf(me)}))`,
  );
}

/** Whether the operator may see this document (its company and the visibility rule). */
export async function isVisibleTo(
  tx: Tx,
  principal: Principal,
  row: { id: number; companyId: number },
): Promise<boolean> {
  if (!principal.companyIds.includes(row.companyId)) return false;
  const condition = visibilityCondition(principal);
  if (!condition) return true;
  const found = await tx
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.id, row.id), condition));
  return found.length > 0;
}

// ----- rows -----

export async function getDocumentRow(tx: Tx, id: number): Promise<DocumentRow | undefined> {
  const [row] = await tx.select().from(documents).where(eq(documents.id, id));
  return row;
}

/** The document row locked for the rest of the transaction (SELECT … FOR UPDATE). */
export async function lockDocument(tx: Tx, id: number): Promise<DocumentRow | undefined> {
  const [row] = await tx.select().from(documents).where(eq(documents.id, id)).for('update');
  return row;
}

/**
 * The row of a document the operator may see (optionally of the named company), locked when asked;
 * 404 otherwise — never 403, so a document's existence is not revealed.
 */
export async function visibleDocumentRow(
  tx: Tx,
  principal: Principal,
  id: number,
  options: { lock?: boolean; companyId?: number } = {},
): Promise<DocumentRow> {
  const row = options.lock ? await lockDocument(tx, id) : await getDocumentRow(tx, id);
  if (!row) throw notFound();
  if (options.companyId !== undefined && row.companyId !== options.companyId) throw notFound();
  if (!(await isVisibleTo(tx, principal, row))) throw notFound();
  return row;
}

// ----- content hash (sign) -----

/**
 * The SHA-256 (hex) of what a signature approves: the registration fields, the subject and the
 * hashes of the attachments (not deleted, in upload order).
 */
export function contentHashOf(
  row: Pick<
    DocumentRow,
    | 'id'
    | 'companyId'
    | 'kind'
    | 'protocolBookId'
    | 'protocolNumber'
    | 'protocolYear'
    | 'protocolDate'
    | 'subject'
  >,
  attachmentHashes: readonly string[],
): string {
  const content = {
    id: row.id,
    companyId: row.companyId,
    kind: row.kind,
    protocolBookId: row.protocolBookId,
    protocolNumber: row.protocolNumber,
    protocolYear: row.protocolYear,
    protocolDate: iso(row.protocolDate),
    subject: row.subject,
    attachments: attachmentHashes,
  };
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

async function attachmentHashes(tx: Tx, documentId: number): Promise<string[]> {
  const rows = await tx
    .select({ sha256: documentAttachments.sha256 })
    .from(documentAttachments)
    .where(and(eq(documentAttachments.documentId, documentId), isNull(documentAttachments.deletedAt)))
    .orderBy(asc(documentAttachments.id));
  return rows.map((r) => r.sha256);
}

/** The current content hash of a document (see contentHashOf). */
export async function documentContentHash(tx: Tx, id: number): Promise<string> {
  const row = await getDocumentRow(tx, id);
  if (!row) throw notFound();
  return contentHashOf(row, await attachmentHashes(tx, id));
}

// ----- facts and actions -----

/** Whether the operator is the current chargee, and whether a charge is active (one query). */
async function chargeFacts(tx: Tx, principal: Principal, row: DocumentRow) {
  const result = await tx.execute(sql`
    SELECT
      EXISTS (SELECT 1 FROM ${documentAssignments}
              WHERE ${documentAssignments.documentId} = ${row.id}
                AND ${documentAssignments.kind} = ${ASSIGNMENT_KIND.charge}
                AND ${documentAssignments.endedAt} IS NULL) AS "active",
      EXISTS (SELECT 1 FROM ${userGroupMembers}
              WHERE ${userGroupMembers.groupId} = ${row.chargedGroupId ?? -1}
                AND ${userGroupMembers.userId} = ${principal.userId}) AS "member"`);
  const [facts] = rowsOf<{ active: boolean; member: boolean }>(result);
  return {
    hasActiveCharge: Boolean(facts?.active),
    isChargee: row.chargedUserId === principal.userId || Boolean(facts?.member),
  };
}

/** What the action rules need about a document and the asker (three small queries). */
export async function documentFacts(tx: Tx, principal: Principal, row: DocumentRow): Promise<DocumentFacts> {
  const [charge, hashes, inCase] = await concurrently(tx, [
    () => chargeFacts(tx, principal, row),
    () => attachmentHashes(tx, row.id),
    () =>
      tx
        .select({ id: caseDocuments.caseId })
        .from(caseDocuments)
        .where(eq(caseDocuments.documentId, row.id))
        .limit(1),
  ]);
  const hash = contentHashOf(row, hashes);
  const signed = await tx
    .select({ id: documentSignatures.id })
    .from(documentSignatures)
    .where(
      and(
        eq(documentSignatures.documentId, row.id),
        eq(documentSignatures.userId, principal.userId),
        eq(documentSignatures.contentHash, hash),
      ),
    )
    .limit(1);
  return {
    ...charge,
    inCase: inCase.length > 0,
    attachmentsCount: hashes.length,
    signedByMe: signed.length > 0,
  };
}

/** 403 (who) or 409 (the document's state) with the rule's reason key when the action is refused. */
export function assertAction(
  principal: Principal,
  name: DocumentActionName,
  row: DocumentRow,
  facts: DocumentFacts,
): void {
  const verdict = actionAvailability(principal, name, row, facts);
  if (verdict.allowed || verdict.reasonKey === null) return;
  const who: string[] = [reasonKeys.notAllowed, reasonKeys.writeOrChargee, reasonKeys.notChargee];
  throw new AppError(who.includes(verdict.reasonKey) ? 403 : 409, verdict.reasonKey, { action: name });
}

export { availableActions };

// ----- the document answer -----

/** What a document answer is made of: its row and what the row refers to. */
interface DocumentParts {
  row: DocumentRow;
  book: { id: number; descr: string; year: number; booktype: number } | null;
  type: { id: number; descr: string; seqnr: number } | null;
  receipt: { printype: number; copies: number } | null;
  category: { id: number; descr: string } | null;
  creator: OperatorRef | null;
  charged: OperatorRef | null;
  group: { id: number; name: string } | null;
  senders: DocumentTrader[];
  receivers: DocumentTrader[];
  files: (typeof documentAttachments.$inferSelect)[];
  signatures: {
    id: number;
    userId: number;
    username: string;
    fullName: string;
    signedAt: Date;
    contentHash: string;
    comments: string | null;
  }[];
  cases: { id: number; code: string; name: string }[];
  /** The document it answers and its replies, as far as the operator may see them. */
  links: {
    id: number;
    kind: number;
    subject: string;
    protocolNumber: number | null;
    protocolYear: number | null;
    replyToId: number | null;
  }[];
  charge: { hasActiveCharge: boolean; isChargee: boolean };
}

/** A document as the API sends it (contracts `documentSchema`), with the asker's actions. */
function documentAnswer(principal: Principal, parts: DocumentParts): ProtocolDocument {
  const { row, files, signatures, links } = parts;
  const hash = contentHashOf(
    row,
    files.map((f) => f.sha256),
  );
  const facts: DocumentFacts = {
    ...parts.charge,
    inCase: parts.cases.length > 0,
    attachmentsCount: files.length,
    signedByMe: signatures.some((s) => s.userId === principal.userId && s.contentHash === hash),
  };
  const link = (l: (typeof links)[number]) => ({
    id: l.id,
    kind: l.kind,
    protocolId: formatProtocolId(l.protocolNumber, l.protocolYear),
    subject: l.subject,
  });
  const replyTo = links.find((l) => l.id === row.replyToId);

  return {
    id: row.id,
    companyId: row.companyId,
    kind: row.kind,
    name: row.name,
    subject: row.subject,
    subjectCategory: parts.category,
    state: row.state,
    documentType: parts.type,
    protocolBook: parts.book,
    protocolNumber: row.protocolNumber,
    protocolYear: row.protocolYear,
    protocolId: formatProtocolId(row.protocolNumber, row.protocolYear),
    protocolDate: iso(row.protocolDate),
    protocolIdSender: row.protocolIdSender,
    protocolSendDate: row.protocolSendDate,
    senders: parts.senders,
    receivers: parts.receivers,
    createUser: parts.creator,
    chargedUser: parts.charged,
    chargedGroup: parts.group,
    folder: row.folder,
    isOutbox: row.isOutbox,
    cloneDocument: row.cloneDocumentId,
    replyTo: replyTo ? link(replyTo) : null,
    replies: links.filter((l) => l.replyToId === row.id).map(link),
    sendStatus: row.sendStatus,
    sentAt: iso(row.sentAt),
    attachedFilesCount: files.length,
    attachments: files.map((f) => ({
      id: f.id,
      fileName: f.fileName,
      contentType: f.contentType,
      size: f.size,
      sha256: f.sha256,
      version: f.version,
      replacesId: f.replacesId,
      createuser: f.createuser,
      createdate: iso(f.createdate),
    })),
    publications: row.publications,
    signatures: signatures.map((s) => ({
      id: s.id,
      user: { id: s.userId, username: s.username, fullName: s.fullName },
      signedAt: iso(s.signedAt) as string,
      contentHash: s.contentHash,
      comments: s.comments,
    })),
    cases: parts.cases,
    metadata: row.metadata,
    comments: row.comments,
    actions: availableActions(principal, row, facts),
    receipt: parts.receipt,
    ...auditFieldsOf(row),
  };
}

/**
 * A document as the API sends it, read: a fixed number of queries whatever the number of traders,
 * files, signatures or cases (no N+1). 404 when the operator may not see it or it is not of
 * `companyId` (when given).
 */
export async function loadDocument(
  db: Tx,
  principal: Principal,
  companyId: number | undefined,
  id: number,
): Promise<ProtocolDocument> {
  const creator = alias(users, 'creator');
  const charged = alias(users, 'charged');
  const [found] = await db
    .select({
      doc: documents,
      book: {
        id: protocolBooks.id,
        descr: protocolBooks.descr,
        year: protocolBooks.year,
        booktype: protocolBooks.booktype,
      },
      type: { id: documentTypes.id, descr: documentTypes.descr, seqnr: documentTypes.seqnr },
      receipt: { printype: documentTypes.printype, copies: documentTypes.copies },
      category: { id: subjectCategories.id, descr: subjectCategories.descr },
      creator: { id: creator.id, username: creator.username, fullName: fullNameSql(creator) },
      charged: { id: charged.id, username: charged.username, fullName: fullNameSql(charged) },
      group: { id: userGroups.id, name: userGroups.name },
    })
    .from(documents)
    .leftJoin(protocolBooks, eq(protocolBooks.id, documents.protocolBookId))
    .leftJoin(documentTypes, eq(documentTypes.id, documents.documentTypeId))
    .leftJoin(subjectCategories, eq(subjectCategories.id, documents.subjectCategoryId))
    .leftJoin(creator, eq(creator.id, documents.createUserId))
    .leftJoin(charged, eq(charged.id, documents.chargedUserId))
    .leftJoin(userGroups, eq(userGroups.id, documents.chargedGroupId))
    .where(and(eq(documents.id, id), visibilityCondition(principal)));
  if (!found || !principal.companyIds.includes(found.doc.companyId)) throw notFound();
  if (companyId !== undefined && found.doc.companyId !== companyId) throw notFound();
  const row = found.doc;

  const signer = alias(users, 'signer');
  const [people, files, signatures, caseRows, links, charge] = await concurrently(db, [
    () =>
      db
        .select({
          role: documentTraders.role,
          id: traders.id,
          fullname: traders.fullname,
          vatnumber: traders.vatnumber,
          email: traders.email,
        })
        .from(documentTraders)
        .innerJoin(traders, eq(traders.id, documentTraders.traderId))
        .where(eq(documentTraders.documentId, id))
        .orderBy(asc(documentTraders.role), asc(documentTraders.position)),
    () =>
      db
        .select()
        .from(documentAttachments)
        .where(and(eq(documentAttachments.documentId, id), isNull(documentAttachments.deletedAt)))
        .orderBy(asc(documentAttachments.id)),
    () =>
      db
        .select({
          id: documentSignatures.id,
          userId: signer.id,
          username: signer.username,
          fullName: fullNameSql(signer),
          signedAt: documentSignatures.signedAt,
          contentHash: documentSignatures.contentHash,
          comments: documentSignatures.comments,
        })
        .from(documentSignatures)
        .innerJoin(signer, eq(signer.id, documentSignatures.userId))
        .where(eq(documentSignatures.documentId, id))
        .orderBy(asc(documentSignatures.signedAt), asc(documentSignatures.id)),
    () =>
      db
        .select({ id: cases.id, code: cases.code, name: cases.name })
        .from(caseDocuments)
        .innerJoin(cases, eq(cases.id, caseDocuments.caseId))
        .where(eq(caseDocuments.documentId, id))
        .orderBy(asc(cases.id)),
    () =>
      db
        .select({
          id: documents.id,
          kind: documents.kind,
          subject: documents.subject,
          protocolNumber: documents.protocolNumber,
          protocolYear: documents.protocolYear,
          replyToId: documents.replyToId,
        })
        .from(documents)
        .where(
          and(
            or(
              row.replyToId === null ? undefined : eq(documents.id, row.replyToId),
              eq(documents.replyToId, id),
            ),
            ne(documents.state, 9),
            visibilityCondition(principal),
          ),
        )
        .orderBy(asc(documents.id)),
    () => chargeFacts(db, principal, row),
  ]);
  const trader = ({ role: _role, ...t }: (typeof people)[number]) => t;
  return documentAnswer(principal, {
    row,
    book: found.book,
    type: found.type,
    receipt: found.receipt,
    category: found.category,
    creator: found.creator,
    charged: found.charged,
    group: found.group,
    senders: people.filter((p) => p.role === TRADER_ROLE.sender).map(trader),
    receivers: people.filter((p) => p.role === TRADER_ROLE.receiver).map(trader),
    files,
    signatures,
    cases: caseRows,
    links,
    charge,
  });
}

// ----- checks of a save -----

/** The book as a save needs it: the document shows id, descr, year and booktype. */
interface BookRef {
  id: number;
  companyId: number;
  descr: string;
  year: number;
  booktype: number;
  isActive: boolean;
}
/** The document type as a save and its answer need it. */
interface TypeRef {
  id: number;
  companyId: number;
  descr: string;
  seqnr: number;
  autonr: boolean;
  checkdates: boolean;
  printype: number;
  copies: number;
}
type OperatorRef = { id: number; username: string; fullName: string };

interface Resolved {
  type: TypeRef | undefined;
  category: { id: number; descr: string } | null;
  book: BookRef | undefined;
  /** Spec §3 autonr: the book a new document of the type goes to when none is named. */
  autonrBook: BookRef | undefined;
  charged: OperatorRef | null;
  /** The operator saving, as the document shows its creator. */
  creator: OperatorRef | null;
  /** A new document's id, taken from its sequence beforehand so one statement can write it all. */
  newId: number | null;
  /** Trader id → display name. */
  names: Map<number, string>;
  /** The named traders as a document shows them. */
  traders: Map<number, DocumentTrader>;
  senders: number[];
  receivers: number[];
}

const fieldError = (
  status: number,
  key: string,
  field: string,
  params: Record<string, string | number> = {},
) => new AppError(status, key, params, [{ field, key, params }]);

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

const unique = (ids: readonly number[]) => [...new Set(ids)];

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

/**
 * Type (default: code 3), category, traders, charged operator and book, all of the company, in ONE
 * query: a registration's round trips are what limits its throughput. For a new document also its
 * id, its creator and the autonr book.
 */
async function resolveReferences(
  tx: Tx,
  principal: Principal,
  companyId: number,
  input: SaveDocument,
  bookId: number | null | undefined,
  newDocument?: { now: Date },
): Promise<Resolved> {
  const senders = unique(input.senders);
  const receivers = unique(input.receivers);
  const traderIds = unique([...senders, ...receivers]);
  const typeCondition = input.documentTypeId
    ? eq(documentTypes.id, input.documentTypeId)
    : and(
        eq(documentTypes.companyId, companyId),
        eq(documentTypes.seqnr, DEFAULT_DOCUMENT_TYPE_SEQNR),
        eq(documentTypes.active, true),
      );
  const operatorJson = jsonObject({ id: users.id, username: users.username, fullName: fullNameSql(users) });
  const result = await tx.execute(sql`SELECT
    (SELECT ${jsonObject({
      id: documentTypes.id,
      companyId: documentTypes.companyId,
      descr: documentTypes.descr,
      seqnr: documentTypes.seqnr,
      autonr: documentTypes.autonr,
      checkdates: documentTypes.checkdates,
      printype: documentTypes.printype,
      copies: documentTypes.copies,
    })} FROM ${documentTypes} WHERE ${typeCondition} ORDER BY ${documentTypes.id} LIMIT 1) AS "type",
    ${
      input.subjectCategoryId
        ? sql`(SELECT ${jsonObject({
            id: subjectCategories.id,
            companyId: subjectCategories.companyId,
            descr: subjectCategories.descr,
          })} FROM ${subjectCategories} WHERE ${subjectCategories.id} = ${input.subjectCategoryId})`
        : sql`NULL`
    } AS "category",
    ${
      traderIds.length > 0
        ? sql`(SELECT json_agg(${jsonObject({
            id: traders.id,
            companyId: traders.companyId,
            fullname: traders.fullname,
            vatnumber: traders.vatnumber,
            email: traders.email,
          })}) FROM ${traders} WHERE ${inArray(traders.id, traderIds)})`
        : sql`NULL`
    } AS "traders",
    ${
      input.chargedUserId
        ? sql`(SELECT ${operatorJson} FROM ${users}
            JOIN ${companyUsers} ON ${companyUsers.userId} = ${users.id} AND ${companyUsers.companyId} = ${companyId}
            WHERE ${users.id} = ${input.chargedUserId} AND ${users.active})`
        : sql`NULL`
    } AS "charged",
    ${bookId ? sql`(SELECT ${bookJson} FROM ${protocolBooks} WHERE ${protocolBooks.id} = ${bookId})` : sql`NULL`} AS "book",
    ${
      newDocument && !bookId
        ? sql`(SELECT json_agg(candidate) FROM (SELECT ${bookJson} AS candidate FROM ${protocolBooks}
            WHERE ${and(
              eq(protocolBooks.companyId, companyId),
              eq(protocolBooks.isActive, true),
              eq(protocolBooks.booktype, BOOK_TYPE_OF_KIND[input.kind as DocumentKind]),
              eq(protocolBooks.year, protocolYearOf(newDocument.now)),
            )} LIMIT 2) AS candidates)`
        : sql`NULL`
    } AS "autonrBooks",
    ${newDocument ? sql`(SELECT ${operatorJson} FROM ${users} WHERE ${users.id} = ${principal.userId})` : sql`NULL`} AS "creator",
    ${newDocument ? sql`nextval(pg_get_serial_sequence('documents', 'id'))::int` : sql`NULL`} AS "newId"`);
  const [found] = rowsOf<{
    type: TypeRef | null;
    category: { id: number; companyId: number; descr: string } | null;
    traders: (DocumentTrader & { companyId: number })[] | null;
    charged: OperatorRef | null;
    book: BookRef | null;
    autonrBooks: BookRef[] | null;
    creator: OperatorRef | null;
    newId: number | null;
  }>(result);
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
  const candidates = found.autonrBooks ?? [];
  return {
    type,
    category: found.category ? { id: found.category.id, descr: found.category.descr } : null,
    book: bookId ? assertBook(found.book, companyId, input.kind) : undefined,
    autonrBook: type?.autonr && candidates.length === 1 ? candidates[0] : undefined,
    charged: found.charged,
    creator: found.creator,
    newId: found.newId,
    names,
    traders: known,
    senders,
    receivers,
  };
}

/** Spec §3 checkdates: the sender's date is not in the future nor after the registration day. */
function checkSendDate(
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

/** The display names kept in documents.correspondents: senders of incoming, receivers of outgoing. */
const correspondentsOf = (kind: number, resolved: Pick<Resolved, 'names' | 'senders' | 'receivers'>) => {
  const ids = kind === 0 ? resolved.senders : resolved.receivers;
  const text = ids
    .map((traderId) => resolved.names.get(traderId) ?? '')
    .filter((name) => name !== '')
    .join(', ');
  return text === '' ? null : text;
};

const namesOf = (ids: readonly number[], names: Map<number, string>) =>
  ids.map((traderId) => names.get(traderId) ?? String(traderId)).join(', ');

async function saveTraders(
  tx: Tx,
  documentId: number,
  senders: number[],
  receivers: number[],
  isNew = false,
) {
  if (!isNew) await tx.delete(documentTraders).where(eq(documentTraders.documentId, documentId));
  const values = [
    ...senders.map((traderId, position) => ({ documentId, role: TRADER_ROLE.sender, position, traderId })),
    ...receivers.map((traderId, position) => ({
      documentId,
      role: TRADER_ROLE.receiver,
      position,
      traderId,
    })),
  ];
  if (values.length > 0) await tx.insert(documentTraders).values(values);
}

/** The editable columns of a save (never the registration fields). */
function columnsOf(input: SaveDocument, resolved: Resolved) {
  return {
    kind: input.kind,
    name: input.name,
    subject: input.subject,
    subjectCategoryId: input.subjectCategoryId ?? null,
    documentTypeId: resolved.type?.id ?? null,
    protocolIdSender: input.protocolIdSender,
    protocolSendDate: input.protocolSendDate,
    correspondents: correspondentsOf(input.kind, resolved),
    folder: input.folder,
    isOutbox: input.kind === 1,
    publications: input.publications,
    metadata: input.metadata,
    comments: input.comments,
  };
}

// ----- registration -----

/** The registration time of a save: the database's clock, unless a test injects one (year roll-over). */
const registrationTime = (options: SaveOptions) =>
  options.now ? sql`${options.now.toISOString()}::timestamptz` : sql`clock_timestamp()`;

/**
 * Takes the book's next number for the registration year: the counter row of (book, year), created
 * at 1 or incremented, locked until the transaction ends. Only an active book of the company and
 * type yields a row. Returns `last`, `year` and `at` (the clock read AFTER the lock, so registration
 * dates follow the numbers).
 */
function takeNumberSql(companyId: number, kind: number, bookId: number, options: SaveOptions) {
  const at = registrationTime(options);
  return sql`INSERT INTO ${protocolCounters} (book_id, year, last)
    SELECT ${protocolBooks.id}, extract(year FROM (${at} AT TIME ZONE ${UTILITY_TIME_ZONE}))::int, 1
    FROM ${protocolBooks}
    WHERE ${and(
      eq(protocolBooks.id, bookId),
      eq(protocolBooks.companyId, companyId),
      eq(protocolBooks.booktype, BOOK_TYPE_OF_KIND[kind as DocumentKind]),
      eq(protocolBooks.isActive, true),
    )}
    ON CONFLICT (book_id, year) DO UPDATE SET last = ${protocolCounters}.last + 1
    RETURNING last, year, ${at} AS at`;
}

/** The 'registered' audit line's changes, from the protocol id (N/YYYY) taken. */
const registeredChanges = (book: Pick<BookRef, 'descr'>, protocolId: SQL) => sql`jsonb_build_object(
  'protocolId', jsonb_build_object('before', NULL, 'after', ${protocolId}),
  'protocolBook', jsonb_build_object('before', NULL, 'after', ${book.descr}::text))`;

/**
 * Registers an existing unregistered document in `book`: the last step of its transaction. The
 * number is taken, written on the document and recorded in the audit trail by ONE statement, so the
 * counter row stays locked for that statement and the commit only.
 */
async function register(
  tx: Tx,
  principal: Principal,
  row: DocumentRow,
  book: BookRef,
  options: SaveOptions,
): Promise<void> {
  const user = auditUser(principal);
  const result = await tx.execute(sql`
    WITH taken AS (${takeNumberSql(row.companyId, row.kind, book.id, options)}),
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

// ----- charge on save -----

/** Charges the document to an operator (a save naming chargedUserId): ends the current charge, notifies. */
async function chargeOnSave(
  tx: Tx,
  principal: Principal,
  row: Pick<DocumentRow, 'id' | 'companyId' | 'subject'>,
  userId: number,
): Promise<void> {
  await tx
    .update(documentAssignments)
    .set({ endedAt: new Date() })
    .where(
      and(
        eq(documentAssignments.documentId, row.id),
        eq(documentAssignments.kind, ASSIGNMENT_KIND.charge),
        isNull(documentAssignments.endedAt),
      ),
    );
  await tx
    .insert(documentAssignments)
    .values({ documentId: row.id, kind: ASSIGNMENT_KIND.charge, userId, byUserId: principal.userId });
  await tx
    .update(documents)
    .set({ chargedUserId: userId, chargedGroupId: null })
    .where(eq(documents.id, row.id));
  await notify(tx, chargedNotification(principal, row, userId));
}

const chargedNotification = (
  principal: Principal,
  row: Pick<DocumentRow, 'id' | 'companyId' | 'subject'>,
  userId: number,
) => ({
  companyId: row.companyId,
  userIds: [userId],
  senderId: principal.userId,
  messageKey: 'documents.notification.charged',
  params: { subject: row.subject },
  entity: 'document',
  entityId: row.id,
});

// ----- create / update -----

/**
 * Creates a document; with a book (or autonr) it is registered. Everything it writes (the number,
 * the document, its senders and receivers, its charge and notification, its audit lines) is ONE
 * statement, run on its own: PostgreSQL makes a statement atomic, and the counter row is then locked
 * only while the statement runs and commits, not for round trips to this process. That lock is what
 * every registration in a book waits for.
 */
export async function createDocument(
  db: Tx,
  principal: Principal,
  companyId: number,
  input: SaveDocument,
  options: SaveOptions = {},
): Promise<ProtocolDocument> {
  const now = options.now ?? new Date();
  const resolved = await resolveReferences(db, principal, companyId, input, input.protocolBookId, { now });
  const id = resolved.newId;
  if (id === null) throw new Error('no document id');
  const book = resolved.book ?? resolved.autonrBook;
  checkSendDate(resolved.type, input.protocolSendDate, now, book ? now : null);

  const user = auditUser(principal);
  const audit = (action: string, changes: SQL | null) => ({
    companyId,
    entity: 'document',
    entityId: String(id),
    action,
    userId: user.userId,
    username: user.username,
    changes,
    requestId: options.requestId ?? null,
  });
  const writes: { getSQL(): SQL }[] = [
    auditInsert(db, [
      audit('created', null),
      ...(book
        ? [audit('registered', registeredChanges(book, sql`(SELECT last || '/' || year FROM taken)`))]
        : []),
    ]),
  ];
  const people = [
    ...resolved.senders.map((traderId, position) => ({ role: TRADER_ROLE.sender, position, traderId })),
    ...resolved.receivers.map((traderId, position) => ({ role: TRADER_ROLE.receiver, position, traderId })),
  ];
  if (people.length > 0)
    writes.push(db.insert(documentTraders).values(people.map((p) => ({ documentId: id, ...p }))));
  const chargedUserId = input.chargedUserId ?? null;
  if (chargedUserId !== null) {
    writes.push(
      db.insert(documentAssignments).values({
        documentId: id,
        kind: ASSIGNMENT_KIND.charge,
        userId: chargedUserId,
        byUserId: principal.userId,
      }),
    );
    const notification = notificationInsert(
      db,
      chargedNotification(principal, { id, companyId, subject: input.subject }, chargedUserId),
    );
    if (notification) writes.push(notification);
  }
  const ctes: WithSubquery[] = writes.map((write, index) => db.$with(`write${index}`, {}).as(write.getSQL()));
  if (book) ctes.unshift(db.$with('taken', {}).as(takeNumberSql(companyId, input.kind, book.id, options)));
  const taken = (column: string) => sql`(SELECT ${sql.identifier(column)} FROM taken)`;
  let row: DocumentRow | undefined;
  try {
    [row] = await db
      .with(...ctes)
      .insert(documents)
      .values({
        ...columnsOf(input, resolved),
        id,
        companyId,
        state: 0,
        createUserId: principal.userId,
        createuser: principal.username,
        chargedUserId,
        ...(book
          ? {
              protocolBookId: book.id,
              protocolNumber: taken('last'),
              protocolYear: taken('year'),
              protocolDate: taken('at'),
            }
          : {}),
      })
      .returning();
  } catch (error) {
    // The book was closed between the check and the statement: no number was taken.
    if (book && pgError(error)?.constraint === 'documents_registration_whole')
      throw fieldError(409, documentErrorKeys.bookInactive, 'protocolBookId', { book: book.descr });
    throw error;
  }
  if (!row) throw new Error('document not created');
  const traderOf = (ids: number[]) => ids.flatMap((traderId) => resolved.traders.get(traderId) ?? []);
  return documentAnswer(principal, {
    row,
    book: book ? { id: book.id, descr: book.descr, year: book.year, booktype: book.booktype } : null,
    type: resolved.type
      ? { id: resolved.type.id, descr: resolved.type.descr, seqnr: resolved.type.seqnr }
      : null,
    receipt: resolved.type ? { printype: resolved.type.printype, copies: resolved.type.copies } : null,
    category: resolved.category,
    creator: resolved.creator,
    charged: resolved.charged,
    group: null,
    senders: traderOf(resolved.senders),
    receivers: traderOf(resolved.receivers),
    files: [],
    signatures: [],
    cases: [],
    links: [],
    charge: { hasActiveCharge: chargedUserId !== null, isChargee: chargedUserId === principal.userId },
  });
}

/** The fields of a document the 'updated' audit line compares. */
function auditShape(row: DocumentRow, senders: string, receivers: string) {
  return {
    kind: row.kind,
    name: row.name,
    subject: row.subject,
    subjectCategoryId: row.subjectCategoryId,
    documentTypeId: row.documentTypeId,
    protocolIdSender: row.protocolIdSender,
    protocolSendDate: row.protocolSendDate,
    folder: row.folder,
    comments: row.comments,
    publications: row.publications,
    metadata: row.metadata,
    chargedUserId: row.chargedUserId,
    senders,
    receivers,
  };
}

function diffShapes(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const [key, value] of Object.entries(after)) {
    if (JSON.stringify(before[key] ?? null) !== JSON.stringify(value ?? null))
      changes[key] = { before: before[key] ?? null, after: value ?? null };
  }
  return changes;
}

/**
 * Changes a document (edit rule: protocol:write or the current chargee; active only). A registered
 * document keeps its book, number, year, date and kind: a save that changes them is 409. Naming a
 * book on an unregistered document registers it.
 */
export async function updateDocument(
  db: Tx,
  principal: Principal,
  id: number,
  input: SaveDocument,
  options: SaveOptions = {},
): Promise<ProtocolDocument> {
  await db.transaction(async (tx) => {
    const now = options.now ?? new Date();
    const before = await visibleDocumentRow(tx, principal, id, { lock: true });
    assertAction(principal, 'edit', before, await documentFacts(tx, principal, before));
    const registered = before.protocolNumber !== null;
    if (registered) {
      const locked: string[] = [];
      if (input.kind !== before.kind) locked.push('kind');
      if (input.protocolBookId !== undefined && input.protocolBookId !== before.protocolBookId)
        locked.push('protocolBookId');
      if (locked.length > 0) {
        throw new AppError(
          409,
          documentErrorKeys.registeredLocked,
          { fields: locked.join(', ') },
          locked.map((field) => ({ field, key: documentErrorKeys.registeredLocked, params: {} })),
        );
      }
    }
    const resolved = await resolveReferences(
      tx,
      principal,
      before.companyId,
      input,
      registered ? undefined : input.protocolBookId,
    );
    checkSendDate(resolved.type, input.protocolSendDate, now, registered ? before.protocolDate : now);

    const oldTraders = await tx
      .select({ role: documentTraders.role, traderId: documentTraders.traderId, fullname: traders.fullname })
      .from(documentTraders)
      .innerJoin(traders, eq(traders.id, documentTraders.traderId))
      .where(eq(documentTraders.documentId, id))
      .orderBy(asc(documentTraders.role), asc(documentTraders.position));
    const oldNames = (role: number) =>
      oldTraders
        .filter((t) => t.role === role)
        .map((t) => t.fullname ?? String(t.traderId))
        .join(', ');

    const [row] = await tx
      .update(documents)
      .set({ ...columnsOf(input, resolved), ...updatedBy(principal.username) })
      .where(eq(documents.id, id))
      .returning();
    if (!row) throw notFound();
    await saveTraders(tx, id, resolved.senders, resolved.receivers);
    const chargeChanged = Boolean(input.chargedUserId) && input.chargedUserId !== before.chargedUserId;
    if (chargeChanged && input.chargedUserId) await chargeOnSave(tx, principal, row, input.chargedUserId);

    const changes = diffShapes(
      auditShape(before, oldNames(TRADER_ROLE.sender), oldNames(TRADER_ROLE.receiver)),
      auditShape(
        { ...row, chargedUserId: chargeChanged ? (input.chargedUserId ?? null) : before.chargedUserId },
        namesOf(resolved.senders, resolved.names),
        namesOf(resolved.receivers, resolved.names),
      ),
    );
    await recordAudit(tx, {
      entity: 'document',
      entityId: id,
      action: 'updated',
      companyId: row.companyId,
      user: auditUser(principal),
      changes,
      requestId: options.requestId,
    });
    if (!registered && resolved.book) await register(tx, principal, row, resolved.book, options);
  });
  return loadDocument(db, principal, undefined, id);
}

export async function getDocument(db: Tx, principal: Principal, id: number): Promise<ProtocolDocument> {
  return loadDocument(db, principal, undefined, id);
}

// ----- drafts from another document (clone, convert to outgoing) -----

export interface DraftOverrides {
  kind?: 0 | 1;
  subject?: string;
  name?: string | null;
  documentTypeId?: number | null;
  subjectCategoryId?: number | null;
  protocolIdSender?: string | null;
  protocolSendDate?: string | null;
  folder?: string | null;
  comments?: string | null;
  cloneDocumentId?: number | null;
  replyToId?: number | null;
  /** Trader ids; the source's when absent. */
  senders?: number[];
  receivers?: number[];
}

/**
 * A new unregistered, uncharged, active draft from `source` (clone, convert to outgoing): its fields
 * and traders unless overridden, created by the asker; the 'created' audit line names the source.
 * The caller checks the action and writes its own audit line on the source.
 */
export async function createDraftFrom(
  tx: Tx,
  principal: Principal,
  source: DocumentRow,
  overrides: DraftOverrides = {},
  requestId?: string,
): Promise<DocumentRow> {
  const sourceTraders = await tx
    .select({ role: documentTraders.role, traderId: documentTraders.traderId })
    .from(documentTraders)
    .where(eq(documentTraders.documentId, source.id))
    .orderBy(asc(documentTraders.role), asc(documentTraders.position));
  const senders =
    overrides.senders ?? sourceTraders.filter((t) => t.role === TRADER_ROLE.sender).map((t) => t.traderId);
  const receivers =
    overrides.receivers ??
    sourceTraders.filter((t) => t.role === TRADER_ROLE.receiver).map((t) => t.traderId);
  const ids = unique([...senders, ...receivers]);
  const nameRows =
    ids.length > 0
      ? await tx
          .select({ id: traders.id, fullname: traders.fullname })
          .from(traders)
          .where(inArray(traders.id, ids))
      : [];
  const names = new Map(nameRows.map((r) => [r.id, r.fullname ?? '']));
  const kind = overrides.kind ?? (source.kind as 0 | 1);
  const pick = <K extends keyof DraftOverrides>(key: K, fallback: DraftOverrides[K]) =>
    key in overrides ? overrides[key] : fallback;

  const [row] = await tx
    .insert(documents)
    .values({
      companyId: source.companyId,
      kind,
      name: pick('name', source.name) ?? null,
      subject: overrides.subject ?? source.subject,
      subjectCategoryId: pick('subjectCategoryId', source.subjectCategoryId) ?? null,
      documentTypeId: pick('documentTypeId', source.documentTypeId) ?? null,
      protocolIdSender: pick('protocolIdSender', source.protocolIdSender) ?? null,
      protocolSendDate: pick('protocolSendDate', source.protocolSendDate) ?? null,
      correspondents: correspondentsOf(kind, { names, senders, receivers }),
      folder: pick('folder', source.folder) ?? null,
      isOutbox: kind === 1,
      cloneDocumentId: pick('cloneDocumentId', null) ?? null,
      replyToId: pick('replyToId', null) ?? null,
      publications: [],
      metadata: source.metadata,
      comments: pick('comments', source.comments) ?? null,
      state: 0,
      createUserId: principal.userId,
      createuser: principal.username,
    })
    .returning();
  if (!row) throw new Error('draft not created');
  await saveTraders(tx, row.id, senders, receivers, true);
  await recordAudit(tx, {
    entity: 'document',
    entityId: row.id,
    action: 'created',
    companyId: row.companyId,
    user: auditUser(principal),
    changes: {
      ...(row.cloneDocumentId === null
        ? {}
        : { cloneDocumentId: { before: null, after: row.cloneDocumentId } }),
      ...(row.replyToId === null ? {} : { replyToId: { before: null, after: row.replyToId } }),
    },
    comments: `from document ${source.id}`,
    requestId,
  });
  return row;
}
