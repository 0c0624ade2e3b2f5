import { saveUserGroupSchema, userGroupListItemSchema, userGroupSchema } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { companyQuery, idParams } from '../../platform/params.ts';
import { deleteGroups, getGroup, groupsList, groupsOfCompany, saveGroup } from './groups.service.ts';

/** User groups and their permissions (issue 4): managed by the admins of each company. */
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

  app.get(
    '/users/groups/:id',
    {
      config: { permission: 'users:admin' },
      schema: {
        tags: ['groups'],
        summary: 'A group with its permissions and members',
        params: idParams,
        response: { 200: userGroupSchema },
      },
    },
    async (request) => getGroup(db, principalOf(request), request.params.id),
  );

  app.post(
    '/users/groups',
    {
      config: { permission: 'users:admin', companyScoped: true },
      schema: {
        tags: ['groups'],
        summary: 'Create a group of a company',
        querystring: companyQuery,
        body: saveUserGroupSchema,
        response: { 201: userGroupSchema },
      },
    },
    async (request, reply) => {
      const group = await saveGroup(
        db,
        principalOf(request),
        companyOf(request),
        null,
        request.body,
        request.id,
      );
      return reply.status(201).send(group);
    },
  );

  app.put(
    '/users/groups/:id',
    {
      config: { permission: 'users:admin' },
      schema: {
        tags: ['groups'],
        summary: 'Change a group: name, permissions, members',
        params: idParams,
        body: saveUserGroupSchema,
        response: { 200: userGroupSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return saveGroup(
        db,
        principal,
        principal.companyIds[0] ?? 0,
        request.params.id,
        request.body,
        request.id,
      );
    },
  );

  app.delete(
    '/users/groups',
    {
      config: { permission: 'users:admin' },
      schema: {
        tags: ['groups'],
        summary: 'Delete groups',
        body: z.object({ ids: z.array(z.number().int()).min(1).max(1000) }),
      },
    },
    async (request, reply) => {
      await deleteGroups(db, principalOf(request), request.body.ids, request.id);
      return reply.status(204).send();
    },
  );
};
