import { idParamSchema, saveSmartvilleSchema, smartvilleSettingsSchema } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import { requestLanguage } from '../../platform/i18n.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import {
  readSmartville,
  rememberSmartvilleBox,
  SMARTVILLE_JOB,
  type SmartvillePayload,
  saveSmartville,
} from './smartville.ts';

const tags = ['readouts'];

/** The smartville connection of a company (smart meters, source 2) and its pull as a background job. */
export const smartvilleRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, jobs, secrets }) => {
  rememberSmartvilleBox(db, secrets);

  app.get(
    '/readouts/smartville',
    {
      config: { permission: 'readouts:read' },
      schema: {
        tags,
        summary: "The company's smartville connection (its address; the key is never shown)",
        response: { 200: smartvilleSettingsSchema },
      },
    },
    async (request) => readSmartville(db, companyOf(request)),
  );

  app.put(
    '/readouts/smartville',
    {
      config: { permission: 'readouts:admin' },
      schema: {
        tags,
        summary: "Saves the company's smartville address and API key (sealed at rest)",
        body: saveSmartvilleSchema,
        response: { 200: smartvilleSettingsSchema },
      },
    },
    async (request) =>
      saveSmartville(db, secrets, principalOf(request).username, companyOf(request), request.body),
  );

  app.post(
    '/readouts/smartville/pull',
    {
      config: { permission: 'readouts:write' },
      schema: {
        tags,
        summary: "Queues a pull of the smart meters' readings into a period (GET /api/jobs/{id})",
        body: z.object({
          year: z.number().int().min(1900).max(2999),
          period: z.number().int().min(1).max(12),
          months: z
            .number()
            .int()
            .refine((m) => [1, 2, 3, 4, 6, 12].includes(m), 'validation.invalid'),
        }),
        response: { 202: z.object({ jobId: idParamSchema }) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const companyId = companyOf(request);
      if (!(await readSmartville(db, companyId)).hasKey)
        throw new AppError(400, 'readouts.smartville.not_configured');
      const payload: SmartvillePayload = {
        companyId,
        ...request.body,
        username: principal.username,
        language: requestLanguage(request.cookies?.locale, request.headers['accept-language']),
      };
      const jobId = await jobs.enqueueWith(
        db,
        {
          kind: SMARTVILLE_JOB,
          // One pull of a period at a time: a second click while it runs answers the same job.
          key: `smartville:${companyId}:${payload.year}:${payload.period}`,
          companyId,
          owner: principal.userId,
          maxAttempts: 2,
        },
        () => payload,
      );
      return reply.status(202).send({ jobId });
    },
  );
};
