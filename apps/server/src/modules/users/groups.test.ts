import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: { authorization: string };
let mariaId: number;
let companyId: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  const maria = await t.login('mpapadopoulou', 'Demo-2026!');
  const me = (
    await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: maria })
  ).json();
  mariaId = me.id;
  companyId = me.companies[0].id;
});
afterAll(async () => {
  await t?.close();
});

const newOperator = (headers: { authorization: string }, username: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/users?companyid=${companyId}`,
    headers,
    payload: {
      username,
      password: 'Operator-2026',
      passwordConfirmation: 'Operator-2026',
      firstname: 'Νέος',
      lastname: 'Χειριστής',
      email: null,
      kind: 2,
      superAdmin: false,
      active: true,
    },
  });
/** Saves the company's books back unchanged (they hold registered documents, so none may go). */
const saveBooks = async (headers: { authorization: string }) => {
  const url = `/api/parametrics/book?companyid=${companyId}`;
  const rows = (await t.app.inject({ method: 'GET', url, headers: admin })).json();
  const payload = rows.map((b: { booktype: { id: number } }) => ({ ...b, booktype: { id: b.booktype.id } }));
  return t.app.inject({ method: 'POST', url, headers, payload });
};

describe('user groups carry the permissions of their members', () => {
  let groupId: number;

  it('a protocol clerk may read no operators, create none and save no settings', async () => {
    const maria = await t.login('mpapadopoulou', 'Demo-2026!');
    const me = (
      await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: maria })
    ).json();
    expect(me.scope).not.toContain('users:read');
    expect(me.scope).toContain('protocol:write');
    expect((await t.app.inject({ method: 'GET', url: '/api/users/search', headers: maria })).statusCode).toBe(
      403,
    );
    expect((await newOperator(maria, 'x1')).statusCode).toBe(403);
    expect((await saveBooks(maria)).statusCode).toBe(403);
  });

  it('a group with read permissions lets its members read, and still not write', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/users/groups?companyid=${companyId}`,
      headers: admin,
      payload: {
        name: 'Γραμματεία',
        description: 'Ανάγνωση',
        permissions: ['users:read', 'settings:read'],
        members: [mariaId],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    groupId = created.json().id;
    expect(created.json()).toMatchObject({
      name: 'Γραμματεία',
      permissions: ['settings:read', 'users:read'],
      members: [mariaId],
    });
    const maria = await t.login('mpapadopoulou', 'Demo-2026!');
    const me = (
      await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: maria })
    ).json();
    expect(me.scope).toEqual(expect.arrayContaining(['settings:read', 'users:read', 'protocol:write']));
    expect(me.groups).toContainEqual({ id: groupId, name: 'Γραμματεία', companyId });
    expect((await t.app.inject({ method: 'GET', url: '/api/users/search', headers: maria })).statusCode).toBe(
      200,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/general_settings', headers: maria })).statusCode,
    ).toBe(200);
    expect((await newOperator(maria, 'x2')).statusCode).toBe(403);
    expect((await saveBooks(maria)).statusCode).toBe(403);
  });

  it('adding the write permissions to the group takes effect at once, without signing in again', async () => {
    const maria = await t.login('mpapadopoulou', 'Demo-2026!');
    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/users/groups/${groupId}`,
      headers: admin,
      payload: {
        name: 'Γραμματεία',
        description: null,
        permissions: ['users:write', 'settings:write'],
        members: [mariaId],
      },
    });
    expect(updated.statusCode).toBe(200);
    expect((await newOperator(maria, 'x3')).statusCode).toBe(201);
    expect((await saveBooks(maria)).statusCode).toBe(200);
    // write includes read
    expect((await t.app.inject({ method: 'GET', url: '/api/users/search', headers: maria })).statusCode).toBe(
      200,
    );
  });

  it('refuses a duplicate name, unknown permissions and members of another company', async () => {
    const dup = await t.app.inject({
      method: 'POST',
      url: `/api/users/groups?companyid=${companyId}`,
      headers: admin,
      payload: { name: 'Γραμματεία', description: null, permissions: [], members: [] },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      key: 'error.names_not_unique',
      message: 'Οι ονομασίες πρέπει να είναι μοναδικές',
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/users/groups?companyid=${companyId}`,
      headers: admin,
      payload: { name: 'Χ', description: null, permissions: ['protocol:everything'], members: [] },
    });
    expect(bad.statusCode).toBe(400);
    const stranger = await t.app.inject({
      method: 'POST',
      url: `/api/users/groups?companyid=${companyId}`,
      headers: admin,
      payload: { name: 'Ψ', description: null, permissions: [], members: [999999] },
    });
    expect(stranger.statusCode).toBe(400);
  });

  it('lists the company’s groups with counts, and deletes one', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/users/groups/search', headers: admin });
    expect(list.json().content).toContainEqual({
      id: groupId,
      name: 'Γραμματεία',
      description: null,
      permissionCount: 2,
      memberCount: 1,
    });
    expect(list.json().totalElements).toBe(5);
    // Its export reads the company in use like the screen: the first one when none is named, and a
    // company id that is not a number is 'not found' (it was NaN in the SQL before).
    const exported = await t.app.inject({
      method: 'POST',
      url: '/api/export',
      headers: admin,
      payload: { uri: '/api/users/groups/search', params: { format: 'csv' } },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(Buffer.from(exported.json().file, 'base64').toString('utf8')).toContain('Γραμματεία');
    const garbled = await t.app.inject({
      method: 'POST',
      url: '/api/export',
      headers: admin,
      payload: { uri: '/api/users/groups/search?companyid=abc', params: { format: 'csv' } },
    });
    expect(garbled.statusCode).toBe(404);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/groups',
      headers: admin,
      payload: { ids: [groupId] },
    });
    expect(removed.statusCode).toBe(204);
    const maria = await t.login('mpapadopoulou', 'Demo-2026!');
    expect((await t.app.inject({ method: 'GET', url: '/api/users/search', headers: maria })).statusCode).toBe(
      403,
    );
  });
});
