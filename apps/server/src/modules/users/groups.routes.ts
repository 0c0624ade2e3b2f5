import { saveUserGroupSchema, userGroupListItemSchema, userGroupSchema } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { registerRecordRoutes } from '../../platform/record/routes.ts';
import { deleteGroups, getGroup, groupsList, groupsOfCompany, saveGroup } from './groups.service.ts';

/** User groups and their permissions: managed by the admins of each company. */
export const groupsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, lists }) => {
  registerListRoute(app, lists, {
    path: '/users/groups/search',
    permission: 'users:admin',
    list: groupsList(db),
    scope: ({ companyId }) => groupsOfCompany(companyId),
    tags: ['groups'],
    summary: 'The user groups of a company (list engine)',
    item: userGroupListItemSchema,
  });

  registerRecordRoutes(app, {
    path: '/users/groups',
    tags: ['groups'],
    record: userGroupSchema,
    save: saveUserGroupSchema,
    read: 'users:admin',
    write: 'users:admin',
    companyScoped: true,
    get: {
      summary: 'A group with its permissions and members',
      load: ({ companyId, id }) => getGroup(db, companyId, id),
    },
    create: {
      summary: 'Create a group of a company',
      run: ({ principal, companyId, body, requestId }) =>
        saveGroup(db, principal, companyId, null, body, requestId),
    },
    update: {
      summary: 'Change a group: name, permissions, members',
      run: ({ principal, companyId, id, body, requestId }) =>
        saveGroup(db, principal, companyId, id, body, requestId),
    },
    remove: {
      summary: 'Delete groups',
      run: ({ principal, companyId, ids, requestId }) =>
        deleteGroups(db, principal, companyId, ids, requestId),
    },
  });
};
