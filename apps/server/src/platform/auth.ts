import { errorKeys, hasPermission, type Permission } from '@protocol/contracts';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { behindAnyCompanyWall, continueBehindCompanyWall } from '../db/wall.ts';
import { AppError, notFound, unauthorized } from './errors.ts';
import type { TokenService } from './tokens.ts';

/** Who is asking: the operator behind a live session, with their effective permissions. */
export interface Principal {
  userId: number;
  sessionId: string;
  username: string;
  kind: 1 | 2;
  superAdmin: boolean;
  /** The effective permissions (groups, kind, super admin), as `hasPermission` reads them. */
  scope: Permission[];
  /** The companies the operator works for (all of them for a super admin). */
  companyIds: number[];
  sso: boolean;
  /** The session as it was read (users' `resolveSession`): operator, permissions and companies. */
  fingerprint?: string;
  /**
   * Set when this node remembered the principal from an earlier request of the session instead of
   * reading it again (routes declaring `checksSession`): the route's write then checks in its own
   * statement that the session still holds, unchanged, and when it does not, `confirm` reads it
   * again and applies the route's checks: the principal as it is now, or 401/403/404. A read checks
   * it with `held()`, an SQL condition true while the session holds as remembered.
   */
  remembered?: { confirm(): Promise<Principal>; held(): SQL };
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /**
     * The company in use, resolved once per request for a signed-in operator (`resolveCompany`): the one
     * the request names, else the operator's first; null for an operator of no company and on public
     * routes. Read it with `companyOf`.
     */
    companyId: number | null;
  }
  /**
   * What an /api route needs, declared on every route (a route without one is refused at start):
   * `public` (anonymous), `signedIn` (any operator; the service checks whose data it is), or a
   * `permission`. Every signed-in request may name the company it works in (`X-Company-Id`, or
   * `?companyid=` for API clients and links): the plugin checks it once (`resolveCompany`).
   */
  interface FastifyContextConfig {
    public?: boolean;
    signedIn?: boolean;
    permission?: Permission;
    /**
     * The route's write checks the session itself (`sessionHolds` of the users module, in the same
     * statement), or its read does (`remembered.held()`, a list's page), so the session a node
     * remembers is not read again first: a hot request saves a round trip. A sign-out or a change of
     * the operator on any node is still refused at once.
     */
    checksSession?: boolean;
    /**
     * A public answer with no personal data and no token (the app's settings, a form's definition):
     * the platform leaves it without `Cache-Control: no-store`, which every other /api answer gets.
     */
    cacheable?: boolean;
  }
}

export const SESSION_AUDIENCE = 'session';

export interface AuthOptions {
  tokens: TokenService;
  /** Loads the live session named by the token, with its operator; null when revoked or expired. */
  resolveSession(sessionId: string, userId: number): Promise<Principal | null>;
  /** The condition that a remembered principal's session still holds as it was read (users' `sessionHeld`). */
  sessionHeld(principal: Principal): SQL;
}

/** Every registered /api route with what it declared: the route-matrix test walks them. */
export interface RouteAccess {
  method: string;
  url: string;
  public: boolean;
  signedIn: boolean;
  permission: Permission | undefined;
}
export const routeAccess = new WeakMap<FastifyInstance, RouteAccess[]>();

/** Authenticates and authorises every /api request by what its route declared. */
export const authPlugin = fp(async (app: FastifyInstance, options: AuthOptions) => {
  const routes: RouteAccess[] = [];
  // An API answer carries personal data or a token (a signed-in operator's lists and files, a
  // consumer's public balance, a citizen's draft, the sign-in's token): no browser or proxy keeps a
  // copy, unless the route declares itself `cacheable` or sets a Cache-Control of its own.
  app.addHook('onSend', async (request, reply) => {
    const cacheable = request.routeOptions.config?.cacheable === true;
    if (request.url.startsWith('/api/') && !cacheable && !reply.hasHeader('Cache-Control')) {
      reply.header('Cache-Control', 'no-store');
    }
  });
  routeAccess.set(app, routes);
  app.decorateRequest('principal', null);
  app.decorateRequest('companyId', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const config = (route.config ?? {}) as {
      public?: boolean;
      signedIn?: boolean;
      permission?: Permission;
    };
    const declared = [config.public, config.signedIn, config.permission !== undefined].filter(Boolean).length;
    if (declared !== 1) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} must declare exactly one of public, signedIn or permission`,
      );
    }
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        public: Boolean(config.public),
        signedIn: Boolean(config.signedIn),
        permission: config.permission,
      });
    }
  });

  // Principals of live sessions by session id, for `checksSession` routes; bounded, and never trusted
  // alone: such a route's write checks the session in the database.
  const remembered = new Map<string, Principal>();
  const lookUp = async (sessionId: string, userId: number) => {
    // The session's function runs as its owner: it reads the operator's session whole behind any
    // company's wall (a remembered session is confirmed behind the request's), so a connection keeps
    // the wall it stands behind.
    const principal = await behindAnyCompanyWall(() => options.resolveSession(sessionId, userId));
    if (!principal) {
      remembered.delete(sessionId);
      throw unauthorized();
    }
    if (remembered.size >= REMEMBERED_MAX) remembered.clear();
    remembered.set(sessionId, principal);
    return principal;
  };

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const config = request.routeOptions.config;
    // Unknown paths fall through to the 404 handler.
    if (!request.routeOptions.url || config.public) return;
    const { sessionId, userId } = await sessionOf(request, options.tokens);
    // Read before the route's schema strips `companyid` from the query: a remembered session's
    // `confirm` applies the same company later.
    const named = namedCompany(request);
    const known = config.checksSession ? remembered.get(sessionId) : undefined;
    // A remembered principal the route's checks would refuse is read again: refusals are never stale.
    if (known?.userId === userId && allowed(request, known, named)) {
      const confirm = async () => {
        request.principal = null;
        const principal = await lookUp(sessionId, userId);
        authorize(request, principal, named);
        request.principal = principal;
        return principal;
      };
      request.principal = { ...known, remembered: { confirm, held: () => options.sessionHeld(known) } };
      return;
    }
    const principal = await lookUp(sessionId, userId);
    request.principal = principal;
    authorize(request, principal, named);
  });

  // Everything the request does next runs behind the wall of its company in use (db/wall.ts). A
  // callback hook: the rest of the request, its handler included, runs inside the wall.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.companyId === null) done();
    else continueBehindCompanyWall(request.companyId, done);
  });
});

const REMEMBERED_MAX = 10_000;

/**
 * One rule for every route: the company in use is resolved (a company the operator does not work for
 * is 'not found'); then the permission.
 */
function authorize(request: FastifyRequest, principal: Principal, named: unknown): void {
  request.companyId = resolveCompany(principal, named);
  const { permission } = request.routeOptions.config;
  if (permission && !hasPermission(principal.scope, permission)) {
    throw new AppError(403, errorKeys.forbidden, { permission });
  }
}

const allowed = (request: FastifyRequest, principal: Principal, named: unknown) => {
  try {
    authorize(request, principal, named);
    return true;
  } catch {
    return false;
  }
};

/** The session a request's Bearer token names (its signature and claims checked). */
async function sessionOf(request: FastifyRequest, tokens: TokenService) {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match?.[1]) throw unauthorized();
  const claims = await tokens.verify(match[1], SESSION_AUDIENCE);
  const sessionId = claims?.sid;
  const userId = Number(claims?.sub);
  if (typeof sessionId !== 'string' || !Number.isInteger(userId)) throw unauthorized();
  return { sessionId, userId };
}

/**
 * The principal of a `checksSession` route for a change that does not check the session in its own
 * statement: the remembered one confirmed first.
 */
export async function confirmedPrincipalOf(request: FastifyRequest): Promise<Principal> {
  const principal = principalOf(request);
  return principal.remembered ? principal.remembered.confirm() : principal;
}

/**
 * A read of a `checksSession` route that cannot carry `held()` in one statement (the global search
 * runs several side by side): on a remembered session it reads for that principal while the session
 * is read again beside it, and answers only once the session holds — for the principal as it is now
 * when it changed; a refusal (401/403/404) wins over what was read. The lookup still happens, off the
 * request's path instead of before it.
 */
export async function readWhileConfirming<T>(
  request: FastifyRequest,
  read: (principal: Principal) => Promise<T>,
): Promise<T> {
  const principal = principalOf(request);
  if (!principal.remembered) return read(principal);
  const [now, result] = await Promise.allSettled([principal.remembered.confirm(), read(principal)]);
  if (now.status === 'rejected') throw now.reason;
  if (now.value.fingerprint !== principal.fingerprint) return read(now.value);
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/** The signed-in operator of a route that is not public. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

/** The header by which the web app names the company in use on every request. */
export const COMPANY_HEADER = 'x-company-id';

/**
 * The company a request names: `X-Company-Id` (the web app sends it on every call) or `?companyid=`
 * (API clients, and addresses opened without the app: downloads, custom exports). Named both ways,
 * the two must agree.
 */
function namedCompany(request: FastifyRequest): unknown {
  const header = request.headers[COMPANY_HEADER];
  const query = (request.query as Record<string, unknown> | undefined)?.companyid;
  if (header === undefined) return query;
  if (query !== undefined && String(query) !== String(header)) {
    throw new AppError(400, errorKeys.companyNamedTwice);
  }
  return header;
}

/**
 * The one rule for the company in use: the company named, or the operator's first (null for an
 * operator of no company). A company the operator does not work for, or a value that is not a
 * company id, is 'not found', never 'forbidden', so its existence is not revealed.
 */
export function resolveCompany(principal: Principal, named: unknown): number | null {
  if (named === undefined) return principal.companyIds[0] ?? null;
  const companyId =
    typeof named === 'number' || (typeof named === 'string' && /^[1-9]\d{0,9}$/.test(named))
      ? Number(named)
      : Number.NaN;
  // The one place a company is checked against all of the operator's: choosing the company in use.
  if (!principal.companyIds.includes(companyId)) throw notFound();
  return companyId;
}

/** What a service needs of a signed-in request: who asks, in which company, the id for audit lines. */
export interface RequestContext {
  principal: Principal;
  /** The company in use (`resolveCompany`): a record by id of another company is 'not found'. */
  companyId: number;
  requestId: string;
}

/** The request's context for a service; 'not found' for an operator of no company. */
export function contextOf(request: FastifyRequest): RequestContext {
  const principal = principalOf(request);
  if (request.companyId === null) throw notFound();
  return { principal, companyId: request.companyId, requestId: request.id };
}

/** The company in use of a signed-in request; 'not found' for an operator of no company. */
export function companyOf(request: FastifyRequest): number {
  principalOf(request);
  if (request.companyId === null) throw notFound();
  return request.companyId;
}
