import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: { authorization: string };
let companyId: number;
const SECRET = 'myDATA-subscription-key-0123456789';

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  companyId = (await t.app.inject({ method: 'GET', url: '/api/companies', headers: admin })).json()[0].id;
});
afterAll(async () => {
  await t?.close();
});

const put = (body: object, headers = admin, id = companyId) =>
  t.app.inject({ method: 'PUT', url: `/api/companies/${id}`, headers, payload: body });

describe('companies and their credentials', () => {
  it('stores credentials encrypted and never returns a secret in clear', async () => {
    const response = await put({
      companyname: 'ΔΕΥΑ Αγίας Ελένης',
      companytitle: 'Δημοτική Επιχείρηση Ύδρευσης-Αποχέτευσης Αγίας Ελένης',
      vatnumber: '090000045',
      credentials: {
        aadeUsername: 'deya-user',
        aadeSubscriptionKey: SECRET,
        smtpHost: 'mail.deya.gr',
        smtpPort: 587,
        smtpPassword: 'smtp-secret-pass',
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).not.toContain(SECRET);
    expect(response.body).not.toContain('smtp-secret-pass');
    expect(response.json().credentials).toEqual({
      aadeUsername: 'deya-user',
      aadeSubscriptionKeySet: true,
      registryUsername: null,
      registryPasswordSet: false,
      smtpHost: 'mail.deya.gr',
      smtpPort: 587,
      smtpUsername: null,
      smtpPasswordSet: true,
      smtpFrom: null,
    });
    const stored = await t.database.db.execute(
      sql`SELECT credentials FROM companies WHERE id = ${companyId}`,
    );
    const raw = JSON.stringify((stored as unknown as { rows: unknown[] }).rows);
    expect(raw).not.toContain(SECRET);
    expect(raw).toMatch(/v1\./);
    for (const url of ['/api/companies', `/api/companies/${companyId}`, '/api/users/authenticatedUser']) {
      const body = (await t.app.inject({ method: 'GET', url, headers: admin })).body;
      expect(body).not.toContain(SECRET);
    }
    const audit = await t.database.db.execute(
      sql`SELECT changes::text AS c FROM audit_log WHERE entity = 'company'`,
    );
    expect(JSON.stringify(audit)).not.toContain(SECRET);
  });

  it('keeps a secret that is not sent and clears one sent empty', async () => {
    const keep = await put({
      companyname: 'ΔΕΥΑ Αγίας Ελένης',
      companytitle: 'Τίτλος',
      vatnumber: null,
      credentials: { smtpPassword: '' },
    });
    expect(keep.json().credentials).toMatchObject({ aadeSubscriptionKeySet: true, smtpPasswordSet: false });
    const none = await put({ companyname: 'ΔΕΥΑ Αγίας Ελένης', companytitle: 'Τίτλος', vatnumber: null });
    expect(none.json().credentials.aadeSubscriptionKeySet).toBe(true);
  });

  it('answers 404 for a company the operator does not work for, 403 without settings:admin', async () => {
    expect((await put({ companyname: 'Χ', companytitle: 'Χ', vatnumber: null }, admin, 999)).statusCode).toBe(
      404,
    );
    const op = await t.login('mpapadopoulou', 'Demo-2026!');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/companies/${companyId}`, headers: op })).statusCode,
    ).toBe(403);
    const mine = await t.app.inject({ method: 'GET', url: '/api/companies', headers: op });
    expect(mine.json().map((c: { id: number }) => c.id)).toEqual([companyId]);
  });

  it('a super admin creates a company; an operator of company A gets 404 for the settings of company B', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers: admin,
      payload: { companyname: 'Δήμος Αγίας Ελένης', companytitle: 'Δήμος Αγίας Ελένης', vatnumber: null },
    });
    expect(created.statusCode).toBe(201);
    const companyB = created.json().id;
    const settingsB = await t.app.inject({
      method: 'GET',
      url: `/api/general_settings?companyid=${companyB}`,
      headers: admin,
    });
    expect(settingsB.statusCode).toBe(200);
    const op = await t.login('mpapadopoulou', 'Demo-2026!');
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/general_settings?companyid=${companyB}`,
      headers: op,
    });
    expect(refused.statusCode).toBe(404);
  });
});
