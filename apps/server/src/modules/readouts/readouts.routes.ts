import {
  errorKeys,
  idParamSchema,
  readoutRowSchema,
  readoutSheetSchema,
  reviewItemSchema,
  reviewReadingSchema,
  routePeriodQuerySchema,
  saveReadingSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { requestLanguage } from '../../platform/i18n.ts';
import { startImport } from '../../platform/imports/pipeline.ts';
import { acceptOneFile } from '../../platform/imports/upload.ts';
import { mayRead } from '../../platform/list/registry.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { readingsImport } from './import.service.ts';
import {
  acceptReading,
  correctReading,
  finalizePeriod,
  loadSheet,
  readingHistory,
  reviewList,
  saveReading,
} from './readouts.service.ts';
import { routeSheetFile } from './route-sheet.ts';
import { routesOf } from './sheet.ts';

const tags = ['readouts'];
const contentTypes = {
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
const periodBody = z.object({
  routeId: idParamSchema,
  year: z.number().int().min(1900).max(2999),
  period: z.number().int().min(1).max(12),
});
const keyOf = (q: { routeId: number; year: number; period: number }) => ({
  routeId: q.routeId,
  year: q.year,
  period: q.period,
});

/** Readouts: the entry grid's sheet, per-row saves, the review list and the period close. */
/** Who reads the company's reading routes: the readouts' screens and the billing runs'. */
const ROUTES_READERS = ['readouts:read', 'billing:read'] as const;

export const readoutsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, jobs, storage }) => {
  await acceptOneFile(app);

  app.post(
    '/readouts/import',
    {
      config: { permission: 'readouts:write' },
      schema: {
        tags,
        summary:
          'Uploads a readings file (4 handheld CSV/Excel, 3 drive-by AMR) and queues its dry run or its import (GET /api/jobs/{id}): bad lines are reported, the others saved',
        consumes: ['multipart/form-data'],
        querystring: z.object({
          companyid: idParamSchema.optional(),
          source: z.enum(['3', '4']).transform(Number),
          year: z.coerce.number().int().min(1900).max(2999),
          period: z.coerce.number().int().min(1).max(12),
          /** A dry run checks every line and saves nothing; without it, the import. */
          dryRun: z.enum(['true', 'false']).default('false'),
        }),
        response: { 202: z.object({ jobId: z.number().int() }) },
      },
    },
    async (request, reply) => {
      const { source, year, period, dryRun } = request.query;
      const jobId = await startImport({ db, jobs, storage }, readingsImport, request, {
        companyId: companyOf(request),
        dryRun: dryRun === 'true',
        options: { source: source as 3 | 4, year, period },
      });
      return reply.status(202).send({ jobId });
    },
  );

  app.get(
    '/readouts/routes',
    {
      // The billing runs' screen names its routes too: one of the two areas, checked in the handler.
      config: { signedIn: true },
      schema: {
        tags,
        summary:
          'The reading routes of the company, by sector and reading order (readouts or billing readers)',
        response: {
          200: z.array(
            z.object({ id: z.number(), code: z.string(), description: z.string(), sector: z.string() }),
          ),
        },
      },
    },
    async (request) => {
      if (!mayRead(principalOf(request).scope, ROUTES_READERS))
        throw new AppError(403, errorKeys.forbidden, { permission: ROUTES_READERS.join('|') });
      return routesOf(db, companyOf(request));
    },
  );

  app.get(
    '/readouts/sheet',
    {
      config: { permission: 'readouts:read' },
      schema: {
        tags,
        summary: "A route's period: its state and every meter in route order with its reading",
        querystring: routePeriodQuerySchema,
        response: { 200: readoutSheetSchema },
      },
    },
    async (request) =>
      loadSheet(
        db,
        companyOf(request),
        keyOf(request.query),
        requestLanguage(request.cookies?.locale, request.headers['accept-language']),
      ),
  );

  app.post(
    '/readouts/readings',
    {
      config: { permission: 'readouts:write' },
      schema: {
        tags,
        summary:
          'Saves one reading (idempotent by its key); 409 while an import or a billing run holds the route',
        body: saveReadingSchema,
        response: { 200: readoutRowSchema },
      },
    },
    async (request) => saveReading(db, principalOf(request), companyOf(request), request.body),
  );

  app.get(
    '/readouts/route-sheet',
    {
      config: { permission: 'readouts:read' },
      schema: {
        tags,
        summary:
          'The route sheets of a period: a printable PDF in route order, or CSV/Excel for handheld devices',
        querystring: z.object({
          companyid: idParamSchema.optional(),
          routeIds: z
            .string()
            .regex(/^\d{1,9}(,\d{1,9}){0,49}$/, 'validation.invalid')
            .transform((v) => v.split(',').map(Number)),
          year: z.coerce.number().int().min(1900).max(2999),
          period: z.coerce.number().int().min(1).max(12),
          format: z.enum(['pdf', 'csv', 'xlsx']).default('pdf'),
        }),
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const language = requestLanguage(request.cookies?.locale, request.headers['accept-language']);
      const file = await routeSheetFile(db, companyOf(request), query, format, language);
      reply.header('Content-Type', contentTypes[format]);
      reply.header(
        'Content-Disposition',
        `${format === 'pdf' ? 'inline' : 'attachment'}; filename="${file.fileName}"`,
      );
      return reply.send(file.buffer);
    },
  );

  app.get(
    '/readouts/review',
    {
      config: { permission: 'readouts:read' },
      schema: {
        tags,
        summary: 'Every flagged reading of a route and period, waiting or accepted',
        querystring: routePeriodQuerySchema,
        response: { 200: z.array(reviewItemSchema) },
      },
    },
    async (request) => reviewList(db, companyOf(request), keyOf(request.query)),
  );

  app.post(
    '/readouts/readings/:id/review',
    {
      config: { permission: 'readouts:write' },
      schema: {
        tags,
        summary: 'Accepts a flagged reading, or corrects it (the original stays in the history)',
        params: idParams,
        body: reviewReadingSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const { action, reading, note } = request.body;
      const companyId = companyOf(request);
      if (action === 'accept')
        await acceptReading(db, principalOf(request), companyId, request.params.id, note);
      else {
        if (reading === null || reading === undefined)
          throw badRequest([{ field: 'reading', key: 'validation.required', params: {} }]);
        await correctReading(db, principalOf(request), companyId, request.params.id, { reading, note });
      }
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/readouts/finalize',
    {
      config: { permission: 'readouts:admin' },
      schema: {
        tags,
        summary:
          "Closes a route's period: estimates the missing readings (flags those with no history), then finalizes it",
        body: periodBody,
        response: { 200: z.object({ estimated: z.number().int(), noEstimate: z.number().int() }) },
      },
    },
    async (request) => finalizePeriod(db, principalOf(request), companyOf(request), keyOf(request.body)),
  );

  app.get(
    '/readouts/consumers/:id/history',
    {
      config: { permission: 'readouts:read' },
      schema: {
        tags,
        summary: "A consumer's readings, latest first, corrected ones included",
        params: idParams,
        response: {
          200: z.array(
            z.object({
              id: z.number(),
              year: z.number(),
              period: z.number(),
              months: z.number(),
              reading: z.number().nullable(),
              readOn: z.string(),
              consumption: z.number().nullable(),
              source: z.number(),
              estimated: z.boolean(),
              flags: z.array(z.string()),
              note: z.string().nullable(),
              superseded: z.boolean(),
              createuser: z.string().nullable(),
            }),
          ),
        },
      },
    },
    async (request) => readingHistory(db, companyOf(request), request.params.id),
  );
};
