import {
  deleteTradersSchema,
  mergeTradersSchema,
  saveTraderSchema,
  traderListItemSchema,
  traderLookupQuerySchema,
  traderLookupSchema,
  traderSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { customFieldsRoute } from '../../platform/custom-fields/custom-fields.routes.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { companyQuery, idParams } from '../../platform/params.ts';
import { loadCustomFields } from '../settings/api.ts';
import { tradersList, tradersOfCompany } from './traders.list.ts';
import {
  createTrader,
  deleteTraders,
  getTrader,
  lookupTrader,
  mergeTraders,
  updateTrader,
} from './traders.service.ts';

/** Traders (συναλλασσόμενοι, spec §2 /traders, issue 5): list, card, registry lookup, merge. */
export const tradersRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (
  app,
  { db, lists, config, secrets, references },
) => {
  registerListRoute(app, lists, {
    path: '/traders/search',
    permission: 'traders:read',
    list: tradersList(db),
    scope: ({ companyId }) => tradersOfCompany(companyId),
    tags: ['traders'],
    summary: "The company's traders: paging, sorting, Greek-aware search by name, ΑΦΜ or code (list engine)",
    item: traderListItemSchema,
  });

  customFieldsRoute(app, {
    url: '/traders/custom_fields',
    entity: 'traders',
    permission: 'traders:read',
    tags: ['traders'],
    load: (companyId) => loadCustomFields(db, companyId, 'traders'),
  });

  app.get(
    '/traders/lookup',
    {
      config: { permission: 'traders:write', companyScoped: true },
      schema: {
        tags: ['traders'],
        summary: "A VAT number in AADE's registry (RgWsPublic2), as trader fields",
        querystring: traderLookupQuerySchema,
        response: { 200: traderLookupSchema },
      },
    },
    async (request) => lookupTrader(db, config, secrets, companyOf(request), request.query.vatnumber),
  );

  app.get(
    '/traders/:id',
    {
      config: { permission: 'traders:read' },
      schema: { tags: ['traders'], summary: 'A trader', params: idParams, response: { 200: traderSchema } },
    },
    async (request) => getTrader(db, principalOf(request), request.params.id),
  );

  app.post(
    '/traders',
    {
      config: { permission: 'traders:write', companyScoped: true },
      schema: {
        tags: ['traders'],
        summary: 'Create a trader; `duplicates` lists the traders with the same ΑΦΜ (a warning)',
        querystring: companyQuery,
        body: saveTraderSchema,
        response: { 201: traderSchema },
      },
    },
    async (request, reply) => {
      const trader = await createTrader(
        db,
        principalOf(request),
        companyOf(request),
        request.body,
        request.id,
      );
      return reply.status(201).send(trader);
    },
  );

  app.post(
    '/traders/merge',
    {
      config: { permission: 'traders:admin' },
      schema: {
        tags: ['traders'],
        summary:
          'Merge two traders: the survivor takes the chosen values and every reference; the other is deleted',
        body: mergeTradersSchema,
        response: { 200: traderSchema },
      },
    },
    async (request) =>
      mergeTraders(db, principalOf(request), request.body, request.id, references.to('traders')),
  );

  app.put(
    '/traders/:id',
    {
      config: { permission: 'traders:write' },
      schema: {
        tags: ['traders'],
        summary: 'Change a trader; `duplicates` lists the traders with the same ΑΦΜ (a warning)',
        params: idParams,
        body: saveTraderSchema,
        response: { 200: traderSchema },
      },
    },
    async (request) => updateTrader(db, principalOf(request), request.params.id, request.body, request.id),
  );

  app.delete(
    '/traders',
    {
      config: { permission: 'traders:admin' },
      schema: {
        tags: ['traders'],
        summary: 'Delete traders; 409 error.linked_elsewhere when one is referenced (deactivate it instead)',
        body: deleteTradersSchema,
      },
    },
    async (request, reply) => {
      await deleteTraders(db, principalOf(request), request.body.ids, request.id);
      return reply.status(204).send();
    },
  );
};
