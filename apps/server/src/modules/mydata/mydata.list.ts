import { type AadeError, type MydataDocumentListItem, mydataDocumentsCatalog } from '@protocol/contracts';
import { and, count, eq, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { financeDocuments, financeSeries } from '../finance/finance.schema.ts';
import { mydataDocuments } from './mydata.schema.ts';

/** The finalized finance documents of a company that myDATA concerns (their series has an invoice type). */
export const transmittableOfCompany = (companyId: number): SQL =>
  and(
    eq(financeDocuments.companyId, companyId),
    eq(financeDocuments.entryState, 9),
    isNotNull(financeSeries.mydataType),
  ) as SQL;

const v = mydataDocuments;
const errorText = sql<
  string | null
>`(SELECT string_agg(e->>'code' || ' ' || (e->>'message'), '; ') FROM jsonb_array_elements(${v.errors}) e)`;

/** GET /api/mydata/documents/search: documents and water bills by transmission state. */
export function mydataDocumentsList(db: Db) {
  const columns = {
    id: v.id,
    source: v.source,
    seriesCode: v.seriesCode,
    number: v.number,
    year: v.year,
    date: v.date,
    invoiceType: v.invoiceType,
    traderName: v.traderName,
    gross: v.gross,
    state: v.state,
    mark: v.mark,
    errorText,
  };
  return defineList<MydataDocumentListItem>({
    catalog: mydataDocumentsCatalog,
    columns: {
      ...columns,
      date: { day: sql`${v.date}` },
      traderName: { value: v.traderName, normalized: v.traderNameNorm },
    },
    id: v.key,
    async fetch(where, orderBy, limit, offset) {
      return db
        .select({ ...columns, errors: sql<AadeError[]>`coalesce(${v.errors}, '[]'::jsonb)` })
        .from(v)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset) as unknown as Promise<MydataDocumentListItem[]>;
    },
    async ids(where, orderBy) {
      const rows = await db
        .select({ id: v.key })
        .from(v)
        .where(where)
        .orderBy(...orderBy);
      return rows.map((row) => row.id);
    },
    async count(where) {
      const [row] = await db.select({ n: count() }).from(v).where(where);
      return row?.n ?? 0;
    },
  });
}
