import { errorKeys, protocolBookRowSchema, protocolBookSchema } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import { mayRead } from '../../platform/list/registry.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { listBooks, saveBooks } from './books.service.ts';

/** Who reads the protocol books: the protocol's screens and whoever keeps the books (settings). */
const BOOK_READERS = ['protocol:read', 'settings:read'] as const;

/** Parametric tables (spec §2 /parametrics/{code}); protocol books first (spec §7 /api/parametrics/book). */
export const parametricsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.get(
    '/parametrics/book',
    {
      // Read by the protocol's screens, and by whoever keeps the books (settings).
      config: { signedIn: true },
      schema: {
        tags: ['parametrics'],
        summary: 'The protocol books of a company',
        response: { 200: z.array(protocolBookSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (!mayRead(principal.scope, BOOK_READERS))
        throw new AppError(403, errorKeys.forbidden, { permission: BOOK_READERS.join('|') });
      return listBooks(db, companyOf(request));
    },
  );

  app.post(
    '/parametrics/book',
    {
      config: { permission: 'settings:write' },
      schema: {
        tags: ['parametrics'],
        summary: 'Row-table save of the protocol books: the whole table, new rows with a null id',
        body: z.array(protocolBookRowSchema).max(5000),
        response: { 200: z.array(protocolBookSchema) },
      },
    },
    async (request) => {
      return saveBooks(db, principalOf(request), companyOf(request), request.body, request.id);
    },
  );
};
