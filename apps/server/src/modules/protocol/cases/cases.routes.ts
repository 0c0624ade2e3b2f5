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
import { contextOf } from '../../../platform/auth.ts';
import { registerListRoute } from '../../../platform/list/route.ts';
import type { ModuleOptions } from '../../../platform/module.ts';
import { idParams } from '../../../platform/params.ts';
import { registerRecordRoutes } from '../../../platform/record/routes.ts';
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
    async (request) => {
      const { principal, companyId } = contextOf(request);
      return caseTimeline(db, principal, companyId, request.params.id);
    },
  );

  registerRecordRoutes(app, {
    path: '/cases',
    tags: ['cases'],
    record: caseSchema,
    save: saveCaseSchema,
    read: 'protocol:read',
    write: 'protocol:write',
    companyScoped: true,
    get: {
      summary: 'A case folder with the linked documents the asker sees',
      load: ({ principal, companyId, id }) => getCase(db, principal, companyId, id),
    },
    create: {
      summary: 'Open a case folder; an empty code gets the next code of the year (e.g. 2026/0007)',
      run: ({ principal, companyId, body, requestId }) =>
        createCase(db, principal, companyId, body, requestId),
    },
    update: {
      summary: 'Change a case folder; documentIds are added (remove one with DELETE …/documents/{id})',
      run: ({ principal, companyId, id, body, requestId }) =>
        updateCase(db, principal, companyId, id, body, requestId),
    },
    remove: {
      summary: 'Delete case folders; their documents stay (unlinked)',
      run: ({ principal, companyId, ids, requestId }) =>
        deleteCases(db, principal, companyId, ids, requestId),
    },
  });

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
    async (request) => {
      const { principal, companyId, requestId } = contextOf(request);
      return addCaseDocuments(
        db,
        principal,
        companyId,
        request.params.id,
        request.body.documentIds,
        requestId,
      );
    },
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
    async (request) => {
      const { principal, companyId, requestId } = contextOf(request);
      const { id, documentId } = request.params;
      return removeCaseDocument(db, principal, companyId, id, documentId, requestId);
    },
  );
};
