import {
  authenticatedUserSchema,
  changePasswordSchema,
  updateAccountSchema,
  userSchema,
} from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../platform/auth.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { changePassword, getAuthenticatedUser, getUser, updateUser } from './users.service.ts';

const idParams = z.object({ id: z.coerce.number().int().positive() });

/** Operators: the signed-in user, an operator's account and password (spec §7 /api/users/*). */
export const usersRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db }) => {
  app.get(
    '/users/authenticatedUser',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in operator',
        response: { 200: authenticatedUserSchema },
      },
    },
    async (request) => getAuthenticatedUser(db, principalOf(request)),
  );

  app.get(
    '/users/:id',
    { schema: { tags: ['users'], summary: 'An operator', params: idParams, response: { 200: userSchema } } },
    async (request) => getUser(db, principalOf(request), request.params.id),
  );

  app.put(
    '/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'Change an operator’s names and e-mail (admins: also active)',
        params: idParams,
        body: updateAccountSchema.extend({ active: z.boolean().optional() }),
        response: { 200: userSchema },
      },
    },
    async (request) => updateUser(db, principalOf(request), request.params.id, request.body, request.id),
  );

  app.put(
    '/users/:id/change_password',
    {
      schema: {
        tags: ['users'],
        summary: 'Set a new password (own account; admins also for their operators)',
        params: idParams,
        body: changePasswordSchema,
      },
    },
    async (request, reply) => {
      await changePassword(db, principalOf(request), request.params.id, request.body.password, request.id);
      return reply.status(204).send();
    },
  );
};
