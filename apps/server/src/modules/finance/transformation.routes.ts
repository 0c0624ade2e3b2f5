import {
  financeDocumentListItemSchema,
  transformationCandidatesQuerySchema,
  transformationRequestSchema,
  transformationResultSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { previewTransformation, transform, transformationCandidates } from './transformation.service.ts';

const tags = ['finance'];

/** Transformation of delivery notes and orders into invoices. */
export const transformationRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.get(
    '/finance/transformation/candidates',
    {
      config: { permission: 'finance:read' },
      schema: {
        tags,
        summary: 'Finalized delivery notes and orders not yet transformed, by trader and date',
        querystring: transformationCandidatesQuerySchema,
        response: { 200: z.array(financeDocumentListItemSchema) },
      },
    },
    async (request) => transformationCandidates(db, companyOf(request), request.query),
  );

  app.post(
    '/finance/transformation/preview',
    {
      config: { permission: 'finance:write' },
      schema: {
        tags,
        summary: 'What a transformation would create (nothing is written)',
        body: transformationRequestSchema,
        response: { 200: transformationResultSchema },
      },
    },
    async (request) => previewTransformation(db, companyOf(request), request.body),
  );

  app.post(
    '/finance/transformation',
    {
      config: { permission: 'finance:write' },
      schema: {
        tags,
        summary:
          'Transform: draft results in the target series, each source linked to its result; 409 when a source is taken',
        body: transformationRequestSchema,
        response: { 201: transformationResultSchema },
      },
    },
    async (request, reply) => {
      const result = await transform(db, principalOf(request), companyOf(request), request.body, request.id);
      return reply.status(201).send(result);
    },
  );
};
