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
import { companyOf, contextOf } from '../../platform/auth.ts';
import { customFieldsRoute } from '../../platform/custom-fields/custom-fields.routes.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { registerRecordRoutes } from '../../platform/record/routes.ts';
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

/** Traders (συναλλασσόμενοι, spec §2 /traders): list, card, registry lookup, merge. */
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
      config: { permission: 'traders:write' },
      schema: {
        tags: ['traders'],
        summary: "A VAT number in AADE's registry (RgWsPublic2), as trader fields",
        querystring: traderLookupQuerySchema,
        response: { 200: traderLookupSchema },
      },
    },
    async (request) => lookupTrader(db, config, secrets, companyOf(request), request.query.vatnumber),
  );

  registerRecordRoutes(app, {
    path: '/traders',
    tags: ['traders'],
    record: traderSchema,
    save: saveTraderSchema,
    read: 'traders:read',
    write: 'traders:write',
    companyScoped: true,
    get: { summary: 'A trader', load: ({ companyId, id }) => getTrader(db, companyId, id) },
    create: {
      summary: 'Create a trader; `duplicates` lists the traders with the same ΑΦΜ (a warning)',
      run: ({ principal, companyId, body, requestId }) =>
        createTrader(db, principal, companyId, body, requestId),
    },
    update: {
      summary: 'Change a trader; `duplicates` lists the traders with the same ΑΦΜ (a warning)',
      run: ({ principal, companyId, id, body, requestId }) =>
        updateTrader(db, principal, companyId, id, body, requestId),
    },
    remove: {
      summary: 'Delete traders; 409 error.linked_elsewhere when one is referenced (deactivate it instead)',
      permission: 'traders:admin',
      body: deleteTradersSchema,
      run: ({ principal, companyId, ids, requestId }) =>
        deleteTraders(db, principal, companyId, ids, requestId),
    },
  });

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
    async (request) => {
      const { principal, companyId } = contextOf(request);
      return mergeTraders(db, principal, companyId, request.body, request.id, references.to('traders'));
    },
  );
};
