import { formatMoney, type Language, type Payment, writtenCode } from '@protocol/contracts';
import type { Tx } from '../../db/client.ts';
import { formatDate, formatDateTime } from '../../platform/exports/format.ts';
import { renderXlsx } from '../../platform/exports/xlsx.ts';
import { translate } from '../../platform/i18n.ts';
import {
  createPdf,
  drawFields,
  drawFooter,
  drawPageHeading,
  drawRule,
  drawTotals,
  PDF_COLORS,
  PDF_FONTS,
  PdfTable,
  pageHeadingHeight,
} from '../../platform/pdf/index.ts';
import { printedCompany } from '../companies/api.ts';
import { accountOf } from './account.service.ts';
import { getPayment } from './cashier.service.ts';
import { type DaySummary, daySummary } from './day-summary.ts';

/** The printed documents of payments: the receipt, the cashier's day summary (Z) and the statement. */

const MARGIN = 40;

async function render(
  tx: Tx,
  companyId: number,
  language: Language,
  title: string,
  subtitle: string,
  draw: (pdf: PDFKit.PDFDocument, top: number) => void,
): Promise<Buffer> {
  const heading = { company: await printedCompany(tx, companyId), title, subtitle };
  const top = MARGIN + pageHeadingHeight(heading, language);
  const { doc: pdf, stream } = createPdf({
    language,
    title,
    margins: { top, left: MARGIN, right: MARGIN, bottom: MARGIN + 20 },
  });
  drawPageHeading(pdf, heading, language, MARGIN);
  draw(pdf, top);
  drawFooter(pdf, {
    right: translate(language, 'payments.pdf.printed', { at: formatDateTime(new Date()) }),
    fromBottom: MARGIN,
  });
  pdf.end();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const safeName = (name: string) => name.replace(/[^\w.-]/g, '_');

/** The receipt (απόδειξη είσπραξης): its number, the consumer, the amount and what it paid. */
export async function printReceipt(tx: Tx, companyId: number, id: number, language: Language) {
  const payment: Payment = await getPayment(tx, companyId, id);
  const t = (key: string, params?: Record<string, string | number>) =>
    translate(language, `payments.pdf.${key}`, params);
  const money = (value: string) => `${formatMoney(value, language)} €`;
  const number = `${payment.receiptNumber}/${payment.receiptYear}`;
  const title = payment.kind === 17 ? t('returnTitle', { number }) : t('receiptTitle', { number });
  const kind =
    payment.kind === null
      ? translate(language, 'payments.entry.payment')
      : `${translate(language, `payments.kind.${payment.kind}`)} (${payment.kind})`;
  const buffer = await render(tx, companyId, language, title, formatDate(payment.date), (pdf, top) => {
    const below = drawFields(
      pdf,
      [
        [t('consumer'), `${writtenCode(payment.consumerCode)} · ${payment.ownerName}`],
        [t('kind'), kind],
        [t('method'), translate(language, `payments.method.${payment.method}`)],
        [t('date'), formatDate(payment.date)],
        [t('cashier'), payment.cashier],
        ...(payment.reference ? [[t('reference'), payment.reference] as [string, string]] : []),
        ...(payment.note ? [[t('note'), payment.note] as [string, string]] : []),
      ],
      top + 4,
      { labelWidth: 130, labelSize: 9, valueSize: 10, gap: 4 },
    );
    pdf.y = below + 8;
    if (payment.allocations.length > 0) {
      const table = new PdfTable(pdf, {
        columns: [
          { label: t('debt'), width: 300 },
          { label: t('rf'), width: 135 },
          { label: t('amount'), width: 80, align: 'right' },
        ],
        fontSize: 9,
      });
      table.header();
      for (const a of payment.allocations) table.row([a.description, a.rfCode, money(a.amount)]);
      pdf.moveDown(0.6);
    }
    drawTotals(
      pdf,
      [
        ...(payment.unallocated !== '0.00'
          ? [{ label: t('credit'), value: money(payment.unallocated) }]
          : []),
        { label: t('total'), value: money(payment.amount), strong: true },
      ],
      240,
    );
    drawRule(pdf, pdf.y + 8);
  });
  return { fileName: safeName(`receipt-${payment.receiptYear}-${payment.receiptNumber}.pdf`), buffer };
}

/** The cashier's day (Z): receipts of the day, totals per method, returns taken off. */
export async function printDaySummary(
  tx: Tx,
  companyId: number,
  request: { date: string; cashier: string },
  language: Language,
) {
  const summary: DaySummary = await daySummary(tx, companyId, request.date, request.cashier);
  const t = (key: string, params?: Record<string, string | number>) =>
    translate(language, `payments.pdf.${key}`, params);
  const money = (value: string) => `${formatMoney(value, language)} €`;
  const title = t('zTitle', { date: formatDate(summary.date) });
  const buffer = await render(
    tx,
    companyId,
    language,
    title,
    `${t('cashier')}: ${summary.cashier}`,
    (pdf, top) => {
      pdf.y = top + 4;
      const table = new PdfTable(pdf, {
        columns: [
          { label: t('receipt'), width: 70 },
          { label: t('consumer'), width: 230 },
          { label: t('method'), width: 120 },
          { label: t('amount'), width: 95, align: 'right' },
        ],
        fontSize: 8.5,
      });
      table.header();
      for (const r of summary.receipts) {
        table.row([
          `${r.receiptNumber}/${r.receiptYear}`,
          `${writtenCode(r.consumerCode)} · ${r.ownerName}`,
          translate(language, `payments.method.${r.method}`) + (r.kind === 17 ? ` (${t('return')})` : ''),
          money(r.kind === 17 ? `-${r.amount}` : r.amount),
        ]);
      }
      pdf.moveDown(0.8);
      drawTotals(
        pdf,
        [
          ...summary.byMethod.map((m) => ({
            label: `${translate(language, `payments.method.${m.method}`)} (${m.count})`,
            value: money(m.total),
          })),
          { label: t('count', { count: summary.count }), value: money(summary.total), strong: true },
        ],
        240,
      );
      pdf.font(PDF_FONTS.regular).fontSize(10).fillColor(PDF_COLORS.muted);
      pdf.text(t('signature'), MARGIN, pdf.y + 40);
    },
  );
  return { fileName: safeName(`z-${summary.cashier}-${summary.date}.pdf`), buffer };
}

/** The consumer's statement (καρτέλα): the ledger with running balance, then the open debts and interest. */
export async function printStatement(tx: Tx, companyId: number, consumerId: number, language: Language) {
  const account = await accountOf(tx, companyId, consumerId);
  const t = (key: string, params?: Record<string, string | number>) =>
    translate(language, `payments.pdf.${key}`, params);
  const money = (value: string) => formatMoney(value, language);
  const { consumer } = account;
  const title = t('statementTitle');
  const subtitle = `${writtenCode(consumer.code)} · ${consumer.ownerName} · ${t('asOf', { date: formatDate(account.asOf) })}`;
  const buffer = await render(tx, companyId, language, title, subtitle, (pdf, top) => {
    const below = drawFields(
      pdf,
      [
        [t('consumer'), `${writtenCode(consumer.code)} · ${consumer.ownerName}`],
        [t('vatNumber'), consumer.vatNumber ?? '—'],
        [t('supplyAddress'), consumer.supplyAddress],
      ],
      top + 4,
      { labelWidth: 130, labelSize: 9, valueSize: 10, gap: 4 },
    );
    pdf.y = below + 8;
    const ledger = new PdfTable(pdf, {
      columns: [
        { label: t('date'), width: 60 },
        { label: t('entry'), width: 95 },
        { label: t('description'), width: 170 },
        { label: t('debit'), width: 60, align: 'right' },
        { label: t('credit'), width: 60, align: 'right' },
        { label: t('balance'), width: 70, align: 'right' },
      ],
      fontSize: 8,
    });
    ledger.header();
    for (const e of account.entries) {
      ledger.row([
        formatDate(e.date),
        translate(language, `payments.entry.${e.type}`),
        e.description,
        e.debit === '0.00' ? '' : money(e.debit),
        e.credit === '0.00' ? '' : money(e.credit),
        money(e.balance),
      ]);
    }
    pdf.moveDown(0.8);
    if (account.debts.length > 0) {
      pdf.font(PDF_FONTS.bold).fontSize(10).fillColor(PDF_COLORS.text).text(t('openDebts'), MARGIN);
      pdf.moveDown(0.3);
      const debts = new PdfTable(pdf, {
        columns: [
          { label: t('description'), width: 175 },
          { label: t('dueDate'), width: 65 },
          { label: t('rf'), width: 140 },
          { label: t('remaining'), width: 65, align: 'right' },
          { label: t('interest'), width: 70, align: 'right' },
        ],
        fontSize: 8,
      });
      debts.header();
      for (const d of account.debts) {
        debts.row([d.description, formatDate(d.dueDate), d.rfCode, money(d.remaining), money(d.interest)]);
      }
      pdf.moveDown(0.6);
    }
    drawTotals(
      pdf,
      [
        { label: t('due'), value: `${money(account.due)} €` },
        ...(account.interestEnabled
          ? [{ label: t('interestApart'), value: `${money(account.interest)} €` }]
          : []),
        { label: t('balance'), value: `${money(account.balance)} €`, strong: true },
      ],
      240,
    );
  });
  return { fileName: safeName(`statement-${writtenCode(consumer.code)}-${account.asOf}.pdf`), buffer };
}

/** The statement as an Excel sheet: the ledger lines with their running balance. */
export async function statementXlsx(tx: Tx, companyId: number, consumerId: number, language: Language) {
  const account = await accountOf(tx, companyId, consumerId);
  const t = (key: string) => translate(language, `payments.pdf.${key}`);
  const rows = account.entries.map((e) => ({
    date: e.date,
    entry: translate(language, `payments.entry.${e.type}`),
    kind: e.kind,
    description: e.description,
    debit: e.debit,
    credit: e.credit,
    balance: e.balance,
  }));
  const stream = renderXlsx({
    format: 'excel',
    title: `${t('statementTitle')} ${writtenCode(account.consumer.code)}`.slice(0, 80),
    language,
    columns: [
      { id: 'date', label: t('date'), type: 'date' },
      { id: 'entry', label: t('entry'), type: 'text' },
      { id: 'kind', label: t('kind'), type: 'number' },
      { id: 'description', label: t('description'), type: 'text' },
      { id: 'debit', label: t('debit'), type: 'money' },
      { id: 'credit', label: t('credit'), type: 'money' },
      { id: 'balance', label: t('balance'), type: 'money' },
    ],
    rows: (async function* () {
      yield rows;
    })(),
  });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return {
    fileName: safeName(`statement-${writtenCode(account.consumer.code)}-${account.asOf}.xlsx`),
    buffer: Buffer.concat(chunks),
  };
}
