import type { Readable } from 'node:stream';
import { UTILITY_TIME_ZONE } from '@protocol/contracts';
import {
  type CellAlign,
  compactPage,
  createPdf,
  drawPageFooters,
  drawTitle,
  PDF_FONTS,
  PdfTable,
} from '../pdf/index.ts';
import { exportTexts, formatCell, formatDateTime } from './format.ts';
import { ColumnSizer, isTextual, PORTRAIT_MAX_COLUMNS } from './layout.ts';
import { batchesOf, letStreamsFlow, waitForDrain } from './stream-util.ts';
import type { ExportColumn, ExportJob } from './types.ts';

const MARGIN = 36; // half an inch
const FOOTER_SPACE = 22;
const BODY_SIZE = 8;
const PAD_X = 4;
const MAX_NATURAL = 260; // points: wider text wraps
const MAX_WORD = 110; // points: a longer word may break
const MIN_COLUMN = 24; // points
const SAMPLE_ROWS = 500; // rows read before the column widths are fixed

function alignOf(column: ExportColumn): CellAlign {
  if (column.type === 'money' || column.type === 'number') return 'right';
  if (column.type === 'boolean') return 'center';
  return 'left';
}

/**
 * PDF: title and export time, then a table whose header row repeats on every page; rows wrap long text
 * and are never cut across pages; A4 portrait up to 6 columns, else landscape; 'Σελίδα n / N' footers.
 * Pages are buffered (for the page total) and compacted as they fill; the rows themselves are drawn batch
 * by batch.
 */
export function renderPdf(job: ExportJob): Readable {
  const { columns, language } = job;
  const timeZone = job.timeZone ?? UTILITY_TIME_ZONE;
  const texts = exportTexts(language);
  const generatedAt = job.generatedAt ?? new Date();
  const { doc, stream, fail } = createPdf({
    language,
    title: job.title,
    landscape: columns.length > PORTRAIT_MAX_COLUMNS,
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_SPACE },
    bufferPages: true,
    createdAt: generatedAt,
  });
  const tableWidth = doc.page.width - 2 * MARGIN;
  const cellsOf = (row: Record<string, unknown>) =>
    columns.map((column) => formatCell(row[column.id], column.type, language, timeZone, column.amount));

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
      for (const row of next.value) sample.push(cellsOf(row));
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
    const widths = sizer.fit(tableWidth, 2 * PAD_X + 1, MIN_COLUMN, columns.map(isTextual));
    const table = new PdfTable(doc, {
      columns: columns.map((column, index) => ({
        label: column.label,
        width: widths[index] ?? 0,
        align: alignOf(column),
      })),
      fontSize: BODY_SIZE,
      padX: PAD_X,
      beforeBreak: () => compactPage(doc),
    });

    drawTitle(doc, job.title, `${texts.exported}: ${formatDateTime(generatedAt, timeZone)}`);
    table.header();
    for (const cells of sample) table.row(cells);
    sample.length = 0;
    while (!done) {
      const next = await batches.next();
      if (next.done) break;
      for (const row of next.value) table.row(cellsOf(row));
      await letStreamsFlow();
      await waitForDrain(stream);
    }

    drawPageFooters(doc, language, job.title, texts.page);
    doc.end();
  };
  write().catch(fail);
  return stream;
}
