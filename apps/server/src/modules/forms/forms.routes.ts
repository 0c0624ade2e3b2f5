import {
  idParamSchema,
  onlineFormListItemSchema,
  onlineFormSchema,
  parseStructure,
  saveFormSchema,
  saveSubmissionSchema,
  submissionListItemSchema,
  submissionSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import { requestLanguage } from '../../platform/i18n.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { formsList, formsOfCompany, submissionsList, submissionsOfCompany } from './forms.list.ts';
import { draftForm, loadForm, saveForm } from './forms.service.ts';
import { renderSubmissionPdf } from './submission-print.ts';
import { assigneeGroups, assignees, loadSubmission, saveSubmission } from './submissions.service.ts';

const formParams = z.object({ id: z.union([z.literal('createDraft'), idParamSchema]) });
const savedId = z.number().int();

/** The builder and the review desk (spec §2 /online_forms…, §7). */
export const formsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, lists }) => {
  registerListRoute(app, lists, {
    path: '/onlineForms/search',
    entityName: 'FRM',
    permission: 'forms:read',
    list: formsList(db),
    scope: ({ companyId }) => formsOfCompany(companyId),
    tags: ['forms'],
    summary: "The company's online forms (list engine)",
    item: onlineFormListItemSchema,
  });

  registerListRoute(app, lists, {
    path: '/onlineForms/submissions/search',
    permission: 'forms:read',
    list: submissionsList(db),
    scope: ({ companyId }) => submissionsOfCompany(companyId),
    tags: ['forms'],
    summary: 'Submissions of the company’s forms, across forms or per form (formId=eq(…)) (list engine)',
    item: submissionListItemSchema,
  });

  app.get(
    '/onlineForms/assignees',
    {
      config: { permission: 'forms:read' },
      schema: {
        tags: ['forms'],
        summary: 'The active operators of the company a form or submission may be assigned to',
        response: { 200: z.array(z.object({ id: z.number().int(), name: z.string() })) },
      },
    },
    async (request) => assignees(db, companyOf(request)),
  );

  app.get(
    '/onlineForms/assignee_groups',
    {
      config: { permission: 'forms:read' },
      schema: {
        tags: ['forms'],
        summary: 'The groups (departments) of the company a submission may be assigned to',
        response: { 200: z.array(z.object({ id: z.number().int(), name: z.string() })) },
      },
    },
    async (request) => assigneeGroups(db, companyOf(request)),
  );

  app.get(
    '/onlineForms/:id',
    {
      config: { permission: 'forms:read' },
      schema: {
        tags: ['forms'],
        summary: 'A form; the id createDraft answers a new unsaved form with a generated form_id',
        params: formParams,
        response: { 200: onlineFormSchema },
      },
    },
    async (request) => {
      const companyId = companyOf(request);
      return request.params.id === 'createDraft' ? draftForm() : loadForm(db, companyId, request.params.id);
    },
  );

  app.put(
    '/onlineForms',
    {
      config: { permission: 'forms:write' },
      schema: {
        tags: ['forms'],
        summary:
          'Create (id null) or change a form; api is the JSON text of its rows; answers the id. Publishing a changed structure makes a new version',
        body: saveFormSchema,
        response: { 200: savedId },
      },
    },
    async (request) => saveForm(db, principalOf(request), companyOf(request), request.body, request.id),
  );

  app.get(
    '/onlineForms/submissions/:id',
    {
      config: { permission: 'forms:read' },
      schema: {
        tags: ['forms'],
        summary: 'A submission with the structure of its version, its allowed next statuses and its history',
        params: idParams,
        response: { 200: submissionSchema },
      },
    },
    async (request) => loadSubmission(db, companyOf(request), request.params.id),
  );

  app.put(
    '/onlineForms/submissions',
    {
      config: { permission: 'forms:write' },
      schema: {
        tags: ['forms'],
        summary:
          'Save a submission whole: values, status (allowed transitions only, 409 otherwise), assignee, duplicate of, case, comment; answers the id',
        body: saveSubmissionSchema,
        response: { 200: savedId },
      },
    },
    async (request) => saveSubmission(db, principalOf(request), companyOf(request), request.body, request.id),
  );

  app.get(
    '/onlineForms/submissions/:id/pdf',
    {
      config: { permission: 'forms:read' },
      schema: {
        tags: ['forms'],
        summary: 'The built-in print of a submission (PDF, A4)',
        params: idParams,
      },
    },
    async (request, reply) => {
      const submission = await loadSubmission(db, companyOf(request), request.params.id);
      const structure = parseStructure(submission.api);
      if (!structure.ok) throw new AppError(409, 'error.bad_data');
      const language = requestLanguage(request.cookies?.locale, request.headers['accept-language']);
      reply.header('Content-Type', 'application/pdf');
      reply.header('Content-Disposition', `inline; filename="${submission.reference}.pdf"`);
      reply.header('Cache-Control', 'no-store');
      return reply.send(
        renderSubmissionPdf(
          {
            companyName: '',
            formTitle: submission.formTitle,
            reference: submission.reference,
            submittedAt: new Date(submission.submittedAt),
            protocolNumber: submission.protocolNumber,
            fee: submission.fee,
            rfCode: submission.rfCode,
            structure: structure.structure,
            values: submission.values,
          },
          language,
        ),
      );
    },
  );
};
