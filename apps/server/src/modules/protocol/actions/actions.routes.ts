import {
  documentActionRequestSchema,
  documentActionResultSchema,
  historyEntrySchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../../platform/auth.ts';
import { requestLanguage } from '../../../platform/i18n.ts';
import type { ModuleOptions } from '../../../platform/module.ts';
import { idParams } from '../../../platform/params.ts';
import { documentHistory, runDocumentAction } from './actions.service.ts';

/**
 * The document actions (spec §3 'Document actions') and the history timeline. protocol:read reaches
 * them (a chargee with read access may charge on, return or sign); each action's own rule decides.
 */
export const documentActionsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (
  app,
  { db, storage, mailer },
) => {
  app.post(
    '/document/actions',
    {
      config: { permission: 'protocol:read' },
      schema: {
        tags: ['protocol'],
        summary:
          'Run one of the fourteen actions on a document (edit, send, charge, share, return, history, archive, restore, sign, convert to outgoing, create case, file transfer, clone, delete)',
        body: documentActionRequestSchema,
        response: { 200: documentActionResultSchema },
      },
    },
    async (request) => {
      const { principal, companyId, requestId } = contextOf(request);
      return runDocumentAction(db, principal, companyId, request.body, requestId, {
        storage,
        mailer,
        language: requestLanguage(request.cookies?.locale, request.headers['accept-language']),
      });
    },
  );

  app.get(
    '/document/:id/history',
    {
      config: { permission: 'protocol:read' },
      schema: {
        tags: ['protocol'],
        summary:
          "A document's history: its audit trail, oldest first, with who, when, before/after and comments",
        params: idParams,
        response: { 200: z.array(historyEntrySchema) },
      },
    },
    async (request) => {
      const { principal, companyId } = contextOf(request);
      return documentHistory(db, principal, companyId, request.params.id);
    },
  );
};
