import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companies } from '../companies/companies.schema.ts';
import {
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
 * Where documents to transmit come from. Finance documents are the one source today; billing's
 * water bills are documents of a water-bill series and come through here once billing issues them,
 * and a source of another shape would add a loader of the same signature.
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
            net: financeDocumentLines.net,
            vatPercent: financeDocumentLines.vatPercent,
            vat: financeDocumentLines.vat,
          })
          .from(financeDocumentLines)
          .leftJoin(financeServices, eq(financeServices.id, financeDocumentLines.serviceId))
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
          .where(inArray(mydataTransmissions.documentId, related)),
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
            : { vatNumber: h.traderVat, country: h.traderCountry ?? 'GR', name: h.traderName },
        series: h.series,
        aa: String(h.number),
        issueDate: h.date,
        invoiceType: h.invoiceType,
        correlatedMark: h.relatedId ? (marks.find((m) => m.documentId === h.relatedId)?.mark ?? null) : null,
        paymentMethod: h.paymentMethod,
        lines: lines
          .filter((l) => l.documentId === h.id)
          .map((l) => ({ serviceCode: l.serviceCode, net: l.net, vatPercent: l.vatPercent, vat: l.vat })),
        taxes: taxes
          .filter((t) => t.documentId === h.id)
          .map(({ kind, percent, amount }) => ({ kind, percent, amount })),
        payable: h.payable,
      },
    ];
  });
};
