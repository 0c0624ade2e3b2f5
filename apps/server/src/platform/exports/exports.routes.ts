import { parse as parseQuery } from 'node:querystring';
import {
  type EntityCatalog,
  EXPORT_URI_PARAMS,
  errorKeys,
  exportListSchema,
  exportRequestSchema,
  exportResponseSchema,
  exportUriParamsSchema,
  type FieldDef,
  fieldLabel,
  type Language,
  namedValueLabel,
  optionLabel,
  periodNameIn,
  writtenCode,
} from '@protocol/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { behindCompanyWall, eachBehindCompanyWall, outsideCompanyWall } from '../../db/wall.ts';
import { principalOf, resolveCompany } from '../auth.ts';
import { AppError } from '../errors.ts';
import { requestLanguage, translate } from '../i18n.ts';
import type { ListQuerystring } from '../list/query.ts';
import { mayRead, type RegisteredList } from '../list/registry.ts';
import type { ModuleOptions } from '../module.ts';
import { contentDisposition, exportFileName, renderExport } from './render.ts';
import type { CustomExports, ExportColumn, ExportFormat } from './types.ts';

const badUri = () =>
  new AppError(400, errorKeys.badData, {}, [{ field: 'uri', key: 'validation.invalid', params: {} }]);

/**
 * The list an export address names, with its query string, and the export parameters the address
 * carries (`format`, `columns`, `lang`, `title`: getForEntity's entries); a 400 for anything else.
 */
function resolve(
  lists: ModuleOptions['lists'],
  uri: string,
): { entry: RegisteredList; query: ListQuerystring; params: Partial<Omit<ExportInput, 'uri'>> } {
  const [path = '', search = ''] = uri.split('?', 2);
  const entry = lists.find(path);
  if (!entry) throw badUri();
  const query: ListQuerystring = {};
  const exportParams: Record<string, string> = {};
  for (const [key, value] of Object.entries(parseQuery(search))) {
    if (value === undefined) continue;
    if ((EXPORT_URI_PARAMS as readonly string[]).includes(key)) {
      // Said twice, an export parameter is ambiguous.
      if (typeof value !== 'string') throw badUri();
      exportParams[key] = value;
    } else query[key] = value;
  }
  const params = exportUriParamsSchema.safeParse(exportParams);
  if (!params.success) throw badUri();
  const { title, ...rest } = params.data;
  return { entry, query, params: { ...rest, ...(title ? { title } : {}) } };
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
  const codes = fields.filter((f) => f.paddedCode);
  for await (const batch of batches) {
    if (enums.length === 0 && named.length === 0 && periods.length === 0 && codes.length === 0) {
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
      for (const { id } of codes) {
        const value = row[id];
        if (typeof value === 'string') copy[id] = writtenCode(value);
      }
      return copy;
    });
  }
}

interface ExportInput {
  uri: string;
  /** Else the address's `format=`, else Excel. */
  format?: ExportFormat;
  columns?: string[];
  lang?: Language;
  title?: string;
}

async function startExport(request: FastifyRequest, lists: ModuleOptions['lists'], input: ExportInput) {
  const principal = principalOf(request);
  const { entry, query: full, params } = resolve(lists, input.uri);
  // What the request says overrides what its address says.
  const format = input.format ?? params.format ?? 'excel';
  const asked = input.columns ?? params.columns;
  // The export needs what the list needs, and only the operator's companies.
  if (!mayRead(principal.scope, entry.permission)) {
    throw new AppError(403, errorKeys.forbidden, { permission: [entry.permission].flat().join('|') });
  }
  // The list's scope reads the company in use (404 for another company's) before any row is read: the
  // one the address names (a custom export's link carries its company), else the request's.
  const named = full.companyid;
  const inUse = named === undefined ? request.companyId : resolveCompany(principal, named);
  const { scope, companyId } = entry.access(principal, inUse);
  const { companyid: _company, ...query } = full;
  const language =
    input.lang ?? params.lang ?? requestLanguage(request.cookies?.locale, request.headers['accept-language']);
  // A company the address names, other than the one in use, is read behind its own wall.
  const catalog = () => entry.list.catalogFor(companyId);
  const fields = columnsOf(
    await (companyId === undefined ? catalog() : behindCompanyWall(companyId, catalog)),
    asked,
  );
  const batches = entry.list.batches(scope, query, { companyId });
  const columns: ExportColumn[] = fields.map((f) => ({
    id: f.id,
    label: fieldLabel(f, language, (key) => translate(language, key)),
    type: f.type,
    amount: f.amount,
  }));
  const title = input.title?.trim() || params.title || translate(language, entry.list.catalog.titleKey);
  const generatedAt = new Date();
  const rendered = renderExport({
    format,
    title,
    language,
    columns,
    rows: labelled(
      companyId === undefined ? batches : eachBehindCompanyWall(companyId, batches),
      fields,
      language,
    ),
    generatedAt,
  });
  return { ...rendered, fileName: exportFileName(title, format, generatedAt) };
}

/**
 * Exports of any registered list (spec §7): the same query as the screen — its filters, sort and
 * search — with the visible columns in their order, translated headers and enum labels.
 */
export const exportsRoutes: FastifyPluginAsyncZod<ModuleOptions & { customExports: CustomExports }> = async (
  app,
  { lists, customExports },
) => {
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
      // `params: null` (spec §7): the address alone says what to export (getForEntity's entries).
      const started = await startExport(request, lists, { uri: request.body.uri, ...request.body.params });
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
        summary:
          'The standard and custom exports of a list (spec §7), named by its entity (e.g. FRM) or its address; ' +
          'the custom ones are of the company numbered aa_deya (gen.deya_aa), else of companyid, else the first',
        querystring: z.object({
          entityName: z.string().min(1).max(200),
          aa_deya: z.string().max(20).optional(),
        }),
        response: { 200: exportListSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { entityName, aa_deya: aaDeya } = request.query;
      // The web app names a list by its address: it knows that, not the export key a module chose.
      const entry = entityName.startsWith('/') ? lists.find(entityName) : lists.findByEntity(entityName);
      if (!entry) throw new AppError(404, errorKeys.notFound);
      if (!mayRead(principal.scope, entry.permission)) {
        throw new AppError(403, errorKeys.forbidden, { permission: [entry.permission].flat().join('|') });
      }
      let companyId: number | undefined;
      if (aaDeya !== undefined) {
        // Which of the operator's companies has that number: a read across them.
        companyId = await outsideCompanyWall('export by utility number', () =>
          customExports.companyNumbered(principal.companyIds, aaDeya),
        );
        if (companyId === undefined) throw new AppError(404, errorKeys.notFound);
      } else companyId = request.companyId ?? undefined;
      const language = requestLanguage(request.cookies?.locale, request.headers['accept-language']);
      const formats: ExportFormat[] = ['pdf', 'excel', 'csv', 'word'];
      const custom =
        companyId === undefined ? [] : await behindCompanyWall(companyId, () => customExports.of(companyId));
      return {
        standard: formats.map((format) => ({
          uri: `${entry.path}?format=${format}`,
          label: translate(language, `export.format.${format}`),
        })),
        // Of the company they belong to: posted as they are, they export that company's rows.
        custom: custom
          .filter((item) => item.path === entry.path)
          .map((item) => ({ label: item.label, uri: `${item.uri}&companyid=${companyId}` })),
      };
    },
  );
};
