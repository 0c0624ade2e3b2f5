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

/** Saved table views (spec §3, §4, §7: /api/users/meta?metaKey=…). */
export const viewsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.get(
    '/users/meta',
    {
      config: { signedIn: true },
      schema: {
        tags: ['views'],
        summary: 'The saved views of a list: own and shared, with this operator’s active one flagged',
        querystring: userMetaQuerySchema,
        response: { 200: z.array(userMetaSchema) },
      },
    },
    async (request) => listViews(db, principalOf(request), request.query.metaKey),
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
      return saveView(db, principalOf(request), request.body);
    },
  );

  app.delete(
    '/users/meta',
    {
      config: { signedIn: true },
      schema: {
        tags: ['views'],
        summary: 'Delete a view: one’s own, or a shared one (admins)',
        querystring: userMetaQuerySchema,
        body: userMetaSchema.pick({ id: true, metaKey: true }).passthrough(),
      },
    },
    async (request, reply) => {
      sameKey(request.query.metaKey, request.body.metaKey);
      await deleteView(db, principalOf(request), request.body);
      return reply.status(204).send();
    },
  );
};
