import { type FinanceDocumentListItem, financeDocumentsCatalog } from '@protocol/contracts';
import { count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { traders } from '../traders/traders.schema.ts';
import { financeDocuments, financeSeries } from './finance.schema.ts';

/** The documents of one company. */
export const documentsOfCompany = (companyId: number): SQL => eq(financeDocuments.companyId, companyId);

/** GET /api/finance/documents/search (export key FIN): documents of every series, water bills included. */
export function documentsList(db: Db) {
  const columns = {
    id: financeDocuments.id,
    seriesCode: financeSeries.code,
    seriesDescr: financeSeries.descr,
    seriesKind: financeSeries.kind,
    number: financeDocuments.number,
    year: financeDocuments.year,
    date: financeDocuments.date,
    traderName: traders.fullname,
    traderVatnumber: traders.vatnumber,
    net: financeDocuments.net,
    vat: financeDocuments.vat,
    payable: financeDocuments.payable,
    entryState: financeDocuments.entryState,
    status: financeDocuments.status,
  };
  const from = () =>
    db
      .select(columns)
      .from(financeDocuments)
      .innerJoin(financeSeries, eq(financeSeries.id, financeDocuments.seriesId))
      .leftJoin(traders, eq(traders.id, financeDocuments.traderId));
  return defineList<FinanceDocumentListItem>({
    catalog: financeDocumentsCatalog,
    columns: {
      ...columns,
      date: { day: sql`${financeDocuments.date}` },
      traderName: { value: traders.fullname, normalized: traders.fullnameNorm },
      traderVatnumber: { value: traders.vatnumber, normalized: traders.vatnumberNorm },
    },
    id: financeDocuments.id,
    async fetch(where, orderBy, limit, offset) {
      return from()
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset);
    },
    async count(where) {
      const [row] = await db
        .select({ n: count() })
        .from(financeDocuments)
        .innerJoin(financeSeries, eq(financeSeries.id, financeDocuments.seriesId))
        .leftJoin(traders, eq(traders.id, financeDocuments.traderId))
        .where(where);
      return row?.n ?? 0;
    },
  });
}
