import { type Certification, formatMoney, type Language, spreadsheetNumber } from '@protocol/contracts';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Db } from '../../db/client.ts';
import { formatDate } from '../../platform/exports/format.ts';
import { translate } from '../../platform/i18n.ts';
import {
  createPdf,
  drawFields,
  drawPageHeading,
  drawTotals,
  PdfTable,
  pageHeadingHeight,
} from '../../platform/pdf/index.ts';
import { companies } from '../companies/companies.schema.ts';
import { getCertification } from './certifications.service.ts';

const MARGIN = 40;

/** "Βεβαίωση εσόδων 3/2026", or the draft's mark. */
function titleOf(cert: Certification, language: Language) {
  const t = (key: string) => translate(language, `finance.${key}`);
  return `${t('certifications.one')} ${cert.number === null ? t('pdf.draft') : `${cert.number}/${cert.year}`}`;
}

const accountOf = (line: Certification['lines'][number], language: Language) =>
  line.accountCode
    ? `${line.accountCode} ${line.accountDescr ?? ''}`
    : translate(language, 'finance.certifications.noAccount');

/** The certification as a PDF: the period, one row per income account, the totals. */
export async function certificationPdf(db: Db, companyId: number, id: number, language: Language) {
  const cert = await getCertification(db, companyId, id);
  const [company] = await db
    .select({ name: companies.companytitle, vat: companies.vatnumber })
    .from(companies)
    .where(eq(companies.id, cert.companyId));
  const t = (key: string) => translate(language, `finance.${key}`);
  const money = (value: string) => formatMoney(value, language);
  const heading = {
    company: { name: company?.name ?? '', vatNumber: company?.vat ?? null },
    title: titleOf(cert, language),
  };
  const top = MARGIN + pageHeadingHeight(heading, language);
  const { doc, stream } = createPdf({
    language,
    title: heading.title,
    margins: { top, left: MARGIN, right: MARGIN, bottom: MARGIN },
  });
  drawPageHeading(doc, heading, language, MARGIN);
  const below = drawFields(
    doc,
    [
      [t('certifications.date'), formatDate(cert.date)],
      [t('certifications.period'), `${formatDate(cert.periodFrom)} – ${formatDate(cert.periodTo)}`],
      [t('certifications.documents'), String(cert.documents)],
      ...(cert.notes ? ([[t('documents.notes'), cert.notes]] as [string, string][]) : []),
    ],
    top,
    { labelWidth: 130 },
  );
  doc.y = below + 12;
  const table = new PdfTable(doc, {
    columns: [
      { label: t('certifications.account'), width: 235 },
      { label: t('certifications.documents'), width: 70, align: 'right' },
      { label: t('documents.net'), width: 70, align: 'right' },
      { label: t('documents.vat'), width: 70, align: 'right' },
      { label: t('certifications.total'), width: 70, align: 'right' },
    ],
    fontSize: 9,
  });
  table.header();
  for (const line of cert.lines) {
    table.row([
      accountOf(line, language),
      String(line.documents),
      money(line.net),
      money(line.vat),
      money(line.total),
    ]);
  }
  doc.moveDown(0.5);
  drawTotals(doc, [
    { label: t('documents.net'), value: money(cert.net) },
    { label: t('documents.vat'), value: money(cert.vat) },
    { label: t('certifications.total'), value: `${money(cert.total)} €`, strong: true },
  ]);
  doc.end();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return {
    fileName: `certification-${cert.number ?? 'draft'}-${cert.year ?? ''}.pdf`,
    buffer: Buffer.concat(chunks),
  };
}

/** The certification for the accountant: one sheet, a row per account, amounts as numbers to the cent. */
export async function certificationXlsx(db: Db, companyId: number, id: number, language: Language) {
  const cert = await getCertification(db, companyId, id);
  const t = (key: string) => translate(language, `finance.${key}`);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(
    titleOf(cert, language)
      .slice(0, 31)
      .replace(/[/\\?*[\]:]/g, '-'),
  );
  sheet.addRow([titleOf(cert, language)]).font = { bold: true };
  sheet.addRow([t('certifications.period'), `${formatDate(cert.periodFrom)} – ${formatDate(cert.periodTo)}`]);
  sheet.addRow([]);
  sheet.addRow([
    t('accounts.code'),
    t('accounts.descr'),
    t('certifications.documents'),
    t('documents.net'),
    t('documents.vat'),
    t('certifications.total'),
  ]).font = { bold: true };
  // Numeric(14,2) as decimal strings become numbers only here, for the spreadsheet's cells (the engine's one conversion).
  for (const line of cert.lines) {
    sheet.addRow([
      line.accountCode ?? '',
      line.accountDescr ?? t('certifications.noAccount'),
      line.documents,
      spreadsheetNumber(line.net, 'money'),
      spreadsheetNumber(line.vat, 'money'),
      spreadsheetNumber(line.total, 'money'),
    ]);
  }
  sheet.addRow([
    '',
    t('certifications.total'),
    cert.documents,
    spreadsheetNumber(cert.net, 'money'),
    spreadsheetNumber(cert.vat, 'money'),
    spreadsheetNumber(cert.total, 'money'),
  ]).font = {
    bold: true,
  };
  for (const column of [4, 5, 6]) sheet.getColumn(column).numFmt = '#,##0.00';
  sheet.getColumn(2).width = 40;
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  return { fileName: `certification-${cert.number ?? 'draft'}-${cert.year ?? ''}.xlsx`, buffer };
}
