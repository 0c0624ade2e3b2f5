import { type FinanceDocument, formatDecimal, formatMoney, type Language } from '@protocol/contracts';
import type { Db } from '../../db/client.ts';
import { formatDate } from '../../platform/exports/format.ts';
import { translate } from '../../platform/i18n.ts';
import {
  createPdf,
  drawBarcode,
  drawFields,
  drawPageHeading,
  drawRule,
  drawTotals,
  PDF_COLORS,
  PDF_FONTS,
  PdfTable,
  pageHeadingHeight,
} from '../../platform/pdf/index.ts';
import { printedCompany } from '../companies/api.ts';
import { documentPrintExtras } from './documents.print-extras.ts';
import { getFinanceDocument } from './documents.service.ts';

const MARGIN = 40;

/** A document's printed number: `ΤΔΑ-17/2026`, or the draft's mark before it is finalized. */
export function documentTitleNumber(doc: FinanceDocument, language: Language): string {
  return doc.number === null
    ? translate(language, 'finance.pdf.draft')
    : `${doc.seriesCode}-${doc.number}/${doc.year}`;
}

/**
 * The document as a Greek (or English) A4 PDF: the issuer's heading, the document's number, date and
 * customer, the lines, taxes and totals; one set of pages per copy of the series' setting. A draft
 * prints with 'ΠΡΟΧΕΙΡΟ' for its number (a preview, never a legal document).
 */
export async function printFinanceDocument(db: Db, companyId: number, id: number, language: Language) {
  const doc = await getFinanceDocument(db, companyId, id);
  const company = await printedCompany(db, doc.companyId);
  const t = (key: string, params?: Record<string, string | number>) =>
    translate(language, `finance.${key}`, params);
  const money = (value: string) => formatMoney(value, language);
  const number = documentTitleNumber(doc, language);
  const heading = {
    company: company,
    title: `${doc.seriesDescr} ${number}`,
  };
  const top = MARGIN + pageHeadingHeight(heading, language);
  const { doc: pdf, stream } = createPdf({
    language,
    title: heading.title,
    margins: { top, left: MARGIN, right: MARGIN, bottom: MARGIN },
    autoFirstPage: false,
  });
  const extras = await documentPrintExtras(db, doc.id, language);
  const copies = Math.max(1, Math.min(9, doc.copies));
  for (let copy = 1; copy <= copies; copy++) {
    pdf.addPage();
    drawPageHeading(pdf, heading, language, MARGIN);
    pdf.font(PDF_FONTS.bold).fontSize(15).fillColor(PDF_COLORS.text);
    pdf.text(`${doc.seriesDescr}  ${number}`, MARGIN, top, { align: 'center' });
    pdf.font(PDF_FONTS.regular).fontSize(9).fillColor(PDF_COLORS.muted);
    pdf.text(t('pdf.copy', { n: copy, m: copies }), { align: 'center' });
    drawRule(pdf, pdf.y + 6);
    const below = drawFields(
      pdf,
      [
        [t('documents.date'), formatDate(doc.date)],
        [t('documents.trader'), doc.traderName ?? t('pdf.retailCustomer')],
        [t('documents.vatnumber'), doc.traderVatnumber ?? '—'],
        [t('documents.paymentMethod'), t(`documents.paymentMethod_${doc.paymentMethod}`)],
        ...(doc.notes ? ([[t('documents.notes'), doc.notes]] as [string, string][]) : []),
      ],
      pdf.y + 14,
      { labelWidth: 130 },
    );
    pdf.y = below + 10;
    const table = new PdfTable(pdf, {
      columns: [
        { label: '#', width: 24, align: 'right' },
        { label: t('documents.line'), width: 183 },
        { label: t('documents.quantity'), width: 55, align: 'right' },
        { label: t('documents.price'), width: 60, align: 'right' },
        { label: t('documents.discount'), width: 45, align: 'right' },
        { label: t('documents.vatPercent'), width: 40, align: 'right' },
        { label: t('documents.net'), width: 54, align: 'right' },
        { label: t('documents.lineTotal'), width: 54, align: 'right' },
      ],
      fontSize: 8.5,
    });
    table.header();
    doc.lines.forEach((line, index) => {
      table.row([
        String(index + 1),
        line.descr,
        formatDecimal(line.quantity, language),
        formatDecimal(line.price, language, 2),
        `${formatDecimal(line.discount, language)}%`,
        `${formatDecimal(line.vatPercent, language)}%`,
        money(line.net),
        money(line.total),
      ]);
    });
    pdf.moveDown(0.5);
    drawTotals(
      pdf,
      [
        { label: t('documents.net'), value: money(doc.net) },
        { label: t('documents.vat'), value: money(doc.vat) },
        { label: t('documents.gross'), value: money(doc.gross) },
        ...doc.taxes.map((tax) => ({
          label: `${t(`documents.taxKind_${tax.kind}`)}${tax.percent ? ` ${formatDecimal(tax.percent, language)}%` : ''}`,
          value: `${tax.kind === 3 ? '−' : ''}${money(tax.amount)}`,
        })),
        { label: t('documents.payable'), value: `${money(doc.payable)} €`, strong: true },
      ],
      300,
    );
    // What other modules add (myDATA's MARK, UID and QR code), below the totals.
    for (const extra of extras) {
      if (pdf.y > pdf.page.height - 150) pdf.addPage();
      const y = pdf.y + 12;
      if (extra.qr)
        await drawBarcode(pdf, { type: 'qrcode', text: extra.qr }, { x: MARGIN, y, width: 90, height: 90 });
      const x = extra.qr ? MARGIN + 100 : MARGIN;
      pdf.y = y;
      for (const [label, value] of extra.lines) {
        pdf
          .font(PDF_FONTS.regular)
          .fontSize(8.5)
          .fillColor(PDF_COLORS.muted)
          .text(`${label}: `, x, pdf.y, { continued: true });
        pdf.font(PDF_FONTS.bold).fillColor(PDF_COLORS.text).text(value);
      }
      pdf.y = Math.max(pdf.y, extra.qr ? y + 90 : y);
    }
  }
  pdf.end();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const fileName = `${doc.seriesCode}-${doc.number ?? 'draft'}-${doc.year ?? ''}.pdf`.replace(
    /[^\w.-]/g,
    '_',
  );
  return { fileName, buffer: Buffer.concat(chunks) };
}
