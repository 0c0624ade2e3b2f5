import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '../modules/companies/api.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';

/** Regression tests of issue 12's defects, each named after it. */
let t: TestApp;
let admin: { authorization: string };
let clerk: { authorization: string };
let otherCompany: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  clerk = await t.login('gnikolaou', 'Demo-2026!');
  otherCompany = (
    await createCompany(t.database.db, { companyname: 'Άλλη ΔΕΥΑ', companytitle: 'Άλλη' }, 'test')
  ).id;
});
afterAll(async () => {
  await t?.close();
});

describe('defect 4: personal data is never cached', () => {
  it('every authenticated answer says no-store: JSON, a streamed export, an error', async () => {
    const json = await t.app.inject({ method: 'GET', url: '/api/traders/search', headers: clerk });
    expect(json.headers['cache-control']).toBe('no-store');
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/export/file?uri=${encodeURIComponent('/api/traders/search')}&format=csv`,
      headers: clerk,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['cache-control']).toBe('no-store');
    const book = await t.app.inject({
      method: 'GET',
      url: `/api/protocol/book_summary/file?bookId=1&from=2026-01-01&to=2026-12-31&format=pdf`,
      headers: admin,
    });
    expect(book.statusCode, book.body.slice(0, 200)).toBe(200);
    expect(book.headers['cache-control']).toBe('no-store');
    const missing = await t.app.inject({ method: 'GET', url: '/api/traders/2147483000', headers: clerk });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  it('leaves the public answers that declare themselves cacheable as they were', async () => {
    const env = await t.app.inject({ method: 'GET', url: '/api/installation/env' });
    expect(env.headers['cache-control']).toBeUndefined();
  });

  it('issue 29 item 4: an ordinary list, a refusal and the health probe say no-store too', async () => {
    const users = await t.app.inject({ method: 'GET', url: '/api/users/search', headers: admin });
    expect(users.statusCode).toBe(200);
    expect(users.headers['cache-control']).toBe('no-store');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/users/search' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('no-store');
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.headers['cache-control']).toBe('no-store');
  });
});

describe('defect 6: one company rule for every route', () => {
  it('a company the operator does not work for is 404 on /api/users/search too', async () => {
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/users/search?companyid=${otherCompany}`,
      headers: clerk,
    });
    expect(other.statusCode).toBe(404);
    const garbled = await t.app.inject({
      method: 'GET',
      url: '/api/users/search?companyid=x',
      headers: admin,
    });
    expect(garbled.statusCode).toBe(404);
    const own = await t.app.inject({ method: 'GET', url: '/api/users/search?companyid=1', headers: admin });
    expect(own.statusCode).toBe(200);
  });
});

describe('defect 2: ids outside an integer column are a 400 naming the field', () => {
  it('in a path: 2147483648 is 400, 2147483647 an honest 404', async () => {
    const over = await t.app.inject({ method: 'GET', url: '/api/document/2147483648', headers: admin });
    expect(over.statusCode).toBe(400);
    expect(over.json().fieldErrors).toEqual([expect.objectContaining({ field: 'id' })]);
    const max = await t.app.inject({ method: 'GET', url: '/api/document/2147483647', headers: admin });
    expect(max.statusCode).toBe(404);
  });

  it('in bodies and queries: a merge, a document’s book, a company id', async () => {
    const merge = await t.app.inject({
      method: 'POST',
      url: '/api/traders/merge',
      headers: admin,
      payload: { survivorId: 2 ** 31, mergedId: 1, values: {} },
    });
    expect(merge.statusCode).toBe(400);
    expect(merge.json().fieldErrors).toEqual([expect.objectContaining({ field: 'survivorId' })]);
    const document = await t.app.inject({
      method: 'POST',
      url: '/api/document',
      headers: admin,
      payload: { kind: 0, subject: 'Θέμα', protocolBookId: 2 ** 40 },
    });
    expect(document.statusCode).toBe(400);
    expect(document.json().fieldErrors).toContainEqual(expect.objectContaining({ field: 'protocolBookId' }));
    const cases = await t.app.inject({
      method: 'DELETE',
      url: '/api/cases',
      headers: admin,
      payload: { ids: [2 ** 31] },
    });
    expect(cases.statusCode).toBe(400);
    const company = await t.app.inject({
      method: 'GET',
      url: '/api/traders/search?companyid=99999999999',
      headers: admin,
    });
    expect([400, 404]).toContain(company.statusCode);
  });
});

describe('defect 1: the shared settings tables are changed only by a super administrator', () => {
  it('an administrator of one company can neither empty nor rename what every company uses', async () => {
    // A company administrator (kind 1) has settings:admin in their company.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users?companyid=1',
      headers: admin,
      payload: {
        username: 'companyadmin',
        password: 'Company-Admin-2026',
        passwordConfirmation: 'Company-Admin-2026',
        firstname: 'Διαχειριστής',
        lastname: 'Εταιρείας',
        email: 'companyadmin@deya.example',
        kind: 1,
        superAdmin: false,
        active: true,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const companyAdmin = await t.login('companyadmin', 'Company-Admin-2026');
    for (const table of ['banks', 'vat_percentages', 'vat_categories', 'vat_statuses']) {
      const url = `/api/settings/${table}`;
      const before = (await t.app.inject({ method: 'GET', url, headers: companyAdmin })).json();
      expect(before.length, table).toBeGreaterThan(0);
      const emptied = await t.app.inject({ method: 'POST', url, headers: companyAdmin, payload: [] });
      expect(emptied.statusCode, table).toBe(403);
      expect(emptied.json()).toMatchObject({ key: 'error.shared_table' });
      expect((await t.app.inject({ method: 'GET', url, headers: admin })).json(), table).toEqual(before);
    }
  });

  it('the super administrator still maintains them', async () => {
    const url = '/api/settings/vat_statuses';
    const rows = (await t.app.inject({ method: 'GET', url, headers: admin })).json();
    const saved = await t.app.inject({ method: 'POST', url, headers: admin, payload: rows });
    expect(saved.statusCode, saved.body).toBe(200);
  });
});
