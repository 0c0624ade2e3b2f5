import {
  type Bill,
  describeBillLine,
  formatDecimal,
  formatMoney,
  formatRf,
  type Language,
  PERIOD_CHARGE_KIND,
  writtenCode,
} from '@protocol/contracts';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { formatDate } from '../../platform/exports/format.ts';
import { translate } from '../../platform/i18n.ts';
import {
  createPdf,
  drawBarcode,
  drawChart,
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
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { waterMeterInstallations, waterMeters } from '../water/meters.schema.ts';
import { billPrintExtras } from './api.ts';
import { billsOfConsumer, getBill } from './bills.service.ts';

const MARGIN = 40;

/** The bill's printed number: `ΛΥΔ-17/2026`, or the draft's mark before it is finalized. */
export function billNumber(bill: Bill, language: Language): string {
  return bill.number === null
    ? translate(language, 'billing.pdf.draft')
    : `${bill.series}-${bill.number}/${bill.year}`;
}

/** What one bill's print needs beside the bill: the company, the meter, the chart's periods, extras. */
async function billPrintData(db: Db, companyId: number, id: number, language: Language) {
  const bill = await getBill(db, companyId, id);
  const company = await printedCompany(db, companyId);
  const [meter] = await db
    .select({ serial: waterMeters.serialNumber })
    .from(waterMeterInstallations)
    .innerJoin(waterMeters, eq(waterMeters.id, waterMeterInstallations.meterId))
    .where(and(eq(waterMeterInstallations.consumerId, bill.consumerId)))
    .orderBy(desc(waterMeterInstallations.installedOn))
    .limit(1);
  // The chart's periods: the period charges only (a credit is no consumption of its own), and of a
  // replaced bill its corrected bill only.
  const history = (await billsOfConsumer(db, companyId, bill.consumerId, bill.periodFrom, 12))
    .filter((h) => h.kind === PERIOD_CHARGE_KIND && h.replacedById === null)
    .slice(0, 6)
    .reverse();
  const extras = await billPrintExtras(db, id, language);
  // Whom the bill goes to when it is not the owner, and where the post takes it.
  const [recipient] = await db
    .select({ receiver: traders.fullname, mailingAddress: waterConsumers.mailingAddress })
    .from(waterConsumers)
    .leftJoin(traders, eq(traders.id, waterConsumers.receiverId))
    .where(eq(waterConsumers.id, bill.consumerId));
  return { bill, company, meter, history, extras, recipient };
}
type BillPrintData = Awaited<ReturnType<typeof billPrintData>>;

function headingOf({ bill, company }: BillPrintData, language: Language) {
  const p = (key: string) => translate(language, `billing.pdf.${key}`);
  return {
    company: company,
    title: `${p(bill.corrects ? 'creditTitle' : bill.replaces ? 'correctedTitle' : 'title')}  ${billNumber(bill, language)}`,
    subtitle: `${p('period')}: ${bill.periodLabel} (${formatDate(bill.periodFrom)} – ${formatDate(bill.periodTo)})`,
  };
}

const marginsOf = (data: BillPrintData, language: Language) => ({
  top: MARGIN + pageHeadingHeight(headingOf(data, language), language),
  left: MARGIN,
  right: MARGIN,
  bottom: MARGIN,
});

/** Reads the finished document into one buffer. */
async function bytesOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A stored bill as a citizen expects it on paper: the utility's heading and ΑΦΜ, the bill's number,
 * dates and period, the consumer, meter and readings, every charge line with its VAT, the VAT
 * breakdown, previous balance and total, the RF payment code with its barcode, and the consumption
 * of the last six periods.
 */
export async function printBill(db: Db, companyId: number, id: number, language: Language) {
  const data = await billPrintData(db, companyId, id, language);
  const { doc: pdf, stream } = createPdf({
    language,
    title: headingOf(data, language).title,
    margins: marginsOf(data, language),
  });
  await drawBill(pdf, data, language);
  pdf.end();
  const fileName =
    `${data.bill.corrects ? 'credit' : 'bill'}-${writtenCode(data.bill.consumerCode)}-${data.bill.periodFrom}.pdf`.replace(
      /[^\w.-]/g,
      '_',
    );
  return { fileName, buffer: await bytesOf(stream) };
}

/**
 * Many bills in one PDF for printing, each from a new page, in the order given; the bytes flow to
 * the returned stream as the bills are drawn (a route's file is never held in memory whole).
 */
export function printBills(
  db: Db,
  companyId: number,
  ids: readonly number[],
  language: Language,
  title: string,
  onBill?: (done: number) => void,
) {
  const pdf = createPdf({
    language,
    title,
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN },
    autoFirstPage: false,
  });
  const done = (async () => {
    for (const [i, id] of ids.entries()) {
      const data = await billPrintData(db, companyId, id, language);
      pdf.doc.addPage({ size: 'A4', margins: marginsOf(data, language) });
      await drawBill(pdf.doc, data, language);
      onBill?.(i + 1);
    }
    pdf.doc.end();
  })();
  done.catch((error: unknown) => pdf.fail(error));
  return pdf.stream;
}

/** Draws one bill from the top of the current page (its top margin leaves room for the heading). */
async function drawBill(pdf: PDFKit.PDFDocument, data: BillPrintData, language: Language) {
  const { bill, meter, history, extras, recipient } = data;
  const t = (key: string, params?: Record<string, string | number>) => translate(language, key, params);
  const p = (key: string, params?: Record<string, string | number>) => t(`billing.pdf.${key}`, params);
  const money = (value: string) => formatMoney(value, language);
  const top = pdf.page.margins.top;
  drawPageHeading(pdf, headingOf(data, language), language, MARGIN);

  const reading = (value: number | null, date: string | null) =>
    value === null ? '—' : `${formatDecimal(value, language)}${date ? ` (${formatDate(date)})` : ''}`;
  const consumption =
    bill.billedConsumption === bill.consumption
      ? `${formatDecimal(bill.consumption, language)} m³`
      : `${formatDecimal(bill.consumption, language)} m³ — ${p('minimum', { billed: formatDecimal(bill.billedConsumption, language) })}`;
  const below = drawFields(
    pdf,
    [
      [p('consumerCode'), writtenCode(bill.consumerCode)],
      [p('owner'), bill.ownerName],
      ...(recipient?.receiver ? [[p('receiver'), recipient.receiver] as [string, string]] : []),
      [p('supplyAddress'), bill.supplyAddress],
      ...(recipient?.mailingAddress
        ? [[p('mailingAddress'), recipient.mailingAddress] as [string, string]]
        : []),
      [p('meter'), meter?.serial ?? '—'],
      [
        p('readings'),
        `${p('previousReading')}: ${reading(bill.previousReading, bill.previousDate)} · ${p('currentReading')}: ${reading(bill.currentReading, bill.currentDate)}`,
      ],
      [p('consumption'), consumption],
      [p('issueDate'), formatDate(bill.issueDate)],
      ...((bill.corrects
        ? [
            [
              p('corrects'),
              p('correctsValue', { number: bill.corrects.number, date: formatDate(bill.corrects.issueDate) }),
            ],
            [p('reason'), bill.reason ?? ''],
          ]
        : [[p('dueDate'), formatDate(bill.dueDate)]]) as [string, string][]),
      ...(bill.replaces
        ? [
            [
              p('replaces'),
              p('replacesValue', {
                number: bill.replaces.number,
                date: formatDate(bill.replaces.issueDate),
                credit: bill.replaces.credit,
              }),
            ] as [string, string],
          ]
        : []),
    ],
    top + 4,
    { labelWidth: 130, labelSize: 9, valueSize: 10, gap: 4 },
  );
  pdf.y = below + 6;

  const table = new PdfTable(pdf, {
    columns: [
      { label: p('description'), width: 255 },
      { label: p('quantity'), width: 65, align: 'right' },
      { label: p('price'), width: 60, align: 'right' },
      { label: p('vatPercent'), width: 55, align: 'right' },
      { label: p('amount'), width: 80, align: 'right' },
    ],
    fontSize: 8.5,
  });
  table.header();
  for (const line of bill.lines) {
    table.row([
      describeBillLine(line, t, formatDate),
      line.quantity === null ? '' : formatDecimal(line.quantity, language),
      // A price without a quantity is a percent (sewerage on the water value, a percent discount).
      line.price === null
        ? ''
        : line.quantity === null
          ? `${formatDecimal(line.price, language)}%`
          : formatDecimal(line.price, language, 2),
      line.charge === 'previousBalance' ? '' : `${formatDecimal(line.vatPercent, language)}%`,
      money(line.amount),
    ]);
  }
  pdf.moveDown(0.6);

  // The VAT breakdown on the left, the totals on the right, side by side.
  const blockTop = pdf.y;
  pdf.font(PDF_FONTS.bold).fontSize(9).fillColor(PDF_COLORS.text).text(p('vatBreakdown'), MARGIN, blockTop);
  pdf.font(PDF_FONTS.regular).fontSize(8.5);
  let y = pdf.y + 2;
  for (const [rate, net, vat] of [
    [p('vatRate'), p('net'), p('vat')],
    ...bill.vat.map((v) => [`${formatDecimal(v.vatPercent, language)}%`, money(v.net), money(v.vat)]),
  ]) {
    pdf.text(rate as string, MARGIN, y, { width: 70 });
    pdf.text(net as string, MARGIN + 70, y, { width: 80, align: 'right' });
    pdf.text(vat as string, MARGIN + 150, y, { width: 70, align: 'right' });
    y += 12;
  }
  pdf.y = blockTop;
  drawTotals(
    pdf,
    bill.corrects
      ? [
          { label: p('net'), value: money(bill.net) },
          { label: p('vat'), value: money(bill.vatTotal) },
          { label: p('creditTotal'), value: `${money(bill.total)} €`, strong: true },
        ]
      : [
          { label: p('net'), value: money(bill.net) },
          { label: p('vat'), value: money(bill.vatTotal) },
          { label: p('current'), value: money(bill.current) },
          { label: p('previousBalance'), value: money(bill.previousBalance) },
          { label: p('total'), value: `${money(bill.total)} €`, strong: true },
        ],
    240,
  );
  pdf.y = Math.max(pdf.y, y) + 10;
  drawRule(pdf, pdf.y);
  // What other modules add (myDATA's MARK, UID and QR code), between the totals and the payment slip.
  for (const extra of extras) {
    const extraTop = pdf.y + 8;
    if (extra.qr)
      await drawBarcode(
        pdf,
        { type: 'qrcode', text: extra.qr },
        { x: MARGIN, y: extraTop, width: 80, height: 80 },
      );
    const x = extra.qr ? MARGIN + 90 : MARGIN;
    pdf.y = extraTop;
    for (const [label, value] of extra.lines) {
      pdf.font(PDF_FONTS.regular).fontSize(8.5).fillColor(PDF_COLORS.muted);
      pdf.text(`${label}: `, x, pdf.y, { continued: true });
      pdf.font(PDF_FONTS.bold).fillColor(PDF_COLORS.text).text(value);
    }
    pdf.y = Math.max(pdf.y, extra.qr ? extraTop + 80 : extraTop) + 8;
    drawRule(pdf, pdf.y);
  }

  // A credit is not paid: no payment slip, a line saying where the amount went.
  if (bill.corrects) {
    pdf.font(PDF_FONTS.regular).fontSize(9).fillColor(PDF_COLORS.text);
    pdf.text(p('creditHint'), MARGIN, pdf.y + 10);
    return;
  }
  // The payment slip: RF code and its Code 128 barcode; the consumption chart beside it.
  const slipTop = pdf.y + 10;
  pdf.font(PDF_FONTS.bold).fontSize(10).fillColor(PDF_COLORS.text).text(p('rf'), MARGIN, slipTop);
  pdf
    .font(PDF_FONTS.bold)
    .fontSize(14)
    .text(formatRf(bill.rfCode), MARGIN, slipTop + 14);
  await drawBarcode(
    pdf,
    { type: 'code128', text: bill.rfCode, barHeight: 12, withText: false, scale: 2 },
    { x: MARGIN, y: slipTop + 36, width: 230, height: 46 },
  );
  pdf.font(PDF_FONTS.regular).fontSize(8).fillColor(PDF_COLORS.muted);
  pdf.text(p('rfHint'), MARGIN, slipTop + 88, { width: 230 });
  pdf.text(
    `${p('dueDate')}: ${formatDate(bill.dueDate)} · ${p('total')}: ${money(bill.total)} €`,
    MARGIN,
    pdf.y + 2,
    {
      width: 230,
    },
  );
  drawChart(
    pdf,
    {
      kind: 'bar',
      title: p('chart'),
      language,
      points: history.map((h) => ({ label: h.periodLabel, value: Number(h.billedConsumption) })),
    },
    { x: MARGIN + 270, y: slipTop, width: pdf.page.width - 2 * MARGIN - 270, height: 120 },
  );
}
