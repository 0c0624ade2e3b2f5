import { PDF_COLORS, PDF_FONTS } from './document.ts';

/** A horizontal rule across the text width at `y`. */
export function drawRule(doc: PDFKit.PDFDocument, y: number, lineWidth = 0.7): void {
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  doc.moveTo(left, y).lineTo(right, y).lineWidth(lineWidth).strokeColor(PDF_COLORS.rule).stroke();
}

export interface FieldsLayout {
  /** Width of the label column; values take the rest of the text width. */
  labelWidth: number;
  labelSize?: number;
  valueSize?: number;
  /** Space between two fields. */
  gap?: number;
}

/**
 * Label–value pairs one under the other (a receipt's or a bill's details): muted labels on the left,
 * values wrapping on the right. Drawn from `y`; answers the y below the last pair.
 */
export function drawFields(
  doc: PDFKit.PDFDocument,
  fields: [label: string, value: string][],
  y: number,
  layout: FieldsLayout,
): number {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const labelWidth = layout.labelWidth - 10;
  const valueWidth = width - layout.labelWidth;
  let top = y;
  for (const [label, value] of fields) {
    doc
      .font(PDF_FONTS.regular)
      .fontSize(layout.labelSize ?? 10)
      .fillColor(PDF_COLORS.muted);
    const labelHeight = doc.heightOfString(label, { width: labelWidth });
    doc.text(label, left, top, { width: labelWidth });
    doc
      .font(PDF_FONTS.regular)
      .fontSize(layout.valueSize ?? 11)
      .fillColor(PDF_COLORS.text);
    const valueHeight = doc.heightOfString(value, { width: valueWidth });
    doc.text(value, left + layout.labelWidth, top, { width: valueWidth });
    top += Math.max(labelHeight, valueHeight) + (layout.gap ?? 8);
  }
  return top;
}

export interface TotalLine {
  label: string;
  /** Already formatted, e.g. '1.234,50 €'. */
  value: string;
  /** The grand total: bold, with a rule above it. */
  strong?: boolean;
}

const TOTAL_ROW = 15;

/**
 * A totals block under a table: labels and right-aligned amounts in a box at the right margin.
 * Starts at `doc.y`; on a new page when it does not fit in what is left of this one.
 */
export function drawTotals(doc: PDFKit.PDFDocument, lines: TotalLine[], width = 220): void {
  const right = doc.page.width - doc.page.margins.right;
  const height = lines.length * TOTAL_ROW + 8;
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
  const x = right - width;
  let y = doc.y + 6;
  for (const line of lines) {
    if (line.strong) {
      doc
        .moveTo(x, y - 2)
        .lineTo(right, y - 2)
        .lineWidth(0.7)
        .strokeColor(PDF_COLORS.text)
        .stroke();
    }
    doc
      .font(line.strong ? PDF_FONTS.bold : PDF_FONTS.regular)
      .fontSize(line.strong ? 10 : 9)
      .fillColor(PDF_COLORS.text);
    doc.text(line.label, x, y + 1, { width: width / 2, lineBreak: false, ellipsis: '…' });
    doc.text(line.value, x + width / 2, y + 1, { width: width / 2 - 4, align: 'right', lineBreak: false });
    y += TOTAL_ROW;
  }
  doc.x = doc.page.margins.left;
  doc.y = y + 2;
}
