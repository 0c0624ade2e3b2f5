import {
  errorKeys,
  hasPermission,
  jobSchema,
  SEARCH_LIST_LIMIT,
  SEARCH_MIN_LENGTH,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { companyOf, principalOf, readWhileConfirming } from '../auth.ts';
import { AppError } from '../errors.ts';
import { jobView } from '../jobs/jobs.routes.ts';
import type { JobQueue } from '../jobs/jobs.ts';
import { REINDEX_JOB, reindexKey } from './reindex.ts';
import { type SearchSource, searchText } from './search.ts';

export interface SearchRoutesOptions {
  db: Db;
  sources: readonly SearchSource[];
  jobs: JobQueue;
}

/** GET /api/search?search=…: every registered source's matches, each list capped. */
export const searchRoutes: FastifyPluginAsyncZod<SearchRoutesOptions> = async (
  app,
  { db, sources, jobs },
) => {
  const keys = new Set<string>();
  for (const source of sources) {
    if (keys.has(source.key)) throw new Error(`Two search sources answer ${source.key}`);
    keys.add(source.key);
  }
  const response = z.object(Object.fromEntries(sources.map((s) => [s.key, z.array(s.item)])));

  app.get(
    '/search',
    {
      // The session is confirmed beside the sources' statements, not before them.
      config: { signedIn: true, checksSession: true },
      schema: {
        querystring: z.object({ search: z.string().max(200).default('') }),
        response: { 200: response },
      },
    },
    async (request) => {
      const companyId = companyOf(request);
      const text = searchText(request.query.search);
      if ([...text.raw].length < SEARCH_MIN_LENGTH) {
        throw new AppError(400, errorKeys.searchTooShort, { length: SEARCH_MIN_LENGTH });
      }
      const lists = await readWhileConfirming(request, (principal) =>
        Promise.all(
          sources.map(async (source) => {
            if (!hasPermission(principal.scope, source.permission)) return [source.key, []] as const;
            const found = await source.find({ db, principal, companyId, text, limit: SEARCH_LIST_LIMIT });
            return [source.key, found.slice(0, SEARCH_LIST_LIMIT)] as const;
          }),
        ),
      );
      return Object.fromEntries(lists);
    },
  );

  app.post(
    '/reindex',
    {
      // Rebuilding reads and rewrites every indexed row of the company: those who keep its settings.
      config: { permission: 'settings:write' },
      schema: {
        summary: "Rebuilds the company's search index as a background job (one at a time per company)",
        response: { 202: jobSchema },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const companyId = companyOf(request);
      const { job } = await jobs.enqueue(db, {
        kind: REINDEX_JOB,
        key: reindexKey(companyId),
        companyId,
        owner: principal.userId,
        payload: { companyId },
      });
      return reply.status(202).send(jobView(job));
    },
  );
};
