import {
  errorKeys,
  loginRequestSchema,
  loginResponseSchema,
  ssoCallbackResponseSchema,
  ssoCallbackSchema,
} from '@protocol/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf, SESSION_AUDIENCE } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { SSO_STATE_COOKIE, safeReturnPath } from '../../platform/sso.ts';
import type { users } from './users.schema.ts';
import {
  checkCredentials,
  closeSession,
  findUserByUniqueEmail,
  findUserByUsername,
  openSession,
} from './users.service.ts';

const clientOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
  requestId: request.id,
});

/** Sign-in, sign-out and single sign-on (spec §7 /api/account/*). */
export const accountRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (
  app,
  { db, config, tokens, sso },
) => {
  const issueToken = async (
    user: typeof users.$inferSelect,
    request: FastifyRequest,
    viaSso: boolean,
    attempt?: number,
  ) => {
    const session = await openSession(db, user, clientOf(request), {
      hours: config.sessionHours,
      sso: viaSso,
      attempt,
    });
    return tokens.sign({ sub: String(user.id), sid: session.sessionId }, SESSION_AUDIENCE, session.expiresAt);
  };

  app.post(
    '/account/login',
    {
      config: { public: true },
      schema: {
        tags: ['account'],
        summary: 'Sign in with user name and password',
        body: loginRequestSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request) => {
      const { user, attempt } = await checkCredentials(
        db,
        request.body.username,
        request.body.password,
        clientOf(request),
      );
      return { jwttoken: await issueToken(user, request, false, attempt) };
    },
  );

  app.post(
    '/account/logout',
    {
      config: { signedIn: true },
      schema: { tags: ['account'], summary: 'Sign out: the token is revoked' },
    },
    async (request, reply) => {
      await closeSession(db, principalOf(request), request.id);
      return reply.status(204).send();
    },
  );

  // The provider sends the browser back to the web app's /login, which hands the answer to the callback.
  const redirectUri = (request: FastifyRequest) => `${request.protocol}://${request.host}/login`;
  const requireSso = () => {
    if (!sso) throw new AppError(404, errorKeys.ssoNotConfigured);
    return sso;
  };

  app.get(
    '/account/sso/authorize',
    {
      config: { public: true },
      schema: {
        tags: ['account'],
        summary: 'Leave for the identity provider to sign in',
        querystring: z.object({ returnTo: z.string().max(2000).optional() }),
      },
    },
    async (request, reply) => {
      const service = requireSso();
      const begun = await service.begin(redirectUri(request), safeReturnPath(request.query.returnTo ?? '/'));
      reply.setCookie(SSO_STATE_COOKIE, begun.state, {
        path: '/api/account/sso',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
        expires: begun.expiresAt,
      });
      return reply.redirect(begun.url, 302);
    },
  );

  app.post(
    '/account/sso/callback',
    {
      config: { public: true },
      schema: {
        tags: ['account'],
        summary: 'Complete single sign-on with what the provider sent to /login',
        body: ssoCallbackSchema,
        response: { 200: ssoCallbackResponseSchema },
      },
    },
    async (request, reply) => {
      const service = requireSso();
      const { claims, returnTo } = await service.complete(
        redirectUri(request),
        request.body.callbackParams,
        request.cookies[SSO_STATE_COOKIE],
      );
      reply.clearCookie(SSO_STATE_COOKIE, { path: '/api/account/sso' });
      // An operator must already exist: matched by user name, else by e-mail.
      const user =
        (claims.username ? await findUserByUsername(db, claims.username) : undefined) ??
        (claims.email ? await findUserByUniqueEmail(db, claims.email) : undefined);
      if (!user) throw new AppError(401, errorKeys.ssoUnknownUser);
      if (!user.active) throw new AppError(401, errorKeys.userInactive);
      return { jwttoken: await issueToken(user, request, true), returnTo };
    },
  );
};
