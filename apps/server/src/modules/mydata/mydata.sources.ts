import { Decimal, type MydataMappings, moneyString, vatOf } from '@protocol/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  type BillMydataDetails,
  type FinalizedBill,
  finalizedBillMydataDetails,
  finalizedBills,
} from '../billing/api.ts';
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
  settings: { branch: number; mappings: MydataMappings },
  ids: readonly number[],
) => Promise<MydataSourceDocument[]>;

/** myDATA's PaymentMethodType of a finance payment method: its mapping's, else its own code. */
const paymentTypeOf = (mappings: MydataMappings, method: number) =>
  mappings.paymentMethods?.find((row) => row.method === method)?.type ?? method;

/** A credit note linked to its original by MARK (a business's water-bill credit). */
const CREDIT_NOTE = '5.1';

/** Retail documents name no customer (myDATA refuses a counterpart on 11.x). */
const RETAIL = /^11\./;

/** Finalized finance documents whose series has a myDATA type, in the order asked. */
export const financeSource: DocumentSource = async (db, companyId, { branch, mappings }, ids) => {
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
  // One after another: `db` may be a transaction, one connection that runs one statement at a time.
  const lines =
    docIds.length === 0
      ? []
      : await db
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
          .orderBy(financeDocumentLines.documentId, financeDocumentLines.position);
  const taxes =
    docIds.length === 0
      ? []
      : await db
          .select({
            documentId: financeDocumentTaxes.documentId,
            kind: financeDocumentTaxes.kind,
            percent: financeDocumentTaxes.percent,
            amount: financeDocumentTaxes.amount,
          })
          .from(financeDocumentTaxes)
          .where(inArray(financeDocumentTaxes.documentId, docIds));
  const marks =
    related.length === 0
      ? []
      : await db
          .select({ documentId: mydataTransmissions.documentId, mark: mydataTransmissions.mark })
          .from(mydataTransmissions)
          .where(
            and(eq(mydataTransmissions.source, 'document'), inArray(mydataTransmissions.documentId, related)),
          );
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
        paymentMethod: paymentTypeOf(mappings, h.paymentMethod),
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
 * ΑΦΜ gets the mapping's business type (2.1) and is named as counterpart (a foreign one with its
 * address). The previous balance is not income and is not sent. A bill is due later: its payment
 * method is the mapping's (5, on credit).
 */
export const billSource: DocumentSource = async (db, companyId, { branch, mappings }, ids) => {
  // One after another: `db` may be a transaction, one connection that runs one statement at a time.
  const bills = await finalizedBills(db, companyId, ids);
  const details = await finalizedBillMydataDetails(db, companyId, ids);
  const [company] = await db
    .select({ vat: companies.vatnumber })
    .from(companies)
    .where(eq(companies.id, companyId));
  const corrected = bills.flatMap((b) => (b.correctsId === null ? [] : [b.correctsId]));
  const marks =
    corrected.length === 0
      ? []
      : await db
          .select({ documentId: mydataTransmissions.documentId, mark: mydataTransmissions.mark })
          .from(mydataTransmissions)
          .where(
            and(eq(mydataTransmissions.source, 'bill'), inArray(mydataTransmissions.documentId, corrected)),
          );
  return bills.flatMap((bill) => {
    if (!bill.invoiceType) return [];
    const business = Boolean(bill.owner.vatNumber && mappings.businessBillType);
    const credit = bill.correctsId !== null;
    // A credit (its series' 11.4 retail credit note) of a business's bill is a 5.1 linked by MARK.
    const invoiceType = business
      ? credit
        ? CREDIT_NOTE
        : (mappings.businessBillType as string)
      : bill.invoiceType;
    const detail = details.get(bill.id);
    // myDATA takes a credit note's amounts positive: its type says they are taken back.
    const sign = (v: string) => (credit ? moneyString(new Decimal(v).negated()) : v);
    const vat = bill.vat.map((v) => ({ vatPercent: v.vatPercent, net: sign(v.net), vat: sign(v.vat) }));
    const lines = (detail?.lines ?? []).map((l) => ({ ...l, amount: sign(l.amount) }));
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
                address: detail?.ownerAddress,
              }
            : null,
        series: bill.seriesCode,
        aa: String(bill.number),
        issueDate: bill.issueDate,
        invoiceType,
        correlatedMark: credit ? (marks.find((m) => m.documentId === bill.correctsId)?.mark ?? null) : null,
        paymentMethod: mappings.billPaymentMethod ?? 5,
        lines: chargeLines(lines, vat),
        taxes: [],
        payable: sign(moneyString(new Decimal(bill.net).plus(bill.vatTotal))),
      },
    ];
  });
};

type BillLine = BillMydataDetails['lines'][number];
type ChargeLine = MydataSourceDocument['lines'][number];

/**
 * A bill's lines as myDATA takes them: one per charge kind and VAT rate, each classified as its
 * kind. myDATA refuses negative amounts, so a discount nets into the charge it reduces (or, when
 * that leaves nothing to reduce, into the rate's largest charge). The VAT of a rate is the bill's,
 * as printed: each line's share half-up, the largest line taking the cent left over, so the lines
 * add up to the bill exactly.
 */
export function chargeLines(lines: readonly BillLine[], vat: FinalizedBill['vat']): ChargeLine[] {
  const out: ChargeLine[] = [];
  for (const rate of vat) {
    const ofRate = lines.filter(
      (l) => l.charge !== 'previousBalance' && new Decimal(l.vatPercent).eq(rate.vatPercent),
    );
    const byCharge = new Map<string, Decimal>();
    for (const l of ofRate) {
      const charge = l.charge === 'discount' ? l.target : l.charge;
      if (charge) byCharge.set(charge, (byCharge.get(charge) ?? new Decimal(0)).plus(l.amount));
    }
    const unplaced = ofRate
      .filter((l) => l.charge === 'discount' && !l.target)
      .reduce((acc, l) => acc.plus(l.amount), new Decimal(0));
    const largest = () => [...byCharge.entries()].sort((a, b) => b[1].comparedTo(a[1]))[0];
    for (const [charge, net] of [...byCharge.entries()])
      if (net.lt(0)) {
        byCharge.delete(charge);
        const top = largest();
        if (top) byCharge.set(top[0], top[1].plus(net));
      }
    const top = largest();
    if (top && !unplaced.isZero()) byCharge.set(top[0], top[1].plus(unplaced));
    const groups = [...byCharge.entries()].filter(([, net]) => !net.isZero() || byCharge.size === 1);
    // Lines without charges (an old bill) or a rate they do not add up to: the rate as one line.
    const sum = groups.reduce((acc, [, net]) => acc.plus(net), new Decimal(0));
    if (groups.length === 0 || !sum.eq(rate.net) || groups.some(([, net]) => net.lt(0))) {
      out.push({
        serviceCode: null,
        charge: null,
        net: rate.net,
        vatPercent: rate.vatPercent,
        vat: rate.vat,
      });
      continue;
    }
    const biggest = groups.reduce((a, b) => (b[1].gt(a[1]) ? b : a));
    let left = new Decimal(rate.vat);
    const shares = groups.map(([charge, net]) => {
      if (charge === biggest[0]) return { charge, net, vat: null as Decimal | null };
      const share = vatOf(net, rate.vatPercent);
      left = left.minus(share);
      return { charge, net, vat: share as Decimal | null };
    });
    for (const share of shares)
      out.push({
        serviceCode: null,
        charge: share.charge,
        net: moneyString(share.net),
        vatPercent: rate.vatPercent,
        vat: moneyString(share.vat ?? left),
      });
  }
  return out;
}
