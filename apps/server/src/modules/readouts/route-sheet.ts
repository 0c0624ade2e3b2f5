import type { Language, ReadoutRow } from '@protocol/contracts';
import { writtenCode } from '@protocol/contracts';
import { stringify } from 'csv-stringify/sync';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { neutraliseFormula } from '../../platform/exports/csv.ts';
import { formatDate } from '../../platform/exports/format.ts';
import { translate } from '../../platform/i18n.ts';
import {
  createPdf,
  drawPageFooters,
  drawPageHeading,
  PdfTable,
  pageHeadingHeight,
} from '../../platform/pdf/index.ts';
import { companies } from '../companies/companies.schema.ts';
import type { PeriodKey } from './history.ts';
import { describePeriod, loadRows, routeOf } from './sheet.ts';

/*
 * Route sheets (φύλλα καταμέτρησης): for a period and one or more routes, every meter in route
 * order with where to find it and what it showed last time, and an empty box for the reading.
 * The same rows go to the handheld devices as CSV or Excel.
 */

const MARGIN = 30;
export type SheetFormat = 'pdf' | 'csv' | 'xlsx';

interface RouteSheet {
  route: { code: string; description: string };
  periodName: string;
  rows: ReadoutRow[];
}

async function sheetsOf(
  db: Db,
  companyId: number,
  routeIds: number[],
  year: number,
  period: number,
  language: Language,
) {
  const sheets: RouteSheet[] = [];
  for (const routeId of routeIds) {
    const route = await routeOf(db, companyId, routeId);
    if (!route) throw notFound();
    const key: PeriodKey = { routeId, year, period };
    const described = await describePeriod(db, companyId, key, language);
    sheets.push({
      route,
      periodName: described.name,
      rows: await loadRows(db, companyId, key, described.id),
    });
  }
  return sheets;
}

const columns = [
  'position',
  'code',
  'name',
  'address',
  'meter',
  'location',
  'previous',
  'previousDate',
  'reading',
] as const;

function cells(row: ReadoutRow, index: number) {
  return [
    String(index + 1),
    writtenCode(row.code),
    row.ownerName ?? '',
    row.supplyAddress,
    row.serialNumber ?? '',
    row.locationNotes ?? '',
    row.previousReading === null ? '' : String(row.previousReading),
    formatDate(row.previousDate),
    '',
  ];
}

/** The route sheets of a period as a printable PDF, CSV or Excel file, routes in the order asked. */
export async function routeSheetFile(
  db: Db,
  companyId: number,
  query: { routeIds: number[]; year: number; period: number },
  format: SheetFormat,
  language: Language,
) {
  const sheets = await sheetsOf(db, companyId, query.routeIds, query.year, query.period, language);
  const t = (key: string) => translate(language, `readouts.sheet.${key}`);
  const header = columns.map((c) => t(c));
  const fileName = `route-sheet-${query.year}-${query.period}.${format}`;
  if (format === 'csv') {
    const records = sheets.flatMap((s) =>
      s.rows.map((row, i) => [s.route.code, ...cells(row, i)].map(neutraliseFormula)),
    );
    const text = stringify([[t('route'), ...header], ...records], { record_delimiter: '\r\n' });
    return { fileName, buffer: Buffer.from(`\uFEFF${text}`, 'utf8') };
  }
  if (format === 'xlsx') {
    const workbook = new ExcelJS.Workbook();
    for (const s of sheets) {
      const ws = workbook.addWorksheet(`${s.route.code}`.slice(0, 31).replace(/[/\\?*[\]:]/g, '-'));
      ws.addRow([`${t('title')} ${s.route.code} ${s.route.description} · ${s.periodName}`]).font = {
        bold: true,
      };
      ws.addRow(header).font = { bold: true };
      s.rows.forEach((row, i) => {
        const values: (string | number)[] = cells(row, i);
        if (row.previousReading !== null) values[6] = row.previousReading;
        ws.addRow(values);
      });
      for (const [i, width] of [6, 16, 26, 28, 14, 24, 12, 12, 12].entries())
        ws.getColumn(i + 1).width = width;
    }
    return { fileName, buffer: Buffer.from(await workbook.xlsx.writeBuffer()) };
  }
  return { fileName, buffer: await routeSheetPdf(db, companyId, sheets, language, header) };
}

async function routeSheetPdf(
  db: Db,
  companyId: number,
  sheets: RouteSheet[],
  language: Language,
  header: string[],
) {
  const [company] = await db
    .select({ name: companies.companytitle, vat: companies.vatnumber })
    .from(companies)
    .where(eq(companies.id, companyId));
  const title = (s: RouteSheet) =>
    `${translate(language, 'readouts.sheet.title')} ${s.route.code} ${s.route.description} · ${s.periodName}`;
  const headingOf = (s: RouteSheet) => ({
    company: { name: company?.name ?? '', vatNumber: company?.vat ?? null },
    title: title(s),
  });
  const first = sheets[0];
  const top = MARGIN + (first ? pageHeadingHeight(headingOf(first), language) : 0);
  const { doc, stream } = createPdf({
    language,
    title: first ? title(first) : '',
    landscape: true,
    bufferPages: true,
    margins: { top, left: MARGIN, right: MARGIN, bottom: MARGIN + 14 },
  });
  const widths = [24, 80, 120, 130, 70, 140, 60, 62, 96];
  sheets.forEach((s, index) => {
    if (index > 0) doc.addPage();
    drawPageHeading(doc, headingOf(s), language, MARGIN);
    doc.y = top;
    const table = new PdfTable(doc, {
      columns: header.map((label, i) => ({
        label,
        width: widths[i] ?? 60,
        align: i === 0 || i === 6 ? ('right' as const) : ('left' as const),
      })),
      fontSize: 8,
      padY: 7,
      stripes: 'page',
      afterBreak: () => drawPageHeading(doc, headingOf(s), language, MARGIN),
    });
    table.header();
    s.rows.forEach((row, i) => {
      table.row(cells(row, i));
    });
  });
  drawPageFooters(doc, language);
  doc.end();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
