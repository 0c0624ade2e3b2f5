import {
  ATTACHMENT_MAX_MB_SETTING,
  ATTACHMENT_TYPES_SETTING,
  type Attachment,
  type AttachmentFile,
  type AttachmentList,
  DEFAULT_ATTACHMENT_MAX_MB,
  DEFAULT_ATTACHMENT_TYPES,
  hasPermission,
  parseAttachmentTypes,
} from '@protocol/contracts';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.ts';
import { recordAudit } from '../../../platform/audit.ts';
import { auditFieldsOf } from '../../../platform/audit-columns.ts';
import type { Principal } from '../../../platform/auth.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import {
  type Storage,
  StorageLimitError,
  type StoredFile,
  type StoredObject,
} from '../../../platform/storage.ts';
import { generalSettings } from '../../settings/settings.schema.ts';
import type { DocumentRow } from '../documents/documents.common.ts';
import { assertAction, documentFacts } from '../documents/documents.facts.ts';
import { visibleDocumentRow } from '../documents/visibility.ts';
import { documentAttachments } from '../protocol.schema.ts';
import {
  attachmentErrors,
  ContentInspector,
  cleanFileName,
  extensionOf,
  isPreviewable,
  typeRules,
} from './attachments.content.ts';

/**
 * Attachments of a document: several files per document, uploaded only
 * once the document is saved, within the company's size limit and type allow-list (general
 * settings doc.max_upload_mb and doc.allowed_types), their content checked against the type they
 * claim, kept in the storage adapter under server-generated keys. A new version points at the file
 * it replaces. Every upload, new version, download and deletion is a line of the document's history.
 */

/** At most this many files in one upload request. */
export const MAX_FILES_PER_UPLOAD = 20;

type AttachmentRow = typeof documentAttachments.$inferSelect;

const user = (principal: Principal) => ({ userId: principal.userId, username: principal.username });

// ----- the document and who may see or change its files -----

/**
 * Files change under the edit rule of documents.rules.ts (protocol:write or the current chargee;
 * not archived or deleted: 403/409 with the rule's reason key). A document the asker does not see,
 * or an unknown id, is 404; the web shows error.document_not_saved before there is an id at all.
 */
async function editableDocument(
  tx: Tx,
  principal: Principal,
  companyId: number,
  documentId: number,
): Promise<DocumentRow> {
  const doc = await visibleDocumentRow(tx, principal, companyId, documentId);
  assertAction(principal, 'edit', doc, await documentFacts(tx, principal, doc));
  return doc;
}

// ----- limits from the general settings -----

export interface AttachmentLimits {
  maxMb: number;
  maxBytes: number;
  allowedTypes: string[];
}

/** The company's doc.max_upload_mb and doc.allowed_types, with the defaults when absent or empty. */
export async function attachmentLimits(tx: Tx, companyId: number): Promise<AttachmentLimits> {
  const rows = await tx
    .select({ parName: generalSettings.parName, parValue: generalSettings.parValue })
    .from(generalSettings)
    .where(
      and(
        eq(generalSettings.companyId, companyId),
        inArray(generalSettings.parName, [ATTACHMENT_MAX_MB_SETTING, ATTACHMENT_TYPES_SETTING]),
      ),
    );
  const value = (name: string) => rows.find((r) => r.parName === name)?.parValue?.trim() || undefined;
  const mb = Number(value(ATTACHMENT_MAX_MB_SETTING));
  const maxMb = Number.isInteger(mb) && mb > 0 ? mb : DEFAULT_ATTACHMENT_MAX_MB;
  const types = parseAttachmentTypes(value(ATTACHMENT_TYPES_SETTING) ?? '');
  return {
    maxMb,
    maxBytes: maxMb * 1024 * 1024,
    allowedTypes: types.length > 0 ? types : [...DEFAULT_ATTACHMENT_TYPES],
  };
}

// ----- upload -----

/** One file of an upload, as the HTTP layer hands it over. */
export interface UploadPart {
  fileName: string;
  stream: AsyncIterable<Uint8Array>;
}

interface StoredUpload extends StoredObject {
  fileName: string;
  contentType: string;
}

/**
 * Checks before any byte is read: the document exists, may be seen and changed by the asker, and
 * (for a new version) the replaced file is a live file of this document. Returns the limits.
 */
export async function prepareUpload(
  db: Db,
  principal: Principal,
  companyId: number,
  documentId: number,
  replacesId: number | undefined,
): Promise<AttachmentLimits & { documentId: number; companyId: number; replacesId: number | undefined }> {
  const doc = await editableDocument(db, principal, companyId, documentId);
  if (replacesId !== undefined) await liveAttachment(db, documentId, replacesId);
  return { ...(await attachmentLimits(db, doc.companyId)), documentId, companyId: doc.companyId, replacesId };
}

/**
 * Streams one file to storage: allowed type by extension, size limit while streaming (413), content
 * against its type (415). Nothing stays in storage when it fails.
 */
export async function storeUpload(
  storage: Storage,
  limits: AttachmentLimits,
  part: UploadPart,
): Promise<StoredUpload> {
  const fileName = cleanFileName(part.fileName);
  const ext = extensionOf(fileName);
  if (!ext || !limits.allowedTypes.includes(ext)) {
    throw new AppError(415, attachmentErrors.typeNotAllowed, {
      type: ext ? `.${ext}` : fileName,
      allowed: limits.allowedTypes.join(', '),
    });
  }
  const inspector = new ContentInspector(fileName, ext, typeRules[ext]);
  try {
    const stored = await storage.put(inspector.watch(part.stream), { maxBytes: limits.maxBytes });
    return { ...stored, fileName, contentType: inspector.contentType };
  } catch (error) {
    if (error instanceof StorageLimitError) {
      throw new AppError(413, attachmentErrors.tooLarge, { name: fileName, max: limits.maxMb });
    }
    throw error;
  }
}

/**
 * Records the stored files in one short transaction (rows + history lines), outside any numbering
 * transaction. When it fails, the stored objects are removed: no file without its row.
 */
export async function saveUploads(
  db: Db,
  storage: Storage,
  principal: Principal,
  target: { documentId: number; companyId: number; replacesId: number | undefined },
  stored: StoredUpload[],
  requestId?: string,
): Promise<Attachment[]> {
  try {
    if (stored.length === 0) throw new AppError(400, attachmentErrors.noFile);
    if (target.replacesId !== undefined && stored.length > 1)
      throw new AppError(400, attachmentErrors.oneVersion);
    return await db.transaction(async (tx) => {
      const doc = await editableDocument(tx, principal, target.companyId, target.documentId);
      let replaced: AttachmentRow | undefined;
      if (target.replacesId !== undefined) {
        replaced = await liveAttachment(tx, doc.id, target.replacesId, true);
        const [successor] = await tx
          .select({ id: documentAttachments.id })
          .from(documentAttachments)
          .where(and(eq(documentAttachments.replacesId, replaced.id), isNull(documentAttachments.deletedAt)));
        if (successor) throw new AppError(409, attachmentErrors.notLatest);
      }
      const rows = await tx
        .insert(documentAttachments)
        .values(
          stored.map((file) => ({
            documentId: doc.id,
            fileName: file.fileName,
            contentType: file.contentType,
            size: file.size,
            sha256: file.sha256,
            storageKey: file.key,
            version: replaced ? replaced.version + 1 : 1,
            replacesId: replaced?.id ?? null,
            createuser: principal.username,
          })),
        )
        .returning();
      for (const row of rows) {
        await recordAudit(tx, {
          entity: 'document',
          entityId: doc.id,
          action: replaced ? 'attachment_version' : 'attachment_uploaded',
          companyId: doc.companyId,
          user: user(principal),
          changes: {
            fileName: { before: replaced?.fileName ?? null, after: row.fileName },
            version: { before: replaced?.version ?? null, after: row.version },
            size: { before: replaced?.size ?? null, after: row.size },
            sha256: { before: replaced?.sha256 ?? null, after: row.sha256 },
          },
          requestId,
        });
      }
      return rows.map(attachmentOf);
    });
  } catch (error) {
    await removeStored(storage, stored);
    throw error;
  }
}

/** Removes objects of a failed upload (they are new: no row references them). */
export async function removeStored(storage: Storage, stored: readonly StoredObject[]): Promise<void> {
  await Promise.all(stored.map((file) => storage.delete(file.key).catch(() => undefined)));
}

async function liveAttachment(tx: Tx, documentId: number, attachmentId: number, lock = false) {
  const query = tx
    .select()
    .from(documentAttachments)
    .where(
      and(
        eq(documentAttachments.id, attachmentId),
        eq(documentAttachments.documentId, documentId),
        isNull(documentAttachments.deletedAt),
      ),
    );
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound();
  return row;
}

function attachmentOf(row: AttachmentRow): Attachment {
  const audit = auditFieldsOf(row);
  return {
    id: row.id,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    sha256: row.sha256,
    version: row.version,
    replacesId: row.replacesId,
    createuser: audit.createuser,
    createdate: audit.createdate,
  };
}

// ----- list -----

/** The live files of a document: each latest version with its older versions, newest first. */
export async function listAttachments(
  db: Db,
  principal: Principal,
  companyId: number,
  documentId: number,
): Promise<AttachmentList> {
  const doc = await visibleDocumentRow(db, principal, companyId, documentId);
  const [rows, limits] = await Promise.all([
    db
      .select()
      .from(documentAttachments)
      .where(and(eq(documentAttachments.documentId, doc.id), isNull(documentAttachments.deletedAt)))
      .orderBy(asc(documentAttachments.id)),
    attachmentLimits(db, doc.companyId),
  ]);
  return { files: filesOf(rows), maxUploadMb: limits.maxMb, allowedTypes: limits.allowedTypes };
}

/** Groups the rows of one document into files: chains of versions linked by replacesId. */
function filesOf(rows: AttachmentRow[]): AttachmentFile[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const replaced = new Set(rows.map((row) => row.replacesId).filter((id) => id !== null));
  const withPreview = (row: AttachmentRow) => ({
    ...attachmentOf(row),
    previewable: isPreviewable(row.contentType),
  });
  return rows
    .filter((row) => !replaced.has(row.id))
    .map((latest) => {
      const versions: ReturnType<typeof withPreview>[] = [];
      const seen = new Set([latest.id]);
      for (let id = latest.replacesId; id !== null; ) {
        const older = byId.get(id);
        if (!older || seen.has(older.id)) break;
        seen.add(older.id);
        versions.push(withPreview(older));
        id = older.replacesId;
      }
      return { ...withPreview(latest), versions };
    });
}

// ----- download -----

/**
 * A file (any live version) to download, for anyone who sees the document; the history line is a
 * single insert. A deleted file is 404.
 */
export async function openAttachment(
  db: Db,
  storage: Storage,
  principal: Principal,
  companyId: number,
  documentId: number,
  attachmentId: number,
  requestId?: string,
): Promise<{ attachment: Attachment; file: StoredFile }> {
  const doc = await visibleDocumentRow(db, principal, companyId, documentId);
  const row = await liveAttachment(db, doc.id, attachmentId);
  const file = await storage.get(row.storageKey);
  if (!file) throw new AppError(404, attachmentErrors.missing);
  try {
    await recordAudit(db, {
      entity: 'document',
      entityId: doc.id,
      action: 'attachment_downloaded',
      companyId: doc.companyId,
      user: user(principal),
      changes: {
        fileName: { before: null, after: row.fileName },
        version: { before: null, after: row.version },
      },
      requestId,
    });
  } catch (error) {
    file.stream.destroy();
    throw error;
  }
  return { attachment: attachmentOf(row), file };
}

// ----- delete -----

/**
 * Soft-deletes a file with all its versions (deleted_at/by; the stored objects stay, as copies may
 * share them and the history names them). A registered document's files are part of the legal
 * record: only protocol:admin may delete them; anyone else uploads a new version instead.
 */
export async function deleteAttachment(
  db: Db,
  principal: Principal,
  companyId: number,
  documentId: number,
  attachmentId: number,
  requestId?: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const doc = await editableDocument(tx, principal, companyId, documentId);
    const target = await liveAttachment(tx, doc.id, attachmentId, true);
    if (doc.protocolNumber !== null && !hasPermission(principal.scope, 'protocol:admin')) {
      throw new AppError(409, attachmentErrors.registeredDelete);
    }
    const rows = await tx
      .select()
      .from(documentAttachments)
      .where(and(eq(documentAttachments.documentId, doc.id), isNull(documentAttachments.deletedAt)));
    const chain = chainOf(rows, target.id);
    const latest =
      rows.find((row) => chain.has(row.id) && !rows.some((r) => r.replacesId === row.id)) ?? target;
    await tx
      .update(documentAttachments)
      .set({ deletedAt: new Date(), deletedBy: principal.username })
      .where(inArray(documentAttachments.id, [...chain]));
    await recordAudit(tx, {
      entity: 'document',
      entityId: doc.id,
      action: 'attachment_deleted',
      companyId: doc.companyId,
      user: user(principal),
      changes: {
        fileName: { before: latest.fileName, after: null },
        version: { before: latest.version, after: null },
      },
      requestId,
    });
  });
}

/** Every version linked to `id` through replacesId, both ways. */
function chainOf(rows: AttachmentRow[], id: number): Set<number> {
  const chain = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      const linked = chain.has(row.id) || (row.replacesId !== null && chain.has(row.replacesId));
      if (!linked) continue;
      for (const member of [row.id, row.replacesId]) {
        if (member !== null && !chain.has(member)) {
          chain.add(member);
          grew = true;
        }
      }
    }
  }
  return chain;
}
