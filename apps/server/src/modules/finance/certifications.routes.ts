import {
  certificationListItemSchema,
  certificationSchema,
  createCertificationSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, contextOf, principalOf } from '../../platform/auth.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { certificationPdf, certificationXlsx } from './certifications.print.ts';
import {
  certificationsList,
  certificationsOfCompany,
  createCertification,
  deleteCertification,
  finalizeCertification,
  getCertification,
} from './certifications.service.ts';

const tags = ['finance'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Income certification. */
export const certificationsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, lists }) => {
  registerListRoute(app, lists, {
    path: '/finance/certifications/search',
    permission: 'finance:read',
    list: certificationsList(db),
    scope: ({ companyId }) => certificationsOfCompany(companyId),
    tags,
    summary: "The company's income certifications (list engine)",
    item: certificationListItemSchema,
  });

  app.get(
    '/finance/certifications/:id',
    {
      config: { permission: 'finance:read' },
      schema: {
        tags,
        summary: 'A certification with its lines per account',
        params: idParams,
        response: { 200: certificationSchema },
      },
    },
    async (request) => getCertification(db, contextOf(request).companyId, request.params.id),
  );

  app.post(
    '/finance/certifications',
    {
      config: { permission: 'finance:write' },
      schema: {
        tags,
        summary: "A draft certification of the period's uncertified finalized income documents, per account",
        body: createCertificationSchema,
        response: { 201: certificationSchema },
      },
    },
    async (request, reply) => {
      const created = await createCertification(
        db,
        principalOf(request),
        companyOf(request),
        request.body,
        request.id,
      );
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/finance/certifications/:id/finalize',
    {
      config: { permission: 'finance:write' },
      schema: {
        tags,
        summary: "Finalize: the company's next number for the year",
        params: idParams,
        response: { 200: certificationSchema },
      },
    },
    async (request) => {
      const { principal, companyId, requestId } = contextOf(request);
      return finalizeCertification(db, principal, companyId, request.params.id, requestId);
    },
  );

  app.delete(
    '/finance/certifications/:id',
    {
      config: { permission: 'finance:write' },
      schema: { tags, summary: 'Delete a draft; its documents may be certified again', params: idParams },
    },
    async (request, reply) => {
      const { principal, companyId, requestId } = contextOf(request);
      await deleteCertification(db, principal, companyId, request.params.id, requestId);
      return reply.status(204).send();
    },
  );

  const download = (format: 'pdf' | 'xlsx') =>
    app.get(
      `/finance/certifications/:id/${format}`,
      {
        config: { permission: 'finance:read' },
        schema: {
          tags,
          summary:
            format === 'pdf'
              ? 'The certification as a PDF'
              : 'The certification as an Excel file for the accountant',
          params: idParams,
          querystring: z.object({ lang: z.enum(['el', 'en']).optional() }),
        },
      },
      async (request, reply) => {
        const make = format === 'pdf' ? certificationPdf : certificationXlsx;
        const file = await make(
          db,
          contextOf(request).companyId,
          request.params.id,
          request.query.lang ?? 'el',
        );
        reply.header('Content-Type', format === 'pdf' ? 'application/pdf' : XLSX);
        reply.header(
          'Content-Disposition',
          `${format === 'pdf' ? 'inline' : 'attachment'}; filename="${file.fileName}"`,
        );
        return reply.send(file.buffer);
      },
    );
  download('pdf');
  download('xlsx');
};
