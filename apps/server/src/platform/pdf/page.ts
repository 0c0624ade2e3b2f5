import type { Language } from '@protocol/contracts';
import { translate } from '../i18n.ts';
import { inBottomMargin, PDF_COLORS, PDF_FONTS } from './document.ts';

/** Who issues the document, as the page heading shows it; everything but the name is optional. */
export interface CompanyDetails {
  name: string;
  vatNumber?: string | null;
  taxOffice?: string | null;
  address?: string | null;
  phone?: string | null;
  email?: string | null;
}

export interface PageHeading {
  company: CompanyDetails;
  /** e.g. 'Βιβλίο πρωτοκόλλου: Γενικό — Έτος 2026'. */
  title?: string;
  /** A muted line under the title, e.g. the period. */
  subtitle?: string;
}

const HEADING_GAP = 7; // between the heading and what follows

type HeadingLine = { text: string; font: string; size: number; color: string; step: number };

function headingLines(heading: PageHeading, language: Language): HeadingLine[] {
  const { company } = heading;
  const t = (key: string) => translate(language, `pdf.${key}`);
  const details = [
    company.vatNumber ? `${t('vatNumber')}: ${company.vatNumber}` : '',
    company.taxOffice ? `${t('taxOffice')}: ${company.taxOffice}` : '',
    company.address ?? '',
    company.phone ? `${t('phone')}: ${company.phone}` : '',
    company.email ? `${t('email')}: ${company.email}` : '',
  ].filter(Boolean);
  const lines: HeadingLine[] = [
    { text: company.name, font: PDF_FONTS.bold, size: 11, color: PDF_COLORS.text, step: 15 },
  ];
  if (details.length > 0) {
    const text = details.join(' · ');
    lines.push({ text, font: PDF_FONTS.regular, size: 8.5, color: PDF_COLORS.muted, step: 13 });
  }
  if (heading.title) {
    lines.push({ text: heading.title, font: PDF_FONTS.bold, size: 10, color: PDF_COLORS.text, step: 14 });
  }
  if (heading.subtitle) {
    lines.push({
      text: heading.subtitle,
      font: PDF_FONTS.regular,
      size: 8.5,
      color: PDF_COLORS.muted,
      step: 10,
    });
  }
  return lines;
}

/** The room a page heading takes, gap included: the top margin of pages that carry it is this much more. */
export function pageHeadingHeight(heading: PageHeading, language: Language): number {
  return headingLines(heading, language).reduce((sum, line) => sum + line.step, 0) + HEADING_GAP;
}

/**
 * The heading of a page, one line each (cut with an ellipsis, never wrapped, so its height is known):
 * the company's name, its details (VAT number, tax office, address, phone, e-mail), the title and subtitle.
 * Drawn from (left margin, `top`): the page's top margin should leave `pageHeadingHeight` for it.
 */
export function drawPageHeading(
  doc: PDFKit.PDFDocument,
  heading: PageHeading,
  language: Language,
  top: number,
): void {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  let y = top;
  inBottomMargin(doc, () => {
    for (const line of headingLines(heading, language)) {
      doc.font(line.font).fontSize(line.size).fillColor(line.color);
      doc.text(line.text, left, y, { width, lineBreak: false, ellipsis: '…' });
      y += line.step;
    }
  });
  doc.fillColor(PDF_COLORS.text);
}

/** A document's title (large, bold) and a muted line under it, in the flow of the page at `doc.y`. */
export function drawTitle(doc: PDFKit.PDFDocument, title: string, subtitle?: string): void {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc.font(PDF_FONTS.bold).fontSize(15).fillColor(PDF_COLORS.text).text(title, left, doc.y, { width });
  if (subtitle) {
    doc.font(PDF_FONTS.regular).fontSize(9).fillColor(PDF_COLORS.muted).text(subtitle, { width });
  }
  doc.fillColor(PDF_COLORS.text);
  doc.y += 8;
}

const FOOTER_SIZE = 7.5;

/** 'Σελίδα 2 από 5' / 'Page 2 of 5'. */
export function pageLabel(language: Language, n: number, m: number): string {
  return translate(language, 'pdf.page', { n, m });
}

export interface Footer {
  /** Left half, e.g. the document's title (cut with an ellipsis). */
  left?: string;
  /** Right half, right-aligned, e.g. the page number. */
  right?: string;
  /** From the page's bottom edge to the top of the footer's text; default the left margin + its size. */
  fromBottom?: number;
}

/** One footer line in the bottom margin of the current page. */
export function drawFooter(doc: PDFKit.PDFDocument, footer: Footer): void {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const y = doc.page.height - (footer.fromBottom ?? left + FOOTER_SIZE);
  inBottomMargin(doc, () => {
    doc.font(PDF_FONTS.regular).fontSize(FOOTER_SIZE).fillColor(PDF_COLORS.muted);
    if (footer.left) {
      doc.text(footer.left, left, y, { width: width / 2, lineBreak: false, ellipsis: '…', height: 10 });
    }
    if (footer.right) {
      doc.text(footer.right, left + width / 2, y, { width: width / 2, align: 'right', lineBreak: false });
    }
  });
  doc.fillColor(PDF_COLORS.text);
}

/**
 * Footers of a document whose pages were buffered: `left` and the page number ('Σελίδα N από M', or
 * `label`) on every page, now that the total is known. Call last, before `doc.end()`.
 */
export function drawPageFooters(
  doc: PDFKit.PDFDocument,
  language: Language,
  left?: string,
  label: (n: number, m: number) => string = (n, m) => pageLabel(language, n, m),
): void {
  const range = doc.bufferedPageRange();
  for (let page = range.start; page < range.start + range.count; page++) {
    doc.switchToPage(page);
    drawFooter(doc, { left, right: label(page - range.start + 1, range.count) });
  }
}
