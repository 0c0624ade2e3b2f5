import {
  FINANCE_DOCUMENTS_ENTITY,
  financeDocumentListItemSchema,
  financeDocumentSchema,
  isoDaySchema,
  saveFinanceDocumentSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, confirmedPrincipalOf, contextOf, principalOf } from '../../platform/auth.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { sendInline } from '../../platform/pdf/reply.ts';
import { finalizeFinanceDocument } from './documents.finalize.ts';
import { issueFinanceDocument } from './documents.issue.ts';
import { documentsList, documentsOfCompany } from './documents.list.ts';
import { printFinanceDocument } from './documents.pdf.ts';
import {
  createCreditNote,
  createFinanceDocument,
  deleteFinanceDocument,
  getFinanceDocument,
  updateFinanceDocument,
} from './documents.service.ts';

const tags = ['finance'];

/** Commercial documents: list, form, finalize, credit note, print. */
export const documentsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, lists }) => {
  registerListRoute(app, lists, {
    path: '/finance/documents/search',
    entityName: FINANCE_DOCUMENTS_ENTITY,
    permission: 'finance:read',
    list: documentsList(db),
    scope: ({ companyId }) => documentsOfCompany(companyId),
    tags,
    summary:
      "The company's commercial documents of every series (list engine); water bills are billing's (GET /api/billing/bills…)",
    item: financeDocumentListItemSchema,
  });

  app.get(
    '/finance/documents/:id',
    {
      config: { permission: 'finance:read' },
      schema: { tags, summary: 'A document', params: idParams, response: { 200: financeDocumentSchema } },
    },
    async (request) => getFinanceDocument(db, contextOf(request).companyId, request.params.id),
  );

  app.post(
    '/finance/documents',
    {
      // Issuing (finalize=true) checks the session in its own statement; a draft confirms it first.
      config: { permission: 'finance:write', checksSession: true },
      schema: {
        tags,
        summary:
          'Create a document (entry state new; with finalize=true stored and finalized at once); totals are computed on the server',
        querystring: z.object({ finalize: z.enum(['true', 'false']).optional() }),
        body: saveFinanceDocumentSchema,
        response: { 201: financeDocumentSchema },
      },
    },
    async (request, reply) => {
      const created =
        request.query.finalize === 'true'
          ? await issueFinanceDocument(db, principalOf(request), companyOf(request), request.body, request.id)
          : await createFinanceDocument(
              db,
              await confirmedPrincipalOf(request),
              companyOf(request),
              request.body,
              request.id,
            );
      return reply.status(201).send(created);
    },
  );

  app.put(
    '/finance/documents/:id',
    {
      config: { permission: 'finance:write' },
      schema: {
        tags,
        summary: 'Change a document not yet finalized (entry state editing); 409 once finalized',
        params: idParams,
        body: saveFinanceDocumentSchema,
        response: { 200: financeDocumentSchema },
      },
    },
    async (request) => {
      const { principal, companyId, requestId } = contextOf(request);
      return updateFinanceDocument(db, principal, companyId, request.params.id, request.body, requestId);
    },
  );

  app.delete(
    '/finance/documents/:id',
    {
      config: { permission: 'finance:write' },
      schema: { tags, summary: 'Delete a document not yet finalized; 409 once finalized', params: idParams },
    },
    async (request, reply) => {
      const { principal, companyId, requestId } = contextOf(request);
      await deleteFinanceDocument(db, principal, companyId, request.params.id, requestId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/finance/documents/:id/finalize',
    {
      config: { permission: 'finance:write' },
      schema: {
        tags,
        summary: "Finalize: the series' next number for the year, gapless; immutable afterwards",
        params: idParams,
        response: { 200: financeDocumentSchema },
      },
    },
    async (request) => {
      const { principal, companyId, requestId } = contextOf(request);
      return finalizeFinanceDocument(db, principal, companyId, request.params.id, requestId);
    },
  );

  app.post(
    '/finance/documents/:id/credit_note',
    {
      config: { permission: 'finance:write' },
      schema: {
        tags,
        summary: "A draft credit note of a finalized document, in its series' related series",
        params: idParams,
        body: z.object({ date: isoDaySchema() }),
        response: { 201: financeDocumentSchema },
      },
    },
    async (request, reply) => {
      const { principal, companyId, requestId } = contextOf(request);
      const created = await createCreditNote(
        db,
        principal,
        companyId,
        request.params.id,
        request.body.date,
        requestId,
      );
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/finance/documents/:id/pdf',
    {
      config: { permission: 'finance:read' },
      schema: {
        tags,
        summary: "The document as a Greek PDF, in the series' number of copies",
        params: idParams,
        querystring: z.object({ lang: z.enum(['el', 'en']).optional() }),
      },
    },
    async (request, reply) =>
      sendInline(
        reply,
        await printFinanceDocument(
          db,
          contextOf(request).companyId,
          request.params.id,
          request.query.lang ?? 'el',
        ),
      ),
  );
};
