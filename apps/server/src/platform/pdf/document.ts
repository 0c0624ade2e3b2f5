/// <reference path="./fontkit.d.ts" />
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import type { Language } from '@protocol/contracts';
import { create as parseFont } from 'fontkit';
import PDFDocument from 'pdfkit';

const require = createRequire(import.meta.url);

/**
 * DejaVu Sans Condensed (npm `dejavu-fonts-ttf`): full Greek coverage, narrow enough for tables,
 * embedded (subset) in every PDF, so no system font is needed.
 */
export const PDF_FONTS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf'),
};

/**
 * Each font's tables decoded once per process and shared by every document. Decoded per document,
 * its tables (GSUB lookups above all) were decoded again for every PDF: ~60 ms of CPU for a one-page
 * submission (its CPU profile under a burst). Each document still gets a font object of its own (pdfkit 0.20
 * takes a parsed font where it takes a file): fontkit caches glyphs per font with the characters they
 * were first met for, and a glyph shared across documents lost its text in a later one's ToUnicode
 * map (text extraction read "shrt" for "short"). The decoded tables are only read once decoded.
 */
const sharedTables = new Map<string, { bytes: Buffer; tables: object }>();
function fontOf(file: string) {
  let shared = sharedTables.get(file);
  if (!shared) {
    const bytes = readFileSync(file);
    shared = { bytes, tables: (parseFont(bytes) as unknown as { _tables: object })._tables };
    sharedTables.set(file, shared);
  }
  const font = parseFont(shared.bytes);
  // fontkit 2 keeps what it decoded in `_tables` by tag: the document's font reads and fills the shared one.
  (font as unknown as { _tables: object })._tables = shared.tables;
  return font;
}

/** The one palette of every printed document. */
export const PDF_COLORS = {
  text: '#1a1a1a',
  muted: '#555555',
  rule: '#c8c8d0',
  headerFill: '#ece6ff',
  stripeFill: '#f6f6f9',
  accent: '#5000ff',
};

export type Margins = { top: number; left: number; right: number; bottom: number };

export interface PdfOptions {
  language: Language;
  title: string;
  margins: Margins;
  landscape?: boolean;
  /** Keep every page until `end` (footers that need the page total); costs memory per page. */
  bufferPages?: boolean;
  /** Off: the caller adds each page itself (e.g. to decorate it first). */
  autoFirstPage?: boolean;
  createdAt?: Date;
}

export interface Pdf {
  doc: PDFKit.PDFDocument;
  /** The file as it is written: pdfkit writes each finished page (unless buffered) as it goes. */
  stream: PassThrough;
  /** Ends the stream with `error` (e.g. the rows failed), so the reader sees a failure, not a short file. */
  fail(error: unknown): void;
}

/** An A4 document in DejaVu (Greek) whose bytes flow to `stream` as pages are finished. */
export function createPdf(options: PdfOptions): Pdf {
  const stream = new PassThrough();
  const doc = new PDFDocument({
    size: 'A4',
    layout: options.landscape ? 'landscape' : 'portrait',
    margins: options.margins,
    bufferPages: options.bufferPages ?? false,
    autoFirstPage: options.autoFirstPage ?? true,
    // No font while constructing (an empty name loads none): the parsed ones are registered below.
    font: '',
    lang: options.language === 'en' ? 'en-GB' : 'el-GR',
    displayTitle: true,
    info: { Title: options.title, Creator: 'Protocol', CreationDate: options.createdAt ?? new Date() },
  });
  // Registered under their file names, so `doc.font(PDF_FONTS.bold)` everywhere takes the parsed font.
  for (const file of Object.values(PDF_FONTS)) {
    doc.registerFont(file, fontOf(file) as unknown as PDFKit.Mixins.PDFFontSource);
  }
  doc.font(PDF_FONTS.regular);
  doc.on('error', (error: Error) => stream.destroy(error));
  doc.pipe(stream);
  const fail = (error: unknown) => {
    doc.unpipe(stream);
    stream.destroy(error instanceof Error ? error : new Error(String(error)));
  };
  return { doc, stream, fail };
}

/**
 * A buffered page keeps its content as one small Uint8Array per drawing operator (~650 kB of heap a page
 * of a dense table, measured); a finished page is joined into one buffer (tens of kB). pdfkit 0.20
 * internals: does nothing if they change. The font layout cache (one entry per distinct word) is emptied too.
 */
export function compactPage(doc: PDFKit.PDFDocument): void {
  const content = (doc.page as unknown as { content?: { buffer?: unknown } }).content;
  if (content && Array.isArray(content.buffer) && content.buffer.length > 1) {
    content.buffer = [Buffer.concat(content.buffer as Uint8Array[])];
  }
  const families = (doc as unknown as { _fontFamilies?: Record<string, { layoutCache?: object }> })
    ._fontFamilies;
  for (const font of Object.values(families ?? {})) {
    if (font.layoutCache) font.layoutCache = Object.create(null);
  }
}

/** Runs `draw` with the bottom margin lifted: pdfkit opens a new page for text written inside it. */
export function inBottomMargin(doc: PDFKit.PDFDocument, draw: () => void): void {
  const margin = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  try {
    draw();
  } finally {
    doc.page.margins.bottom = margin;
  }
}
