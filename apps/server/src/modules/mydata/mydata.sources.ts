import { Decimal, type MydataMappings } from '@protocol/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { finalizedBills } from '../billing/api.ts';
import { companies } from '../companies/companies.schema.ts';
import {
  financeAccounts,
  financeDocumentLines,
  financeDocuments,
  financeDocumentTaxes,
  financeSeries,
  financeServices,
} from '../finance/finance.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { mydataTransmissions } from './mydata.schema.ts';
import type { MydataSourceDocument } from './mydata.xml.ts';

/**
 * Where documents to transmit come from: finance documents, and billing's water bills (documents
 * of the water-bill series kept in billing's tables). A loader answers the finalized ones among the
 * ids asked, in myDATA's terms.
 */
export type DocumentSource = (
  db: Db,
  companyId: number,
  branch: number,
  ids: readonly number[],
) => Promise<MydataSourceDocument[]>;

/** Retail documents name no customer (myDATA refuses a counterpart on 11.x). */
const RETAIL = /^11\./;

/** Finalized finance documents whose series has a myDATA type, in the order asked. */
export const financeSource: DocumentSource = async (db, companyId, branch, ids) => {
  if (ids.length === 0) return [];
  const heads = await db
    .select({
      id: financeDocuments.id,
      series: financeSeries.code,
      invoiceType: financeSeries.mydataType,
      number: financeDocuments.number,
      date: financeDocuments.date,
      paymentMethod: financeDocuments.paymentMethod,
      payable: financeDocuments.payable,
      relatedId: financeDocuments.relatedDocumentId,
      traderVat: traders.vatnumber,
      traderCountry: traders.country,
      traderName: traders.fullname,
      traderStreet: traders.address,
      traderZip: traders.zipcode,
      traderCity: traders.city,
      issuerVat: companies.vatnumber,
    })
    .from(financeDocuments)
    .innerJoin(financeSeries, eq(financeSeries.id, financeDocuments.seriesId))
    .innerJoin(companies, eq(companies.id, financeDocuments.companyId))
    .leftJoin(traders, eq(traders.id, financeDocuments.traderId))
    .where(
      and(
        eq(financeDocuments.companyId, companyId),
        inArray(financeDocuments.id, [...ids]),
        eq(financeDocuments.entryState, 9),
      ),
    );
  const docIds = heads.map((h) => h.id);
  const related = heads.flatMap((h) => (h.relatedId ? [h.relatedId] : []));
  const [lines, taxes, marks] = await Promise.all([
    docIds.length === 0
      ? []
      : db
          .select({
            documentId: financeDocumentLines.documentId,
            position: financeDocumentLines.position,
            serviceCode: financeServices.code,
            accountCode: financeAccounts.code,
            net: financeDocumentLines.net,
            vatPercent: financeDocumentLines.vatPercent,
            vat: financeDocumentLines.vat,
          })
          .from(financeDocumentLines)
          .leftJoin(financeServices, eq(financeServices.id, financeDocumentLines.serviceId))
          .leftJoin(financeAccounts, eq(financeAccounts.id, financeServices.accountId))
          .where(inArray(financeDocumentLines.documentId, docIds))
          .orderBy(financeDocumentLines.documentId, financeDocumentLines.position),
    docIds.length === 0
      ? []
      : db
          .select({
            documentId: financeDocumentTaxes.documentId,
            kind: financeDocumentTaxes.kind,
            percent: financeDocumentTaxes.percent,
            amount: financeDocumentTaxes.amount,
          })
          .from(financeDocumentTaxes)
          .where(inArray(financeDocumentTaxes.documentId, docIds)),
    related.length === 0
      ? []
      : db
          .select({ documentId: mydataTransmissions.documentId, mark: mydataTransmissions.mark })
          .from(mydataTransmissions)
          .where(
            and(eq(mydataTransmissions.source, 'document'), inArray(mydataTransmissions.documentId, related)),
          ),
  ]);
  const byId = new Map(heads.map((h) => [h.id, h]));
  return ids.flatMap((id) => {
    const h = byId.get(id);
    if (!h?.invoiceType || h.number === null) return [];
    const retail = RETAIL.test(h.invoiceType);
    return [
      {
        documentId: h.id,
        issuer: { vatNumber: h.issuerVat ?? '', branch },
        counterpart:
          retail || !h.traderVat
            ? null
            : {
                vatNumber: h.traderVat,
                country: h.traderCountry ?? 'GR',
                name: h.traderName,
                address: { street: h.traderStreet, postalCode: h.traderZip, city: h.traderCity },
              },
        series: h.series,
        aa: String(h.number),
        issueDate: h.date,
        invoiceType: h.invoiceType,
        correlatedMark: h.relatedId ? (marks.find((m) => m.documentId === h.relatedId)?.mark ?? null) : null,
        paymentMethod: h.paymentMethod,
        lines: lines
          .filter((l) => l.documentId === h.id)
          .map((l) => ({
            serviceCode: l.serviceCode,
            accountCode: l.accountCode,
            net: l.net,
            vatPercent: l.vatPercent,
            vat: l.vat,
          })),
        taxes: taxes
          .filter((t) => t.documentId === h.id)
          .map(({ kind, percent, amount }) => ({ kind, percent, amount })),
        payable: h.payable,
      },
    ];
  });
};

/**
 * Finalized water bills (numbered in the water-bill series, 11.2 by default). A consumer with an
 * ΑΦΜ gets the mapping's business type (2.1) and is named as counterpart. myDATA refuses negative
 * amounts, so the bill's charges go as one line per VAT rate from its VAT breakdown (a discount
 * nets into its rate), which adds up to the printed bill to the cent; the previous balance is not
 * income and is not sent. A bill is due later: paid on credit (payment method 5).
 */
export function billSource(mappings: MydataMappings): DocumentSource {
  return async (db, companyId, branch, ids) => {
    const [bills, [company]] = await Promise.all([
      finalizedBills(db, companyId, ids),
      db.select({ vat: companies.vatnumber }).from(companies).where(eq(companies.id, companyId)),
    ]);
    return bills.flatMap((bill) => {
      if (!bill.invoiceType) return [];
      const business = Boolean(bill.owner.vatNumber && mappings.businessBillType);
      const invoiceType = business ? (mappings.businessBillType as string) : bill.invoiceType;
      return [
        {
          documentId: bill.id,
          issuer: { vatNumber: company?.vat ?? '', branch },
          counterpart:
            business && !RETAIL.test(invoiceType)
              ? {
                  vatNumber: bill.owner.vatNumber ?? '',
                  country: bill.owner.country ?? 'GR',
                  name: bill.owner.name,
                }
              : null,
          series: bill.seriesCode,
          aa: String(bill.number),
          issueDate: bill.issueDate,
          invoiceType,
          correlatedMark: null,
          paymentMethod: 5,
          lines: bill.vat.map((rate) => ({
            serviceCode: null,
            net: rate.net,
            vatPercent: rate.vatPercent,
            vat: rate.vat,
          })),
          taxes: [],
          payable: new Decimal(bill.net).plus(bill.vatTotal).toFixed(2),
        },
      ];
    });
  };
}
