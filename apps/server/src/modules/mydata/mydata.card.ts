import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { DashboardCard } from '../../platform/dashboard.ts';
import { billingBills } from '../billing/billing.schema.ts';
import { financeDocuments, financeSeries } from '../finance/finance.schema.ts';
import { mydataTransmissions, mydataUnsent } from './mydata.schema.ts';

/** A finalized document or bill of a series with a myDATA type: the view mydata_documents' rows. */
const concerned = (table: typeof financeDocuments | typeof billingBills) => sql`EXISTS (
  SELECT 1 FROM ${table} JOIN ${financeSeries} ON ${financeSeries.id} = ${table.seriesId}
   WHERE ${table.id} = ${mydataTransmissions.documentId} AND ${table.entryState} = 9
     AND ${financeSeries.mydataType} IS NOT NULL)`;

/**
 * What the card counts, exactly as mydata_documents shows it: the rows of mydata_unsent (kept by
 * triggers, migration 0029) and the transmissions that failed or ended without an answer, each
 * found by its company's index. The work grows with what is pending, not with years of bills.
 */
export const pendingCounts = (companyId: number): SQL => sql`SELECT
  (SELECT count(*) FROM ${mydataUnsent} WHERE ${mydataUnsent.companyId} = ${companyId})::int AS unsent,
  (SELECT count(*) FROM ${mydataTransmissions}
    WHERE ${mydataTransmissions.companyId} = ${companyId}
      AND ${mydataTransmissions.state} IN ('failed', 'uncertain')
      AND CASE ${mydataTransmissions.source} WHEN 'bill' THEN ${concerned(billingBills)}
          ELSE ${concerned(financeDocuments)} END)::int AS failed`;

async function load(db: Db, companyId: number) {
  const result = await db.execute(pendingCounts(companyId));
  const [row] = (result as unknown as { rows: { unsent: number; failed: number }[] }).rows;
  const failed = row?.failed ?? 0;
  return { pending: (row?.unsent ?? 0) + failed, failed };
}

/** The dashboard card: documents and bills still to send to myDATA, and how many of them failed. */
export const mydataPendingCard: DashboardCard = {
  key: 'mydataPending',
  requires: 'mydata:read',
  load: ({ db, companyId }) => load(db, companyId),
};
