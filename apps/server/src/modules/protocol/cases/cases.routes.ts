import {
  caseListItemSchema,
  caseSchema,
  caseTimelineEntrySchema,
  idParamSchema,
  idSchema,
  saveCaseSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../../platform/auth.ts';
import { registerListRoute } from '../../../platform/list/route.ts';
import type { ModuleOptions } from '../../../platform/module.ts';
import { companyQuery, idParams } from '../../../platform/params.ts';
import { casesList, casesOfCompany } from './cases.list.ts';
import {
  addCaseDocuments,
  caseTimeline,
  createCase,
  deleteCases,
  getCase,
  removeCaseDocument,
  updateCase,
} from './cases.service.ts';

const documentParams = idParams.extend({ documentId: idParamSchema });
const idsBody = z.object({ ids: z.array(idSchema).min(1).max(1000) });
const documentIdsBody = z.object({ documentIds: z.array(idSchema).min(1).max(1000) });

/** Case folders (φάκελοι υποθέσεων, spec §2 /cases, §3 Case): list, card, linked documents, timeline. */
export const casesRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, lists }) => {
  registerListRoute(app, lists, {
    path: '/cases/search',
    permission: 'protocol:read',
    list: casesList(db),
    scope: ({ companyId }) => casesOfCompany(companyId),
    tags: ['cases'],
    summary: "The company's case folders: paging, sorting, Greek-aware search by code or description",
    item: caseListItemSchema,
  });

  app.get(
    '/cases/:id',
    {
      config: { permission: 'protocol:read' },
      schema: {
        tags: ['cases'],
        summary: 'A case folder with the linked documents the asker sees',
        params: idParams,
        response: { 200: caseSchema },
      },
    },
    async (request) => getCase(db, principalOf(request), request.params.id),
  );

  app.get(
    '/cases/:id/timeline',
    {
      config: { permission: 'protocol:read' },
      schema: {
        tags: ['cases'],
        summary: 'The history lines of every document of the case (that the asker sees), newest first',
        params: idParams,
        response: { 200: z.array(caseTimelineEntrySchema) },
      },
    },
    async (request) => caseTimeline(db, principalOf(request), request.params.id),
  );

  app.post(
    '/cases',
    {
      config: { permission: 'protocol:write', companyScoped: true },
      schema: {
        tags: ['cases'],
        summary: 'Open a case folder; an empty code gets the next code of the year (e.g. 2026/0007)',
        querystring: companyQuery,
        body: saveCaseSchema,
        response: { 201: caseSchema },
      },
    },
    async (request, reply) => {
      const created = await createCase(
        db,
        principalOf(request),
        companyOf(request),
        request.body,
        request.id,
      );
      return reply.status(201).send(created);
    },
  );

  app.put(
    '/cases/:id',
    {
      config: { permission: 'protocol:write' },
      schema: {
        tags: ['cases'],
        summary: 'Change a case folder; documentIds are added (remove one with DELETE …/documents/{id})',
        params: idParams,
        body: saveCaseSchema,
        response: { 200: caseSchema },
      },
    },
    async (request) => updateCase(db, principalOf(request), request.params.id, request.body, request.id),
  );

  app.delete(
    '/cases',
    {
      config: { permission: 'protocol:write' },
      schema: {
        tags: ['cases'],
        summary: 'Delete case folders; their documents stay (unlinked)',
        body: idsBody,
      },
    },
    async (request, reply) => {
      await deleteCases(db, principalOf(request), request.body.ids, request.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/cases/:id/documents',
    {
      config: { permission: 'protocol:write' },
      schema: {
        tags: ['cases'],
        summary: 'Link documents (that the asker sees, not deleted) to a case folder',
        params: idParams,
        body: documentIdsBody,
        response: { 200: caseSchema },
      },
    },
    async (request) =>
      addCaseDocuments(db, principalOf(request), request.params.id, request.body.documentIds, request.id),
  );

  app.delete(
    '/cases/:id/documents/:documentId',
    {
      config: { permission: 'protocol:write' },
      schema: {
        tags: ['cases'],
        summary: 'Unlink a document from a case folder',
        params: documentParams,
        response: { 200: caseSchema },
      },
    },
    async (request) =>
      removeCaseDocument(db, principalOf(request), request.params.id, request.params.documentId, request.id),
  );
};
