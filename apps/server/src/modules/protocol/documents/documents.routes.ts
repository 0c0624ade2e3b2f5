import {
  documentBookOptionSchema,
  documentListItemSchema,
  documentSchema,
  saveDocumentSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf } from '../../../platform/auth.ts';
import { registerListRoute } from '../../../platform/list/route.ts';
import type { ModuleOptions } from '../../../platform/module.ts';
import { registerRecordRoutes } from '../../../platform/record/routes.ts';
import { getDocument } from './documents.answer.ts';
import { type DocumentsListKind, documentsList, documentsScope } from './documents.list.ts';
import { booksForKind } from './documents.references.ts';
import { createDocument, updateDocument } from './documents.service.ts';

const booksQuery = z.object({ kind: z.coerce.number().int().min(0).max(1) });

const documentLists: { path: string; which: DocumentsListKind; summary: string }[] = [
  { path: '/document/search', which: 'all', summary: 'All active documents, incoming and outgoing' },
  { path: '/inbox/search', which: 'inbox', summary: 'The active incoming documents (inbox)' },
  { path: '/outbox/search', which: 'outbox', summary: 'The active outgoing documents (outbox)' },
  { path: '/document/archived/search', which: 'archived', summary: 'The archived documents' },
  { path: '/document/deleted/search', which: 'deleted', summary: 'The deleted (unregistered) documents' },
];

/**
 * Documents of the protocol (spec §2 /inbox, /outbox, /document): the lists, the card,
 * create and change (saving into a book registers). The actions live in actions.routes.ts.
 */
export const documentsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  const { db } = options;
  const list = documentsList(db);

  for (const { path, which, summary } of documentLists) {
    registerListRoute(app, options.lists, {
      path,
      permission: 'protocol:read',
      list,
      scope: ({ companyId, principal }) => documentsScope(companyId, principal, which),
      tags: ['documents'],
      summary: `${summary}: paging, sorting, filters, Greek-aware search (list engine); only what the operator may see`,
      item: documentListItemSchema,
    });
  }

  app.get(
    '/document/books',
    {
      config: { permission: 'protocol:read' },
      schema: {
        tags: ['documents'],
        summary:
          'The active protocol books a document of this kind may be registered in (0 incoming, 1 outgoing)',
        querystring: booksQuery,
        response: { 200: z.array(documentBookOptionSchema) },
      },
    },
    async (request) => booksForKind(db, companyOf(request), request.query.kind),
  );

  registerRecordRoutes(app, {
    path: '/document',
    tags: ['documents'],
    record: documentSchema,
    save: saveDocumentSchema,
    read: 'protocol:read',
    write: 'protocol:write',
    companyScoped: true,
    get: {
      summary: 'A document with its traders, files, signatures, cases and the actions the operator may run',
      load: ({ principal, companyId, id }) => getDocument(db, principal, companyId, id),
    },
    create: {
      summary: 'Create a document; with a protocol book (or a type with autonr) it is registered at once',
      checksSession: true,
      run: ({ principal, companyId, body, requestId }) =>
        createDocument(db, principal, companyId, body, { requestId }),
    },
    update: {
      summary:
        'Change a document; naming a book registers an unregistered one; registration fields never change (409)',
      // protocol:read: the current chargee may edit too; the service applies the edit rule.
      permission: 'protocol:read',
      run: ({ principal, companyId, id, body, requestId }) =>
        updateDocument(db, principal, companyId, id, body, { requestId }),
    },
  });
};
