import {
  ACCOUNT_IMPORT_MAX_BYTES,
  accountImportStartSchema,
  accountRowSchema,
  accountSchema,
  financeSettingsSchema,
  itemRowSchema,
  itemSchema,
  itemStockSchema,
  seriesRowSchema,
  seriesSchema,
  serviceRowSchema,
  serviceSchema,
  stockRowSchema,
  warehouseRowSchema,
  warehouseSchema,
  XLSX_CONTENT_TYPE,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, contextOf, principalOf } from '../../platform/auth.ts';
import { startImport } from '../../platform/imports/pipeline.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { registerRowTableRoutes } from '../../platform/row-table/routes.ts';
import { accountsImport } from './accounts.import.ts';
import { companyStock, itemStock, saveFinanceSettings } from './master-data.service.ts';
import {
  accountMaskOf,
  accountsTable,
  itemsTable,
  seriesTable,
  servicesTable,
  warehousesTable,
} from './master-data.ts';

const common = {
  tags: ['finance'],
  companyScoped: true,
  read: 'finance:read',
  write: 'finance:write',
} as const;

/** Finance master data: accounting plan, services, warehouses, items, document series. */
export const masterDataRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  const { db, jobs, storage } = options;
  registerRowTableRoutes(app, options, {
    ...common,
    path: '/finance/accounts',
    entityName: 'financeAccounts',
    table: accountsTable,
    rowSchema: accountRowSchema,
    itemSchema: accountSchema,
  });
  registerRowTableRoutes(app, options, {
    ...common,
    path: '/finance/services',
    entityName: 'financeServices',
    table: servicesTable,
    rowSchema: serviceRowSchema,
    itemSchema: serviceSchema,
  });
  registerRowTableRoutes(app, options, {
    ...common,
    path: '/finance/warehouses',
    entityName: 'financeWarehouses',
    table: warehousesTable,
    rowSchema: warehouseRowSchema,
    itemSchema: warehouseSchema,
  });
  registerRowTableRoutes(app, options, {
    ...common,
    path: '/finance/items',
    entityName: 'financeItems',
    table: itemsTable,
    rowSchema: itemRowSchema,
    itemSchema: itemSchema,
  });
  // The series decide legal numbering and printing: changing them is the finance administrator's.
  registerRowTableRoutes(app, options, {
    ...common,
    write: 'finance:admin',
    path: '/finance/series',
    entityName: 'financeSeries',
    table: seriesTable,
    rowSchema: seriesRowSchema,
    itemSchema: seriesSchema,
  });

  // The accounting plan's Excel file comes as the request's body, checked for size and type, and is
  // imported by a background job (GET /api/jobs/{id}): a dry run (dryRun=true) or the import itself.
  app.addContentTypeParser(
    XLSX_CONTENT_TYPE,
    { parseAs: 'buffer', bodyLimit: ACCOUNT_IMPORT_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  app.post(
    '/finance/accounts/import',
    {
      config: { permission: 'finance:write' },
      bodyLimit: ACCOUNT_IMPORT_MAX_BYTES,
      schema: {
        tags: ['finance'],
        summary:
          'Queue the accounting plan import from an .xlsx body (code, description, kind, aggregate): a dry run reporting every bad row, or the import of a file without one, existing codes updated',
        querystring: z.object({ dryRun: z.enum(['true', 'false']).default('true') }),
        consumes: [XLSX_CONTENT_TYPE],
        response: { 202: accountImportStartSchema },
      },
    },
    async (request, reply) => {
      const jobId = await startImport({ db, jobs, storage }, accountsImport, request, {
        companyId: companyOf(request),
        dryRun: request.query.dryRun === 'true',
        options: null,
      });
      return reply.status(202).send({ jobId });
    },
  );

  app.get(
    '/finance/items/:id/stock',
    {
      config: { permission: 'finance:read' },
      schema: {
        tags: ['finance'],
        summary: "An item's stock per warehouse (the sum of its documents' moves)",
        params: idParams,
        response: { 200: z.array(itemStockSchema) },
      },
    },
    async (request) => itemStock(db, contextOf(request).companyId, request.params.id),
  );

  app.get(
    '/finance/stock',
    {
      config: { permission: 'finance:read' },
      schema: {
        tags: ['finance'],
        summary: "The company's stock per item and warehouse (the sum of the documents' moves)",
        response: { 200: z.array(stockRowSchema) },
      },
    },
    async (request) => companyStock(db, companyOf(request)),
  );

  app.get(
    '/finance/settings',
    {
      config: { permission: 'finance:read' },
      schema: {
        tags: ['finance'],
        summary: "The company's finance settings (the accounting plan's mask)",
        response: { 200: financeSettingsSchema },
      },
    },
    async (request) => ({ accountMask: await accountMaskOf(db, companyOf(request)) }),
  );

  app.put(
    '/finance/settings',
    {
      config: { permission: 'finance:admin' },
      schema: {
        tags: ['finance'],
        summary: 'Change the mask; every account code must still fit it (400 naming the first that does not)',
        body: financeSettingsSchema,
        response: { 200: financeSettingsSchema },
      },
    },
    async (request) =>
      saveFinanceSettings(db, principalOf(request), companyOf(request), request.body, request.id),
  );
};
