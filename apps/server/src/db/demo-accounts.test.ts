import { isValidVatNumber } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../modules/mydata/mydata.defaults.ts';
import { mydataSettings } from '../modules/mydata/mydata.schema.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';
import { DEMO_COMPANY_VATNUMBER, DEMO_OPERATORS } from './demo-operators.ts';

/**
 * The demo accounts of the README (issue 29 item 18): every role a utility has can sign in and try its
 * screens, and the demo company can issue to myDATA — through a local stand-in for AADE that only a
 * demo installation runs, and only for the demo company.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  // Listening starts what `npm start` starts: the job worker and, on a demo installation, the local AADE.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

const operator = (username: string) => {
  const found = DEMO_OPERATORS.find((o) => o.username === username);
  if (!found) throw new Error(`no demo operator ${username}`);
  return found;
};
const signIn = (username: string) => t.login(username, operator(username).password);
async function scopeOf(headers: { authorization: string }): Promise<string[]> {
  const me = await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers });
  expect(me.statusCode, me.body).toBe(200);
  return me.json().scope;
}
async function companyId(): Promise<number> {
  const admin = await t.login('admin', ADMIN_PASSWORD);
  return (await t.app.inject({ method: 'GET', url: '/api/companies', headers: admin })).json()[0].id;
}

describe('issue 29 item 18: the demo accounts', () => {
  it('issue 29 item 18: every demo operator of the README signs in, and the roles together reach every area', async () => {
    expect(DEMO_OPERATORS.map((o) => o.username)).toEqual([
      'mpapadopoulou',
      'gnikolaou',
      'eantoniou',
      'kdimitriou',
    ]);
    const all = new Set<string>();
    for (const o of DEMO_OPERATORS) for (const p of await scopeOf(await signIn(o.username))) all.add(p);
    // What only an administrator should do (operators, groups, company settings) stays theirs.
    for (const needed of [
      'protocol:write',
      'traders:write',
      'forms:write',
      'consumers:admin',
      'readouts:admin',
      'billing:admin',
      'payments:write',
      'settlements:write',
      'finance:write',
      'mydata:admin',
      'settings:write',
    ])
      expect([...all], needed).toContain(needed);
  });

  it('issue 29 item 18: the accountant writes finance and sends to myDATA; the clerks do not', async () => {
    const accountant = await scopeOf(await signIn('eantoniou'));
    expect(accountant).toEqual(expect.arrayContaining(['finance:write', 'mydata:admin', 'traders:write']));
    for (const clerk of ['mpapadopoulou', 'gnikolaou']) {
      const scope = await scopeOf(await signIn(clerk));
      expect(scope).not.toContain('finance:write');
      expect(scope.some((p) => p.startsWith('mydata:'))).toBe(false);
    }
    // A real write of each: the accountant keeps the myDATA parameters, a clerk is refused them.
    const id = await companyId();
    const accountantHeaders = await signIn('eantoniou');
    const current = await t.app.inject({
      method: 'GET',
      url: `/api/mydata/settings?companyid=${id}`,
      headers: accountantHeaders,
    });
    expect(current.statusCode, current.body).toBe(200);
    const { credentialsSet, localAade, ...settings } = current.json();
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/mydata/settings?companyid=${id}`,
      headers: accountantHeaders,
      payload: settings,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/api/mydata/settings?companyid=${id}`,
      headers: await signIn('gnikolaou'),
      payload: settings,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('issue 29 item 18: the supervisor closes readout periods and saves tariffs; the water clerk does not', async () => {
    const supervisor = await scopeOf(await signIn('kdimitriou'));
    expect(supervisor).toEqual(expect.arrayContaining(['readouts:admin', 'settings:write', 'billing:admin']));
    const clerk = await scopeOf(await signIn('gnikolaou'));
    expect(clerk).not.toContain('readouts:admin');
    expect(clerk).not.toContain('settings:write');
    // Saving the invoice policies (the tariffs' row table) as they are: the supervisor may, the clerk not.
    const id = await companyId();
    const url = `/api/water/invoice_policies?companyid=${id}`;
    const rows = await t.app.inject({ method: 'GET', url, headers: await signIn('kdimitriou') });
    expect(rows.statusCode, rows.body).toBe(200);
    const save = async (username: string) =>
      (await t.app.inject({ method: 'POST', url, headers: await signIn(username), payload: rows.json() }))
        .statusCode;
    expect(await save('kdimitriou')).toBe(200);
    expect(await save('gnikolaou')).toBe(403);
  });

  it('issue 29 item 18: the demo company has a valid ΑΦΜ and sends to the local stand-in for AADE', async () => {
    expect(isValidVatNumber(DEMO_COMPANY_VATNUMBER)).toBe(true);
    const id = await companyId();
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const company = (await t.app.inject({ method: 'GET', url: '/api/companies', headers: admin })).json()[0];
    expect(company.vatnumber).toBe(DEMO_COMPANY_VATNUMBER);
    const settings = await t.app.inject({
      method: 'GET',
      url: `/api/mydata/settings?companyid=${id}`,
      headers: await signIn('eantoniou'),
    });
    expect(settings.json()).toMatchObject({ environment: 'test', credentialsSet: false, localAade: true });
  });

  it('issue 29 item 18: another company of a demo installation never sends to the local stand-in', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers: admin,
      payload: { companyname: 'ΔΕΥΑ Άλλη', companytitle: 'ΔΕΥΑ Άλλης Πόλης', vatnumber: '090000045' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const settings = await t.app.inject({
      method: 'GET',
      url: `/api/mydata/settings?companyid=${created.json().id}`,
      headers: admin,
    });
    expect(settings.json()).toMatchObject({ credentialsSet: false, localAade: false });
  });
});

describe('issue 29 item 18: an installation that is not a demo', () => {
  it('issue 29 item 18: runs no local stand-in for AADE, even for a company marked as the demo one', async () => {
    const real = await startTestApp({ SEED_DEMO: '0' });
    try {
      await real.app.listen({ port: 0, host: '127.0.0.1' });
      const admin = await real.login('admin', ADMIN_PASSWORD);
      const created = await real.app.inject({
        method: 'POST',
        url: '/api/companies',
        headers: admin,
        payload: { companyname: 'ΔΕΥΑ', companytitle: 'ΔΕΥΑ Πόλης', vatnumber: '090000045' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = Number(created.json().id);
      // As a database once seeded with demo data and now started without SEED_DEMO would hold it.
      await real.database.db
        .insert(mydataSettings)
        .values({ ...DEFAULT_SETTINGS, companyId: id, localAade: true, createuser: 'test' });
      const settings = await real.app.inject({
        method: 'GET',
        url: `/api/mydata/settings?companyid=${id}`,
        headers: admin,
      });
      expect(settings.statusCode, settings.body).toBe(200);
      expect(settings.json()).toMatchObject({ credentialsSet: false, localAade: false });
    } finally {
      await real.close();
    }
  });
});
