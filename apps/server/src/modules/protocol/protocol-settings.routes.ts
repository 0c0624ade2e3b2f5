import {
  caseTypeRowSchema,
  caseTypeSchema,
  documentTypeRowSchema,
  documentTypeSchema,
  errorKeys,
  hasPermission,
  type Permission,
  pageSchema,
  subjectCategoryRowSchema,
  subjectCategorySchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import { listQuerystringSchema } from '../../platform/list/query.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { readRows, type SettingsTable, saveRows, settingsList } from '../settings/row-tables.ts';
import { caseTypesTable, documentTypesTable, subjectCategoriesTable } from './protocol-settings.ts';

type App = Parameters<FastifyPluginAsyncZod<ModuleOptions>>[0];

const companyQuery = z.object({ companyid: z.coerce.number().int().positive().optional() });
const MAX_ROWS = 5000;
const tags = ['protocol'];

/**
 * Who may read the /search lists: the settings screens (settings:read) and the document and case
 * forms, whose selects list the types and categories (protocol:read).
 */
export const LIST_PERMISSIONS: Permission[] = ['settings:read', 'protocol:read'];

interface TableRoutes<Row extends { id: number | null }, Item> {
  /** GET (rows) and POST (row-table save) under /api; the list is at `${path}/search`. */
  path: string;
  /** Export-list key (getForEntity). */
  entityName: string;
  table: SettingsTable<Row, Item, Item>;
  rowSchema: z.ZodType<Row, unknown>;
  itemSchema: z.ZodType<Item>;
}

/** GET, POST (row-table save) and GET …/search of one company table, its list registered for exports. */
function tableRoutes<Row extends { id: number | null }, Item>(
  app: App,
  { db, lists }: ModuleOptions,
  spec: TableRoutes<Row, Item>,
) {
  const { table } = spec;
  const list = settingsList(db, table);
  lists.register({
    path: `/api${spec.path}/search`,
    entityName: spec.entityName,
    // The exports belong to the settings screens.
    permission: 'settings:read',
    list,
    scope: (principal, query) =>
      table.ownedBy(
        query.companyid === undefined ? (principal.companyIds[0] ?? -1) : Number(query.companyid),
      ),
  });

  app.get(
    spec.path,
    {
      config: { permission: 'settings:read', companyScoped: true },
      schema: {
        tags,
        summary: `All rows of ${table.catalog.entity} of a company`,
        querystring: companyQuery,
        response: { 200: z.array(spec.itemSchema) },
      },
    },
    async (request) => readRows(db, table, companyOf(request)),
  );

  app.post(
    spec.path,
    {
      config: { permission: 'settings:write', companyScoped: true },
      schema: {
        tags,
        summary: `Row-table save of ${table.catalog.entity}: the whole table, new rows with a null id`,
        querystring: companyQuery,
        body: z.array(spec.rowSchema).max(MAX_ROWS),
        response: { 200: z.array(spec.itemSchema) },
      },
    },
    async (request) => {
      const companyId = companyOf(request);
      return saveRows(
        db,
        table,
        principalOf(request),
        companyId,
        companyId,
        request.body as Row[],
        request.id,
      );
    },
  );

  app.get(
    `${spec.path}/search`,
    {
      // settings:read OR protocol:read, checked below (a route declares one permission).
      config: { signedIn: true, companyScoped: true },
      schema: {
        tags,
        summary: `The ${table.catalog.entity} list (list engine); settings:read or protocol:read`,
        querystring: listQuerystringSchema,
        response: { 200: pageSchema(spec.itemSchema) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (!LIST_PERMISSIONS.some((permission) => hasPermission(principal.scope, permission))) {
        throw new AppError(403, errorKeys.forbidden, { permission: LIST_PERMISSIONS.join('|') });
      }
      const { companyid: _company, ...query } = request.query;
      return list.page(table.ownedBy(companyOf(request)), query);
    },
  );
}

/**
 * The protocol's settings tables (issue 6): document types with their sequence settings, subject
 * categories and case types, at /api/protocol/…; written like the other settings tables.
 */
export const protocolSettingsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  tableRoutes(app, options, {
    path: '/protocol/document_types',
    entityName: 'documentTypes',
    table: documentTypesTable,
    rowSchema: documentTypeRowSchema,
    itemSchema: documentTypeSchema,
  });
  tableRoutes(app, options, {
    path: '/protocol/subject_categories',
    entityName: 'subjectCategories',
    table: subjectCategoriesTable,
    rowSchema: subjectCategoryRowSchema,
    itemSchema: subjectCategorySchema,
  });
  tableRoutes(app, options, {
    path: '/protocol/case_types',
    entityName: 'caseTypes',
    table: caseTypesTable,
    rowSchema: caseTypeRowSchema,
    itemSchema: caseTypeSchema,
  });
};
