import { billingRunRequestSchema, billingRunSchema } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { startDryRun, startFinalize, startRun } from './runs.service.ts';
import { getRun, listRuns } from './runs.view.ts';

const tags = ['billing'];
const jobStarted = z.object({ jobId: z.number().int() });
const read = { permission: 'billing:read' } as const;
const write = { permission: 'billing:write' } as const;

/** Billing runs of a period over a scope: the dry run, the run as a job, its progress and totals. */
export const runsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, jobs }) => {
  app.post(
    '/billing/runs/dry',
    {
      config: write,
      schema: {
        tags,
        summary:
          'Starts the dry run as a background job: its result is what a run of the period over the scope would bill (counts, totals per charge, flags); stores nothing',
        body: billingRunRequestSchema,
        response: { 202: jobStarted },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(await startDryRun(db, jobs, principalOf(request), companyOf(request), request.body)),
  );
  app.post(
    '/billing/runs',
    {
      config: write,
      schema: {
        tags,
        summary: 'Starts a billing run as a background job; 409 while another run holds one of its routes',
        body: billingRunRequestSchema,
        response: { 201: billingRunSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await startRun(db, jobs, principalOf(request), companyOf(request), request.body, request.id)),
  );
  app.get(
    '/billing/runs',
    {
      config: read,
      schema: {
        tags,
        summary: 'The last billing runs of the company with their progress and totals',
        response: { 200: z.array(billingRunSchema) },
      },
    },
    async (request) => listRuns(db, companyOf(request)),
  );
  app.get(
    '/billing/runs/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'One billing run with its progress and totals',
        params: idParams,
        response: { 200: billingRunSchema },
      },
    },
    async (request) => getRun(db, companyOf(request), request.params.id),
  );
  app.post(
    '/billing/runs/:id/finalize',
    {
      config: write,
      schema: {
        tags,
        summary:
          "Starts finalizing a done run's bills as a background job: numbers of the water-bill series, gapless, then immutable",
        params: idParams,
        response: { 202: jobStarted },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await startFinalize(
            db,
            jobs,
            principalOf(request),
            companyOf(request),
            request.params.id,
            request.id,
          ),
        ),
  );
};
