import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';

/**
 * Issue 12, defect 2: text PostgreSQL cannot store (NUL, a lone surrogate) is a 400 that names the
 * field, in the asker's language, on every route — never a 500, never silently changed.
 */
let t: TestApp;
let admin: { authorization: string };

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

const fieldsOf = (body: string) => (JSON.parse(body).fieldErrors as { field: string; key: string }[]) ?? [];

describe('defect 2: unstorable text is refused at the edge', () => {
  it('a NUL in the login user name (no sign-in needed): 400 naming the field, in Greek and English', async () => {
    const greek = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      payload: { username: 'ad\u0000min', password: 'x' },
    });
    expect(greek.statusCode).toBe(400);
    expect(greek.json()).toMatchObject({ key: 'error.bad_data' });
    expect(fieldsOf(greek.body)).toEqual([
      { field: 'username', key: 'validation.unstorable_text', params: {} },
    ]);
    const english = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      headers: { 'accept-language': 'en' },
      payload: { username: 'ad\u0000min', password: 'x' },
    });
    expect(english.json().message).toMatch(/not correct|invalid/i);
  });

  it('a NUL in a list search or filter: 400, not 500', async () => {
    for (const query of ['search=%00', 'vatnumber=ci(contains(%00))']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/traders/search?${query}`,
        headers: admin,
      });
      expect(response.statusCode, query).toBe(400);
      expect(fieldsOf(response.body)[0]?.key).toBe('validation.unstorable_text');
    }
  });

  it('a lone surrogate in a saved name is refused, not stored as U+FFFD', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/cases',
      headers: { ...admin, 'content-type': 'application/json' },
      // Written by hand: JSON.stringify would escape the surrogate the same way a client does.
      payload: '{"name":"Υπόθεση \\ud800","caseTypeId":null,"documentIds":[]}',
    });
    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response.body)).toEqual([
      { field: 'name', key: 'validation.unstorable_text', params: {} },
    ]);
  });

  it('keeps a proper surrogate pair (an emoji) and Greek text', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/traders/search?search=${encodeURIComponent('Παπαδόπουλος 💧')}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
  });
});
