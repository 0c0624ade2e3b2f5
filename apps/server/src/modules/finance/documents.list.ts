import { type FinanceDocumentListItem, financeDocumentsCatalog } from '@protocol/contracts';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { listSource } from '../../platform/list/source.ts';
import { traders } from '../traders/traders.schema.ts';
import { financeDocuments, financeSeries } from './finance.schema.ts';

/** The documents of one company. */
export const documentsOfCompany = (companyId: number): SQL => eq(financeDocuments.companyId, companyId);

/**
 * GET /api/finance/documents/search (export key FIN): the commercial documents (finance_documents);
 * water bills are billing's rows, listed under /invoices and sent with these from /mydata.
 */
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
  return defineList<FinanceDocumentListItem>({
    catalog: financeDocumentsCatalog,
    columns: {
      ...columns,
      date: { day: sql`${financeDocuments.date}` },
      traderName: { value: traders.fullname, normalized: traders.fullnameNorm },
      traderVatnumber: { value: traders.vatnumber, normalized: traders.vatnumberNorm },
    },
    id: financeDocuments.id,
    ...listSource(db, () =>
      db
        .select(columns)
        .from(financeDocuments)
        .innerJoin(financeSeries, eq(financeSeries.id, financeDocuments.seriesId))
        .leftJoin(traders, eq(traders.id, financeDocuments.traderId))
        .$dynamic(),
    ),
  });
}
