import { PassThrough, type Readable } from 'node:stream';
import {
  type BookSummary,
  type BookSummaryEntry,
  errorKeys,
  formatProtocolId,
  type Language,
  UTILITY_TIME_ZONE,
} from '@protocol/contracts';
import { and, asc, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import type { Db } from '../../db/client.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { formatDate, formatDateTime } from '../../platform/exports/format.ts';
import { PDF_FONTS } from '../../platform/exports/pdf.ts';
import { renderExport } from '../../platform/exports/render.ts';
import { letStreamsFlow, waitForDrain } from '../../platform/exports/stream-util.ts';
import { translate } from '../../platform/i18n.ts';
import { companies } from '../companies/companies.schema.ts';
import { protocolBooks } from '../parametrics/parametrics.schema.ts';
import { userGroups } from '../users/groups.schema.ts';
import { users } from '../users/users.schema.ts';
import { documents } from './protocol.schema.ts';

/**
 * The protocol book summary (spec §2 /book_summary): the legal register of one book, every registered
 * entry whose registration day (Europe/Athens) is in [from, to], in number order; on screen (JSON) and
 * as the printable book (PDF A4 landscape, every page headed with company, book and year, "Σελίδα N από M")
 * or Excel. Rows are read in keyset batches, so a book of 100k entries never sits in memory.
 */

const BATCH = 1000;

export interface BookSummaryQuery {
  bookId: number;
  from: string;
  to: string;
}

interface BookInfo {
  id: number;
  descr: string;
  year: number;
  booktype: number;
  companyName: string;
}

/** The company's book, or 404 (another company's book does not exist for the asker). */
async function bookOf(db: Db, companyId: number, bookId: number): Promise<BookInfo> {
  const [book] = await db
    .select({
      id: protocolBooks.id,
      descr: protocolBooks.descr,
      year: protocolBooks.year,
      booktype: protocolBooks.booktype,
      companyName: companies.companyname,
    })
    .from(protocolBooks)
    .innerJoin(companies, eq(companies.id, protocolBooks.companyId))
    .where(and(eq(protocolBooks.id, bookId), eq(protocolBooks.companyId, companyId)));
  if (!book) throw notFound();
  return book;
}

function checkRange(query: BookSummaryQuery): void {
  if (query.from > query.to) {
    throw new AppError(400, errorKeys.badData, {}, [
      { field: 'to', key: 'error.invalid_date_range', params: {} },
    ]);
  }
}

/** Registered entries of the book whose registration falls on the days [from, to] in Athens. */
function entriesWhere(book: BookInfo, query: BookSummaryQuery): SQL {
  return and(
    eq(documents.protocolBookId, book.id),
    isNotNull(documents.protocolNumber),
    sql`${documents.protocolDate} >= ((${query.from}::date)::timestamp AT TIME ZONE ${UTILITY_TIME_ZONE})`,
    sql`${documents.protocolDate} < ((${query.to}::date + 1)::timestamp AT TIME ZONE ${UTILITY_TIME_ZONE})`,
  ) as SQL;
}

interface EntryKey {
  year: number;
  number: number;
}

/**
 * The entries in number order, batch by batch (keyset on year and number). With `upTo`, stops at that
 * entry: a second pass over the book reads exactly the entries the first one saw (numbers are given
 * in commit order, so a later registration can only come after it).
 */
async function* entryBatches(
  db: Db,
  book: BookInfo,
  query: BookSummaryQuery,
  upTo?: EntryKey | null,
): AsyncGenerator<BookSummaryEntry[]> {
  let after: EntryKey | null = null;
  for (;;) {
    const conditions: (SQL | undefined)[] = [entriesWhere(book, query)];
    if (after) {
      conditions.push(
        sql`(${documents.protocolYear}, ${documents.protocolNumber}) > (${after.year}, ${after.number})`,
      );
    }
    if (upTo) {
      conditions.push(
        sql`(${documents.protocolYear}, ${documents.protocolNumber}) <= (${upTo.year}, ${upTo.number})`,
      );
    }
    const rows = await db
      .select({
        documentId: documents.id,
        protocolNumber: documents.protocolNumber,
        protocolYear: documents.protocolYear,
        protocolDate: documents.protocolDate,
        kind: documents.kind,
        correspondents: documents.correspondents,
        subject: documents.subject,
        protocolIdSender: documents.protocolIdSender,
        protocolSendDate: documents.protocolSendDate,
        chargedFirstname: users.firstname,
        chargedLastname: users.lastname,
        chargedGroup: userGroups.name,
      })
      .from(documents)
      .leftJoin(users, eq(users.id, documents.chargedUserId))
      .leftJoin(userGroups, eq(userGroups.id, documents.chargedGroupId))
      .where(and(...conditions))
      .orderBy(asc(documents.protocolYear), asc(documents.protocolNumber))
      .limit(BATCH);
    if (rows.length === 0) return;
    yield rows.map((row) => {
      const number = row.protocolNumber ?? 0;
      const year = row.protocolYear ?? 0;
      const chargedUser =
        row.chargedFirstname !== null || row.chargedLastname !== null
          ? `${row.chargedFirstname ?? ''} ${row.chargedLastname ?? ''}`.trim()
          : null;
      return {
        documentId: row.documentId,
        protocolNumber: number,
        protocolYear: year,
        protocolId: formatProtocolId(number, year) ?? '',
        protocolDate: row.protocolDate?.toISOString() ?? '',
        kind: row.kind,
        correspondents: row.correspondents,
        subject: row.subject,
        protocolIdSender: row.protocolIdSender,
        protocolSendDate: row.protocolSendDate,
        charge: [chargedUser, row.chargedGroup].filter(Boolean).join(' / ') || null,
      };
    });
    const last = rows[rows.length - 1];
    after = { year: last?.protocolYear ?? 0, number: last?.protocolNumber ?? 0 };
    if (rows.length < BATCH) return;
  }
}

/** GET /api/protocol/book_summary: the entries as JSON, for the screen. */
export async function getBookSummary(
  db: Db,
  _principal: Principal,
  companyId: number,
  query: BookSummaryQuery,
): Promise<BookSummary> {
  checkRange(query);
  const book = await bookOf(db, companyId, query.bookId);
  const entries: BookSummaryEntry[] = [];
  for await (const batch of entryBatches(db, book, query)) entries.push(...batch);
  return {
    book: { id: book.id, descr: book.descr, year: book.year, booktype: book.booktype },
    from: query.from,
    to: query.to,
    entries,
  };
}

// ----- the printable book -----

const COLUMNS = [
  { id: 'protocolId', width: 62 },
  { id: 'protocolDate', width: 72 },
  { id: 'kind', width: 58 },
  { id: 'correspondents', width: 150 },
  { id: 'subject', width: 226 },
  { id: 'protocolIdSender', width: 64 },
  { id: 'protocolSendDate', width: 58 },
  { id: 'charge', width: 80 },
] as const;
type ColumnId = (typeof COLUMNS)[number]['id'];

const MARGIN = 36;
const HEADER_SPACE = 46; // company line, book line, range line
const FOOTER_SPACE = 20;
const BODY_SIZE = 8;
const PAD_X = 3;
const PAD_Y = 3;
const HEADER_FILL = '#ece6ff';
const RULE = '#c8c8d0';
const TEXT = '#1a1a1a';
const MUTED = '#555555';

function cellsOf(entry: BookSummaryEntry, language: Language): Record<ColumnId, string> {
  const date = entry.protocolDate ? new Date(entry.protocolDate) : null;
  return {
    protocolId: entry.protocolId,
    protocolDate: date ? formatDateTime(date, UTILITY_TIME_ZONE).replace(/:\d\d$/, '') : '',
    kind: translate(language, `documents.kind.${entry.kind}`),
    correspondents: entry.correspondents ?? '',
    subject: entry.subject,
    protocolIdSender: entry.protocolIdSender ?? '',
    protocolSendDate: entry.protocolSendDate ? formatDate(entry.protocolSendDate) : '',
    charge: entry.charge ?? '',
  };
}

export interface BookFile {
  stream: Readable;
  contentType: string;
  fileName: string;
}

/** Βιβλίο_πρωτοκόλλου_<descr>_<from>_<to>.<ext>: letters and digits kept, anything else '_'. */
export function bookFileName(language: Language, descr: string, query: BookSummaryQuery, ext: string) {
  const safe = (text: string) =>
    text
      .normalize('NFC')
      .replace(/[^\p{L}\p{M}\p{N}-]+/gu, '_')
      .replace(/^_+|_+$/g, '');
  const title = safe(translate(language, 'bookSummary.title'));
  return `${title}_${safe(descr).slice(0, 60) || 'book'}_${query.from}_${query.to}.${ext}`;
}

/** GET /api/protocol/book_summary/file: the legal book as PDF or Excel, streamed. */
export async function bookSummaryFile(
  db: Db,
  _principal: Principal,
  companyId: number,
  query: BookSummaryQuery,
  format: 'pdf' | 'xlsx',
  language: Language,
): Promise<BookFile> {
  checkRange(query);
  const book = await bookOf(db, companyId, query.bookId);
  const labels = Object.fromEntries(
    COLUMNS.map((c) => [c.id, translate(language, `bookSummary.column.${c.id}`)]),
  ) as Record<ColumnId, string>;
  if (format === 'xlsx') {
    const title = `${translate(language, 'bookSummary.title')} ${book.descr} ${book.year}`;
    const rendered = renderExport({
      format: 'excel',
      title,
      language,
      columns: COLUMNS.map((c) => ({ id: c.id, label: labels[c.id], type: 'text' as const })),
      rows: (async function* () {
        for await (const batch of entryBatches(db, book, query)) {
          yield batch.map((entry) => cellsOf(entry, language));
        }
      })(),
    });
    return {
      stream: rendered.stream,
      contentType: rendered.contentType,
      fileName: bookFileName(language, book.descr, query, 'xlsx'),
    };
  }
  return {
    stream: renderBookPdf(db, book, query, language, labels),
    contentType: 'application/pdf',
    fileName: bookFileName(language, book.descr, query, 'pdf'),
  };
}

/**
 * The book as PDF in two passes over the rows, both in batches: the first measures every row (with a
 * document that is never written) to know the number of pages; the second draws and streams page after
 * page (no buffered pages) with "Σελίδα N από M" already known. A row keeps the height measured in the
 * first pass (text that grew meanwhile is cut with an ellipsis), so the total stays exact.
 */
function renderBookPdf(
  db: Db,
  book: BookInfo,
  query: BookSummaryQuery,
  language: Language,
  labels: Record<ColumnId, string>,
): Readable {
  const out = new PassThrough();
  const options = {
    size: 'A4',
    layout: 'landscape' as const,
    margins: { top: MARGIN + HEADER_SPACE, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_SPACE },
    font: PDF_FONTS.regular,
    lang: language === 'en' ? 'en-GB' : 'el-GR',
    displayTitle: true,
  };
  const heading = `${translate(language, 'bookSummary.title')}: ${book.descr} — ${translate(language, 'bookSummary.year')} ${book.year}`;
  const range = translate(language, 'bookSummary.range', {
    from: formatDate(query.from),
    to: formatDate(query.to),
  });

  const write = async () => {
    // Pass 1: measure.
    const measure = new PDFDocument({ ...options, autoFirstPage: true });
    const pageTop = MARGIN + HEADER_SPACE;
    const pageBottom = measure.page.height - MARGIN - FOOTER_SPACE;
    const heightOf = (doc: PDFKit.PDFDocument, cells: string[], bold: boolean) => {
      doc.font(bold ? PDF_FONTS.bold : PDF_FONTS.regular).fontSize(BODY_SIZE);
      let tallest = doc.currentLineHeight(true);
      cells.forEach((text, index) => {
        const width = (COLUMNS[index]?.width ?? 0) - 2 * PAD_X;
        if (text === '') return;
        if (!text.includes('\n') && doc.widthOfString(text) <= width) return;
        tallest = Math.max(tallest, doc.heightOfString(text, { width }));
      });
      return tallest + 2 * PAD_Y;
    };
    const headerCells = COLUMNS.map((c) => labels[c.id]);
    const headerHeight = heightOf(measure, headerCells, true);
    const maxRow = pageBottom - pageTop - headerHeight;
    const heights = new Map<number, number>();
    let pages = 1;
    let y = pageTop + headerHeight;
    let last: EntryKey | null = null;
    for await (const batch of entryBatches(db, book, query)) {
      for (const entry of batch) {
        const cells = COLUMNS.map((c) => cellsOf(entry, language)[c.id]);
        const height = Math.min(heightOf(measure, cells, false), maxRow);
        heights.set(entry.documentId, height);
        if (y + height > pageBottom) {
          pages++;
          y = pageTop + headerHeight;
        }
        y += height;
        last = { year: entry.protocolYear, number: entry.protocolNumber };
      }
      await letStreamsFlow();
    }

    // Pass 2: draw and stream.
    const doc = new PDFDocument({
      ...options,
      autoFirstPage: false,
      info: { Title: heading, Creator: 'Protocol', CreationDate: new Date() },
    });
    doc.on('error', (error: Error) => out.destroy(error));
    doc.pipe(out);
    const width = doc.page ? doc.page.width : 842;
    const tableWidth = COLUMNS.reduce((sum, c) => sum + c.width, 0);
    let page = 0;
    let stripe = 0;

    const drawRow = (cells: string[], height: number, header: boolean) => {
      const top = doc.y;
      doc.font(header ? PDF_FONTS.bold : PDF_FONTS.regular).fontSize(BODY_SIZE);
      if (header) doc.rect(MARGIN, top, tableWidth, height).fill(HEADER_FILL).fillColor(TEXT);
      let x = MARGIN;
      cells.forEach((text, index) => {
        const w = COLUMNS[index]?.width ?? 0;
        if (text !== '') {
          doc.text(text, x + PAD_X, top + PAD_Y, {
            width: w - 2 * PAD_X,
            height: height - 2 * PAD_Y + 0.5,
            ellipsis: '…',
            lineBreak: true,
          });
        }
        x += w;
      });
      doc.lineWidth(0.5).strokeColor(RULE);
      doc
        .moveTo(MARGIN, top + height)
        .lineTo(MARGIN + tableWidth, top + height)
        .stroke();
      if (header) {
        doc
          .moveTo(MARGIN, top)
          .lineTo(MARGIN + tableWidth, top)
          .stroke();
      }
      doc.x = MARGIN;
      doc.y = top + height;
    };

    const newPage = () => {
      doc.addPage();
      page++;
      const pageWidth = doc.page.width || width;
      const inner = pageWidth - 2 * MARGIN;
      const bottomMargin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0; // writing in the margins must not open a new page
      doc.font(PDF_FONTS.bold).fontSize(11).fillColor(TEXT);
      doc.text(book.companyName, MARGIN, MARGIN, { width: inner, lineBreak: false, ellipsis: '…' });
      doc.font(PDF_FONTS.bold).fontSize(10);
      doc.text(heading, MARGIN, MARGIN + 15, { width: inner, lineBreak: false, ellipsis: '…' });
      doc.font(PDF_FONTS.regular).fontSize(8.5).fillColor(MUTED);
      doc.text(range, MARGIN, MARGIN + 29, { width: inner, lineBreak: false });
      const footerY = doc.page.height - MARGIN - 8;
      doc.fontSize(7.5);
      doc.text(heading, MARGIN, footerY, { width: inner / 2, lineBreak: false, ellipsis: '…' });
      doc.text(translate(language, 'bookSummary.page', { n: page, m: pages }), MARGIN + inner / 2, footerY, {
        width: inner / 2,
        align: 'right',
        lineBreak: false,
      });
      doc.page.margins.bottom = bottomMargin;
      doc.fillColor(TEXT);
      doc.x = MARGIN;
      doc.y = pageTop;
      drawRow(headerCells, headerHeight, true);
      stripe = 0;
    };

    newPage();
    if (last === null) {
      doc
        .font(PDF_FONTS.regular)
        .fontSize(BODY_SIZE + 1)
        .fillColor(MUTED);
      doc.text(translate(language, 'bookSummary.empty'), MARGIN, doc.y + 6);
    } else {
      for await (const batch of entryBatches(db, book, query, last)) {
        for (const entry of batch) {
          const cells = COLUMNS.map((c) => cellsOf(entry, language)[c.id]);
          const height = heights.get(entry.documentId) ?? Math.min(heightOf(doc, cells, false), maxRow);
          if (doc.y + height > pageBottom && page < pages) newPage();
          if (stripe % 2 === 1) {
            doc.rect(MARGIN, doc.y, tableWidth, height).fill('#f6f6f9').fillColor(TEXT);
          }
          drawRow(cells, height, false);
          stripe++;
        }
        await letStreamsFlow();
        await waitForDrain(out);
      }
    }
    doc.end();
  };
  write().catch((error: unknown) => {
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}
