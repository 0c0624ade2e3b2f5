import { createRequire } from 'node:module';
import { PassThrough, type Readable } from 'node:stream';
import { UTILITY_TIME_ZONE } from '@protocol/contracts';
import PDFDocument from 'pdfkit';
import { exportTexts, formatCell, formatDateTime } from './format.ts';
import { ColumnSizer, isTextual, PORTRAIT_MAX_COLUMNS } from './layout.ts';
import { batchesOf, letStreamsFlow, waitForDrain } from './stream-util.ts';
import type { ExportColumn, ExportJob } from './types.ts';

const require = createRequire(import.meta.url);

/**
 * DejaVu Sans Condensed (npm `dejavu-fonts-ttf`): full Greek coverage, narrow enough for tables,
 * embedded (subset) in every PDF, so no system font is needed.
 */
export const PDF_FONTS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf'),
};

const MARGIN = 36; // half an inch
const FOOTER_SPACE = 22;
const TITLE_SIZE = 15;
const BODY_SIZE = 8;
const FOOTER_SIZE = 7.5;
const PAD_X = 4;
const PAD_Y = 3;
const HEADER_FILL = '#ece6ff';
const STRIPE_FILL = '#f6f6f9';
const RULE = '#c8c8d0';
const TEXT = '#1a1a1a';
const MUTED = '#555555';
const MAX_NATURAL = 260; // points: wider text wraps
const MAX_WORD = 110; // points: a longer word may break
const MIN_COLUMN = 24; // points
const SAMPLE_ROWS = 500; // rows read before the column widths are fixed

type Align = 'left' | 'right' | 'center';

function alignOf(column: ExportColumn): Align {
  if (column.type === 'money' || column.type === 'number') return 'right';
  if (column.type === 'boolean') return 'center';
  return 'left';
}

/**
 * PDF: title and export time, then a table whose header row repeats on every page; rows wrap long text
 * and are never cut across pages; A4 portrait up to 6 columns, else landscape; 'Σελίδα n / N' footers.
 * Pages are buffered (for the page total); the rows themselves are drawn batch by batch.
 */
export function renderPdf(job: ExportJob): Readable {
  const out = new PassThrough();
  const { columns, language } = job;
  const timeZone = job.timeZone ?? UTILITY_TIME_ZONE;
  const texts = exportTexts(language);
  const generatedAt = job.generatedAt ?? new Date();
  const landscape = columns.length > PORTRAIT_MAX_COLUMNS;

  const doc = new PDFDocument({
    size: 'A4',
    layout: landscape ? 'landscape' : 'portrait',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_SPACE },
    bufferPages: true,
    font: PDF_FONTS.regular,
    lang: language === 'en' ? 'en-GB' : 'el-GR',
    displayTitle: true,
    info: { Title: job.title, Creator: 'Protocol', CreationDate: generatedAt },
  });
  doc.on('error', (error: Error) => out.destroy(error));
  doc.pipe(out);

  const left = MARGIN;
  const tableWidth = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const align = columns.map(alignOf);
  let widths: number[] = [];
  let headerHeight = 0;
  let rowIndex = 0;
  let rowsOnPage = 0;

  const heightOf = (text: string, width: number): number => {
    if (text === '') return doc.currentLineHeight(true);
    if (!text.includes('\n') && doc.widthOfString(text) <= width) return doc.currentLineHeight(true);
    return doc.heightOfString(text, { width });
  };

  /**
   * A buffered page keeps its content as one small Uint8Array per drawing operator (~650 kB of heap a page
   * of this table, measured); a finished page is joined into one buffer (tens of kB). pdfkit 0.20 internals:
   * does nothing if they change. The font layout cache (one entry per distinct word) is emptied too.
   */
  const compactPage = () => {
    const content = (doc.page as unknown as { content?: { buffer?: unknown } }).content;
    if (content && Array.isArray(content.buffer) && content.buffer.length > 1) {
      content.buffer = [Buffer.concat(content.buffer as Uint8Array[])];
    }
    const families = (doc as unknown as { _fontFamilies?: Record<string, { layoutCache?: object }> })
      ._fontFamilies;
    for (const font of Object.values(families ?? {})) {
      if (font.layoutCache) font.layoutCache = Object.create(null);
    }
  };

  const drawRow = (cells: string[], header: boolean) => {
    doc.font(header ? PDF_FONTS.bold : PDF_FONTS.regular).fontSize(BODY_SIZE);
    const inner = widths.map((width) => width - 2 * PAD_X);
    const tallest = Math.max(...cells.map((text, index) => heightOf(text, inner[index] ?? 0)));
    // A row taller than a whole page is clipped (with an ellipsis) to what one page holds.
    // (On a page that has no row yet, the room left below the header is all it gets.)
    const pageRoom = rowsOnPage === 0 ? bottom() - doc.y : bottom() - MARGIN - headerHeight;
    const height = Math.min(tallest + 2 * PAD_Y, header ? Number.POSITIVE_INFINITY : pageRoom);
    if (!header && doc.y + height > bottom()) {
      compactPage();
      doc.addPage();
      doc.y = MARGIN;
      rowsOnPage = 0;
      drawRow(
        columns.map((column) => column.label),
        true,
      );
      doc.font(PDF_FONTS.regular).fontSize(BODY_SIZE);
    }
    const top = doc.y;
    if (header || rowIndex % 2 === 1) {
      doc
        .rect(left, top, tableWidth, height)
        .fill(header ? HEADER_FILL : STRIPE_FILL)
        .fillColor(TEXT);
    }
    let x = left;
    cells.forEach((text, index) => {
      const width = widths[index] ?? 0;
      if (text !== '') {
        doc.text(text, x + PAD_X, top + PAD_Y, {
          width: width - 2 * PAD_X,
          height: height - 2 * PAD_Y + 0.5,
          ellipsis: '…',
          align: align[index],
          lineBreak: true,
        });
      }
      x += width;
    });
    doc.lineWidth(0.5).strokeColor(RULE);
    doc
      .moveTo(left, top + height)
      .lineTo(left + tableWidth, top + height)
      .stroke();
    if (header) {
      doc
        .moveTo(left, top)
        .lineTo(left + tableWidth, top)
        .stroke();
      headerHeight = height;
    }
    doc.x = left;
    doc.y = top + height;
    if (!header) {
      rowIndex++;
      rowsOnPage++;
    }
  };

  const write = async () => {
    const batches = batchesOf(job.rows);
    // Read a sample first: the column widths come from the header and the first rows.
    const sample: string[][] = [];
    let done = false;
    while (sample.length < SAMPLE_ROWS) {
      const next = await batches.next();
      if (next.done) {
        done = true;
        break;
      }
      for (const row of next.value) {
        sample.push(columns.map((column) => formatCell(row[column.id], column.type, language, timeZone)));
      }
    }

    // Columns as wide as their longest line (capped: longer text wraps), at least their longest word.
    doc.font(PDF_FONTS.bold).fontSize(BODY_SIZE);
    const headerWidths = new Map<string, number>();
    for (const column of columns) {
      for (const word of column.label.split(/\s+/)) headerWidths.set(word, doc.widthOfString(word));
      headerWidths.set(column.label, doc.widthOfString(column.label));
    }
    doc.font(PDF_FONTS.regular).fontSize(BODY_SIZE);
    const sizer = new ColumnSizer(
      columns.map((column) => column.label),
      (text) => headerWidths.get(text) ?? doc.widthOfString(text) * 1.1,
      (text) => doc.widthOfString(text),
      MAX_NATURAL,
      MAX_WORD,
    );
    for (const cells of sample) sizer.add(cells);
    widths = sizer.fit(tableWidth, 2 * PAD_X + 1, MIN_COLUMN, columns.map(isTextual));

    doc
      .font(PDF_FONTS.bold)
      .fontSize(TITLE_SIZE)
      .fillColor(TEXT)
      .text(job.title, left, MARGIN, { width: tableWidth });
    doc
      .font(PDF_FONTS.regular)
      .fontSize(BODY_SIZE + 1)
      .fillColor(MUTED)
      .text(`${texts.exported}: ${formatDateTime(generatedAt, timeZone)}`, { width: tableWidth })
      .fillColor(TEXT);
    doc.y += 8;

    drawRow(
      columns.map((column) => column.label),
      true,
    );
    for (const cells of sample) drawRow(cells, false);
    sample.length = 0;
    while (!done) {
      const next = await batches.next();
      if (next.done) break;
      for (const row of next.value) {
        drawRow(
          columns.map((column) => formatCell(row[column.id], column.type, language, timeZone)),
          false,
        );
      }
      await letStreamsFlow();
      await waitForDrain(out);
    }

    const range = doc.bufferedPageRange();
    for (let page = range.start; page < range.start + range.count; page++) {
      doc.switchToPage(page);
      const margin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0; // writing in the bottom margin must not open a new page
      const y = doc.page.height - MARGIN - FOOTER_SIZE;
      doc.font(PDF_FONTS.regular).fontSize(FOOTER_SIZE).fillColor(MUTED);
      doc.text(job.title, left, y, { width: tableWidth / 2, lineBreak: false, ellipsis: '…', height: 10 });
      doc.text(texts.page(page - range.start + 1, range.count), left + tableWidth / 2, y, {
        width: tableWidth / 2,
        align: 'right',
        lineBreak: false,
      });
      doc.page.margins.bottom = margin;
    }
    doc.end();
  };
  write().catch((error: unknown) => {
    const failure = error instanceof Error ? error : new Error(String(error));
    doc.unpipe(out);
    out.destroy(failure);
  });
  return out;
}
