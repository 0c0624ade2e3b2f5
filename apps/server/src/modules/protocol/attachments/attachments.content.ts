import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../../platform/errors.ts';

/*
 * What an uploaded file is: its name made safe, its extension, and a check while it streams that
 * its content is what the extension claims (the attachments' type allow-list is only as good as that).
 */

/** The translation keys of the attachments' refusals. */
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
export const typeRules: Record<string, TypeRule> = {
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
export class ContentInspector {
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
