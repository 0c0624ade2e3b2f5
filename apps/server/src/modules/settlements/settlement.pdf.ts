import { Decimal, formatMoney, formatRf, type Language, writtenCode } from '@protocol/contracts';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { formatDate } from '../../platform/exports/format.ts';
import { translate } from '../../platform/i18n.ts';
import {
  createPdf,
  drawFields,
  drawPageHeading,
  drawTotals,
  PDF_COLORS,
  PDF_FONTS,
  PdfTable,
  pageHeadingHeight,
} from '../../platform/pdf/index.ts';
import { printedCompany } from '../companies/api.ts';
import { settlementCategories, settlements } from './settlements.schema.ts';
import { getSettlement } from './settlements.service.ts';

const MARGIN = 40;

/**
 * The settlement decision the consumer signs: the utility's heading, the consumer, the debts
 * settled, interest, discount and total, the down payment and each instalment with its due date and
 * RF code, the terms of cancellation from its category, and the two signatures.
 */
export async function printSettlement(db: Db, companyId: number, id: number, language: Language) {
  const s = await getSettlement(db, companyId, id);
  const company = await printedCompany(db, companyId);
  const [category] = await db
    .select({ days: settlementCategories.toleranceDays, count: settlementCategories.toleranceInstalments })
    .from(settlements)
    .innerJoin(settlementCategories, eq(settlementCategories.id, settlements.categoryId))
    .where(eq(settlements.id, id));
  const p = (key: string, params?: Record<string, string | number>) =>
    translate(language, `settlements.pdf.${key}`, params);
  const money = (value: string) => formatMoney(value, language);
  const number = `${s.nr}/${s.year}`;
  const heading = {
    company: company,
    title: p('title', { number }),
    subtitle: `${p('date')}: ${formatDate(s.date)} · ${translate(language, `settlements.status_${s.status}`)}`,
  };
  const top = MARGIN + pageHeadingHeight(heading, language);
  const { doc: pdf, stream } = createPdf({
    language,
    title: heading.title,
    margins: { top, left: MARGIN, right: MARGIN, bottom: MARGIN },
  });
  drawPageHeading(pdf, heading, language, MARGIN);
  pdf.y =
    drawFields(
      pdf,
      [
        [p('code'), writtenCode(s.consumerCode)],
        [p('consumer'), s.consumerName ?? ''],
        [p('category'), s.categoryDescription],
      ],
      top + 4,
      { labelWidth: 130, labelSize: 9, valueSize: 10, gap: 4 },
    ) + 8;

  const heading2 = (text: string) => {
    pdf.font(PDF_FONTS.bold).fontSize(10).fillColor(PDF_COLORS.text).text(text, MARGIN, pdf.y);
    pdf.moveDown(0.3);
  };
  heading2(p('debts'));
  const debts = new PdfTable(pdf, {
    columns: [
      { label: p('debt'), width: 335 },
      { label: p('dueDate'), width: 90 },
      { label: p('amount'), width: 90, align: 'right' },
    ],
    fontSize: 8.5,
  });
  debts.header();
  for (const d of s.debts) debts.row([d.description, formatDate(d.dueDate), money(d.remaining)]);
  pdf.moveDown(0.5);
  drawTotals(
    pdf,
    [
      { label: p('debtsTotal'), value: money(s.debtsTotal) },
      { label: p('interest'), value: money(s.interest) },
      {
        label: `${p('discount')} (${formatMoney(s.discountPercent, language)}%)`,
        value: new Decimal(s.discount).isZero() ? money(s.discount) : `−${money(s.discount)}`,
      },
      { label: p('total'), value: `${money(s.amount)} €`, strong: true },
    ],
    240,
  );
  pdf.moveDown(0.8);

  heading2(p('plan'));
  const plan = new PdfTable(pdf, {
    columns: [
      { label: p('instalmentNo'), width: 110 },
      { label: p('dueDate'), width: 90 },
      { label: p('rf'), width: 225 },
      { label: p('amount'), width: 90, align: 'right' },
    ],
    fontSize: 8.5,
  });
  plan.header();
  for (const line of s.lines) {
    plan.row([
      line.number === 0 ? p('downPayment') : String(line.number),
      formatDate(line.dueDate),
      formatRf(line.rfCode),
      money(line.amount),
    ]);
  }
  pdf.moveDown(0.8);
  pdf
    .font(PDF_FONTS.regular)
    .fontSize(9)
    .fillColor(PDF_COLORS.text)
    .text(p('terms', { days: category?.days ?? 0, count: category?.count ?? 0 }), MARGIN, pdf.y, {
      width: pdf.page.width - 2 * MARGIN,
      align: 'left',
    });

  // The signatures, kept together on one page.
  if (pdf.y + 90 > pdf.page.height - MARGIN) pdf.addPage();
  const signTop = pdf.y + 50;
  const half = (pdf.page.width - 2 * MARGIN) / 2;
  for (const [index, label] of [p('consumerSignature'), p('utilitySignature')].entries()) {
    const x = MARGIN + index * half + 20;
    pdf
      .moveTo(x, signTop)
      .lineTo(x + half - 40, signTop)
      .lineWidth(0.7)
      .strokeColor(PDF_COLORS.rule)
      .stroke();
    pdf
      .font(PDF_FONTS.regular)
      .fontSize(9)
      .fillColor(PDF_COLORS.muted)
      .text(label, x, signTop + 4, {
        width: half - 40,
        align: 'center',
      });
  }
  pdf.end();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { fileName: `settlement-${s.nr}-${s.year}.pdf`, buffer: Buffer.concat(chunks) };
}
