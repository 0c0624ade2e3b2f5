import {
  errorKeys,
  fileRefSchema,
  publicFormSchema,
  publicReceiptSchema,
  publicSubmitResultSchema,
  publicSubmitSchema,
  submissionValuesSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors.ts';
import { contentDisposition } from '../../platform/exports/render.ts';
import { acceptOneFile } from '../../platform/imports/upload.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { loadDraft, lookup, publicForm, receiptOf, submitForm, uploadFile } from './public.service.ts';
import { rememberSubmissionServices } from './submission.job.ts';

const formIdParams = z.object({
  formId: z
    .string()
    .min(3)
    .max(64)
    .regex(/^[A-Za-z0-9-]+$/),
});
const draftParams = formIdParams.extend({ token: z.string().regex(/^[A-Za-z0-9_-]{32,64}$/) });
const receiptParams = formIdParams.extend({ receipt: z.string().regex(/^[A-Za-z0-9._-]{16,200}$/) });
const uploadQuery = z.object({ field: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/) });

/** The citizen's side of online forms: no sign-in. */
export const publicFormsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (
  app,
  { db, storage, mailer, jobs, secrets },
) => {
  await acceptOneFile(app);
  rememberSubmissionServices(db, { storage, mailer, log: app.log });

  app.get(
    '/public/forms/:formId',
    {
      config: { public: true, cacheable: true },
      schema: {
        tags: ['forms'],
        summary:
          'A published online form as a citizen fills it in (404 when unpublished, disabled or not online)',
        params: formIdParams,
        response: { 200: publicFormSchema },
      },
    },
    async (request) => publicForm(db, request.params.formId),
  );

  app.post(
    '/public/forms/:formId/submissions',
    {
      config: { public: true, publicSubmission: true },
      schema: {
        tags: ['forms'],
        summary:
          'Submit a form (checked with the same rules as the browser), or save a draft (draft: true) reachable by its private token; rate-limited per address',
        params: formIdParams,
        body: publicSubmitSchema,
        response: { 201: publicSubmitResultSchema },
      },
    },
    async (request, reply) => {
      const result = await submitForm(
        { db, jobs, secrets, ip: request.ip, requestId: request.id },
        request.params.formId,
        request.body,
      );
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/public/forms/:formId/receipts/:receipt',
    {
      config: { public: true },
      schema: {
        tags: ['forms'],
        summary:
          "Whether a submission's receipt PDF is ready (drawn by a job after the answer), by the private token the submission answered",
        params: receiptParams,
        response: { 200: publicReceiptSchema },
      },
    },
    async (request, reply) => {
      const file = await receiptOf(db, secrets, request.params.formId, request.params.receipt);
      // Asked again until ready: never an answer a cache keeps.
      reply.header('Cache-Control', 'no-store');
      return { ready: file !== null };
    },
  );

  app.get(
    '/public/forms/:formId/receipts/:receipt/pdf',
    {
      config: { public: true },
      schema: {
        tags: ['forms'],
        summary: "A submission's receipt PDF, by its private token (404 until its job has drawn it)",
        params: receiptParams,
      },
    },
    async (request, reply) => {
      const found = await receiptOf(db, secrets, request.params.formId, request.params.receipt);
      const file = found && (await storage.get(found.storageKey));
      if (!found || !file) throw new AppError(404, errorKeys.notFound);
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Length', String(file.size))
        .header('Content-Disposition', contentDisposition(found.fileName))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'no-store')
        .send(file.stream);
    },
  );

  app.post(
    '/public/forms/:formId/uploads',
    {
      config: { public: true },
      schema: {
        tags: ['forms'],
        summary:
          "Upload one file for a form's file field: size and type by the field's limits, checked on the content",
        consumes: ['multipart/form-data'],
        params: formIdParams,
        querystring: uploadQuery,
        response: { 201: fileRefSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new AppError(400, errorKeys.badData);
      const part = await request.file({ limits: { fileSize: 50 * 1024 * 1024 + 1 } });
      if (!part) throw new AppError(400, errorKeys.badData);
      const ref = await uploadFile(
        db,
        storage,
        request.params.formId,
        request.query.field,
        { fileName: part.filename, stream: part.file },
        request.ip,
      );
      return reply.status(201).send(ref);
    },
  );

  app.get(
    '/public/forms/:formId/lookup',
    {
      config: { public: true, cacheable: true },
      schema: {
        tags: ['forms'],
        summary: "Suggestions of an API autocomplete field (e.g. the streets of the company's addresses)",
        params: formIdParams,
        querystring: uploadQuery.extend({ q: z.string().max(100) }),
        response: { 200: z.array(z.string()) },
      },
    },
    async (request) => lookup(db, request.params.formId, request.query.field, request.query.q),
  );

  app.get(
    '/public/forms/:formId/drafts/:token',
    {
      config: { public: true },
      schema: {
        tags: ['forms'],
        summary: "A citizen's saved draft, by its private token",
        params: draftParams,
        response: { 200: z.object({ values: submissionValuesSchema }) },
      },
    },
    async (request) => ({ values: await loadDraft(db, request.params.formId, request.params.token) }),
  );
};
