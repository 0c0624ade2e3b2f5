import { PDF_COLORS, PDF_FONTS } from './document.ts';

export type CellAlign = 'left' | 'right' | 'center';

export interface PdfColumn {
  label: string;
  /** Points, padding included. */
  width: number;
  /** Amounts and numbers 'right', flags 'center'; text 'left' (the default). */
  align?: CellAlign;
}

export interface PdfTableOptions {
  columns: PdfColumn[];
  /** Left edge; default the page's left margin. */
  x?: number;
  fontSize?: number;
  padX?: number;
  padY?: number;
  /** 'page': every page starts unstriped (a printed register); 'table': stripes run on across pages. */
  stripes?: 'table' | 'page';
  /** Lays out without drawing: counts pages and row heights on a document that is never written. */
  measureOnly?: boolean;
  /** Before a page break, e.g. to compact a buffered page. */
  beforeBreak?: () => void;
  /** After the new page is added and before the header row repeats, e.g. to draw the page's heading. */
  afterBreak?: () => void;
  /** False keeps drawing on the current page (e.g. the page total is fixed and already reached). */
  mayBreak?: () => boolean;
}

/**
 * A table that flows down the pages: rows wrap their text and are never cut across pages; the header row
 * repeats on every page; a row taller than a page is clipped (with an ellipsis) to what one page holds.
 * The table starts at `doc.y`; after a break it continues at the page's top margin and stops at its bottom
 * margin, so the caller's margins leave room for page headings and footers.
 */
export class PdfTable {
  /** Pages the table has reached, counting the one it started on. */
  pages = 1;
  readonly width: number;
  private readonly fontSize: number;
  private readonly padX: number;
  private readonly padY: number;
  private headerHeight = 0;
  private rowIndex = 0;
  private rowsOnPage = 0;

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly options: PdfTableOptions,
  ) {
    this.width = options.columns.reduce((sum, column) => sum + column.width, 0);
    this.fontSize = options.fontSize ?? 8;
    this.padX = options.padX ?? 4;
    this.padY = options.padY ?? 3;
  }

  private get left(): number {
    return this.options.x ?? this.doc.page.margins.left;
  }

  private get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** The height a row of these cells needs, unclipped. */
  naturalHeight(cells: string[], header = false): number {
    const doc = this.doc;
    doc.font(header ? PDF_FONTS.bold : PDF_FONTS.regular).fontSize(this.fontSize);
    let tallest = doc.currentLineHeight(true);
    cells.forEach((text, index) => {
      const width = (this.options.columns[index]?.width ?? 0) - 2 * this.padX;
      if (text === '') return;
      if (!text.includes('\n') && doc.widthOfString(text) <= width) return;
      tallest = Math.max(tallest, doc.heightOfString(text, { width }));
    });
    return tallest + 2 * this.padY;
  }

  /** Draws the header row at `doc.y` (call once at the start; page breaks repeat it). */
  header(): void {
    const labels = this.options.columns.map((column) => column.label);
    this.headerHeight = this.naturalHeight(labels, true);
    this.draw(labels, this.headerHeight, true);
    if (this.options.stripes === 'page') this.rowIndex = 0;
  }

  /**
   * Draws one row below the last, breaking the page first when it does not fit. `height` (e.g. measured
   * in an earlier pass) fixes the row's height: text that no longer fits is cut with an ellipsis.
   * Answers the height the row took.
   */
  row(cells: string[], height?: number): number {
    // On a page that has no row yet, the room left below the header is all a row gets.
    const room =
      this.rowsOnPage === 0
        ? this.bottom - this.doc.y
        : this.bottom - this.doc.page.margins.top - this.headerHeight;
    const rowHeight = height ?? Math.min(this.naturalHeight(cells), room);
    if (this.doc.y + rowHeight > this.bottom && (this.options.mayBreak?.() ?? true)) this.breakPage();
    this.draw(cells, rowHeight, false);
    this.rowIndex++;
    this.rowsOnPage++;
    return rowHeight;
  }

  private breakPage(): void {
    this.pages++;
    this.rowsOnPage = 0;
    if (this.options.measureOnly) {
      this.doc.y = this.doc.page.margins.top;
    } else {
      this.options.beforeBreak?.();
      this.doc.addPage();
      this.options.afterBreak?.();
      this.doc.x = this.left;
      this.doc.y = this.doc.page.margins.top;
    }
    this.header();
  }

  private draw(cells: string[], height: number, header: boolean): void {
    const doc = this.doc;
    const top = doc.y;
    doc.y = top + height;
    if (this.options.measureOnly) return;
    const left = this.left;
    doc.font(header ? PDF_FONTS.bold : PDF_FONTS.regular).fontSize(this.fontSize);
    if (header || this.rowIndex % 2 === 1) {
      doc
        .rect(left, top, this.width, height)
        .fill(header ? PDF_COLORS.headerFill : PDF_COLORS.stripeFill)
        .fillColor(PDF_COLORS.text);
    }
    let x = left;
    cells.forEach((text, index) => {
      const column = this.options.columns[index];
      const width = column?.width ?? 0;
      if (text !== '') {
        doc.text(text, x + this.padX, top + this.padY, {
          width: width - 2 * this.padX,
          height: height - 2 * this.padY + 0.5,
          ellipsis: '…',
          align: column?.align ?? 'left',
          lineBreak: true,
        });
      }
      x += width;
    });
    doc.lineWidth(0.5).strokeColor(PDF_COLORS.rule);
    doc
      .moveTo(left, top + height)
      .lineTo(left + this.width, top + height)
      .stroke();
    if (header) {
      doc
        .moveTo(left, top)
        .lineTo(left + this.width, top)
        .stroke();
    }
    doc.x = left;
    doc.y = top + height;
  }
}
