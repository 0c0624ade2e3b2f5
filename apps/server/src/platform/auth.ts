import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, unauthorized } from './errors.ts';
import type { TokenService } from './tokens.ts';

/** Who is asking: the operator behind a live session. */
export interface Principal {
  userId: number;
  sessionId: string;
  username: string;
  kind: 1 | 2;
  superAdmin: boolean;
  scope: string[];
  sso: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** The route answers anonymous callers; every other /api route needs a session. */
    public?: boolean;
  }
}

export const SESSION_AUDIENCE = 'session';

export interface AuthOptions {
  tokens: TokenService;
  /** Loads the live session named by the token, with its operator; null when revoked or expired. */
  resolveSession(sessionId: string, userId: number): Promise<Principal | null>;
}

/** Authenticates every /api request unless its route is declared public (secure by default). */
export const authPlugin = fp(async (app: FastifyInstance, options: AuthOptions) => {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    // Unknown paths fall through to the 404 handler.
    if (!request.routeOptions.url || request.routeOptions.config.public) return;
    request.principal = await authenticate(request, options);
  });
});

async function authenticate(request: FastifyRequest, options: AuthOptions): Promise<Principal> {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match?.[1]) throw unauthorized();
  const claims = await options.tokens.verify(match[1], SESSION_AUDIENCE);
  const sessionId = claims?.sid;
  const userId = Number(claims?.sub);
  if (typeof sessionId !== 'string' || !Number.isInteger(userId)) throw unauthorized();
  const principal = await options.resolveSession(sessionId, userId);
  if (!principal) throw unauthorized();
  return principal;
}

/** The signed-in operator of a route that is not public. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError(401, 'error.unauthorized');
  return request.principal;
}
