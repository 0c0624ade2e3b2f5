import type { Readable } from 'node:stream';
import {
  type BookSummary,
  type BookSummaryEntry,
  errorKeys,
  formatProtocolId,
  type Language,
  UTILITY_TIME_ZONE,
} from '@protocol/contracts';
import { and, asc, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import type { Principal } from '../../../platform/auth.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { formatDate, formatDateTime } from '../../../platform/exports/format.ts';
import { renderExport } from '../../../platform/exports/render.ts';
import { letStreamsFlow, waitForDrain } from '../../../platform/exports/stream-util.ts';
import { translate } from '../../../platform/i18n.ts';
import {
  createPdf,
  drawFooter,
  drawPageHeading,
  type PageHeading,
  PDF_COLORS,
  PDF_FONTS,
  type PdfOptions,
  PdfTable,
  type PdfTableOptions,
  pageHeadingHeight,
  pageLabel,
} from '../../../platform/pdf/index.ts';
import { companies } from '../../companies/companies.schema.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { userGroups } from '../../users/groups.schema.ts';
import { users } from '../../users/users.schema.ts';
import { documents } from '../protocol.schema.ts';

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
const FOOTER_SPACE = 20;
const BODY_SIZE = 8;
const PAD_X = 3;

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
  const title = `${translate(language, 'bookSummary.title')}: ${book.descr} — ${translate(language, 'bookSummary.year')} ${book.year}`;
  const heading: PageHeading = {
    company: { name: book.companyName },
    title,
    subtitle: translate(language, 'bookSummary.range', {
      from: formatDate(query.from),
      to: formatDate(query.to),
    }),
  };
  const options: PdfOptions = {
    language,
    title,
    landscape: true,
    margins: {
      top: MARGIN + pageHeadingHeight(heading, language),
      left: MARGIN,
      right: MARGIN,
      bottom: MARGIN + FOOTER_SPACE,
    },
  };
  const tableOptions: PdfTableOptions = {
    columns: COLUMNS.map((c) => ({ label: labels[c.id], width: c.width })),
    fontSize: BODY_SIZE,
    padX: PAD_X,
    stripes: 'page',
  };
  const { doc, stream, fail } = createPdf({ ...options, autoFirstPage: false });
  const cells = (entry: BookSummaryEntry) => {
    const byId = cellsOf(entry, language);
    return COLUMNS.map((c) => byId[c.id]);
  };

  const write = async () => {
    // Pass 1: lay the table out on a document that is never written.
    const counter = new PdfTable(createPdf(options).doc, { ...tableOptions, measureOnly: true });
    counter.header();
    const heights = new Map<number, number>();
    let last: EntryKey | null = null;
    for await (const batch of entryBatches(db, book, query)) {
      for (const entry of batch) {
        heights.set(entry.documentId, counter.row(cells(entry)));
        last = { year: entry.protocolYear, number: entry.protocolNumber };
      }
      await letStreamsFlow();
    }
    const pages = counter.pages;

    // Pass 2: draw and stream.
    let page = 0;
    const decorate = () => {
      page++;
      drawPageHeading(doc, heading, language, MARGIN);
      drawFooter(doc, { left: title, right: pageLabel(language, page, pages), fromBottom: MARGIN + 8 });
    };
    const table: PdfTable = new PdfTable(doc, {
      ...tableOptions,
      afterBreak: decorate,
      mayBreak: () => table.pages < pages,
    });
    doc.addPage();
    decorate();
    doc.x = MARGIN;
    doc.y = doc.page.margins.top;
    table.header();
    if (last === null) {
      doc
        .font(PDF_FONTS.regular)
        .fontSize(BODY_SIZE + 1)
        .fillColor(PDF_COLORS.muted);
      doc.text(translate(language, 'bookSummary.empty'), MARGIN, doc.y + 6);
    } else {
      for await (const batch of entryBatches(db, book, query, last)) {
        for (const entry of batch) table.row(cells(entry), heights.get(entry.documentId));
        await letStreamsFlow();
        await waitForDrain(stream);
      }
    }
    doc.end();
  };
  write().catch(fail);
  return stream;
}
