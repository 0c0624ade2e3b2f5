import { parse as parseQuery } from 'node:querystring';
import {
  type EntityCatalog,
  errorKeys,
  exportListSchema,
  exportRequestSchema,
  exportResponseSchema,
  type FieldDef,
  fieldLabel,
  type Language,
  namedValueLabel,
  optionLabel,
  periodNameIn,
} from '@protocol/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../auth.ts';
import { AppError } from '../errors.ts';
import { requestLanguage, translate } from '../i18n.ts';
import type { ListQuerystring } from '../list/query.ts';
import { mayRead, type RegisteredList } from '../list/registry.ts';
import type { ModuleOptions } from '../module.ts';
import { contentDisposition, exportFileName, renderExport } from './render.ts';
import type { ExportColumn, ExportFormat } from './types.ts';

/** The list an export address names, with its query string; a 400 for anything else. */
function resolve(
  lists: ModuleOptions['lists'],
  uri: string,
): { entry: RegisteredList; query: ListQuerystring } {
  const [path = '', search = ''] = uri.split('?', 2);
  const entry = lists.find(path);
  if (!entry)
    throw new AppError(400, errorKeys.badData, {}, [{ field: 'uri', key: 'validation.invalid', params: {} }]);
  const query: ListQuerystring = {};
  for (const [key, value] of Object.entries(parseQuery(search))) {
    if (value !== undefined) query[key] = value;
  }
  return { entry, query };
}

/** The columns to write: the asked ones in their order, else the list's default ones. */
function columnsOf(catalog: EntityCatalog, asked: string[] | undefined): FieldDef[] {
  const fields = catalog.fields.filter((f) => f.exportable) as FieldDef[];
  if (!asked || asked.length === 0) return fields.filter((f) => !f.hiddenByDefault);
  return asked.map((id) => {
    const field = fields.find((f) => f.id === id);
    if (!field) throw new AppError(400, errorKeys.unknownField, { field: id });
    return field;
  });
}

/** Rows as the export shows them: enums by their translated labels (each looked up once), periods named in the language. */
async function* labelled(
  batches: AsyncIterable<Record<string, unknown>[]>,
  fields: FieldDef[],
  language: Language,
): AsyncIterable<Record<string, unknown>[]> {
  const label = (key: string) => translate(language, key);
  const enums = fields
    .filter((f) => f.type === 'enum' && f.options)
    .map((f) => ({
      id: f.id,
      labels: new Map((f.options ?? []).map((option) => [option.value, optionLabel(option, label)])),
    }));
  const named = fields
    .filter((f) => f.valueLabelPrefix)
    .map((f) => ({ field: f, labels: new Map<string, string>() }));
  const periods = fields.filter((f) => f.periodName);
  for await (const batch of batches) {
    if (enums.length === 0 && named.length === 0 && periods.length === 0) {
      yield batch;
      continue;
    }
    yield batch.map((row) => {
      const copy = { ...row };
      for (const { id, labels } of enums) copy[id] = labels.get(String(row[id])) ?? row[id];
      for (const { field, labels } of named) {
        const value = row[field.id];
        if (typeof value !== 'string') continue;
        let shown = labels.get(value);
        if (shown === undefined) {
          shown = namedValueLabel(field, value, label);
          // The values named are a few kinds (of job, of event…); a bound keeps a stray one harmless.
          if (labels.size < 10_000) labels.set(value, shown);
        }
        copy[field.id] = shown;
      }
      for (const { id } of periods) {
        const value = row[id];
        if (typeof value === 'string') copy[id] = periodNameIn(value, language);
      }
      return copy;
    });
  }
}

interface ExportInput {
  uri: string;
  format: ExportFormat;
  columns?: string[];
  lang?: Language;
  title?: string;
}

async function startExport(request: FastifyRequest, lists: ModuleOptions['lists'], input: ExportInput) {
  const principal = principalOf(request);
  const { entry, query: full } = resolve(lists, input.uri);
  // The export needs what the list needs, and only the operator's companies.
  if (!mayRead(principal.scope, entry.permission)) {
    throw new AppError(403, errorKeys.forbidden, { permission: [entry.permission].flat().join('|') });
  }
  // The list's scope reads the company in use (404 for another company's) before any row is read.
  const { scope, companyId } = entry.access(principal, full);
  const { companyid: _company, ...query } = full;
  const language = input.lang ?? requestLanguage(request.cookies?.locale, request.headers['accept-language']);
  const fields = columnsOf(await entry.list.catalogFor(companyId), input.columns);
  const columns: ExportColumn[] = fields.map((f) => ({
    id: f.id,
    label: fieldLabel(f, language, (key) => translate(language, key)),
    type: f.type,
  }));
  const title = input.title?.trim() || translate(language, entry.list.catalog.titleKey);
  const generatedAt = new Date();
  const rendered = renderExport({
    format: input.format,
    title,
    language,
    columns,
    rows: labelled(entry.list.batches(scope, query, { companyId }), fields, language),
    generatedAt,
  });
  return { ...rendered, fileName: exportFileName(title, input.format, generatedAt) };
}

/**
 * Exports of any registered list (spec §7): the same query as the screen — its filters, sort and
 * search — with the visible columns in their order, translated headers and enum labels.
 */
export const exportsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { lists }) => {
  app.post(
    '/export',
    {
      config: { signedIn: true },
      schema: {
        tags: ['exports'],
        summary: 'A list as a PDF, Excel, CSV or Word file, base64 in JSON (spec §7)',
        body: exportRequestSchema,
        response: { 200: exportResponseSchema },
      },
    },
    async (request) => {
      const params = request.body.params ?? { format: 'excel' as const };
      const started = await startExport(request, lists, { uri: request.body.uri, ...params });
      const chunks: Buffer[] = [];
      for await (const chunk of started.stream)
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      return { file: Buffer.concat(chunks).toString('base64'), fileName: started.fileName };
    },
  );

  app.get(
    '/export/file',
    {
      config: { signedIn: true },
      schema: {
        tags: ['exports'],
        summary: 'The same export streamed as a download: for large lists, memory stays bounded',
        querystring: z.object({
          uri: z.string().min(1).max(8000),
          format: z.enum(['pdf', 'excel', 'csv', 'word']),
          columns: z.string().max(4000).optional(),
          lang: z.enum(['el', 'en']).optional(),
          title: z.string().max(200).optional(),
        }),
      },
    },
    async (request, reply) => {
      const { columns, ...rest } = request.query;
      const started = await startExport(request, lists, {
        ...rest,
        columns: columns ? columns.split(',') : undefined,
      });
      reply.header('Content-Type', started.contentType);
      reply.header('Content-Disposition', contentDisposition(started.fileName));
      return reply.send(started.stream);
    },
  );

  app.get(
    '/export/getForEntity',
    {
      config: { signedIn: true },
      schema: {
        tags: ['exports'],
        summary: 'The standard and custom exports of a list (spec §7)',
        querystring: z.object({
          entityName: z.string().min(1).max(100),
          aa_deya: z.string().max(20).optional(),
        }),
        response: { 200: exportListSchema },
      },
    },
    async (request) => {
      principalOf(request);
      const entry = lists.findByEntity(request.query.entityName);
      if (!entry) throw new AppError(404, errorKeys.notFound);
      const language = requestLanguage(request.cookies?.locale, request.headers['accept-language']);
      const formats: ExportFormat[] = ['pdf', 'excel', 'csv', 'word'];
      return {
        standard: formats.map((format) => ({
          uri: `${entry.path}?format=${format}`,
          label: translate(language, `export.format.${format}`),
        })),
        // Custom export layouts per utility arrive with the modules that need them.
        custom: [],
      };
    },
  );
};
