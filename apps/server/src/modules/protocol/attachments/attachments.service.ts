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
import { fileTypeFromBuffer } from 'file-type';
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

/**
 * Attachments of a document (issue 6 'Attachments'): several files per document, uploaded only
 * once the document is saved, within the company's size limit and type allow-list (general
 * settings doc.max_upload_mb and doc.allowed_types), their content checked against the type they
 * claim, kept in the storage adapter under server-generated keys. A new version points at the file
 * it replaces. Every upload, new version, download and deletion is a line of the document's history.
 */

export const attachmentErrors = {
  notSaved: 'error.document_not_saved',
  tooLarge: 'error.attachment_too_large',
  typeNotAllowed: 'error.attachment_type_not_allowed',
  contentMismatch: 'error.attachment_content_mismatch',
  registeredDelete: 'error.attachment_registered_delete',
  notLatest: 'error.attachment_not_latest',
  noFile: 'error.attachment_no_file',
  oneVersion: 'error.attachment_one_version',
  tooMany: 'error.attachment_too_many',
  fileName: 'error.attachment_file_name',
  missing: 'error.attachment_missing',
} as const;

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
async function editableDocument(tx: Tx, principal: Principal, documentId: number): Promise<DocumentRow> {
  const doc = await visibleDocumentRow(tx, principal, documentId);
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

// ----- file names and types -----

/**
 * The name as people see it, never a path: the last segment, NFC, no control or bidi-override
 * characters (an "‮fdp.exe" trick), at most 200 characters keeping the extension.
 */
export function cleanFileName(raw: string): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  let name = last
    .normalize('NFC')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (name.length > 200) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 11 ? name.slice(dot) : '';
    name = name.slice(0, 200 - ext.length) + ext;
  }
  if (name === '' || /^\.+$/.test(name)) throw new AppError(400, attachmentErrors.fileName);
  return name;
}

export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
};

interface TypeRule {
  /** The Content-Type the file is served with. */
  mime: string;
  /** What file-type may detect in its first bytes ('*text' = text, checked byte by byte). */
  detected: readonly string[];
}

const OFFICE_ZIP = ['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp'];
const TEXT = '*text';

/** What each known extension's content must look like. */
const typeRules: Record<string, TypeRule> = {
  pdf: { mime: 'application/pdf', detected: ['pdf', 'ai'] },
  doc: { mime: 'application/msword', detected: ['cfb', 'rtf'] },
  xls: { mime: 'application/vnd.ms-excel', detected: ['cfb'] },
  ppt: { mime: 'application/vnd.ms-powerpoint', detected: ['cfb'] },
  msg: { mime: 'application/vnd.ms-outlook', detected: ['cfb'] },
  docx: {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    detected: ['docx', 'zip'],
  },
  xlsx: {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    detected: ['xlsx', 'zip'],
  },
  pptx: {
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    detected: ['pptx', 'zip'],
  },
  odt: { mime: 'application/vnd.oasis.opendocument.text', detected: ['odt', 'zip'] },
  ods: { mime: 'application/vnd.oasis.opendocument.spreadsheet', detected: ['ods', 'zip'] },
  rtf: { mime: 'application/rtf', detected: ['rtf'] },
  txt: { mime: 'text/plain', detected: [TEXT] },
  csv: { mime: 'text/csv', detected: [TEXT] },
  xml: { mime: 'application/xml', detected: [TEXT, 'xml'] },
  eml: { mime: 'message/rfc822', detected: [TEXT] },
  jpg: { mime: 'image/jpeg', detected: ['jpg'] },
  jpeg: { mime: 'image/jpeg', detected: ['jpg'] },
  png: { mime: 'image/png', detected: ['png'] },
  gif: { mime: 'image/gif', detected: ['gif'] },
  webp: { mime: 'image/webp', detected: ['webp'] },
  tif: { mime: 'image/tiff', detected: ['tif'] },
  tiff: { mime: 'image/tiff', detected: ['tif'] },
  zip: { mime: 'application/zip', detected: ['zip', ...OFFICE_ZIP] },
  // PKCS#7/CMS signed data (Greek e-signatures): DER, or PEM/base64 text; see looksLikeP7m.
  p7m: { mime: 'application/pkcs7-mime', detected: ['*p7m'] },
};

/** Served inline (preview) only these: PDF and raster images a browser shows. Never SVG or HTML. */
const INLINE_TYPES = new Set(['application/pdf', 'image/jpeg', 'image/png', 'image/gif', 'image/webp']);
export const isPreviewable = (contentType: string): boolean => INLINE_TYPES.has(contentType);

/** Bytes kept from the start of a file to recognise it. */
const HEAD_BYTES = 64 * 1024;

/**
 * Watches a file's bytes as they stream to storage: keeps its first 64 KiB for file-type, and for
 * text types checks every byte (no NUL, no control characters but tab, line breaks, form feed and
 * DOS end of file; UTF-16 only with a byte order mark). Throws 415 as soon as the content betrays
 * another type, so a renamed executable stops early and nothing is kept.
 */
class ContentInspector {
  private head = Buffer.alloc(0);
  private decided = false;
  private utf16: TextDecoder | undefined;
  private first = true;

  constructor(
    private readonly fileName: string,
    private readonly ext: string,
    private readonly rule: TypeRule | undefined,
  ) {}

  private get isText() {
    return this.rule?.detected.includes(TEXT) ?? false;
  }

  private mismatch(): AppError {
    return new AppError(415, attachmentErrors.contentMismatch, {
      name: this.fileName,
      type: this.ext.toUpperCase(),
    });
  }

  async *watch(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
    for await (const chunk of source) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (this.head.length < HEAD_BYTES) {
        this.head = Buffer.concat([this.head, bytes.subarray(0, HEAD_BYTES - this.head.length)]);
      }
      if (this.isText) this.checkText(bytes);
      if (!this.decided && this.head.length >= HEAD_BYTES) await this.decide();
      yield chunk;
    }
    if (this.isText && this.utf16) this.checkUtf16Text(this.utf16.decode());
    if (!this.decided) await this.decide();
  }

  /** The content type to serve, decided from the extension and the detected type. */
  contentType = 'application/octet-stream';

  private checkText(bytes: Buffer) {
    if (this.first) {
      this.first = false;
      if (bytes[0] === 0xff && bytes[1] === 0xfe) this.utf16 = new TextDecoder('utf-16le', { fatal: true });
      else if (bytes[0] === 0xfe && bytes[1] === 0xff)
        this.utf16 = new TextDecoder('utf-16be', { fatal: true });
    }
    if (this.utf16) {
      try {
        this.checkUtf16Text(this.utf16.decode(bytes, { stream: true }));
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw this.mismatch();
      }
      return;
    }
    // UTF-8 or a Greek 8-bit code page (windows-1253, ISO-8859-7): both are text; binaries are not.
    for (const byte of bytes) {
      if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1a) {
        throw this.mismatch();
      }
    }
  }

  private checkUtf16Text(text: string) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what betray binaries
    if (/[\u0000-\u0008\u000b\u000e-\u0019\u001b-\u001f]/.test(text)) throw this.mismatch();
  }

  private async decide() {
    this.decided = true;
    const detected = await fileTypeFromBuffer(this.head);
    const rule = this.rule;
    if (!rule) {
      // A type the administrator added that we have no rule for: it must not look like anything else.
      if (detected && detected.ext !== this.ext) throw this.mismatch();
      this.contentType = detected?.mime ?? 'application/octet-stream';
      return;
    }
    this.contentType = rule.mime;
    if (rule.detected.includes('*p7m')) {
      if (!looksLikeP7m(this.head)) throw this.mismatch();
      return;
    }
    // Text was checked byte by byte, which is stricter than file-type's guesses at text (a UTF-16
    // byte order mark looks like an MPEG frame to it).
    if (rule.detected.includes(TEXT)) return;
    if (detected && rule.detected.includes(detected.ext)) return;
    // A PDF may have a few bytes before its header (the PDF specification allows it in the first KiB).
    if (this.ext === 'pdf' && !detected && this.head.subarray(0, 1024).includes('%PDF-')) return;
    throw this.mismatch();
  }
}

/** OID 1.2.840.113549.1.7.2 (PKCS#7 signedData), DER-encoded. */
const SIGNED_DATA_OID = Buffer.from([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]);

/** A .p7m: DER signed data (an ASN.1 SEQUENCE holding the signedData OID), or its PEM/base64 form. */
function looksLikeP7m(head: Buffer): boolean {
  if (head[0] === 0x30 && head.subarray(0, 64).includes(SIGNED_DATA_OID)) return true;
  const text = head.subarray(0, 64).toString('latin1').trimStart();
  return /^-----BEGIN (PKCS7|CMS)-----/.test(text) || /^MI[A-Za-z0-9+/]{20}/.test(text);
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
  documentId: number,
  replacesId: number | undefined,
): Promise<AttachmentLimits & { documentId: number; companyId: number; replacesId: number | undefined }> {
  const doc = await editableDocument(db, principal, documentId);
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
  target: { documentId: number; replacesId: number | undefined },
  stored: StoredUpload[],
  requestId?: string,
): Promise<Attachment[]> {
  try {
    if (stored.length === 0) throw new AppError(400, attachmentErrors.noFile);
    if (target.replacesId !== undefined && stored.length > 1)
      throw new AppError(400, attachmentErrors.oneVersion);
    return await db.transaction(async (tx) => {
      const doc = await editableDocument(tx, principal, target.documentId);
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
  documentId: number,
): Promise<AttachmentList> {
  const doc = await visibleDocumentRow(db, principal, documentId);
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
  documentId: number,
  attachmentId: number,
  requestId?: string,
): Promise<{ attachment: Attachment; file: StoredFile }> {
  const doc = await visibleDocumentRow(db, principal, documentId);
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
  documentId: number,
  attachmentId: number,
  requestId?: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const doc = await editableDocument(tx, principal, documentId);
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
