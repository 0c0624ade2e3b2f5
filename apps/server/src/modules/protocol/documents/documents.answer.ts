import { type DocumentTrader, formatProtocolId, type ProtocolDocument } from '@protocol/contracts';
import { and, asc, eq, isNull, ne, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { concurrently, type Tx } from '../../../db/client.ts';
import { auditFieldsOf } from '../../../platform/audit-columns.ts';
import type { Principal } from '../../../platform/auth.ts';
import { notFound } from '../../../platform/errors.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { traders } from '../../traders/traders.schema.ts';
import { userGroups } from '../../users/groups.schema.ts';
import { users } from '../../users/users.schema.ts';
import {
  caseDocuments,
  cases,
  documentAttachments,
  documentSignatures,
  documents,
  documentTraders,
  documentTypes,
  subjectCategories,
} from '../protocol.schema.ts';
import { type DocumentRow, fullNameSql, iso, type OperatorRef, TRADER_ROLE } from './documents.common.ts';
import { chargeFacts } from './documents.facts.ts';
import { contentHashOf } from './documents.hash.ts';
import { availableActions, type DocumentFacts } from './documents.rules.ts';
import { visibilityCondition } from './visibility.ts';

/*
 * The document as the API sends it (contracts `documentSchema`): read in a fixed number of queries,
 * or built from what a create already holds, and always with the asker's actions.
 */

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
export function documentAnswer(principal: Principal, parts: DocumentParts): ProtocolDocument {
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
 * `companyId`, the company in use.
 */
export async function loadDocument(
  db: Tx,
  principal: Principal,
  companyId: number,
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
  if (!found || found.doc.companyId !== companyId) throw notFound();
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

export async function getDocument(
  db: Tx,
  principal: Principal,
  companyId: number,
  id: number,
): Promise<ProtocolDocument> {
  return loadDocument(db, principal, companyId, id);
}
