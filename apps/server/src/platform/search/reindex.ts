import { sql } from 'drizzle-orm';
import type { JobHandler } from '../jobs/jobs.ts';
import type { SearchSource } from './search.ts';

/** The job kind of a company's reindex: one at a time per company (its key). */
export const REINDEX_JOB = 'search.reindex';
export const reindexKey = (companyId: number) => `${REINDEX_JOB}:${companyId}`;

/** Rows recomputed per statement: each batch commits on its own, searches read meanwhile. */
const BATCH = 500;

/**
 * Rebuilds a company's search index: every table a source indexes gets its `search_vector` set
 * to NULL in batches of ids, which the table's trigger recomputes. Searches keep reading the
 * vectors not yet recomputed. Safe to run again: a rerun recomputes the same rows.
 */
export function reindexHandler(sources: readonly SearchSource[]): JobHandler<{ companyId: number }> {
  const tables = [...new Set(sources.flatMap((source) => (source.indexes ? [source.indexes] : [])))];
  return async ({ payload, db, progress, signal }) => {
    const { companyId } = payload;
    const counts = await Promise.all(
      tables.map(async (table) => {
        const result = await db.execute(
          sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE company_id = ${companyId}`,
        );
        return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
      }),
    );
    const total = counts.reduce((sum, n) => sum + n, 0);
    let done = 0;
    await progress(0, total, null);
    for (const table of tables) {
      for (let last = 0; ; ) {
        if (signal.aborted) throw new Error('stopped');
        const result = await db.execute(sql`
          WITH batch AS (
            SELECT id FROM ${sql.identifier(table)}
            WHERE company_id = ${companyId} AND id > ${last} ORDER BY id LIMIT ${BATCH}
          )
          UPDATE ${sql.identifier(table)} t SET search_vector = NULL FROM batch
          WHERE t.id = batch.id RETURNING t.id`);
        const ids = (result as unknown as { rows: { id: number }[] }).rows.map((row) => row.id);
        if (ids.length === 0) break;
        last = Math.max(...ids);
        done += ids.length;
        await progress(done, total);
      }
    }
    return { rows: done, tables };
  };
}
