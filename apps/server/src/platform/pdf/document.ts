import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import type { Language } from '@protocol/contracts';
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
    font: PDF_FONTS.regular,
    lang: options.language === 'en' ? 'en-GB' : 'el-GR',
    displayTitle: true,
    info: { Title: options.title, Creator: 'Protocol', CreationDate: options.createdAt ?? new Date() },
  });
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
