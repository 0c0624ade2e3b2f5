import {
  addressRowSchema,
  addressSchema,
  bankRowSchema,
  bankSchema,
  codedEntryRowSchema,
  codedEntrySchema,
  customFieldRowSchema,
  customFieldSchema,
  customTableRowSchema,
  customTableSchema,
  customTableValueRowSchema,
  customTableValueSchema,
  departmentRowSchema,
  departmentSchema,
  generalSettingListItemSchema,
  generalSettingRowSchema,
  generalSettingSchema,
  pageSchema,
  periodicityListItemSchema,
  periodicityRowSchema,
  periodicitySchema,
  vatPercentageRowSchema,
  vatPercentageSchema,
} from '@protocol/contracts';
import type { SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { listQuerystringSchema } from '../../platform/list/query.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { readRows, type SettingsTable, saveRows, settingsList } from './row-tables.ts';
import { listGeneralSettings } from './settings.service.ts';
import {
  addressesTable,
  banksTable,
  customFieldsTable,
  customTableOf,
  customTablesTable,
  customTableValuesOfCompany,
  customTableValuesTable,
  departmentsTable,
  generalSettingsTable,
  periodicityTable,
  vatCategoriesTable,
  vatPercentagesTable,
  vatStatusesTable,
} from './settings-tables.ts';

type App = Parameters<FastifyPluginAsyncZod<ModuleOptions>>[0];

const companyQuery = z.object({ companyid: z.coerce.number().int().positive().optional() });
const MAX_ROWS = 5000;

interface TableRoutes<Row extends { id: number | null }, Item, ListItem> {
  /** Path of GET (rows) and POST (row-table save), under /api. */
  path: string;
  /** Path of the list, under /api. */
  searchPath: string;
  /** Export-list key (getForEntity). */
  entityName: string;
  table: SettingsTable<Row, Item, ListItem>;
  rowSchema: z.ZodType<Row, unknown>;
  itemSchema: z.ZodType<Item>;
  listItemSchema: z.ZodType<ListItem>;
  /** A company's table (scoped by `companyid`), else global reference data. */
  companyScoped: boolean;
  /** The list's rows of a company, when not simply the table's own company rows. */
  listScope?: (companyId: number) => SQL | undefined;
}

/** GET, POST (row-table save) and GET …/search of one settings table, its list registered for exports. */
function tableRoutes<Row extends { id: number | null }, Item, ListItem>(
  app: App,
  { db, lists }: ModuleOptions,
  spec: TableRoutes<Row, Item, ListItem>,
) {
  const { table, companyScoped } = spec;
  const tags = ['settings'];
  const read = { permission: 'settings:read' as const, ...(companyScoped ? { companyScoped: true } : {}) };
  const write = { permission: 'settings:write' as const, ...(companyScoped ? { companyScoped: true } : {}) };
  const scopeOf = (companyId: number | undefined) =>
    companyId === undefined ? undefined : (spec.listScope ?? table.ownedBy)(companyId);
  const list = settingsList(db, table);
  lists.register({
    path: `/api${spec.searchPath}`,
    entityName: spec.entityName,
    permission: 'settings:read',
    list,
    scope: (principal, query) =>
      companyScoped
        ? scopeOf(query.companyid === undefined ? (principal.companyIds[0] ?? -1) : Number(query.companyid))
        : undefined,
  });

  app.get(
    spec.path,
    {
      config: read,
      schema: {
        tags,
        summary: `All rows of ${table.catalog.entity}`,
        querystring: companyQuery,
        response: { 200: z.array(spec.itemSchema) },
      },
    },
    async (request) => readRows(db, table, companyScoped ? companyOf(request) : undefined),
  );

  app.post(
    spec.path,
    {
      config: write,
      schema: {
        tags,
        summary: `Row-table save of ${table.catalog.entity}: the whole table, new rows with a null id`,
        querystring: companyQuery,
        body: z.array(spec.rowSchema).max(MAX_ROWS),
        response: { 200: z.array(spec.itemSchema) },
      },
    },
    async (request) => {
      const companyId = companyScoped ? companyOf(request) : undefined;
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
    spec.searchPath,
    {
      config: read,
      schema: {
        tags,
        summary: `The ${table.catalog.entity} list: paging, sorting, Greek-aware filters (list engine)`,
        querystring: listQuerystringSchema,
        response: { 200: pageSchema(spec.listItemSchema) },
      },
    },
    async (request) => {
      const { companyid: _company, ...query } = request.query;
      return list.page(scopeOf(companyScoped ? companyOf(request) : undefined), query);
    },
  );
}

/**
 * Settings (issue 4): the general settings of a company (spec §3, §7) and the settings tables —
 * banks and VAT (global reference data), departments, addresses, custom tables, values and fields,
 * periodicity (company data).
 */
export const settingsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  const { db } = options;
  app.get(
    '/general_settings',
    {
      config: { permission: 'settings:read', companyScoped: true },
      schema: {
        tags: ['settings'],
        summary: 'The general settings of a company of the operator',
        querystring: companyQuery,
        response: { 200: z.array(generalSettingSchema) },
      },
    },
    async (request) => listGeneralSettings(db, principalOf(request), request.query.companyid),
  );

  app.post(
    '/general_settings',
    {
      config: { permission: 'settings:write', companyScoped: true },
      schema: {
        tags: ['settings'],
        summary: 'Row-table save of the general settings; known settings are checked by their type',
        querystring: companyQuery,
        body: z.array(generalSettingRowSchema).max(MAX_ROWS),
        response: { 200: z.array(generalSettingSchema) },
      },
    },
    async (request) => {
      const companyId = companyOf(request);
      return saveRows(
        db,
        generalSettingsTable,
        principalOf(request),
        companyId,
        companyId,
        request.body,
        request.id,
      );
    },
  );

  app.get(
    '/settings/general_settings/search',
    {
      config: { permission: 'settings:read', companyScoped: true },
      schema: {
        tags: ['settings'],
        summary: 'The general settings list (list engine)',
        querystring: listQuerystringSchema,
        response: { 200: pageSchema(generalSettingListItemSchema) },
      },
    },
    async (request) => {
      const { companyid: _company, ...query } = request.query;
      return generalSettingsList.page(generalSettingsTable.ownedBy(companyOf(request)), query);
    },
  );
  const generalSettingsList = settingsList(db, generalSettingsTable);
  options.lists.register({
    path: '/api/settings/general_settings/search',
    entityName: 'generalSettings',
    permission: 'settings:read',
    list: generalSettingsList,
    scope: (principal, query) =>
      generalSettingsTable.ownedBy(
        query.companyid === undefined ? (principal.companyIds[0] ?? -1) : Number(query.companyid),
      ),
  });

  tableRoutes(app, options, {
    path: '/settings/banks',
    searchPath: '/settings/banks/search',
    entityName: 'banks',
    table: banksTable,
    rowSchema: bankRowSchema,
    itemSchema: bankSchema,
    listItemSchema: bankSchema,
    companyScoped: false,
  });
  tableRoutes(app, options, {
    path: '/settings/vat_percentages',
    searchPath: '/settings/vat_percentages/search',
    entityName: 'vatPercentages',
    table: vatPercentagesTable,
    rowSchema: vatPercentageRowSchema,
    itemSchema: vatPercentageSchema,
    listItemSchema: vatPercentageSchema,
    companyScoped: false,
  });
  tableRoutes(app, options, {
    path: '/settings/vat_categories',
    searchPath: '/settings/vat_categories/search',
    entityName: 'vatCategories',
    table: vatCategoriesTable,
    rowSchema: codedEntryRowSchema,
    itemSchema: codedEntrySchema,
    listItemSchema: codedEntrySchema,
    companyScoped: false,
  });
  tableRoutes(app, options, {
    path: '/settings/vat_statuses',
    searchPath: '/settings/vat_statuses/search',
    entityName: 'vatStatuses',
    table: vatStatusesTable,
    rowSchema: codedEntryRowSchema,
    itemSchema: codedEntrySchema,
    listItemSchema: codedEntrySchema,
    companyScoped: false,
  });
  tableRoutes(app, options, {
    path: '/settings/departments',
    searchPath: '/settings/departments/search',
    entityName: 'departments',
    table: departmentsTable,
    rowSchema: departmentRowSchema,
    itemSchema: departmentSchema,
    listItemSchema: departmentSchema,
    companyScoped: true,
  });
  tableRoutes(app, options, {
    path: '/settings/addresses',
    searchPath: '/settings/addresses/search',
    entityName: 'addresses',
    table: addressesTable,
    rowSchema: addressRowSchema,
    itemSchema: addressSchema,
    listItemSchema: addressSchema,
    companyScoped: true,
  });
  tableRoutes(app, options, {
    path: '/settings/custom_tables',
    searchPath: '/settings/custom_tables/search',
    entityName: 'customTables',
    table: customTablesTable,
    rowSchema: customTableRowSchema,
    itemSchema: customTableSchema,
    listItemSchema: customTableSchema,
    companyScoped: true,
  });
  tableRoutes(app, options, {
    path: '/settings/custom_fields',
    searchPath: '/settings/custom_fields/search',
    entityName: 'customFields',
    table: customFieldsTable,
    rowSchema: customFieldRowSchema,
    itemSchema: customFieldSchema,
    listItemSchema: customFieldSchema,
    companyScoped: true,
  });
  // Spec §7: the periodicity rows of the water service, at the path the spec names.
  tableRoutes(app, options, {
    path: '/water_service/parametrics/periodicity',
    searchPath: '/settings/periodicity/search',
    entityName: 'periodicity',
    table: periodicityTable,
    rowSchema: periodicityRowSchema,
    itemSchema: periodicitySchema,
    listItemSchema: periodicityListItemSchema,
    companyScoped: true,
  });

  // The values of one custom table: GET and POST under the table, the list over all of the company's.
  const valuesList = settingsList(db, customTableValuesTable);
  options.lists.register({
    path: '/api/settings/custom_table_values/search',
    entityName: 'customTableValues',
    permission: 'settings:read',
    list: valuesList,
    scope: (principal, query) =>
      customTableValuesOfCompany(
        query.companyid === undefined ? (principal.companyIds[0] ?? -1) : Number(query.companyid),
      ),
  });
  const tableParams = z.object({ tableId: z.coerce.number().int().positive() });
  app.get(
    '/settings/custom_tables/:tableId/values',
    {
      config: { permission: 'settings:read', companyScoped: true },
      schema: {
        tags: ['settings'],
        summary: 'The values of a custom table',
        params: tableParams,
        querystring: companyQuery,
        response: { 200: z.array(customTableValueSchema) },
      },
    },
    async (request) => {
      const tableId = await customTableOf(db, companyOf(request), request.params.tableId);
      return readRows(db, customTableValuesTable, tableId);
    },
  );
  app.post(
    '/settings/custom_tables/:tableId/values',
    {
      config: { permission: 'settings:write', companyScoped: true },
      schema: {
        tags: ['settings'],
        summary: 'Row-table save of the values of a custom table',
        params: tableParams,
        querystring: companyQuery,
        body: z.array(customTableValueRowSchema).max(MAX_ROWS),
        response: { 200: z.array(customTableValueSchema) },
      },
    },
    async (request) => {
      const companyId = companyOf(request);
      const tableId = await customTableOf(db, companyId, request.params.tableId);
      return saveRows(
        db,
        customTableValuesTable,
        principalOf(request),
        tableId,
        companyId,
        request.body,
        request.id,
      );
    },
  );
  app.get(
    '/settings/custom_table_values/search',
    {
      config: { permission: 'settings:read', companyScoped: true },
      schema: {
        tags: ['settings'],
        summary: 'The values of the custom tables of a company (list engine; filter customTableId=eq(id))',
        querystring: listQuerystringSchema,
        response: {
          200: pageSchema(customTableValueSchema.extend({ customTableName: z.string().nullable() })),
        },
      },
    },
    async (request) => {
      const { companyid: _company, ...query } = request.query;
      return valuesList.page(customTableValuesOfCompany(companyOf(request)), query);
    },
  );
};
