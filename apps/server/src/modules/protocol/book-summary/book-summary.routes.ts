import { bookSummaryQuerySchema, bookSummarySchema } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../../platform/auth.ts';
import { contentDisposition } from '../../../platform/exports/render.ts';
import { requestLanguage } from '../../../platform/i18n.ts';
import type { ModuleOptions } from '../../../platform/module.ts';
import { bookSummaryFile, getBookSummary } from './book-summary.service.ts';

const fileQuerySchema = z.object({
  ...bookSummaryQuerySchema.shape,
  format: z.enum(['pdf', 'xlsx']).default('pdf'),
  lang: z.enum(['el', 'en']).optional(),
});

/**
 * The protocol book summary (spec §2 /book_summary). The book is the legal register of every entry of the
 * company, so it needs protocol:write (or admin): an operator with protocol:read alone sees only the
 * documents they handle, and gets 403 here rather than a book with holes.
 */
export const bookSummaryRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.get(
    '/protocol/book_summary',
    {
      config: { permission: 'protocol:write' },
      schema: {
        tags: ['protocol'],
        summary:
          'The protocol book: every registered entry of a book registered on the days [from, to] (Europe/Athens), in number order',
        querystring: bookSummaryQuerySchema,
        response: { 200: bookSummarySchema },
      },
    },
    async (request) => getBookSummary(db, principalOf(request), companyOf(request), request.query),
  );

  app.get(
    '/protocol/book_summary/file',
    {
      config: { permission: 'protocol:write' },
      schema: {
        tags: ['protocol'],
        summary:
          'The printable protocol book: PDF (A4 landscape, company, book and year on every page, page N of M) or Excel, streamed',
        querystring: fileQuerySchema,
      },
    },
    async (request, reply) => {
      const { format, lang, ...query } = request.query;
      const language = lang ?? requestLanguage(request.cookies?.locale, request.headers['accept-language']);
      const file = await bookSummaryFile(
        db,
        principalOf(request),
        companyOf(request),
        query,
        format,
        language,
      );
      reply.header('Content-Type', file.contentType);
      reply.header('Content-Disposition', contentDisposition(file.fileName));
      return reply.send(file.stream);
    },
  );
};
