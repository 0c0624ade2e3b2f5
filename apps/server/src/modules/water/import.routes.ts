import { consumerImportStartSchema } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf } from '../../platform/auth.ts';
import { startImport } from '../../platform/imports/pipeline.ts';
import { acceptOneFile } from '../../platform/imports/upload.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { requireDefinition } from './consumer-code.ts';
import { importTemplate } from './import.file.ts';
import { consumerImport } from './import.service.ts';

const tags = ['water'];
const importQuery = z.object({ dryRun: z.enum(['true', 'false']).default('true') });

/**
 * Moving a register in: the template with Greek headers, and the upload of a filled one
 * (xlsx or UTF-8 csv) as a background job, a dry run or the import itself (GET /api/jobs/{id}).
 */
export const importRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, jobs, storage }) => {
  await acceptOneFile(app);

  app.get(
    '/protocol/consumers/import/template',
    {
      config: { permission: 'consumers:write' },
      schema: {
        tags,
        summary: 'The register template (xlsx, Greek headers, the code’s levels first)',
      },
    },
    async (request, reply) => {
      const file = await importTemplate(await requireDefinition(db, companyOf(request)));
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header(
          'content-disposition',
          `attachment; filename="consumers-template.xlsx"; filename*=UTF-8''${encodeURIComponent('καταναλωτές-πρότυπο.xlsx')}`,
        )
        .send(file);
    },
  );

  app.post(
    '/protocol/consumers/import',
    {
      config: { permission: 'consumers:write' },
      schema: {
        tags,
        summary: 'Uploads a register (xlsx or csv) and queues its dry run (dryRun=true) or its import',
        consumes: ['multipart/form-data'],
        querystring: importQuery,
        response: { 202: consumerImportStartSchema },
      },
    },
    async (request, reply) => {
      const companyId = companyOf(request);
      await requireDefinition(db, companyId);
      const jobId = await startImport({ db, jobs, storage }, consumerImport, request, {
        companyId,
        dryRun: request.query.dryRun === 'true',
        options: null,
      });
      return reply.status(202).send({ jobId });
    },
  );
};
