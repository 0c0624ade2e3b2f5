import {
  consumerAccountSchema,
  consumerDebtsSchema,
  daySummarySchema,
  hasPermission,
  isoDaySchema,
  paymentSchema,
  prepayReturnSchema,
  recordPaymentSchema,
  utilityDay,
} from '@protocol/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { forbidden } from '../../platform/errors.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { sendInline } from '../../platform/pdf/reply.ts';
import { accountOf, findDebts } from './account.service.ts';
import { getPayment, recordPayment, returnPrepayment } from './cashier.service.ts';
import { daySummary } from './day-summary.ts';
import { printDaySummary, printReceipt, printStatement, statementXlsx } from './payments.pdf.ts';

const tags = ['payments'];
const read = { permission: 'payments:read' } as const;
const write = { permission: 'payments:write' } as const;

/** The consumer's account, the debt search, the cashier's payments. */
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
        querystring: z.object({ q: z.string().max(100) }),
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
        response: { 200: paymentSchema },
      },
    },
    async (request) => getPayment(db, companyOf(request), request.params.id),
  );
  const lang = z.enum(['el', 'en']).optional();
  app.get(
    '/payments/payments/:id/receipt',
    {
      config: read,
      schema: {
        tags,
        summary: 'The receipt of a payment as a PDF, in Greek (or English)',
        params: idParams,
        querystring: z.object({ lang }),
      },
    },
    async (request, reply) =>
      sendInline(
        reply,
        await printReceipt(db, companyOf(request), request.params.id, request.query.lang ?? 'el'),
      ),
  );
  const dayQuery = z.object({
    date: isoDaySchema().optional(),
    cashier: z.string().max(100).optional(),
    lang,
  });
  /** One's own day; another cashier's only with payments:admin (the head cashier). */
  const dayOf = (request: FastifyRequest<{ Querystring: z.infer<typeof dayQuery> }>) => {
    const principal = principalOf(request);
    const cashier = request.query.cashier ?? principal.username;
    if (cashier !== principal.username && !hasPermission(principal.scope, 'payments:admin'))
      throw forbidden();
    return { date: request.query.date ?? utilityDay(new Date()), cashier };
  };
  app.get(
    '/payments/day_summary',
    {
      config: read,
      schema: {
        tags,
        summary: "A cashier's day (Z): the receipts, totals per method and the day's total",
        querystring: dayQuery,
        response: { 200: daySummarySchema },
      },
    },
    async (request) => {
      const { date, cashier } = dayOf(request);
      return daySummary(db, companyOf(request), date, cashier);
    },
  );
  app.get(
    '/payments/day_summary/pdf',
    {
      config: read,
      schema: { tags, summary: "A cashier's day (Z) as a PDF", querystring: dayQuery },
    },
    async (request, reply) =>
      sendInline(
        reply,
        await printDaySummary(db, companyOf(request), dayOf(request), request.query.lang ?? 'el'),
      ),
  );
  app.get(
    '/payments/accounts/:id/statement',
    {
      config: read,
      schema: {
        tags,
        summary: "The consumer's statement: PDF (Greek or English) or Excel",
        params: idParams,
        querystring: z.object({ lang, format: z.enum(['pdf', 'xlsx']).optional() }),
      },
    },
    async (request, reply) => {
      const language = request.query.lang ?? 'el';
      return db.transaction(async (tx) =>
        request.query.format === 'xlsx'
          ? sendInline(
              reply,
              await statementXlsx(tx, companyOf(request), request.params.id, language),
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            )
          : sendInline(reply, await printStatement(tx, companyOf(request), request.params.id, language)),
      );
    },
  );
};
