import { type SQL, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { DEMO_OPERATORS } from '../../db/demo-operators.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { LOGIN_LIMIT_PER_IP, LOGIN_LIMIT_PER_USERNAME } from './users.service.ts';

let t: TestApp;
const [maria, giorgos] = DEMO_OPERATORS;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const login = (username: string, password: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/account/login', payload: { username, password }, headers });

describe('sign in', () => {
  it('answers a jwttoken for the right password, and the token loads the operator', async () => {
    const response = await login('admin', ADMIN_PASSWORD);
    expect(response.statusCode).toBe(200);
    const { jwttoken } = response.json();
    expect(jwttoken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/users/authenticatedUser',
      headers: { authorization: `Bearer ${jwttoken}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      username: 'admin',
      kind: 1,
      superAdmin: true,
      active: true,
      sso: false,
      companies: [{ companyname: 'ΔΕΥΑ Αγίας Ελένης' }],
    });
    expect(me.json()).not.toHaveProperty('passwordHash');
  });

  it('writes the session row and its audit line, and lets only that commit skip the WAL flush', async () => {
    const count = async (query: SQL) => rowsOf<{ n: number }>(await t.database.db.execute(query))[0]?.n;
    const sessionsOf = sql`SELECT count(*)::int AS n FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE u.username = 'admin' AND s.revoked_at IS NULL`;
    const loginLines = sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'login' AND username = 'admin'`;
    const waiting = async () =>
      rowsOf<{ v: string }>(
        await t.database.db.execute(sql`SELECT current_setting('synchronous_commit') AS v`),
      )[0]?.v;
    // The server's own setting ('on' by default; the suite's PostgreSQL runs with 'off' throughout).
    const configured = await waiting();
    const [sessionsBefore, linesBefore] = [await count(sessionsOf), await count(loginLines)];
    expect((await login('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
    expect(await count(sessionsOf)).toBe((sessionsBefore ?? 0) + 1);
    expect(await count(loginLines)).toBe((linesBefore ?? 0) + 1);
    // The setting was local to the sign-in's own statement: what runs next on the connection is back
    // to the server's own.
    expect(await waiting()).toBe(configured);
  });

  it('issue 29 item 4: the sign-in answer carrying the token is never cached (no-store)', async () => {
    const response = await login('admin', ADMIN_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json().jwttoken).toBeTruthy();
    expect(response.headers['cache-control']).toBe('no-store');
    const refused = await login('admin', 'wrong-password');
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('matches the user name regardless of case', async () => {
    expect((await login(maria.username.toUpperCase(), maria.password)).statusCode).toBe(200);
  });

  it('refuses a wrong password with 401 and the catalog message, in the caller’s language', async () => {
    const greek = await login('admin', 'wrong-password');
    expect(greek.statusCode).toBe(401);
    expect(greek.json()).toMatchObject({
      status: 401,
      key: 'error.bad_credentials',
      params: {},
      message: 'Λάθος όνομα χρήστη ή κωδικός πρόσβασης',
    });
    const english = await login('nobody', 'wrong-password', { 'accept-language': 'en-GB,en;q=0.9' });
    expect(english.json()).toMatchObject({ status: 401, message: 'Wrong user name or password' });
  });

  it('answers 400 with field errors for a body without a user name', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      payload: { password: 'x' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      key: 'error.bad_data',
      fieldErrors: [{ field: 'username', key: 'validation.required' }],
    });
  });

  it('rate-limits failures per user name: 429 even for the right password, other users unaffected', async () => {
    for (let i = 0; i < LOGIN_LIMIT_PER_USERNAME; i++) {
      expect((await login(giorgos.username, `wrong-${i}`)).statusCode).toBe(401);
    }
    const limited = await login(giorgos.username, giorgos.password);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ key: 'error.too_many_attempts' });
    const seconds = limited.json().params.seconds;
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(limited.headers['retry-after']).toBe(String(seconds));
    expect((await login(maria.username, maria.password)).statusCode).toBe(200);
  });

  it('defect 5: the per-address limit stops only failing attempts, with Retry-After', async () => {
    const fromTownHall = (username: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: { username, password },
        remoteAddress: '10.20.30.40',
      });
    // Many colleagues mistype once each behind the same address.
    for (let i = 0; i < LOGIN_LIMIT_PER_IP; i++) {
      expect((await fromTownHall(`colleague${i}`, 'wrong')).statusCode).toBe(401);
    }
    const failing = await fromTownHall('colleague-next', 'wrong');
    expect(failing.statusCode).toBe(429);
    expect(Number(failing.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The right password still signs in from that address.
    expect((await fromTownHall(maria.username, maria.password)).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('logout revokes the token: the same token then gets 401', async () => {
    const headers = await t.login(maria.username, maria.password);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers })).statusCode,
    ).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/account/logout', headers });
    expect(out.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers });
    expect(after.statusCode).toBe(401);
    expect(after.json().key).toBe('error.unauthorized');
  });

  it('rejects a missing, malformed, forged or unsigned token', async () => {
    const url = '/api/users/authenticatedUser';
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const bad = ['Bearer nonsense', 'Basic YWRtaW46YWRtaW4='];
    for (const authorization of bad) {
      expect((await t.app.inject({ method: 'GET', url, headers: { authorization } })).statusCode).toBe(401);
    }
    const { authorization } = await t.login('admin', ADMIN_PASSWORD);
    const [header, payload] = authorization.slice(7).split('.');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    expect(
      (await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${unsigned}` } }))
        .statusCode,
    ).toBe(401);
    expect(header).toBeTruthy();
    const forged = await new SignJWT(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()))
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('a-secret-that-is-not-the-servers-secret-at-all'));
    expect(
      (await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${forged}` } })).statusCode,
    ).toBe(401);
  });

  it('deactivating an operator ends their sessions and they cannot sign in again', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const op = await t.login(maria.username, maria.password);
    const me = (
      await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: op })
    ).json();
    const off = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${me.id}`,
      headers: admin,
      payload: { firstname: me.firstname, lastname: me.lastname, email: me.email, active: false },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ active: false, updateuser: 'admin' });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: op })).statusCode,
    ).toBe(401);
    const again = await login(maria.username, maria.password);
    expect(again.statusCode).toBe(401);
    expect(again.json().key).toBe('error.user_inactive');
    await t.app.inject({
      method: 'PUT',
      url: `/api/users/${me.id}`,
      headers: admin,
      payload: { firstname: me.firstname, lastname: me.lastname, email: me.email, active: true },
    });
    expect((await login(maria.username, maria.password)).statusCode).toBe(200);
  });

  it('an operator cannot deactivate anyone, not even themselves', async () => {
    const op = await t.login(maria.username, maria.password);
    const me = (
      await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: op })
    ).json();
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${me.id}`,
      headers: op,
      payload: { firstname: me.firstname, lastname: me.lastname, email: me.email, active: false },
    });
    expect(response.statusCode).toBe(403);
  });
});
