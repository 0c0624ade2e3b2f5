import { errorKeys, userMetaQuerySchema, userMetaSchema } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyIdOf, type Principal, principalOf } from '../auth.ts';
import { AppError } from '../errors.ts';
import type { ModuleOptions } from '../module.ts';
import { deleteView, listViews, saveView } from './views.service.ts';

const sameKey = (query: string, body: string) => {
  if (query !== body) {
    throw new AppError(400, errorKeys.badData, {}, [
      { field: 'metaKey', key: 'validation.invalid', params: {} },
    ]);
  }
};

/**
 * The company whose shared views a request sees and saves into (`companyIdOf`: the one named, else the
 * operator's first); none for an operator of no company, who sees their own views and those shared
 * with every company.
 */
const companyInUse = (principal: Principal, query: { companyid?: number | undefined }) =>
  query.companyid === undefined && principal.companyIds.length === 0 ? null : companyIdOf(principal, query);

/** Saved table views (spec §3, §4, §7: /api/users/meta?metaKey=…&companyid=…). */
export const viewsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.get(
    '/users/meta',
    {
      config: { signedIn: true, companyScoped: true },
      schema: {
        tags: ['views'],
        summary:
          'The saved views of a list: own and shared in the company in use, with this operator’s active one flagged',
        querystring: userMetaQuerySchema,
        response: { 200: z.array(userMetaSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return listViews(db, principal, request.query.metaKey, companyInUse(principal, request.query));
    },
  );

  app.post(
    '/users/meta',
    {
      config: { signedIn: true, companyScoped: true },
      schema: {
        tags: ['views'],
        summary: 'Save a view (new when id is null); choosing a shared view only records the choice',
        querystring: userMetaQuerySchema,
        body: userMetaSchema,
        response: { 200: userMetaSchema },
      },
    },
    async (request) => {
      sameKey(request.query.metaKey, request.body.metaKey);
      const principal = principalOf(request);
      return saveView(db, principal, request.body, companyInUse(principal, request.query));
    },
  );

  app.delete(
    '/users/meta',
    {
      config: { signedIn: true, companyScoped: true },
      schema: {
        tags: ['views'],
        summary:
          'Delete a view: one’s own, a shared one of the company (its admins), one shared with every company (super admin)',
        querystring: userMetaQuerySchema,
        body: userMetaSchema.pick({ id: true, metaKey: true }).passthrough(),
      },
    },
    async (request, reply) => {
      sameKey(request.query.metaKey, request.body.metaKey);
      const principal = principalOf(request);
      await deleteView(db, principal, request.body, companyInUse(principal, request.query));
      return reply.status(204).send();
    },
  );
};
