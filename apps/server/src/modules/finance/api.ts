import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { financeSeries, financeSeriesCounters } from './finance.schema.ts';

export { addDocumentPrintHook, type DocumentPrintExtra } from './documents.print-extras.ts';

/*
 * What other modules may ask of finance (see README "Adding a module"): a hook to print extras (myDATA's
 * MARK, UID and QR) on its documents; a series of the company and the next number of a series,
 * so that billing numbers its bills in the finance series (the water-bill series ΛΥΔ) rather than
 * with a numbering of its own.
 */

/** The company's active series of a kind (e.g. 'waterBill'), the lowest code first; null if none. */
export async function seriesOfKind(tx: Tx, companyId: number, kind: string) {
  const [series] = await tx
    .select({ id: financeSeries.id, code: financeSeries.code, checkdates: financeSeries.checkdates })
    .from(financeSeries)
    .where(
      and(
        eq(financeSeries.companyId, companyId),
        eq(financeSeries.kind, kind),
        eq(financeSeries.active, true),
      ),
    )
    .orderBy(financeSeries.code)
    .limit(1);
  return series ?? null;
}

/**
 * The latest date the series numbered in the year of `date`, null before its first number: what a
 * date-checked series (checkdates) refuses to number before.
 */
export async function lastNumberedDate(tx: Tx, seriesId: number, date: string): Promise<string | null> {
  const [counter] = await tx
    .select({ lastDate: financeSeriesCounters.lastDate })
    .from(financeSeriesCounters)
    .where(
      and(
        eq(financeSeriesCounters.seriesId, seriesId),
        eq(financeSeriesCounters.year, Number(date.slice(0, 4))),
      ),
    );
  return counter?.lastDate ?? null;
}

/**
 * The next number of a series in the year of `date`, with the counter row (`INSERT … ON CONFLICT DO
 * UPDATE SET last = last + 1 RETURNING`): the row lock makes concurrent callers take turns and a
 * rolled-back transaction gives its number back, so numbers never skip nor repeat. Call it last in the
 * transaction, so the lock is held for the commit only. `lastDate` is the series' latest numbered date
 * before this one (for checkdates).
 */
export async function nextNumber(
  tx: Tx,
  companyId: number,
  seriesId: number,
  date: string,
): Promise<{ number: number; year: number; lastDate: string | null }> {
  const year = Number(date.slice(0, 4));
  const [owned] = await tx
    .select({ id: financeSeries.id })
    .from(financeSeries)
    .where(and(eq(financeSeries.id, seriesId), eq(financeSeries.companyId, companyId)));
  if (!owned) throw new Error(`series ${seriesId} is not of company ${companyId}`);
  const result = await tx.execute(sql`
    WITH before AS (
      SELECT last_date FROM ${financeSeriesCounters} WHERE series_id = ${seriesId} AND year = ${year}
    )
    INSERT INTO ${financeSeriesCounters} (series_id, year, last, last_date)
    VALUES (${seriesId}, ${year}, 1, ${date}::date)
    ON CONFLICT (series_id, year) DO UPDATE
      SET last = ${financeSeriesCounters}.last + 1,
          last_date = greatest(${financeSeriesCounters}.last_date, excluded.last_date)
    RETURNING last, (SELECT last_date::text FROM before) AS last_date`);
  const row = (result as unknown as { rows: { last: number; last_date: string | null }[] }).rows[0];
  if (!row) throw new Error('the counter returned no number');
  return { number: row.last, year, lastDate: row.last_date };
}
