import { asc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { recordAudit } from '../../../platform/audit.ts';
import type { Principal } from '../../../platform/auth.ts';
import { traders } from '../../traders/traders.schema.ts';
import { documents, documentTraders } from '../protocol.schema.ts';
import { auditUser, type DocumentRow, TRADER_ROLE, unique } from './documents.common.ts';
import { correspondentsOf, saveTraders } from './documents.traders.ts';

/*
 * Drafts made from another document (the clone and convert-to-outgoing actions): apart from a save
 * because they copy a stored row rather than check a form.
 */

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
