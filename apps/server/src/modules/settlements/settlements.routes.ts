import {
  debtSchema,
  idParamSchema,
  planSchema,
  saveSettlementSchema,
  settlementCategoryRowSchema,
  settlementCategorySchema,
  settlementErrors,
  settlementListItemSchema,
  settlementPreviewSchema,
  settlementSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { sendInline } from '../../platform/pdf/reply.ts';
import { registerRowTableRoutes } from '../../platform/row-table/routes.ts';
import { categoriesTable } from './categories.ts';
import { printSettlement } from './settlement.pdf.ts';
import { settlementsList, settlementsOfCompany } from './settlements.list.ts';
import {
  cancelSettlement,
  createSettlement,
  debtsToSettle,
  getSettlement,
  previewSettlement,
  settlementsOfConsumer,
} from './settlements.service.ts';

const tags = ['settlements'];
const read = { permission: 'settlements:read' } as const;
const write = { permission: 'settlements:write' } as const;

/** Settlements of consumers' debts: categories, plan preview, create, read, cancel, PDF. */
export const settlementsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  const { db } = options;

  registerRowTableRoutes(app, options, {
    tags,
    path: '/settlements/categories',
    entityName: 'settlements.categories',
    read: 'settlements:read',
    write: 'settings:write',
    companyScoped: true,
    table: categoriesTable,
    rowSchema: settlementCategoryRowSchema,
    itemSchema: settlementCategorySchema,
  });

  registerListRoute(app, options.lists, {
    path: '/settlements/search',
    entityName: 'settlements',
    permission: 'settlements:read',
    list: settlementsList(db),
    scope: ({ companyId }) => settlementsOfCompany(companyId),
    tags,
    summary: 'The settlements list: paging, sorting, filters by status, date, consumer and amount',
    item: settlementListItemSchema,
  });

  app.post(
    '/settlements/preview',
    {
      config: read,
      schema: {
        tags,
        summary:
          "The plan of a settlement of a consumer's debts, as saving would make it; nothing is written",
        body: settlementPreviewSchema,
        response: { 200: planSchema },
      },
    },
    async (request) => previewSettlement(db, companyOf(request), request.body),
  );

  app.post(
    '/settlements',
    {
      config: write,
      schema: {
        tags,
        summary:
          'Creates a settlement: its number, the debts closed into it, the down payment and instalments as debts',
        body: saveSettlementSchema,
        response: { 201: settlementSchema },
      },
    },
    async (request, reply) => {
      const created = await createSettlement(
        db,
        principalOf(request),
        companyOf(request),
        request.body,
        request.id,
      );
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/settlements/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'A settlement with its debts, instalments and their state',
        params: idParams,
        response: { 200: settlementSchema },
      },
    },
    async (request) => getSettlement(db, companyOf(request), request.params.id),
  );

  app.post(
    '/settlements/:id/cancel',
    {
      config: { permission: 'settlements:admin' },
      schema: {
        tags,
        summary: 'Cancels a settlement by hand: the remaining debt returns to the account',
        params: idParams,
        response: { 200: settlementSchema },
      },
    },
    async (request) => {
      const companyId = companyOf(request);
      const done = await db.transaction((tx) =>
        cancelSettlement(tx, companyId, request.params.id, principalOf(request).username),
      );
      if (!done) throw new AppError(409, settlementErrors.notCancellable);
      return getSettlement(db, companyId, request.params.id);
    },
  );

  app.get(
    '/settlements/:id/pdf',
    {
      config: read,
      schema: {
        tags,
        summary: 'The settlement decision as a PDF for the consumer to sign, in Greek (or English)',
        params: idParams,
        querystring: z.object({ lang: z.enum(['el', 'en']).optional() }),
      },
    },
    async (request, reply) =>
      sendInline(
        reply,
        await printSettlement(db, companyOf(request), request.params.id, request.query.lang ?? 'el'),
      ),
  );

  app.get(
    '/settlements/consumers/:consumerId',
    {
      config: read,
      schema: {
        tags,
        summary: "A consumer's settlements, newest first",
        params: z.object({ consumerId: idParamSchema }),
        response: { 200: z.array(settlementListItemSchema) },
      },
    },
    async (request) => settlementsOfConsumer(db, companyOf(request), request.params.consumerId),
  );

  app.get(
    '/settlements/consumers/:consumerId/debts',
    {
      config: read,
      schema: {
        tags,
        summary:
          "A consumer's open debts, oldest due first, with their overdue interest: what a settlement may close",
        params: z.object({ consumerId: idParamSchema }),
        response: { 200: z.array(debtSchema) },
      },
    },
    async (request) => debtsToSettle(db, companyOf(request), request.params.consumerId),
  );
};
