import { createInflateRaw } from 'node:zlib';
import { errorKeys, type Language } from '@protocol/contracts';
import { translate } from '../i18n.ts';

/**
 * What one import file may hold, whichever import reads it (accounting plan, consumers register,
 * readings, bank file). The upload limits bound the bytes sent; these bound what the bytes turn into:
 * an xlsx of 300 kB can unpack to a 300 MB cell, which ExcelJS would hold several times over.
 */
export const IMPORT_LIMITS = {
  /** Characters of one cell: Excel's own limit (32,767). */
  cellChars: 32_767,
  /** Cells of one row: the widest import template has 20 columns. */
  rowCells: 256,
  /** Rows of a sheet (or lines of a text file): twice the 100,000-line files the imports are built for. */
  rows: 200_000,
  /** Bytes of one part of an xlsx once unpacked (a 100,000-row register's sheet is 53 MB). */
  partBytes: 64 * 1024 * 1024,
  /** Bytes of all the parts of an xlsx once unpacked, which ExcelJS loads about nine times over. */
  xlsxBytes: 96 * 1024 * 1024,
} as const;

const MB = 1024 * 1024;

const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** An xlsx is a zip: it starts with the zip's local file header. */
export const isXlsx = (bytes: Buffer) => ZIP.every((b, i) => bytes[i] === b);

/** A file beyond a limit, or unreadable: a catalog key and its params (e.g. the line). */
export class ImportFileLimitError extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

interface ZipEntry {
  name: string;
  method: number;
  data: Buffer;
}

/**
 * The entries of a zip by its central directory, as JSZip (under ExcelJS) reads them; null when
 * it is not a zip of that kind (no end record, an entry outside the file, ZIP64).
 */
function zipEntries(bytes: Buffer): ZipEntry[] | null {
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const entries: ZipEntry[] = [];
  let at = bytes.readUInt32LE(end + 16);
  for (let i = bytes.readUInt16LE(end + 10); i > 0; i--) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) return null;
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const local = bytes.readUInt32LE(at + 42);
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50) return null;
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (start + size > bytes.length) return null;
    entries.push({
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
      method: bytes.readUInt16LE(at + 10),
      data: bytes.subarray(start, start + size),
    });
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}

/**
 * The unpacked size of a deflated entry, counted as it inflates and never kept: it stops one chunk
 * past `cap`, so a zip bomb costs a few kB of memory. Null when the data do not inflate.
 */
function inflatedSize(data: Buffer, cap: number): Promise<number | null> {
  return new Promise((resolve) => {
    const inflate = createInflateRaw();
    let size = 0;
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        inflate.destroy();
        resolve(size);
      }
    });
    inflate.on('end', () => resolve(size));
    inflate.on('error', () => resolve(null));
    inflate.end(data);
  });
}

/** An xlsx whose parts unpack beyond the limits, or that is no readable zip, is refused whole. */
async function checkXlsx(bytes: Buffer): Promise<void> {
  const entries = zipEntries(bytes);
  if (!entries) throw new ImportFileLimitError(errorKeys.importUnreadable);
  let total = 0;
  for (const entry of entries) {
    const cap = Math.min(IMPORT_LIMITS.partBytes, IMPORT_LIMITS.xlsxBytes - total);
    const size =
      entry.method === 0
        ? entry.data.length
        : entry.method === 8
          ? await inflatedSize(entry.data, cap)
          : null;
    if (size === null) throw new ImportFileLimitError(errorKeys.importUnreadable);
    if (size > IMPORT_LIMITS.partBytes)
      throw new ImportFileLimitError(errorKeys.importUnpackedTooLarge, { mb: IMPORT_LIMITS.partBytes / MB });
    total += size;
    if (total > IMPORT_LIMITS.xlsxBytes)
      throw new ImportFileLimitError(errorKeys.importUnpackedTooLarge, { mb: IMPORT_LIMITS.xlsxBytes / MB });
  }
}

/** A text file: no line longer than a cell may be, no more lines than a sheet may have rows. */
function checkText(bytes: Buffer): void {
  let lines = 0;
  for (let from = 0; from < bytes.length; ) {
    const next = bytes.indexOf(0x0a, from);
    const to = next < 0 ? bytes.length : next;
    lines += 1;
    // Bytes, not characters: a Greek letter is two bytes in UTF-8, so the bound is twice as loose.
    if (to - from > IMPORT_LIMITS.cellChars * 2)
      throw new ImportFileLimitError(errorKeys.importLineTooLong, {
        line: lines,
        max: IMPORT_LIMITS.cellChars,
      });
    if (lines > IMPORT_LIMITS.rows + 1)
      throw new ImportFileLimitError(errorKeys.importTooManyRows, { max: IMPORT_LIMITS.rows });
    from = to + 1;
  }
}

/**
 * Checks an uploaded import file against the limits before anything parses it: an xlsx by the
 * unpacked size of its parts, a text file (csv, bank file) by its lines. Throws ImportFileLimitError.
 */
export async function checkImportFile(bytes: Buffer): Promise<void> {
  if (isXlsx(bytes)) await checkXlsx(bytes);
  else checkText(bytes);
}

/** A row of a sheet against the limits (its 1-based line as the file numbers it). */
export function checkRow(cells: readonly string[], line: number): void {
  if (line > IMPORT_LIMITS.rows + 1)
    throw new ImportFileLimitError(errorKeys.importTooManyRows, { max: IMPORT_LIMITS.rows });
  if (cells.length > IMPORT_LIMITS.rowCells)
    throw new ImportFileLimitError(errorKeys.importTooManyCells, { line, max: IMPORT_LIMITS.rowCells });
  const long = cells.findIndex((cell) => cell.length > IMPORT_LIMITS.cellChars);
  if (long >= 0)
    throw new ImportFileLimitError(errorKeys.importCellTooLong, {
      line,
      column: long + 1,
      max: IMPORT_LIMITS.cellChars,
    });
}

/** A limit error as an import reports it: the line it names (1: the file as a whole), why, in `language`. */
export function limitErrorLine(
  error: ImportFileLimitError,
  language: Language,
): { line: number; reason: string } {
  const line = error.params.line;
  return { line: typeof line === 'number' ? line : 1, reason: translate(language, error.key, error.params) };
}
