import { errorKeys, jobSchema, jobsCatalog } from '@protocol/contracts';
import { count, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../auth.ts';
import { AppError } from '../errors.ts';
import { defineList } from '../list/list.ts';
import { registerListRoute } from '../list/route.ts';
import type { ModuleOptions } from '../module.ts';
import { idParams } from '../params.ts';
import { jobs } from './jobs.schema.ts';
import { type JobRegistry, type JobRow, jobErrorOf, settleJob } from './jobs.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A job as its owner sees it: no payload (it may hold what only the module should read), no lease. */
export function jobView(row: JobRow) {
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    companyId: row.companyId,
    attempts: row.attempts,
    progressDone: row.progressDone,
    progressTotal: row.progressTotal,
    progressMessage: row.progressMessage,
    result: row.result,
    ...jobErrorOf(row.error),
    createdAt: row.createdAt.toISOString(),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
  };
}

/** The asker's background jobs: their list, one job, cancelling a queued one. */
export const jobsRoutes: FastifyPluginAsyncZod<ModuleOptions & { jobRegistry: JobRegistry }> = async (
  app,
  { db, lists, jobRegistry },
) => {
  registerListRoute(app, lists, {
    path: '/jobs',
    permission: 'signedIn',
    companyScoped: false,
    list: defineList({
      catalog: jobsCatalog,
      columns: {
        kind: jobs.kind,
        state: jobs.state,
        progressDone: jobs.progressDone,
        error: jobs.error,
        createdAt: jobs.createdAt,
        finishedAt: jobs.finishedAt,
      },
      id: jobs.id,
      fetch: async (where, orderBy, limit, offset) =>
        (
          await db
            .select()
            .from(jobs)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset)
        ).map(jobView),
      count: async (where) => (await db.select({ n: count() }).from(jobs).where(where))[0]?.n ?? 0,
    }),
    scope: ({ principal }) => eq(jobs.ownerId, principal.userId),
    tags: ['jobs'],
    summary: 'The background jobs the operator started, with their progress',
    item: jobSchema,
  });

  /** The job, if the asker may see it: its owner or a super admin; 404 otherwise (no hint it exists). */
  const visible = async (request: Parameters<typeof principalOf>[0], id: number) => {
    const principal = principalOf(request);
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
    if (!row || (row.ownerId !== principal.userId && !principal.superAdmin)) {
      throw new AppError(404, errorKeys.notFound, {});
    }
    return row;
  };

  app.get(
    '/jobs/:id',
    {
      config: { signedIn: true },
      schema: {
        tags: ['jobs'],
        summary: 'One background job and its progress (its owner or a super admin)',
        params: idParams,
        response: { 200: jobSchema },
      },
    },
    async (request) => jobView(await visible(request, request.params.id)),
  );

  app.post(
    '/jobs/:id/cancel',
    {
      config: { signedIn: true },
      schema: {
        tags: ['jobs'],
        summary: 'Cancel a job that has not started yet',
        params: idParams,
        response: { 200: jobSchema },
      },
    },
    async (request) => {
      const row = await visible(request, request.params.id);
      const cancelled = await settleJob(db, jobRegistry, row.id, eq(jobs.state, 'queued'), {
        state: 'cancelled',
      });
      if (!cancelled) throw new AppError(409, errorKeys.jobNotQueued, {});
      return jobView(cancelled);
    },
  );
};
