import {
  authenticatedUserSchema,
  changePasswordSchema,
  createUserSchema,
  idSchema,
  updateUserSchema,
  userListItemSchema,
  userSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { usersList, usersVisibleTo } from './users.list.ts';
import {
  changePassword,
  getAuthenticatedUser,
  getUser,
  refuseUserDeletion,
  registerUser,
  updateUser,
} from './users.service.ts';

/** Operators: the signed-in user, an operator's account and password (spec §7 /api/users/*). */
export const usersRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, lists }) => {
  registerListRoute(app, lists, {
    path: '/users/search',
    permission: 'users:read',
    list: usersList(db),
    // Operators span companies: those of the reader's companies.
    companyScoped: false,
    scope: ({ principal }) => usersVisibleTo(principal),
    tags: ['users'],
    summary: 'The operators list: paging, sorting, Greek-aware filters (list engine)',
    item: userListItemSchema,
  });

  app.get(
    '/users/authenticatedUser',
    {
      config: { signedIn: true },
      schema: {
        tags: ['users'],
        summary: 'The signed-in operator',
        response: { 200: authenticatedUserSchema },
      },
    },
    async (request) => getAuthenticatedUser(db, principalOf(request)),
  );

  app.post(
    '/users',
    {
      config: { permission: 'users:write' },
      schema: {
        tags: ['users'],
        summary: 'Create an operator (admins)',
        body: createUserSchema,
        response: { 201: userSchema },
      },
    },
    async (request, reply) => {
      const user = await registerUser(db, principalOf(request), companyOf(request), request.body, request.id);
      return reply.status(201).send(user);
    },
  );

  // Operators are never deleted, one or many (spec §6): deactivate instead.
  app.delete(
    '/users/:id',
    {
      config: { permission: 'users:admin' },
      schema: {
        tags: ['users'],
        summary: 'Refused: operators are deactivated, not deleted',
        params: idParams,
      },
    },
    async (request) => {
      principalOf(request);
      refuseUserDeletion();
    },
  );
  app.delete(
    '/users',
    {
      config: { permission: 'users:admin' },
      schema: {
        tags: ['users'],
        summary: 'Mass delete: refused, operators are deactivated, not deleted',
        body: z.object({ ids: z.array(idSchema).max(10_000) }),
      },
    },
    async (request) => {
      principalOf(request);
      refuseUserDeletion();
    },
  );

  app.get(
    '/users/:id',
    {
      config: { signedIn: true },
      schema: { tags: ['users'], summary: 'An operator', params: idParams, response: { 200: userSchema } },
    },
    async (request) => getUser(db, principalOf(request), request.params.id),
  );

  app.put(
    '/users/:id',
    {
      config: { signedIn: true },
      schema: {
        tags: ['users'],
        summary: 'Change an operator: names and e-mail; with users:write also kind and active',
        params: idParams,
        body: updateUserSchema,
        response: { 200: userSchema },
      },
    },
    async (request) => updateUser(db, principalOf(request), request.params.id, request.body, request.id),
  );

  app.put(
    '/users/:id/change_password',
    {
      config: { signedIn: true },
      schema: {
        tags: ['users'],
        summary: 'Set a new password (own account; admins also for their operators)',
        params: idParams,
        body: changePasswordSchema,
      },
    },
    async (request, reply) => {
      await changePassword(db, principalOf(request), request.params.id, request.body, request.id);
      return reply.status(204).send();
    },
  );
};
