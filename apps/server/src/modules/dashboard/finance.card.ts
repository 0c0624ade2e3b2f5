import type { DashboardCards } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import type { DashboardCard } from '../../platform/dashboard.ts';
import { financeDocuments, financeSeries } from '../finance/finance.schema.ts';
import { mydataUnsent } from '../mydata/mydata.schema.ts';

type FinanceSummary = NonNullable<DashboardCards['financeSummary']>;

/**
 * Finance at a glance, in one statement: the finalized documents dated this month and their payable
 * total, a credit-side series (debit_credit 2: credit notes, goods received) counting against it —
 * the documents list filtered by date from the 1st and finalized shows the same rows — and the
 * finalized documents of a myDATA series still unsent (mydata_unsent's rows of source 'document').
 */
export const financeSummaryCard: DashboardCard = {
  key: 'financeSummary',
  requires: 'finance:read',
  async load({ db, companyId, today }) {
    const monthStart = `${today.slice(0, 8)}01`;
    const result = await db.execute(sql`SELECT
      (SELECT json_build_object('count', count(*)::int, 'total',
          coalesce(sum(CASE WHEN ${financeSeries.debitCredit} = 2 THEN -${financeDocuments.payable}
            ELSE ${financeDocuments.payable} END), 0)::numeric(14,2)::text)
        FROM ${financeDocuments} JOIN ${financeSeries} ON ${financeSeries.id} = ${financeDocuments.seriesId}
        WHERE ${financeDocuments.companyId} = ${companyId} AND ${financeDocuments.entryState} = 9
          AND ${financeDocuments.date} >= ${monthStart}::date AND ${financeDocuments.date} < ${monthStart}::date + interval '1 month') AS month,
      (SELECT count(*) FROM ${mydataUnsent}
        WHERE ${mydataUnsent.companyId} = ${companyId} AND ${mydataUnsent.source} = 'document')::int AS unsent`);
    const [row] = (result as unknown as { rows: FinanceSummary[] }).rows;
    return { month: row?.month ?? { count: 0, total: '0.00' }, unsent: Number(row?.unsent ?? 0) };
  },
};
