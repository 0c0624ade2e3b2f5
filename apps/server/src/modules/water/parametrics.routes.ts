import {
  encodingCodeDefinitionSchema,
  idParamSchema,
  invoicePolicyRowSchema,
  invoicePolicySchema,
  levelLookupItemSchema,
  levelLookups,
  waterCodedRowSchema,
  waterCodedSchema,
  waterCodedTables,
  waterMeterTypeRowSchema,
  waterMeterTypeSchema,
  waterRouteRowSchema,
  waterRouteSchema,
  waterSpecialRegulationRowSchema,
  waterSpecialRegulationSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Tx } from '../../db/client.ts';
import { companyOf, principalOf } from '../../platform/auth.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { registerRowTableRoutes } from '../../platform/row-table/routes.ts';
import { encodingDefinition, levelLookup, saveEncodingDefinition } from './encoding-code.service.ts';
import {
  codedTable,
  invoicePoliciesTable,
  meterTypesTable,
  routesTable,
  specialRegulationsTable,
} from './parametrics.tables.ts';

const parametric = {
  tags: ['water'],
  read: 'consumers:read',
  write: 'settings:write',
  companyScoped: true,
} as const;

/**
 * The water service's parametric tables (row tables under /api/water/parametrics/{code}), the
 * lookups per level type and the encoding code definition (spec §7 /api/protocol/parametrics/…).
 * `hasConsumers` tells whether the company has consumers, whose codes pin the definition's shape.
 */
export function waterParametricsRoutes(
  hasConsumers: (tx: Tx, companyId: number) => Promise<boolean>,
): FastifyPluginAsyncZod<ModuleOptions> {
  return async (app, options) => {
    const { db } = options;
    for (const code of waterCodedTables) {
      registerRowTableRoutes(app, options, {
        ...parametric,
        path: `/water/parametrics/${code}`,
        entityName: `water.${code}`,
        table: codedTable(code),
        rowSchema: waterCodedRowSchema,
        itemSchema: waterCodedSchema,
      });
    }
    registerRowTableRoutes(app, options, {
      ...parametric,
      path: '/water/parametrics/routes',
      entityName: 'water.routes',
      table: routesTable,
      rowSchema: waterRouteRowSchema,
      itemSchema: waterRouteSchema,
    });
    registerRowTableRoutes(app, options, {
      ...parametric,
      path: '/water/parametrics/meterTypes',
      entityName: 'water.meterTypes',
      table: meterTypesTable,
      rowSchema: waterMeterTypeRowSchema,
      itemSchema: waterMeterTypeSchema,
    });
    registerRowTableRoutes(app, options, {
      ...parametric,
      path: '/water/parametrics/specialRegulations',
      entityName: 'water.specialRegulations',
      table: specialRegulationsTable,
      rowSchema: waterSpecialRegulationRowSchema,
      itemSchema: waterSpecialRegulationSchema,
    });
    registerRowTableRoutes(app, options, {
      ...parametric,
      path: '/water/invoice_policies',
      entityName: 'water.invoicePolicies',
      table: invoicePoliciesTable,
      rowSchema: invoicePolicyRowSchema,
      itemSchema: invoicePolicySchema,
    });

    for (const lookup of levelLookups) {
      app.get(
        `/protocol/parametrics/${lookup}`,
        {
          config: { permission: 'consumers:read' },
          schema: {
            tags: ['water'],
            summary: `The values of the encoding-code level type ${lookup} (active ones, in code order)`,
            querystring: z.object(lookup === 'routes' ? { sectorId: idParamSchema.optional() } : {}),
            response: { 200: z.array(levelLookupItemSchema) },
          },
        },
        async (request) => {
          const query = request.query as { sectorId?: number };
          return levelLookup(db, companyOf(request), lookup, query.sectorId);
        },
      );
    }

    app.get(
      '/protocol/parametrics/encoding_code',
      {
        config: { permission: 'consumers:read' },
        schema: {
          tags: ['water'],
          summary: 'The consumer encoding code definition (null while none is defined)',
          response: { 200: encodingCodeDefinitionSchema.nullable() },
        },
      },
      async (request) => encodingDefinition(db, companyOf(request)),
    );

    app.put(
      '/protocol/parametrics/encoding_code',
      {
        config: { permission: 'settings:write' },
        schema: {
          tags: ['water'],
          summary: 'Saves the consumer encoding code definition; its shape is fixed once consumers exist',
          body: encodingCodeDefinitionSchema,
          response: { 200: encodingCodeDefinitionSchema },
        },
      },
      async (request) => {
        const companyId = companyOf(request);
        return saveEncodingDefinition(db, principalOf(request), companyId, request.body, request.id, (tx) =>
          hasConsumers(tx, companyId),
        );
      },
    );
  };
}
