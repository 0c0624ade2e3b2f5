import { type MydataDocumentListItem, mydataDocumentsCatalog } from '@protocol/contracts';
import { and, count, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { financeDocuments, financeSeries } from '../finance/finance.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { mydataTransmissions } from './mydata.schema.ts';

/** The finalized documents of a company that myDATA concerns (their series has an invoice type). */
export const transmittableOfCompany = (companyId: number): SQL =>
  and(
    eq(financeDocuments.companyId, companyId),
    eq(financeDocuments.entryState, 9),
    isNotNull(financeSeries.mydataType),
  ) as SQL;

const state = sql<string>`coalesce(${mydataTransmissions.state}, 'notSent')`;
const errorText = sql<
  string | null
>`(SELECT string_agg(e->>'code' || ' ' || (e->>'message'), '; ') FROM jsonb_array_elements(${mydataTransmissions.errors}) e)`;

/** GET /api/mydata/documents/search: documents by transmission state (not sent, sent, failed, …). */
export function mydataDocumentsList(db: Db) {
  const columns = {
    id: financeDocuments.id,
    seriesCode: financeSeries.code,
    number: financeDocuments.number,
    year: financeDocuments.year,
    date: financeDocuments.date,
    invoiceType: financeSeries.mydataType,
    traderName: traders.fullname,
    gross: financeDocuments.payable,
    state,
    mark: mydataTransmissions.mark,
    errorText,
  };
  const joined = <T extends ReturnType<Db['select']>>(query: T) =>
    query
      .from(financeDocuments)
      .innerJoin(financeSeries, eq(financeSeries.id, financeDocuments.seriesId))
      .leftJoin(traders, eq(traders.id, financeDocuments.traderId))
      .leftJoin(mydataTransmissions, eq(mydataTransmissions.documentId, financeDocuments.id));
  return defineList<MydataDocumentListItem>({
    catalog: mydataDocumentsCatalog,
    columns: {
      ...columns,
      date: { day: sql`${financeDocuments.date}` },
      traderName: { value: traders.fullname, normalized: traders.fullnameNorm },
    },
    id: financeDocuments.id,
    async fetch(where, orderBy, limit, offset) {
      return joined(db.select(columns))
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset) as unknown as Promise<MydataDocumentListItem[]>;
    },
    async count(where) {
      const [row] = (await joined(db.select({ n: count() })).where(where)) as { n: number }[];
      return row?.n ?? 0;
    },
  });
}
