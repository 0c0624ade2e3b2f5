import { amountString, Decimal, FINALIZED, type FinanceDocument } from '@protocol/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { auditInsert } from '../../platform/audit.ts';
import type { Principal } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import {
  assertEditable,
  createdAudit,
  type DocumentRow,
  describe,
  documentOf,
  financeErrors,
  seriesOf,
} from './documents.service.ts';
import {
  financeDocumentLines,
  financeDocuments,
  financeSeries,
  financeSeriesCounters,
  financeStockMoves,
} from './finance.schema.ts';

/**
 * Finalizing (οριστικοποίηση): the document gets the series' next number for the year of its date and
 * becomes immutable. The number comes from the series' counter row (`INSERT … ON CONFLICT DO UPDATE
 * SET last = last + 1 RETURNING`), the protocol's pattern: the row lock makes concurrent finalizes in
 * a series take turns, and a failure rolls the increment back, so numbers never skip nor repeat. The
 * counter statement is the transaction's last, so the lock is held for the commit only.
 */

/**
 * Stock moves of an item document: out (−) for a debit series, in (+) for a credit series (a credit
 * note brings items back, a goods receipt brings them in). The
 * result of a transformation moves nothing when its sources (delivery notes) already moved the stock.
 */
async function moveStock(tx: Tx, row: DocumentRow, debitCredit: number): Promise<void> {
  const [movedBySources] = await tx
    .select({ id: financeDocuments.id })
    .from(financeDocuments)
    .innerJoin(financeSeries, eq(financeSeries.id, financeDocuments.seriesId))
    .where(and(eq(financeDocuments.transformedIntoId, row.id), eq(financeSeries.movesStock, true)))
    .limit(1);
  if (movedBySources) return;
  const lines = await tx
    .select()
    .from(financeDocumentLines)
    .where(eq(financeDocumentLines.documentId, row.id));
  const sign = debitCredit === 2 ? 1 : -1;
  const moves = lines
    .filter((line) => line.itemId !== null && line.warehouseId !== null)
    .map((line) => ({
      companyId: row.companyId,
      itemId: line.itemId as number,
      warehouseId: line.warehouseId as number,
      documentId: row.id,
      quantity: amountString(new Decimal(line.quantity).times(sign), 'quantity'),
    }));
  if (moves.length > 0) await tx.insert(financeStockMoves).values(moves);
}

/**
 * Takes the number and finalizes in one statement. `last_date` keeps the latest finalized date of the
 * series and year: with checkdates, a date earlier than it is refused (the statement's answer says so,
 * and the thrown error rolls the number back).
 */
async function takeNumber(tx: Tx, principal: Principal, row: DocumentRow, checkdates: boolean) {
  const year = Number(row.date.slice(0, 4));
  const result = await tx.execute(sql`
    WITH taken AS (
      INSERT INTO ${financeSeriesCounters} (series_id, year, last, last_date)
      VALUES (${row.seriesId}, ${year}, 1, ${row.date}::date)
      ON CONFLICT (series_id, year) DO UPDATE
        SET last = ${financeSeriesCounters}.last + 1,
            last_date = greatest(${financeSeriesCounters}.last_date, excluded.last_date)
      RETURNING last, last_date
    )
    UPDATE finance_documents
    SET number = taken.last, year = ${year}, entry_state = ${FINALIZED},
      defuser = ${principal.username}, defdate = clock_timestamp()
    FROM taken
    WHERE finance_documents.id = ${row.id}
    RETURNING taken.last AS number, taken.last_date::text AS last_date, finance_documents.defdate`);
  const taken = (result as unknown as { rows: { number: number; last_date: string; defdate: string }[] })
    .rows[0];
  if (!taken) throw new Error('the counter returned no number');
  if (checkdates && taken.last_date > row.date) {
    throw new AppError(409, financeErrors.dateBeforeLast, { date: taken.last_date });
  }
  return {
    ...row,
    number: taken.number,
    year,
    entryState: FINALIZED,
    defuser: principal.username,
    defdate: new Date(taken.defdate),
  };
}

export async function finalizeFinanceDocument(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number,
  requestId: string,
): Promise<FinanceDocument> {
  return db.transaction(async (tx) => {
    const row = await documentOf(tx, companyId, id, true);
    return describe(tx, await finalizeRow(tx, principal, row, requestId));
  });
}

async function finalizeRow(tx: Tx, principal: Principal, row: DocumentRow, requestId: string) {
  assertEditable(row);
  const series = await seriesOf(tx, row.companyId, row.seriesId);
  if (!series) throw new AppError(409, financeErrors.finalized);
  if (series.movesStock) await moveStock(tx, row, series.debitCredit);
  await auditInsert(tx, [{ ...createdAudit(row, principal, requestId), action: 'finalized' }]);
  return takeNumber(tx, principal, row, series.checkdates);
}
