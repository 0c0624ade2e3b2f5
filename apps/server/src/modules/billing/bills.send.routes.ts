import {
  billDispatchListSchema,
  billDispatchSchema,
  billDispatchStartedSchema,
  emailBillsSchema,
  idSchema,
  printBillsSchema,
  runSendingSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { sendInline } from '../../platform/pdf/reply.ts';
import { rememberSendServices } from './bills.send.jobs.ts';
import {
  chosenDispatches,
  completeDispatch,
  completeRoute,
  dispatchFileKey,
  emailBills,
  getDispatch,
  printBills,
  runSending,
  sendErrors,
} from './bills.send.ts';

const tags = ['billing'];
const read = { permission: 'billing:read' } as const;
const write = { permission: 'billing:write' } as const;

/** Sending the finalized bills by e-mail, the merged PDFs for the post, the counts per status. */
export const sendRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (
  app,
  { db, jobs, mailer, storage },
) => {
  rememberSendServices(db, mailer, storage);

  app.post(
    '/billing/dispatches/email',
    {
      config: write,
      schema: {
        tags,
        summary:
          "E-mails a run's, a route's or chosen finalized bills on hold with their PDF (a background job); marks the others for print",
        body: emailBillsSchema,
        response: { 201: billDispatchStartedSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await emailBills(
            db,
            jobs,
            mailer.configured,
            principalOf(request),
            companyOf(request),
            request.body,
            request.id,
          ),
        ),
  );
  app.post(
    '/billing/dispatches/print',
    {
      config: write,
      schema: {
        tags,
        summary:
          "Prints a run route's bills marked for print, or chosen finalized bills, into one PDF (a background job) and marks them printed",
        body: printBillsSchema,
        response: { 201: billDispatchStartedSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await printBills(db, jobs, principalOf(request), companyOf(request), request.body, request.id)),
  );
  app.get(
    '/billing/dispatches',
    {
      config: read,
      schema: {
        tags,
        summary: 'The sendings of chosen bills (outside any run), newest first, with their progress',
        response: { 200: billDispatchListSchema },
      },
    },
    async (request) => ({ dispatches: await chosenDispatches(db, companyOf(request)) }),
  );
  app.post(
    '/billing/dispatches/:id/complete',
    {
      config: write,
      schema: {
        tags,
        summary: 'Closes a sending: its sent (mailed or printed) bills become completed',
        params: idParams,
        response: { 200: z.object({ completed: z.number().int() }) },
      },
    },
    async (request) =>
      completeDispatch(db, principalOf(request), companyOf(request), request.params.id, request.id),
  );
  app.get(
    '/billing/dispatches/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'One sending of bills with its progress',
        params: idParams,
        response: { 200: billDispatchSchema },
      },
    },
    async (request) => getDispatch(db, companyOf(request), request.params.id),
  );
  app.get(
    '/billing/dispatches/:id/file',
    {
      config: read,
      schema: {
        tags,
        summary: "A print sending's merged PDF (404 until it is stored)",
        params: idParams,
      },
    },
    async (request, reply) => {
      const key = await dispatchFileKey(db, companyOf(request), request.params.id);
      const file = await storage.get(key);
      if (!file) throw new AppError(404, sendErrors.noFile);
      return sendInline(reply, { fileName: `bills-${request.params.id}.pdf`, ...file });
    },
  );
  app.get(
    '/billing/runs/:id/sending',
    {
      config: read,
      schema: {
        tags,
        summary: "A run's routes with their finalized bills per send status, and the run's sendings",
        params: idParams,
        response: { 200: runSendingSchema },
      },
    },
    async (request) => runSending(db, companyOf(request), request.params.id),
  );
  app.post(
    '/billing/runs/:id/sending/complete',
    {
      config: write,
      schema: {
        tags,
        summary: "Closes a run route's sending: its sent (mailed or printed) bills become completed",
        params: idParams,
        body: z.object({ routeId: idSchema }),
        response: { 200: z.object({ completed: z.number().int() }) },
      },
    },
    async (request) =>
      completeRoute(
        db,
        principalOf(request),
        companyOf(request),
        request.params.id,
        request.body.routeId,
        request.id,
      ),
  );
};
