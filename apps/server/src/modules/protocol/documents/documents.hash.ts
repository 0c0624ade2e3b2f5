import { createHash } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { notFound } from '../../../platform/errors.ts';
import { documentAttachments } from '../protocol.schema.ts';
import { type DocumentRow, iso } from './documents.common.ts';
import { getDocumentRow } from './visibility.ts';

/*
 * The content hash a signature approves (the sign action): a signature counts only while the
 * document still hashes the same, so the answer, the action facts and the sign action share it.
 */

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

export async function attachmentHashes(tx: Tx, documentId: number): Promise<string[]> {
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
