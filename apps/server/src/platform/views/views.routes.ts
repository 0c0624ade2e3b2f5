import { errorKeys, userMetaQuerySchema, userMetaSchema } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../auth.ts';
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
 * Saved table views (spec §3, §4, §7: /api/users/meta?metaKey=…). The shared ones are those of the
 * company in use (`request.companyId`); an operator of no company sees their own views and those
 * shared with every company.
 */
export const viewsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.get(
    '/users/meta',
    {
      config: { signedIn: true },
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
      return listViews(db, principal, request.query.metaKey, request.companyId);
    },
  );

  app.post(
    '/users/meta',
    {
      config: { signedIn: true },
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
      return saveView(db, principal, request.body, request.companyId);
    },
  );

  app.delete(
    '/users/meta',
    {
      config: { signedIn: true },
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
      await deleteView(db, principal, request.body, request.companyId);
      return reply.status(204).send();
    },
  );
};
