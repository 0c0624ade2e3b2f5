import { PassThrough, type Readable } from 'node:stream';
import { UTILITY_TIME_ZONE } from '@protocol/contracts';
import {
  AlignmentType,
  BorderStyle,
  Document,
  Footer,
  Packer,
  PageNumber,
  PageOrientation,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableLayoutType,
  TableRow,
  TextRun,
  VerticalAlign,
  WidthType,
} from 'docx';
import { cleanText, exportTexts, formatCell, formatDateTime } from './format.ts';
import { ColumnSizer, isTextual, PORTRAIT_MAX_COLUMNS } from './layout.ts';
import type { ExportColumn, ExportJob } from './types.ts';

// A4 in twentieths of a point, half-inch margins.
const A4_SHORT = 11_906;
const A4_LONG = 16_838;
const MARGIN = 720;
const TWIPS_PER_CHAR = 115; // one character of 9 pt text, with room for wider fallback fonts
const BOLD_FACTOR = 1.15;
const MAX_CHARS = 60; // longer lines wrap
const MAX_WORD = 20; // a longer word may break
const CELL_PADDING = 2 * 80;
const FONT = 'Calibri';
const BODY_SIZE = 18; // half-points: 9 pt
const HEADER_FILL = 'ECE6FF';
const BORDER = { style: BorderStyle.SINGLE, size: 4, color: 'BFBFBF' };

function isNumeric(column: ExportColumn) {
  return column.type === 'money' || column.type === 'number';
}

function paragraph(text: string, column: ExportColumn, bold: boolean): Paragraph {
  const lines = cleanText(text).split(/\r?\n/);
  return new Paragraph({
    alignment: isNumeric(column)
      ? AlignmentType.RIGHT
      : column.type === 'boolean'
        ? AlignmentType.CENTER
        : AlignmentType.LEFT,
    spacing: { before: 0, after: 0 },
    children: lines.map((line, index) => new TextRun({ text: line, bold, break: index > 0 ? 1 : undefined })),
  });
}

function cell(text: string, column: ExportColumn, width: number, header: boolean): TableCell {
  return new TableCell({
    width: { size: Math.round(width), type: WidthType.DXA },
    verticalAlign: VerticalAlign.CENTER,
    margins: { top: 40, bottom: 40, left: 80, right: 80 },
    shading: header ? { type: ShadingType.CLEAR, color: 'auto', fill: HEADER_FILL } : undefined,
    children: [paragraph(text, column, header)],
  });
}

/**
 * Word: a heading with the title and the export time, then one table whose header row repeats on every
 * page and whose rows are never split; landscape beyond 6 columns; page numbers in the footer.
 * The rows are kept as formatted text only (the document is built once, at the end).
 */
export function renderDocx(job: ExportJob): Readable {
  const out = new PassThrough();
  const write = async () => {
    const { columns, language } = job;
    const timeZone = job.timeZone ?? UTILITY_TIME_ZONE;
    const texts = exportTexts(language);
    const generatedAt = job.generatedAt ?? new Date();
    const chars = (text: string) => [...text].length * TWIPS_PER_CHAR;
    const sizer = new ColumnSizer(
      columns.map((column) => column.label),
      (text) => chars(text) * BOLD_FACTOR,
      chars,
      MAX_CHARS * TWIPS_PER_CHAR,
      MAX_WORD * TWIPS_PER_CHAR,
    );
    const body: string[][] = [];
    for await (const batch of job.rows) {
      for (const row of batch) {
        const cells = columns.map((column) =>
          formatCell(row[column.id], column.type, language, timeZone, column.amount),
        );
        sizer.add(cells);
        body.push(cells);
      }
    }

    const landscape = columns.length > PORTRAIT_MAX_COLUMNS;
    const available = (landscape ? A4_LONG : A4_SHORT) - 2 * MARGIN;
    const widths = sizer.fit(available, CELL_PADDING, 3 * TWIPS_PER_CHAR, columns.map(isTextual));

    const header = new TableRow({
      tableHeader: true,
      cantSplit: true,
      children: columns.map((column, index) => cell(column.label, column, widths[index] ?? 0, true)),
    });
    const rows = body.map(
      (cells) =>
        new TableRow({
          cantSplit: true,
          children: columns.map((column, index) =>
            cell(cells[index] ?? '', column, widths[index] ?? 0, false),
          ),
        }),
    );
    body.length = 0;

    const document = new Document({
      creator: 'Protocol',
      title: cleanText(job.title),
      styles: { default: { document: { run: { font: FONT, size: BODY_SIZE } } } },
      sections: [
        {
          properties: {
            page: {
              // docx swaps width and height itself for a landscape section.
              size: {
                width: A4_SHORT,
                height: A4_LONG,
                orientation: landscape ? PageOrientation.LANDSCAPE : PageOrientation.PORTRAIT,
              },
              margin: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN, header: 360, footer: 360 },
            },
          },
          footers: {
            default: new Footer({
              children: [
                new Paragraph({
                  alignment: AlignmentType.RIGHT,
                  children: [
                    new TextRun({
                      size: 16,
                      color: '666666',
                      children: [
                        `${texts.pageWord} `,
                        PageNumber.CURRENT,
                        ` ${texts.pageOf} `,
                        PageNumber.TOTAL_PAGES,
                      ],
                    }),
                  ],
                }),
              ],
            }),
          },
          children: [
            new Paragraph({
              spacing: { after: 80 },
              children: [new TextRun({ text: cleanText(job.title), bold: true, size: 32 })],
            }),
            new Paragraph({
              spacing: { after: 200 },
              children: [
                new TextRun({
                  text: `${texts.exported}: ${formatDateTime(generatedAt, timeZone)}   ${texts.rows}: ${rows.length}`,
                  color: '555555',
                }),
              ],
            }),
            new Table({
              width: { size: available, type: WidthType.DXA },
              columnWidths: widths.map((width) => Math.round(width)),
              layout: TableLayoutType.FIXED,
              borders: {
                top: BORDER,
                bottom: BORDER,
                left: BORDER,
                right: BORDER,
                insideHorizontal: BORDER,
                insideVertical: BORDER,
              },
              rows: [header, ...rows],
            }),
          ],
        },
      ],
    });
    out.end(await Packer.toBuffer(document));
  };
  write().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
