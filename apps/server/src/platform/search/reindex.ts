import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client.ts';
import { type JobHandler, jobAborted } from '../jobs/jobs.ts';
import type { SearchSource } from './search.ts';

/** The job kind of a company's reindex: one at a time per company (its key). */
export const REINDEX_JOB = 'search.reindex';
export const reindexKey = (companyId: number) => `${REINDEX_JOB}:${companyId}`;

/**
 * Rows compared per statement: each batch commits on its own, searches read meanwhile, and a batch of
 * rows to rewrite still holds their locks for well under a second.
 */
const BATCH = 5_000;

/**
 * Rebuilds a company's search index: every table a source indexes is read in batches of ids, and the
 * rows whose stored vector differs from what the table's trigger computes now (`search_vector_of`, e.g.
 * after a change of the text search configuration) get `search_vector` set to NULL, which the trigger
 * recomputes. Only those are rewritten: a rewritten row is a new version of it in every index of the
 * table, which is what a rebuild of every row spent its time on. Searches keep reading the vectors not
 * yet recomputed. Safe to run again, and a rerun after a worker died mid-way rewrites nothing twice.
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
        return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
      }),
    );
    const total = counts.reduce((sum, n) => sum + n, 0);
    let done = 0;
    let rewritten = 0;
    await progress(0, total, null);
    for (const table of tables) {
      const name = sql.identifier(table);
      for (let last = 0; ; ) {
        if (signal.aborted) throw jobAborted();
        const result = await db.execute(sql`
          WITH batch AS (
            SELECT t.id, t.search_vector IS DISTINCT FROM search_vector_of(t) AS stale
            FROM ${name} t
            WHERE t.company_id = ${companyId} AND t.id > ${last} ORDER BY t.id LIMIT ${BATCH}
          ), rewritten AS (
            UPDATE ${name} t SET search_vector = NULL FROM batch
            WHERE t.id = batch.id AND batch.stale RETURNING t.id
          )
          SELECT count(*)::int AS n, max(id)::text AS last,
            (SELECT count(*)::int FROM rewritten) AS rewritten
          FROM batch`);
        const [batch] = rowsOf<{ n: number; last: string | null; rewritten: number }>(result);
        if (!batch?.n || batch.last === null) break;
        last = Number(batch.last);
        done += batch.n;
        rewritten += batch.rewritten;
        await progress(done, total);
      }
    }
    return { rows: done, rewritten, tables };
  };
}
