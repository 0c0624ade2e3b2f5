import { type DocumentListItem, documentsCatalog } from '@protocol/contracts';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../platform/auth.ts';
import { defineList } from '../../../platform/list/list.ts';
import { listSource } from '../../../platform/list/source.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { users } from '../../users/users.schema.ts';
import { documents, documentTypes, subjectCategories } from '../protocol.schema.ts';
import { fullNameSql } from './documents.common.ts';
import { visibilityCondition } from './visibility.ts';

/** The documents lists: all active ones, the inbox, the outbox, the archived and the deleted. */
export type DocumentsListKind = 'all' | 'inbox' | 'outbox' | 'archived' | 'deleted';

const listCondition: Record<DocumentsListKind, SQL | undefined> = {
  all: eq(documents.state, 0),
  inbox: and(eq(documents.kind, 0), eq(documents.state, 0)),
  outbox: and(eq(documents.kind, 1), eq(documents.state, 0)),
  archived: eq(documents.state, 1),
  deleted: eq(documents.state, 9),
};

/** The rows of one list the operator may see in one company. */
export const documentsScope = (
  companyId: number,
  principal: Principal,
  which: DocumentsListKind,
): SQL | undefined =>
  and(eq(documents.companyId, companyId), listCondition[which], visibilityCondition(principal));

/**
 * The documents lists on the list engine: one query per page (joins for the book, type, category and
 * the charged operator; a correlated count of the files) and one for the total.
 */
export function documentsList(db: Db) {
  const charged = alias(users, 'charged_user');
  /** N/YYYY as people write it: searched and filtered as text ("15/2026", or "15" in the quick search). */
  const protocolId = documents.protocolId;
  const chargedUser = fullNameSql(charged);
  const attachedFilesCount = sql<number>`(SELECT count(*)::int FROM document_attachments fa WHERE fa.document_id = ${documents.id} AND fa.deleted_at IS NULL)`;
  const text = (value: AnyPgColumn | SQL, normalized?: AnyPgColumn) =>
    normalized ? { value, normalized } : value;
  const protocolIdColumn = { value: protocolId, normalized: protocolId };

  const select = {
    id: documents.id,
    kind: documents.kind,
    state: documents.state,
    protocolId,
    protocolNumber: documents.protocolNumber,
    protocolYear: documents.protocolYear,
    protocolDate: documents.protocolDate,
    protocolBook: protocolBooks.descr,
    name: documents.name,
    subject: documents.subject,
    correspondents: documents.correspondents,
    documentType: documentTypes.descr,
    subjectCategory: subjectCategories.descr,
    protocolIdSender: documents.protocolIdSender,
    protocolSendDate: documents.protocolSendDate,
    chargedUser,
    chargedUserId: documents.chargedUserId,
    attachedFilesCount,
    sendStatus: documents.sendStatus,
    folder: documents.folder,
    createuser: documents.createuser,
    createdate: documents.createdate,
  };

  const source = listSource(
    db,
    () =>
      db
        .select(select)
        .from(documents)
        .leftJoin(protocolBooks, eq(protocolBooks.id, documents.protocolBookId))
        .leftJoin(documentTypes, eq(documentTypes.id, documents.documentTypeId))
        .leftJoin(subjectCategories, eq(subjectCategories.id, documents.subjectCategoryId))
        .leftJoin(charged, eq(charged.id, documents.chargedUserId))
        .$dynamic(),
    (row) => ({
      ...row,
      attachedFilesCount: Number(row.attachedFilesCount),
      protocolDate: row.protocolDate?.toISOString() ?? null,
      createdate: row.createdate?.toISOString() ?? null,
    }),
  );

  return defineList<DocumentListItem>({
    catalog: documentsCatalog,
    columns: {
      id: documents.id,
      kind: documents.kind,
      protocolId: protocolIdColumn,
      protocolNumber: documents.protocolNumber,
      protocolYear: documents.protocolYear,
      protocolDate: documents.protocolDate,
      protocolBook: protocolBooks.descr,
      subject: text(documents.subject, documents.subjectNorm),
      correspondents: text(documents.correspondents, documents.correspondentsNorm),
      name: text(documents.name, documents.nameNorm),
      documentType: documentTypes.descr,
      subjectCategory: subjectCategories.descr,
      protocolIdSender: text(documents.protocolIdSender, documents.protocolIdSenderNorm),
      protocolSendDate: documents.protocolSendDate,
      chargedUser,
      chargedUserId: documents.chargedUserId,
      attachedFilesCount,
      sendStatus: documents.sendStatus,
      folder: documents.folder,
      createuser: documents.createuser,
      createdate: documents.createdate,
    },
    id: documents.id,
    // A large book's total is shown as "about N"; the numbers themselves are exact on every row.
    total: 'estimatedAboveLimit',
    ...source,
  });
}
