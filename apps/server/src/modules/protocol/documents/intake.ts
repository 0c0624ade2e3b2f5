import { saveDocumentSchema } from '@protocol/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.ts';
import { recordAudit } from '../../../platform/audit.ts';
import type { Principal } from '../../../platform/auth.ts';
import { documentAttachments, documents, documentTraders } from '../protocol.schema.ts';
import type { RegistrationLink } from './documents.common.ts';
import { createDocument } from './documents.service.ts';

/**
 * Incoming documents another module registers on its own (an online form's submission):
 * created and numbered in the book in the CALLER's transaction, so a failure there takes no number;
 * their files come after the commit (`attachIncomingFiles`). The operator named is who the audit trail shows.
 */
export interface IncomingDocument {
  companyId: number;
  bookId: number;
  /** The operator the registration is recorded for (e.g. the form's owner). */
  actor: { userId: number; username: string };
  subject: string;
  name?: string | null;
  senderTraderIds: number[];
  chargedUserId?: number | null;
  comments?: string | null;
  requestId?: string;
  /**
   * The caller's row that names the document (e.g. an online form's submission): its document id
   * and protocol id are written by the registration statement itself, so the caller need not update
   * it after the registration, while the book's counter row is locked.
   */
  link?: { to: RegistrationLink; id: number };
}

export interface IncomingFile {
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  storageKey: string;
}

export async function registerIncomingDocument(
  tx: Tx,
  input: IncomingDocument,
): Promise<{ documentId: number; protocolId: string }> {
  // Acting for the actor with exactly what a registration needs, whatever their groups grant.
  const principal: Principal = {
    userId: input.actor.userId,
    sessionId: 'incoming-document',
    username: input.actor.username,
    kind: 2,
    superAdmin: false,
    scope: ['protocol:write', 'traders:read'],
    companyIds: [input.companyId],
    sso: false,
  };
  const document = await createDocument(
    tx,
    principal,
    input.companyId,
    saveDocumentSchema.parse({
      kind: 0,
      name: input.name ?? null,
      subject: input.subject,
      protocolBookId: input.bookId,
      senders: input.senderTraderIds,
      chargedUserId: input.chargedUserId ?? null,
      comments: input.comments ?? null,
    }),
    { requestId: input.requestId, link: input.link },
  );
  if (!document.protocolId) throw new Error('the incoming document was not registered');
  return { documentId: document.id, protocolId: document.protocolId };
}

/**
 * Names a trader as the sender of an incoming document registered without one (an online form's
 * citizen, once staff accept the submission), in the caller's transaction. A document that has a
 * first sender already (staff may have set one) keeps it.
 */
export async function addIncomingSender(
  tx: Tx,
  input: {
    companyId: number;
    documentId: number;
    traderId: number;
    actor: { userId: number; username: string };
    requestId?: string;
  },
): Promise<void> {
  const added = await tx
    .insert(documentTraders)
    .values({ documentId: input.documentId, role: 1, position: 0, traderId: input.traderId })
    .onConflictDoNothing()
    .returning({ traderId: documentTraders.traderId });
  if (added.length === 0) return;
  await recordAudit(tx, {
    entity: 'document',
    entityId: input.documentId,
    action: 'updated',
    companyId: input.companyId,
    user: input.actor,
    changes: { senders: { before: [], after: [input.traderId] } },
    requestId: input.requestId,
  });
}

/**
 * Attaches already stored files to an incoming document after its registration (an online form's
 * job, run after the submission's commit so the citizen's answer waits for no PDF), in the caller's
 * transaction. Safe to run again: with the document's row locked, a file whose name the document
 * already has (kept or deleted) is skipped. Answers the storage keys it attached; the caller deletes
 * the objects of the others.
 */
export async function attachIncomingFiles(
  tx: Tx,
  input: {
    companyId: number;
    documentId: number;
    actor: { userId: number; username: string };
    /** Files already in storage (content checked by the caller). */
    files: IncomingFile[];
    requestId?: string;
  },
): Promise<string[]> {
  await tx
    .select({ id: documents.id })
    .from(documents)
    .where(eq(documents.id, input.documentId))
    .for('update');
  const had = new Set(
    (
      await tx
        .select({ fileName: documentAttachments.fileName })
        .from(documentAttachments)
        .where(eq(documentAttachments.documentId, input.documentId))
    ).map((row) => row.fileName),
  );
  const files = input.files.filter((file) => !had.has(file.fileName));
  if (files.length === 0) return [];
  const rows = await tx
    .insert(documentAttachments)
    .values(
      files.map((file) => ({
        documentId: input.documentId,
        fileName: file.fileName,
        contentType: file.contentType,
        size: file.size,
        sha256: file.sha256,
        storageKey: file.storageKey,
        version: 1,
        replacesId: null,
        createuser: input.actor.username,
      })),
    )
    .returning();
  for (const row of rows) {
    await recordAudit(tx, {
      entity: 'document',
      entityId: input.documentId,
      action: 'attachment_uploaded',
      companyId: input.companyId,
      user: { userId: input.actor.userId, username: input.actor.username },
      changes: { fileName: { before: null, after: row.fileName }, size: { before: null, after: row.size } },
      requestId: input.requestId,
    });
  }
  return files.map((file) => file.storageKey);
}

/** A kept (not deleted) file of a document by its name, e.g. an online form's receipt PDF; else null. */
export async function incomingFile(
  db: Db,
  documentId: number,
  fileName: string,
): Promise<{ storageKey: string; contentType: string; size: number } | null> {
  const [row] = await db
    .select({
      storageKey: documentAttachments.storageKey,
      contentType: documentAttachments.contentType,
      size: documentAttachments.size,
    })
    .from(documentAttachments)
    .where(
      and(
        eq(documentAttachments.documentId, documentId),
        eq(documentAttachments.fileName, fileName),
        isNull(documentAttachments.deletedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}
