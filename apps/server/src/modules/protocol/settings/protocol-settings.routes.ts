import {
  caseTypeRowSchema,
  caseTypeSchema,
  documentTypeRowSchema,
  documentTypeSchema,
  type Permission,
  subjectCategoryRowSchema,
  subjectCategorySchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../../platform/module.ts';
import { registerRowTableRoutes } from '../../../platform/row-table/routes.ts';
import { caseTypesTable, documentTypesTable, subjectCategoriesTable } from './protocol-settings.ts';

/**
 * Who may read the /search lists: the settings screens (settings:read) and the document and case
 * forms, whose selects list the types and categories (protocol:read).
 */
const LIST_PERMISSIONS: Permission[] = ['settings:read', 'protocol:read'];

const common = {
  tags: ['protocol'],
  companyScoped: true,
  read: 'settings:read',
  write: 'settings:write',
  listPermission: LIST_PERMISSIONS,
} as const;

/**
 * The protocol's settings tables: document types with their sequence settings, subject
 * categories and case types, at /api/protocol/…; written like the other settings tables.
 */
export const protocolSettingsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, options) => {
  registerRowTableRoutes(app, options, {
    ...common,
    path: '/protocol/document_types',
    entityName: 'documentTypes',
    table: documentTypesTable,
    rowSchema: documentTypeRowSchema,
    itemSchema: documentTypeSchema,
  });
  registerRowTableRoutes(app, options, {
    ...common,
    path: '/protocol/subject_categories',
    entityName: 'subjectCategories',
    table: subjectCategoriesTable,
    rowSchema: subjectCategoryRowSchema,
    itemSchema: subjectCategorySchema,
  });
  registerRowTableRoutes(app, options, {
    ...common,
    path: '/protocol/case_types',
    entityName: 'caseTypes',
    table: caseTypesTable,
    rowSchema: caseTypeRowSchema,
    itemSchema: caseTypeSchema,
  });
};
