import {
  billCorrectionSchema,
  billListItemSchema,
  billSchema,
  computedBillSchema,
  consumerBillSchema,
  creditBillSchema,
  discountPolicySchema,
  pricingPolicySchema,
  saveBillSchema,
  saveDiscountPolicySchema,
  savePricingPolicySchema,
  tryBillSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { sendInline } from '../../platform/pdf/reply.ts';
import { registerRecordRoutes } from '../../platform/record/routes.ts';
import { printBill } from './bill.pdf.ts';
import { issueCorrection, previewCorrection } from './bills.correct.ts';
import { creditBill } from './bills.credit.ts';
import { billsList, billsOfCompany } from './bills.list.ts';
import {
  assertConsumer,
  billsOfConsumer,
  finalizeBill,
  getBill,
  saveBill,
  tryBill,
} from './bills.service.ts';
import {
  activeVatPercentages,
  getDiscountPolicy,
  getPricingPolicy,
  listDiscountPolicies,
  listPricingPolicies,
  saveDiscountPolicy,
  savePricingPolicy,
} from './policies.service.ts';

const tags = ['billing'];
const read = { permission: 'billing:read' } as const;
const write = { permission: 'billing:write' } as const;

/** Pricing and discount policies, the "try it" computation and the stored bills. */
export const billingRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  const { db } = options;

  app.get(
    '/billing/pricing_policies',
    {
      config: read,
      schema: {
        tags,
        summary: 'The pricing policies of the company, per property usage, newest first',
        response: { 200: z.array(pricingPolicySchema) },
      },
    },
    async (request) => listPricingPolicies(db, companyOf(request)),
  );
  registerRecordRoutes(app, {
    path: '/billing/pricing_policies',
    tags,
    record: pricingPolicySchema,
    save: savePricingPolicySchema,
    read: 'billing:read',
    write: 'billing:write',
    companyScoped: true,
    get: {
      summary: 'One pricing policy',
      load: ({ companyId, id }) => getPricingPolicy(db, companyId, id),
    },
    create: {
      summary: 'Creates a pricing policy: fixed charges, bands, sewerage, fees and VAT per charge',
      run: ({ principal, companyId, body, requestId }) =>
        savePricingPolicy(db, principal, companyId, null, body, requestId),
    },
    update: {
      summary: 'Edits a pricing policy (the whole record)',
      run: ({ principal, companyId, id, body, requestId }) =>
        savePricingPolicy(db, principal, companyId, id, body, requestId),
    },
  });

  app.get(
    '/billing/discount_policies',
    {
      config: read,
      schema: {
        tags,
        summary: 'The discount policies (social tariffs, surcharges) of the company',
        response: { 200: z.array(discountPolicySchema) },
      },
    },
    async (request) => listDiscountPolicies(db, companyOf(request)),
  );
  registerRecordRoutes(app, {
    path: '/billing/discount_policies',
    tags,
    record: discountPolicySchema,
    save: saveDiscountPolicySchema,
    read: 'billing:read',
    write: 'billing:write',
    companyScoped: true,
    get: {
      summary: 'One discount policy',
      load: ({ companyId, id }) => getDiscountPolicy(db, companyId, id),
    },
    create: {
      summary: 'Creates a discount policy',
      run: ({ principal, companyId, body, requestId }) =>
        saveDiscountPolicy(db, principal, companyId, null, body, requestId),
    },
    update: {
      summary: 'Edits a discount policy (the whole record)',
      run: ({ principal, companyId, id, body, requestId }) =>
        saveDiscountPolicy(db, principal, companyId, id, body, requestId),
    },
  });

  app.get(
    '/billing/vat_percentages',
    {
      config: read,
      schema: {
        tags,
        summary: "The VAT settings' active percentages a charge may take",
        response: {
          200: z.array(z.object({ id: z.number().int(), description: z.string(), percentage: z.string() })),
        },
      },
    },
    async () => activeVatPercentages(db),
  );

  app.post(
    '/billing/try',
    {
      config: read,
      schema: {
        tags,
        summary: "The bill a consumer would get for a consumption in a period (the policies' try-it panel)",
        body: tryBillSchema,
        response: { 200: computedBillSchema },
      },
    },
    async (request) => tryBill(db, companyOf(request), request.body),
  );

  registerListRoute(app, options.lists, {
    path: '/billing/bills/search',
    entityName: 'bills',
    permission: 'billing:read',
    list: billsList(db),
    scope: ({ companyId }) => billsOfCompany(companyId),
    tags,
    summary: 'The bills list: paging, sorting, filters by period, route, state and amount',
    item: billListItemSchema,
  });

  app.post(
    '/billing/bills',
    {
      config: write,
      schema: {
        tags,
        summary:
          "Computes and stores a consumer's bill of a period (recomputed while not finalized; 409 after)",
        body: saveBillSchema,
        response: { 200: billSchema },
      },
    },
    async (request) => {
      const { consumerId, from, to, ...readings } = request.body;
      return saveBill(
        db,
        principalOf(request),
        companyOf(request),
        { consumerId, from, to, ...readings },
        request.id,
      );
    },
  );
  app.get(
    '/billing/bills/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'One bill with its lines and VAT breakdown',
        params: idParams,
        response: { 200: billSchema },
      },
    },
    async (request) => getBill(db, companyOf(request), request.params.id),
  );
  app.post(
    '/billing/bills/:id/finalize',
    {
      config: write,
      schema: {
        tags,
        summary: 'Finalizes a bill: the next number of the water-bill series; immutable afterwards',
        params: idParams,
        response: { 200: billSchema },
      },
    },
    async (request) =>
      finalizeBill(db, principalOf(request), companyOf(request), request.params.id, request.id),
  );
  app.post(
    '/billing/bills/:id/credit',
    {
      config: { permission: 'billing:admin' },
      schema: {
        tags,
        summary:
          'Credits a finalized bill (kind 4): its lines negated, numbered in the related credit series, finalized; the debt follows',
        params: idParams,
        body: creditBillSchema,
        response: { 201: billSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await creditBill(
            db,
            principalOf(request),
            companyOf(request),
            request.params.id,
            request.body.reason,
            request.id,
          ),
        ),
  );
  const admin = { permission: 'billing:admin' } as const;
  app.get(
    '/billing/bills/:id/correction',
    {
      config: admin,
      schema: {
        tags,
        summary:
          'The corrected bill a credited bill would get (the period’s readings and tariffs of today), stored nowhere',
        params: idParams,
        response: { 200: billCorrectionSchema },
      },
    },
    async (request) => previewCorrection(db, companyOf(request), request.params.id),
  );
  app.post(
    '/billing/bills/:id/correction',
    {
      config: admin,
      schema: {
        tags,
        summary:
          'Issues the corrected bill of a credited bill: kind 1 of the same period, numbered in the water-bill series, finalized',
        params: idParams,
        response: { 201: billSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await issueCorrection(db, principalOf(request), companyOf(request), request.params.id, request.id),
        ),
  );
  app.get(
    '/billing/bills/:id/pdf',
    {
      config: read,
      schema: {
        tags,
        summary: 'The bill as a PDF in Greek (or English), with its RF code, barcode and consumption chart',
        params: idParams,
        querystring: z.object({ lang: z.enum(['el', 'en']).optional() }),
      },
    },
    async (request, reply) =>
      sendInline(
        reply,
        await printBill(db, companyOf(request), request.params.id, request.query.lang ?? 'el'),
      ),
  );
  app.get(
    '/billing/consumers/:id/bills',
    {
      config: read,
      schema: {
        tags,
        summary: "A consumer's bills, newest first (the consumer card's Bills tab)",
        params: idParams,
        response: { 200: z.array(consumerBillSchema) },
      },
    },
    async (request) => {
      const companyId = companyOf(request);
      await assertConsumer(db, companyId, request.params.id);
      return billsOfConsumer(db, companyId, request.params.id);
    },
  );
};
