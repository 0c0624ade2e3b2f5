import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../../platform/auth.ts';
import { contentDisposition } from '../../../platform/exports/render.ts';
import { requestLanguage } from '../../../platform/i18n.ts';
import type { ModuleOptions } from '../../../platform/module.ts';
import { idParams } from '../../../platform/params.ts';
import { receiptData, receiptFileName, renderReceiptPdf } from './receipt.service.ts';

const receiptQuery = z.object({
  lang: z.enum(['el', 'en']).optional(),
  /** inline (the browser's viewer, to print) or attachment (download). */
  disposition: z.enum(['inline', 'attachment']).default('inline'),
});

/**
 * GET /api/document/{id}/receipt: the registration receipt of a registered document as a
 * PDF, `copies` pages (the document type's setting). Visible documents only (404), registered only (409).
 */
export const receiptRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.get(
    '/document/:id/receipt',
    {
      config: { permission: 'protocol:read' },
      schema: {
        tags: ['documents'],
        summary:
          'The registration receipt (PDF, A4): company, book, number N/YYYY, date, kind, subject, traders, attachments, operator; one page per copy',
        params: idParams,
        querystring: receiptQuery,
      },
    },
    async (request, reply) => {
      const language =
        request.query.lang ?? requestLanguage(request.cookies?.locale, request.headers['accept-language']);
      // Read everything first: the PDF is drawn from memory, no transaction stays open while streaming.
      const { principal, companyId } = contextOf(request);
      const data = await receiptData(db, principal, companyId, request.params.id);
      const fileName = receiptFileName(language, data);
      reply.header('Content-Type', 'application/pdf');
      reply.header(
        'Content-Disposition',
        contentDisposition(fileName).replace(/^attachment/, request.query.disposition),
      );
      reply.header('Cache-Control', 'no-store');
      return reply.send(renderReceiptPdf(data, language));
    },
  );
};
