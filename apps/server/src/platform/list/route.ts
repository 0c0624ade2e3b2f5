import { errorKeys, type Permission, pageSchema } from '@protocol/contracts';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { confirmedPrincipalOf, type Principal, principalOf } from '../auth.ts';
import { AppError, notFound } from '../errors.ts';
import type { EntityList } from './list.ts';
import { listQuerystringSchema } from './query.ts';
import { type ListPermission, type ListRegistry, mayRead } from './registry.ts';

/** Who is reading a list of the company in use (auth.ts `resolveCompany`). */
export interface CompanyListAccess {
  principal: Principal;
  companyId: number;
}

interface ListRouteBase<Row> {
  /** The list's address under the plugin's prefix, e.g. '/traders/search'. */
  path: string;
  /** Export-list key (spec §7 getForEntity); defaults to the catalog's entity. */
  entityName?: string;
  /**
   * What reading needs; several mean any of them; 'signedIn' for lists of one's own rows (the scope
   * keeps them). An export of the list needs the same.
   */
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
 * (auth.ts `resolveCompany`), for the screen and for the export alike.
 */
export function registerListRoute<Row>(app: App, lists: ListRegistry, route: ListRoute<Row>): void {
  const access = (principal: Principal, companyId: number | null) => {
    if (route.companyScoped === false) return { scope: route.scope({ principal }), companyId: undefined };
    if (companyId === null) throw notFound();
    return { scope: route.scope({ principal, companyId }), companyId };
  };
  const anyOf = Array.isArray(route.permission);
  const signedIn = anyOf || route.permission === 'signedIn';

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
        ...(signedIn ? { signedIn: true } : { permission: route.permission as Permission }),
        checksSession: true,
      },
      schema: {
        tags: [...route.tags],
        summary: route.summary,
        querystring: listQuerystringSchema,
        response: { 200: pageSchema(route.item) },
      },
    },
    async (request) => {
      const pageFor = (principal: Principal, held?: SQL) => {
        if (anyOf && !mayRead(principal.scope, route.permission)) {
          throw new AppError(403, errorKeys.forbidden, { permission: [route.permission].flat().join('|') });
        }
        const { scope, companyId } = access(principal, request.companyId);
        return route.list.page(scope, request.query, companyId, held);
      };
      // On a session this node remembered, the page's own statement checks that it still holds (no
      // round trip before it): a page without rows may be one it refused, so the session is read again
      // (401, 403 or 404 when it no longer holds) and, if it changed, the page too for it as it is now.
      const principal = principalOf(request);
      const held = principal.remembered?.held();
      const page = await pageFor(principal, held);
      if (!held || page.content.length > 0) return page;
      const now = await confirmedPrincipalOf(request);
      return now.fingerprint === principal.fingerprint ? page : pageFor(now);
    },
  );
}
