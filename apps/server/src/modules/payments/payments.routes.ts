import {
  consumerAccountSchema,
  consumerDebtsSchema,
  paymentSchema,
  prepayReturnSchema,
  recordPaymentSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { companyQuery, idParams } from '../../platform/params.ts';
import { accountOf, findDebts } from './account.service.ts';
import { getPayment, recordPayment, returnPrepayment } from './cashier.service.ts';

const tags = ['payments'];
const read = { permission: 'payments:read', companyScoped: true } as const;
const write = { permission: 'payments:write', companyScoped: true } as const;

/** Issue 18: the consumer's account, the debt search, the cashier's payments. */
export const paymentsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  const { db } = options;

  app.get(
    '/payments/accounts/:id',
    {
      config: read,
      schema: {
        tags,
        summary:
          "A consumer's account: the ledger with running balance, the open debts, the overdue interest",
        params: idParams,
        querystring: companyQuery,
        response: { 200: consumerAccountSchema },
      },
    },
    async (request) => db.transaction((tx) => accountOf(tx, companyOf(request), request.params.id)),
  );
  app.get(
    '/payments/debts',
    {
      config: read,
      schema: {
        tags,
        summary: 'Open debts by consumer code, ΑΦΜ, owner name or RF code (404 when none)',
        querystring: companyQuery.extend({ q: z.string().max(100) }),
        response: { 200: z.array(consumerDebtsSchema) },
      },
    },
    async (request) => db.transaction((tx) => findDebts(tx, companyOf(request), request.query.q)),
  );
  app.post(
    '/payments/payments',
    {
      config: write,
      schema: {
        tags,
        summary:
          'Records a payment at the cashier (or a prepayment): allocation and receipt number in one transaction',
        querystring: companyQuery,
        body: recordPaymentSchema,
        response: { 201: paymentSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await recordPayment(db, principalOf(request), companyOf(request), request.body, request.id)),
  );
  app.post(
    '/payments/prepay_returns',
    {
      config: write,
      schema: {
        tags,
        summary: "Returns money of the consumer's credit (spec kind 17)",
        querystring: companyQuery,
        body: prepayReturnSchema,
        response: { 201: paymentSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await returnPrepayment(db, principalOf(request), companyOf(request), request.body, request.id)),
  );
  app.get(
    '/payments/payments/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'A payment with its receipt number and what it paid',
        params: idParams,
        querystring: companyQuery,
        response: { 200: paymentSchema },
      },
    },
    async (request) => getPayment(db, companyOf(request), request.params.id),
  );
};
