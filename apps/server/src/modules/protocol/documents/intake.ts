import { saveDocumentSchema } from '@protocol/contracts';
import type { Tx } from '../../../db/client.ts';
import { recordAudit } from '../../../platform/audit.ts';
import type { Principal } from '../../../platform/auth.ts';
import { documentAttachments, documentTraders } from '../protocol.schema.ts';
import { createDocument } from './documents.service.ts';

/**
 * Incoming documents another module registers on its own (an online form's submission, issue 14):
 * created, numbered in the book and given their already stored files in the CALLER's transaction,
 * so a failure there takes no number. The operator named is who the audit trail shows.
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
  /** Files already in storage (content checked by the caller). */
  files: { fileName: string; contentType: string; size: number; sha256: string; storageKey: string }[];
  requestId?: string;
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
    { requestId: input.requestId },
  );
  if (input.files.length > 0) {
    const rows = await tx
      .insert(documentAttachments)
      .values(
        input.files.map((file) => ({
          documentId: document.id,
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
        entityId: document.id,
        action: 'attachment_uploaded',
        companyId: input.companyId,
        user: { userId: input.actor.userId, username: input.actor.username },
        changes: { fileName: { before: null, after: row.fileName }, size: { before: null, after: row.size } },
        requestId: input.requestId,
      });
    }
  }
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
