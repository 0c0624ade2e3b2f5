import { errorKeys, hasPermission, SEARCH_LIST_LIMIT, SEARCH_MIN_LENGTH } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { companyOf, principalOf } from '../auth.ts';
import { AppError } from '../errors.ts';
import { companyQuery } from '../params.ts';
import { type SearchSource, searchText } from './search.ts';

export interface SearchRoutesOptions {
  db: Db;
  sources: readonly SearchSource[];
}

/** GET /api/search?search=…: every registered source's matches, each list capped. */
export const searchRoutes: FastifyPluginAsyncZod<SearchRoutesOptions> = async (app, { db, sources }) => {
  const keys = new Set<string>();
  for (const source of sources) {
    if (keys.has(source.key)) throw new Error(`Two search sources answer ${source.key}`);
    keys.add(source.key);
  }
  const response = z.object(Object.fromEntries(sources.map((s) => [s.key, z.array(s.item)])));

  app.get(
    '/search',
    {
      config: { signedIn: true, companyScoped: true },
      schema: {
        querystring: companyQuery.extend({ search: z.string().max(200).default('') }),
        response: { 200: response },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const companyId = companyOf(request);
      const text = searchText(request.query.search);
      if ([...text.raw].length < SEARCH_MIN_LENGTH) {
        throw new AppError(400, errorKeys.searchTooShort, { length: SEARCH_MIN_LENGTH });
      }
      const lists = await Promise.all(
        sources.map(async (source) => {
          if (!hasPermission(principal.scope, source.permission)) return [source.key, []] as const;
          const found = await source.find({ db, principal, companyId, text, limit: SEARCH_LIST_LIMIT });
          return [source.key, found.slice(0, SEARCH_LIST_LIMIT)] as const;
        }),
      );
      return Object.fromEntries(lists);
    },
  );
};
