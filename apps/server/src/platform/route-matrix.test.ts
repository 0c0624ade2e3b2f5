import { allPermissions } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUserToCompany, createCompany } from '../modules/companies/api.ts';
import { createUser } from '../modules/users/api.ts';
import { userGroupMembers, userGroupPermissions, userGroups } from '../modules/users/groups.schema.ts';
import { ADMIN_PASSWORD, companyInUseOf, startTestApp, type TestApp } from '../test/harness.ts';
import { authPlugin, type RouteAccess, routeAccess } from './auth.ts';
import { createTokenService } from './tokens.ts';

let t: TestApp;
let routes: RouteAccess[];
let companyA: number;
const headers: Record<'nobody' | 'otherCompany', { authorization: string }> = {} as never;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.ready();
  routes = routeAccess.get(t.app) ?? [];
  const db = t.database.db;
  const admin = await t.login('admin', ADMIN_PASSWORD);
  companyA = await companyInUseOf(t, admin);
  await db.transaction(async (tx) => {
    // An operator of company A with no group at all.
    const nobody = await createUser(
      tx,
      { username: 'nobody', password: 'Nobody-2026', firstname: 'Κανείς', lastname: 'Τίποτα', kind: 2 },
      'test',
    );
    await addUserToCompany(tx, companyA, nobody.id);
    // An operator of company B holding every permission there.
    const companyB = await createCompany(tx, { companyname: 'Δήμος Β', companytitle: 'Δήμος Β' }, 'test');
    const other = await createUser(
      tx,
      { username: 'otherco', password: 'Other-2026', firstname: 'Άλλη', lastname: 'Εταιρεία', kind: 2 },
      'test',
    );
    await addUserToCompany(tx, companyB.id, other.id);
    const [group] = await tx.insert(userGroups).values({ companyId: companyB.id, name: 'Όλα' }).returning();
    if (!group) throw new Error('no group');
    await tx
      .insert(userGroupPermissions)
      .values(allPermissions.map((permission) => ({ groupId: group.id, permission })));
    await tx.insert(userGroupMembers).values({ groupId: group.id, userId: other.id });
  });
  headers.nobody = await t.login('nobody', 'Nobody-2026');
  headers.otherCompany = await t.login('otherco', 'Other-2026');
});
afterAll(async () => {
  await t?.close();
});

const call = (route: RouteAccess, auth?: Record<string, string>, query = '') =>
  t.app.inject({
    method: route.method as 'GET',
    url: `${route.url.replace(/:\w+/g, '1')}${query}`,
    headers: auth,
    ...(route.method === 'GET' ? {} : { payload: {} }),
  });

describe('the route matrix: every /api route checks who asks and for which company', () => {
  it('knows the routes of every module', () => {
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    expect(urls).toEqual(
      expect.arrayContaining(['GET /api/users/search', 'POST /api/parametrics/book', 'POST /api/export']),
    );
    expect(routes.length).toBeGreaterThan(20);
  });

  it('anonymous callers get 401 on every route that is not public', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => !r.public)) {
      const response = await call(route);
      if (response.statusCode !== 401) failures.push(`${route.method} ${route.url} → ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('an operator without the permission gets 403 on every permission route', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.permission)) {
      const response = await call(route, headers.nobody);
      if (response.statusCode !== 403) failures.push(`${route.method} ${route.url} → ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  // Issue 30: the company is resolved once per request, for every route, so no route can forget it.
  it('an operator of another company gets 404 for company A on every signed-in route, however it is named', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => !r.public)) {
      const byHeader = await call(route, { ...headers.otherCompany, 'x-company-id': String(companyA) });
      if (byHeader.statusCode !== 404)
        failures.push(`header: ${route.method} ${route.url} → ${byHeader.statusCode}`);
      const byQuery = await call(route, headers.otherCompany, `?companyid=${companyA}`);
      if (byQuery.statusCode !== 404)
        failures.push(`query: ${route.method} ${route.url} → ${byQuery.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('takes the company from X-Company-Id or ?companyid=, and refuses two different ones', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const url = '/api/traders/search';
    const get = (extra: Record<string, string>, query = '') =>
      t.app.inject({ method: 'GET', url: `${url}${query}`, headers: { ...admin, ...extra } });
    expect((await get({ 'x-company-id': String(companyA) })).statusCode).toBe(200);
    expect((await get({}, `?companyid=${companyA}`)).statusCode).toBe(200);
    expect((await get({ 'x-company-id': String(companyA) }, `?companyid=${companyA}`)).statusCode).toBe(200);
    const twice = await get({ 'x-company-id': String(companyA) }, `?companyid=${companyA + 1}`);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().key).toBe('error.company_named_twice');
    for (const junk of ['0', '-1', 'abc', '1e3', '99999999999', ' 1']) {
      expect((await get({ 'x-company-id': junk })).statusCode, junk).toBe(404);
    }
  });

  it('refuses to start with a route that declares nothing', async () => {
    const app = Fastify();
    await app.register(authPlugin, {
      tokens: createTokenService('x'.repeat(40)),
      resolveSession: async () => null,
      sessionHeld: () => sql`false`,
    });
    await expect(
      app.register(async (api) => {
        api.get('/api/undeclared', async () => 'open');
      }),
    ).rejects.toThrow('must declare exactly one of public, signedIn or permission');
    await app.close();
  });
});
