import {
  BANK_FILE_MAX_BYTES,
  bankErrors,
  bankFileReportSchema,
  bankFileSchema,
  bankImportStartSchema,
  bankLayoutSchema,
  bankLineSchema,
  bankLineStatuses,
  bankUnmatchedSchema,
  matchBankLineSchema,
  saveBankLayoutSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import { acceptOneFile, checkUploadedImport, uploadedFile } from '../../platform/imports/upload.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { bankFileText, invalidReasons, isTextFile, parseBankFile } from './bank.parse.ts';
import { bankFileReport, bankFiles, unmatchedLines } from './bank.report.ts';
import { bankLayouts, matchBankLine, saveBankLayout, startBankImport } from './bank.service.ts';

const tags = ['payments'];
const read = { permission: 'payments:read' } as const;
const write = { permission: 'payments:write' } as const;
const admin = { permission: 'payments:admin' } as const;
const offset = z.coerce.number().int().min(0).max(10_000_000).default(0);

/** The banks: layouts, the upload of a payments file, its report, matching by hand. */
export const bankRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, jobs, storage }) => {
  await acceptOneFile(app);

  app.get(
    '/payments/bank/layouts',
    {
      config: read,
      schema: {
        tags,
        summary: "The company's bank file layouts",
        response: { 200: z.array(bankLayoutSchema) },
      },
    },
    async (request) => bankLayouts(db, companyOf(request)),
  );
  app.post(
    '/payments/bank/layouts',
    {
      config: admin,
      schema: {
        tags,
        summary: 'A new bank file layout (CSV columns or fixed-width positions)',
        body: saveBankLayoutSchema,
        response: { 201: bankLayoutSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await saveBankLayout(db, principalOf(request), companyOf(request), null, request.body, request.id),
        ),
  );
  app.put(
    '/payments/bank/layouts/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Changes a bank file layout',
        params: idParams,
        body: saveBankLayoutSchema,
        response: { 200: bankLayoutSchema },
      },
    },
    async (request) =>
      saveBankLayout(
        db,
        principalOf(request),
        companyOf(request),
        request.params.id,
        request.body,
        request.id,
      ),
  );

  app.post(
    '/payments/bank/files',
    {
      config: write,
      schema: {
        tags,
        summary:
          'Uploads a bank payments file (text, by the layout given) and queues its import (202, its job)',
        consumes: ['multipart/form-data'],
        querystring: z.object({ layoutId: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 202: bankImportStartSchema },
      },
    },
    async (request, reply) => {
      const companyId = companyOf(request);
      const { name: fileName, content } = await uploadedFile(request, {
        maxBytes: BANK_FILE_MAX_BYTES,
        noFile: bankErrors.noFile,
      });
      if (!/\.(csv|txt|dat)$/i.test(fileName) || !isTextFile(content))
        throw new AppError(415, bankErrors.fileType);
      await checkUploadedImport(content);
      const layout = (await bankLayouts(db, companyId)).find((l) => l.id === request.query.layoutId);
      // A file none of whose lines reads by the layout is the wrong file or the wrong layout.
      if (
        layout &&
        !parseBankFile(bankFileText(content), layout).some(
          (l) => l.problem === null || !invalidReasons.includes(l.problem),
        )
      )
        throw new AppError(422, bankErrors.noLines, { code: layout.code });
      const started = await startBankImport(db, jobs, storage, principalOf(request), companyId, {
        layoutId: request.query.layoutId,
        fileName,
        content,
      });
      return reply.code(202).send(started);
    },
  );
  app.get(
    '/payments/bank/files',
    {
      config: read,
      schema: {
        tags,
        summary: 'The imported bank files, newest first, with their counts',
        response: { 200: z.array(bankFileSchema) },
      },
    },
    async (request) => bankFiles(db, companyOf(request)),
  );
  app.get(
    '/payments/bank/files/:id',
    {
      config: read,
      schema: {
        tags,
        summary: "A bank file's report: its counts and its lines (of one status), 500 at a time",
        params: idParams,
        querystring: z.object({ status: z.enum(bankLineStatuses).optional(), offset }),
        response: { 200: bankFileReportSchema },
      },
    },
    async (request) =>
      bankFileReport(db, companyOf(request), request.params.id, request.query.status, request.query.offset),
  );
  app.get(
    '/payments/bank/unmatched',
    {
      config: read,
      schema: {
        tags,
        summary: 'The lines of every bank file that wait to be matched by hand, oldest first',
        querystring: z.object({ offset }),
        response: { 200: bankUnmatchedSchema },
      },
    },
    async (request) => unmatchedLines(db, companyOf(request), request.query.offset),
  );
  app.post(
    '/payments/bank/lines/:id/match',
    {
      config: write,
      schema: {
        tags,
        summary: "Matches an unmatched line to a consumer: a bank payment of the consumer's debts",
        params: idParams,
        body: matchBankLineSchema,
        response: { 200: bankLineSchema },
      },
    },
    async (request) =>
      matchBankLine(
        db,
        principalOf(request),
        companyOf(request),
        request.params.id,
        request.body,
        request.id,
      ),
  );
};
