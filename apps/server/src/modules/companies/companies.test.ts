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

describe('issue 29 item 11: the super administrator lists, creates, edits and deactivates companies', () => {
  const post = (body: object, headers = admin) =>
    t.app.inject({ method: 'POST', url: '/api/companies', headers, payload: body });
  const search = (query: string, headers = admin) =>
    t.app.inject({ method: 'GET', url: `/api/companies/search?${query}`, headers });

  it('issue 29 item 11: creates a company with its details, checks the ΑΦΜ’s check digit, lists and finds it', async () => {
    const badVat = await post({
      companyname: 'ΔΕΥΑ Λάθους',
      companytitle: 'ΔΕΥΑ Λάθους',
      vatnumber: '094014202',
    });
    expect(badVat.statusCode).toBe(400);
    expect(badVat.json().fieldErrors).toEqual([
      { field: 'vatnumber', key: 'validation.vatnumber', params: {} },
    ]);
    const badZip = await post({ companyname: 'Χ', companytitle: 'Χ', vatnumber: null, zipcode: '621' });
    expect(badZip.json().fieldErrors[0]).toMatchObject({ field: 'zipcode', key: 'validation.postal_code' });

    const created = await post({
      companyname: 'ΔΕΥΑ Νέας Πόλης',
      companytitle: 'Δημοτική Επιχείρηση Ύδρευσης-Αποχέτευσης Νέας Πόλης',
      vatnumber: 'EL 094014201',
      address: 'Πλατεία Δημαρχείου 1',
      city: 'Νέα Πόλη',
      zipcode: '62200',
      phone: '2321000000',
      email: 'info@deya-neapoli.gr',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      vatnumber: '094014201',
      city: 'Νέα Πόλη',
      zipcode: '62200',
      active: true,
      createuser: 'admin',
    });
    const found = await search(`search=${encodeURIComponent('νεας πολης')}`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().content).toEqual([
      expect.objectContaining({ id: created.json().id, vatnumber: '094014201', active: true }),
    ]);
  });

  it('issue 29 item 11: deactivating a company closes it to its operators at once, and only the super administrator may', async () => {
    const gnikolaou = await t.login('gnikolaou', 'Demo-2026!');
    const users = (
      await t.app.inject({ method: 'GET', url: '/api/users/search?username=eq(gnikolaou)', headers: admin })
    ).json().content;
    const created = (
      await post({ companyname: 'ΔΕΥΑ Δοκιμής', companytitle: 'ΔΕΥΑ Δοκιμής', vatnumber: null })
    ).json();
    await t.database.db.execute(
      sql`INSERT INTO company_users (company_id, user_id) VALUES (${created.id}, ${users[0].id})`,
    );
    const mine = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/companies', headers: gnikolaou }))
        .json()
        .map((c: { id: number }) => c.id);
    expect(await mine()).toContain(created.id);

    // A company's own administrator may rename it but not (de)activate it.
    await t.database.db.execute(sql`UPDATE users SET kind = 1 WHERE username = 'gnikolaou'`);
    const body = { companyname: 'ΔΕΥΑ Δοκιμής', companytitle: 'ΔΕΥΑ Δοκιμής', vatnumber: null };
    const refused = await put({ ...body, active: false }, gnikolaou, created.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().key).toBe('error.companies_super_admin_only');
    expect((await put(body, gnikolaou, created.id)).statusCode).toBe(200);

    const off = await put({ ...body, active: false }, admin, created.id);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().active).toBe(false);
    expect(await mine()).not.toContain(created.id);
    const closed = await t.app.inject({
      method: 'GET',
      url: `/api/general_settings?companyid=${created.id}`,
      headers: gnikolaou,
    });
    expect(closed.statusCode).toBe(404);
    // The super administrator still sees it, to reactivate it.
    expect((await search('active=eq(false)')).json().content.map((c: { id: number }) => c.id)).toContain(
      created.id,
    );
    expect((await put({ ...body, active: true }, admin, created.id)).json().active).toBe(true);
    expect(await mine()).toContain(created.id);
    await t.database.db.execute(sql`UPDATE users SET kind = 2 WHERE username = 'gnikolaou'`);
  });

  it('issue 29 item 11: the companies list and creating one are the super administrator’s only (403 with a clear message)', async () => {
    const op = await t.login('mpapadopoulou', 'Demo-2026!');
    const list = await search('', op);
    expect(list.statusCode).toBe(403);
    await t.database.db.execute(sql`UPDATE users SET kind = 1 WHERE username = 'mpapadopoulou'`);
    const companyAdmin = await t.login('mpapadopoulou', 'Demo-2026!');
    const asAdmin = await search('', companyAdmin);
    expect(asAdmin.statusCode).toBe(403);
    expect(asAdmin.json()).toMatchObject({
      key: 'error.companies_super_admin_only',
      message: expect.stringContaining('εταιρείες'),
    });
    const create = await post({ companyname: 'Χ', companytitle: 'Χ', vatnumber: null }, companyAdmin);
    expect(create.statusCode).toBe(403);
    expect(create.json().key).toBe('error.companies_super_admin_only');
    const exported = await t.app.inject({
      method: 'POST',
      url: '/api/export',
      headers: companyAdmin,
      payload: { uri: '/api/companies/search?format=csv', params: null },
    });
    expect(exported.statusCode).toBe(403);
    await t.database.db.execute(sql`UPDATE users SET kind = 2 WHERE username = 'mpapadopoulou'`);
  });
});
