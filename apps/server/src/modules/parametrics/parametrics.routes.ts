import { protocolBookRowSchema, protocolBookSchema } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../platform/auth.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { companyQuery } from '../../platform/params.ts';
import { companyOf, listBooks, saveBooks } from './books.service.ts';

/** Parametric tables (spec §2 /parametrics/{code}); protocol books first (spec §7 /api/parametrics/book). */
export const parametricsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.get(
    '/parametrics/book',
    {
      config: { permission: 'protocol:read', companyScoped: true },
      schema: {
        tags: ['parametrics'],
        summary: 'The protocol books of a company',
        querystring: companyQuery,
        response: { 200: z.array(protocolBookSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return listBooks(db, await companyOf(db, principal, request.query.companyid));
    },
  );

  app.post(
    '/parametrics/book',
    {
      config: { permission: 'settings:write', companyScoped: true },
      schema: {
        tags: ['parametrics'],
        summary: 'Row-table save of the protocol books: the whole table, new rows with a null id',
        querystring: companyQuery,
        body: z.array(protocolBookRowSchema).max(5000),
        response: { 200: z.array(protocolBookSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const companyId = await companyOf(db, principal, request.query.companyid);
      return saveBooks(db, principal, companyId, request.body, request.id);
    },
  );
};
