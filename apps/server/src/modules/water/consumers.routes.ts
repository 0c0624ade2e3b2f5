import {
  consumerListItemSchema,
  consumerSchema,
  existCodeSchema,
  lastPartSchema,
  saveConsumerSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf } from '../../platform/auth.ts';
import { customFieldsRoute } from '../../platform/custom-fields/custom-fields.routes.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { registerRecordRoutes } from '../../platform/record/routes.ts';
import { loadCustomFields } from '../settings/api.ts';
import { codeExists, recommendedLastPart } from './consumer-code.ts';
import { consumersList, consumersOfCompany } from './consumers.list.ts';
import { createConsumer, getConsumer, updateConsumer } from './consumers.service.ts';

const tags = ['water'];
const codeQuery = z.object({ code: z.string().min(1).max(80) });

/** Consumers (spec §7 /api/protocol/consumers/…): the list, the code checks, create, read, edit. */
export const consumersRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  const { db } = options;

  registerListRoute(app, options.lists, {
    path: '/protocol/consumers/search',
    entityName: 'consumers',
    permission: 'consumers:read',
    list: consumersList(db),
    scope: ({ companyId }) => consumersOfCompany(companyId),
    tags,
    summary: 'The consumers list: paging, sorting, Greek-aware filters on owner, address and code',
    item: consumerListItemSchema,
  });

  customFieldsRoute(app, {
    url: '/protocol/consumers/custom_fields',
    entity: 'consumers',
    permission: 'consumers:read',
    tags,
    load: (companyId) => loadCustomFields(db, companyId, 'consumers'),
  });

  app.get(
    '/protocol/consumers/exist_code',
    {
      config: { permission: 'consumers:read' },
      schema: {
        tags,
        summary: 'Whether a consumer of the company has this code (spec §7: truthy when it exists)',
        querystring: codeQuery,
        response: { 200: existCodeSchema },
      },
    },
    async (request) => codeExists(db, companyOf(request), request.query.code),
  );

  app.get(
    '/protocol/consumers/generateEncodingCodeLastPart',
    {
      config: { permission: 'consumers:read' },
      schema: {
        tags,
        summary: 'The recommended last part of a code preview whose last part is empty (spec §7)',
        querystring: codeQuery,
        response: { 200: lastPartSchema },
      },
    },
    async (request) => ({ lastPart: await recommendedLastPart(db, companyOf(request), request.query.code) }),
  );

  registerRecordRoutes(app, {
    path: '/protocol/consumers',
    tags,
    record: consumerSchema,
    save: saveConsumerSchema,
    read: 'consumers:read',
    write: 'consumers:write',
    companyScoped: true,
    get: {
      summary: 'One consumer with its references',
      load: ({ companyId, id }) => getConsumer(db, companyId, id),
    },
    create: {
      summary: 'Creates a consumer; its code is built from the parts and unique in the company (409)',
      run: ({ principal, companyId, body, requestId }) =>
        createConsumer(db, principal, companyId, body, requestId),
    },
    update: {
      summary: 'Edits a consumer (the whole record)',
      run: ({ principal, companyId, id, body, requestId }) =>
        updateConsumer(db, principal, companyId, id, body, requestId),
    },
  });
};
