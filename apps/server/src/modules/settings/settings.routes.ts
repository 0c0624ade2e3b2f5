import { generalSettingSchema } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../platform/auth.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { listGeneralSettings } from './settings.service.ts';

/** General settings: parName/parValue entries of a company (spec §3, §7). */
export const settingsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.get(
    '/general_settings',
    {
      schema: {
        tags: ['settings'],
        summary: 'The general settings of a company of the operator',
        querystring: z.object({ companyid: z.coerce.number().int().positive().optional() }),
        response: { 200: z.array(generalSettingSchema) },
      },
    },
    async (request) => listGeneralSettings(db, principalOf(request), request.query.companyid),
  );
};
