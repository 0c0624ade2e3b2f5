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
  idParamSchema,
  periodicityListItemSchema,
  periodicityRowSchema,
  periodicitySchema,
  vatPercentageRowSchema,
  vatPercentageSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { ROW_TABLE_MAX_ROWS, registerRowTableRoutes } from '../../platform/row-table/routes.ts';
import { readRows, rowTableList, saveRows } from '../../platform/row-table/table.ts';
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
  generalRowTable,
  periodicityTable,
  vatCategoriesTable,
  vatPercentagesTable,
  vatStatusesTable,
} from './settings-tables.ts';

const settingsTable = { tags: ['settings'], read: 'settings:read', write: 'settings:write' } as const;
/** National reference data: every operator's forms list it (a trader's bank and VAT); the super administrator saves it. */
const sharedTable = { ...settingsTable, read: 'signedIn', companyScoped: false } as const;

/**
 * Settings: the general settings of a company (spec §3, §7) and the settings tables —
 * banks and VAT (global reference data), departments, addresses, custom tables, values and fields,
 * periodicity (company data).
 */
export const settingsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  const { db } = options;
  app.get(
    '/general_settings',
    {
      config: { permission: 'settings:read' },
      schema: {
        tags: ['settings'],
        summary: 'The general settings of a company of the operator',
        response: { 200: z.array(generalSettingSchema) },
      },
    },
    async (request) => listGeneralSettings(db, request.companyId),
  );

  app.post(
    '/general_settings',
    {
      config: { permission: 'settings:write' },
      schema: {
        tags: ['settings'],
        summary: 'Row-table save of the general settings; known settings are checked by their type',
        body: z.array(generalSettingRowSchema).max(ROW_TABLE_MAX_ROWS),
        response: { 200: z.array(generalSettingSchema) },
      },
    },
    async (request) => {
      const companyId = companyOf(request);
      return saveRows(
        db,
        generalRowTable,
        principalOf(request),
        companyId,
        companyId,
        request.body,
        request.id,
      );
    },
  );

  registerListRoute(app, options.lists, {
    path: '/settings/general_settings/search',
    entityName: 'generalSettings',
    permission: 'settings:read',
    list: rowTableList(db, generalRowTable),
    scope: ({ companyId }) => generalRowTable.ownedBy(companyId),
    tags: ['settings'],
    summary: 'The general settings list (list engine)',
    item: generalSettingListItemSchema,
  });

  registerRowTableRoutes(app, options, {
    ...sharedTable,
    path: '/settings/banks',
    entityName: 'banks',
    table: banksTable,
    rowSchema: bankRowSchema,
    itemSchema: bankSchema,
    listItemSchema: bankSchema,
  });
  registerRowTableRoutes(app, options, {
    ...sharedTable,
    path: '/settings/vat_percentages',
    entityName: 'vatPercentages',
    table: vatPercentagesTable,
    rowSchema: vatPercentageRowSchema,
    itemSchema: vatPercentageSchema,
    listItemSchema: vatPercentageSchema,
  });
  registerRowTableRoutes(app, options, {
    ...sharedTable,
    path: '/settings/vat_categories',
    entityName: 'vatCategories',
    table: vatCategoriesTable,
    rowSchema: codedEntryRowSchema,
    itemSchema: codedEntrySchema,
    listItemSchema: codedEntrySchema,
  });
  registerRowTableRoutes(app, options, {
    ...sharedTable,
    path: '/settings/vat_statuses',
    entityName: 'vatStatuses',
    table: vatStatusesTable,
    rowSchema: codedEntryRowSchema,
    itemSchema: codedEntrySchema,
    listItemSchema: codedEntrySchema,
  });
  registerRowTableRoutes(app, options, {
    ...settingsTable,
    path: '/settings/departments',
    entityName: 'departments',
    table: departmentsTable,
    rowSchema: departmentRowSchema,
    itemSchema: departmentSchema,
    listItemSchema: departmentSchema,
    companyScoped: true,
  });
  registerRowTableRoutes(app, options, {
    ...settingsTable,
    path: '/settings/addresses',
    entityName: 'addresses',
    table: addressesTable,
    rowSchema: addressRowSchema,
    itemSchema: addressSchema,
    listItemSchema: addressSchema,
    companyScoped: true,
  });
  registerRowTableRoutes(app, options, {
    ...settingsTable,
    path: '/settings/custom_tables',
    entityName: 'customTables',
    table: customTablesTable,
    rowSchema: customTableRowSchema,
    itemSchema: customTableSchema,
    listItemSchema: customTableSchema,
    companyScoped: true,
  });
  registerRowTableRoutes(app, options, {
    ...settingsTable,
    path: '/settings/custom_fields',
    entityName: 'customFields',
    table: customFieldsTable,
    rowSchema: customFieldRowSchema,
    itemSchema: customFieldSchema,
    listItemSchema: customFieldSchema,
    companyScoped: true,
  });
  // Spec §7: the periodicity rows of the water service, at the path the spec names; read also by
  // the water department, whose invoice policies name them.
  registerRowTableRoutes(app, options, {
    ...settingsTable,
    read: ['settings:read', 'consumers:read'],
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
  const tableParams = z.object({ tableId: idParamSchema });
  app.get(
    '/settings/custom_tables/:tableId/values',
    {
      config: { permission: 'settings:read' },
      schema: {
        tags: ['settings'],
        summary: 'The values of a custom table',
        params: tableParams,
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
      config: { permission: 'settings:write' },
      schema: {
        tags: ['settings'],
        summary: 'Row-table save of the values of a custom table',
        params: tableParams,
        body: z.array(customTableValueRowSchema).max(ROW_TABLE_MAX_ROWS),
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
  registerListRoute(app, options.lists, {
    path: '/settings/custom_table_values/search',
    entityName: 'customTableValues',
    permission: 'settings:read',
    list: rowTableList(db, customTableValuesTable),
    scope: ({ companyId }) => customTableValuesOfCompany(companyId),
    tags: ['settings'],
    summary: 'The values of the custom tables of a company (list engine; filter customTableId=eq(id))',
    item: customTableValueSchema.extend({ customTableName: z.string().nullable() }),
  });
};
