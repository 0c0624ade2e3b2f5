import { errorKeys, type Permission, pageSchema } from '@protocol/contracts';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { companyIdOf, type Principal, principalOf } from '../auth.ts';
import { AppError } from '../errors.ts';
import type { EntityList } from './list.ts';
import { type ListQuerystring, listQuerystringSchema } from './query.ts';
import { type ListPermission, type ListRegistry, mayRead } from './registry.ts';

/** Who is reading a list of the company in use (`companyid`, else the operator's first). */
export interface CompanyListAccess {
  principal: Principal;
  companyId: number;
}

interface ListRouteBase<Row> {
  /** The list's address under the plugin's prefix, e.g. '/traders/search'. */
  path: string;
  /** Export-list key (spec §7 getForEntity); defaults to the catalog's entity. */
  entityName?: string;
  /** What reading needs; several mean any of them. An export of the list needs the same. */
  permission: ListPermission;
  list: EntityList<Row>;
  tags: readonly string[];
  summary: string;
  item: z.ZodType<Row>;
}

/** A list of the company in use (the default), or one that spans companies (operators). */
export type ListRoute<Row> = ListRouteBase<Row> &
  (
    | { companyScoped?: true; scope(access: CompanyListAccess): SQL | undefined }
    | { companyScoped: false; scope(access: { principal: Principal }): SQL | undefined }
  );

type App = FastifyInstance<
  // biome-ignore lint/suspicious/noExplicitAny: any server, request and reply types
  any,
  // biome-ignore lint/suspicious/noExplicitAny: as above
  any,
  // biome-ignore lint/suspicious/noExplicitAny: as above
  any,
  // biome-ignore lint/suspicious/noExplicitAny: as above
  any,
  ZodTypeProvider
>;

/**
 * One list, declared once: mounts `GET <path>` on the list engine and registers the same list, with
 * the same scope and permission, for the exports. The company in use is read in one place
 * (`companyIdOf`), for the screen and for the export alike.
 */
export function registerListRoute<Row>(app: App, lists: ListRegistry, route: ListRoute<Row>): void {
  const companyScoped = route.companyScoped !== false;
  const access = (principal: Principal, query: ListQuerystring) => {
    if (route.companyScoped === false) return { scope: route.scope({ principal }), companyId: undefined };
    const companyId = companyIdOf(principal, query);
    return { scope: route.scope({ principal, companyId }), companyId };
  };
  const signedIn = route.permission === 'signedIn';
  const anyOf = typeof route.permission !== 'string';

  lists.register({
    path: `${app.prefix}${route.path}`,
    entityName: route.entityName ?? route.list.catalog.entity,
    permission: route.permission,
    list: route.list,
    access,
  });

  app.get(
    route.path,
    {
      // A route declares one permission: with several, any signed-in operator passes and the handler checks.
      config: {
        ...(anyOf || signedIn ? { signedIn: true } : { permission: route.permission as Permission }),
        ...(companyScoped ? { companyScoped: true } : {}),
      },
      schema: {
        tags: [...route.tags],
        summary: route.summary,
        querystring: listQuerystringSchema,
        response: { 200: pageSchema(route.item) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (anyOf && !mayRead(principal.scope, route.permission)) {
        throw new AppError(403, errorKeys.forbidden, { permission: [route.permission].flat().join('|') });
      }
      const { scope, companyId } = access(principal, request.query);
      return route.list.page(scope, request.query, companyId);
    },
  );
}
