import { errorKeys, type ImportError, jobSchema } from '@protocol/contracts';
import { stringify } from 'csv-stringify/sync';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../auth.ts';
import { AppError } from '../errors.ts';
import { neutraliseFormula } from '../exports/csv.ts';
import { requestLanguage, translate } from '../i18n.ts';
import { jobView } from '../jobs/jobs.routes.ts';
import { jobs } from '../jobs/jobs.schema.ts';
import type { ModuleOptions } from '../module.ts';
import { idParams } from '../params.ts';
import type { OutcomeRun } from './pipeline.ts';

const tags = ['jobs'];

/** The pipeline's own routes, whichever module's import a job is: abort it, download its result. */
export const importPipelineRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  /** An import job of the asker (its owner); 404 for any other job, or none. */
  const importJob = async (request: Parameters<typeof principalOf>[0], id: number) => {
    const principal = principalOf(request);
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
    const payload = row?.payload as { pipeline?: number } | undefined;
    if (!row || row.ownerId !== principal.userId || payload?.pipeline !== 1)
      throw new AppError(404, errorKeys.notFound, {});
    return row;
  };

  app.post(
    '/imports/:id/abort',
    {
      config: { signedIn: true },
      schema: {
        tags,
        summary:
          'Stops an import between two chunks: the chunks written stay, none after (409 once it has ended)',
        params: idParams,
        response: { 200: jobSchema },
      },
    },
    async (request) => {
      const row = await importJob(request, request.params.id);
      // Kept in the payload the job reads between chunks (and at its start, should it not have started).
      const [asked] = await db
        .update(jobs)
        .set({ payload: sql`${jobs.payload} || '{"abort": true}'::jsonb` })
        .where(and(eq(jobs.id, row.id), inArray(jobs.state, ['queued', 'running'])))
        .returning();
      if (!asked) throw new AppError(409, errorKeys.importEnded, {});
      return jobView(asked);
    },
  );

  app.get(
    '/imports/:id/result',
    {
      config: { signedIn: true },
      schema: {
        tags,
        summary:
          "An ended import's result as a CSV file: every bad row with why, every written row's outcome",
        params: idParams,
      },
    },
    async (request, reply) => {
      const row = await importJob(request, request.params.id);
      const result = row.result as { errors?: ImportError[]; outcomes?: OutcomeRun[] } | null;
      if (!result?.errors || !result.outcomes) throw new AppError(409, errorKeys.importNoResult, {});
      const language = requestLanguage(request.cookies?.locale, request.headers['accept-language']);
      const t = (key: string, params?: Record<string, string | number>) => translate(language, key, params);
      // Every written row on a line of its own, from the runs the job kept.
      const written = result.outcomes.flatMap(([from, to, key, , params]) => {
        const outcome = t(key, params);
        return Array.from({ length: to - from + 1 }, (_, i) => [from + i, outcome, '', '']);
      });
      const records: (string | number)[][] = [
        ...result.errors.map((e) => [e.line, t('imports.outcome.error'), e.column, e.reason]),
        ...written,
      ].sort((a, b) => Number(a[0]) - Number(b[0]));
      const header = ['line', 'outcome', 'column', 'reason'].map((c) => t(`imports.result.${c}`));
      const csv = stringify(
        [header, ...records].map((cells) => cells.map((cell) => neutraliseFormula(String(cell)))),
        { bom: true, record_delimiter: '\r\n' },
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="import-${row.id}.csv"`)
        .send(csv);
    },
  );
};
