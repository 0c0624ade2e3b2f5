import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OPERATORS } from '../../db/demo-operators.ts';
import { auditLog } from '../../platform/audit.schema.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
const [maria, giorgos] = DEMO_OPERATORS;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestApp();
  for (const [username, password] of [
    ['admin', ADMIN_PASSWORD],
    [maria.username, maria.password],
    [giorgos.username, giorgos.password],
  ] as const) {
    const headers = await t.login(username, password);
    ids[username] = (
      await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers })
    ).json().id;
  }
});
afterAll(async () => {
  await t?.close();
});

const change = (headers: { authorization: string }, id: number | undefined, body: object) =>
  t.app.inject({ method: 'PUT', url: `/api/users/${id}/change_password`, headers, payload: body });

describe('change password (spec §5)', () => {
  it('requires both fields', async () => {
    const headers = await t.login(maria.username, maria.password);
    const response = await change(headers, ids[maria.username], {});
    expect(response.statusCode).toBe(400);
    const fields = response
      .json()
      .fieldErrors.map((e: { field: string; key: string }) => `${e.field}:${e.key}`);
    expect(fields).toEqual(
      expect.arrayContaining(['password:validation.required', 'confirmedPassword:validation.required']),
    );
    const empty = await change(headers, ids[maria.username], { password: '', confirmedPassword: '' });
    expect(empty.json().fieldErrors[0]).toMatchObject({ key: 'validation.required' });
  });

  it('refuses a mismatch, a short password and one over 220 characters, with their messages', async () => {
    const headers = await t.login(maria.username, maria.password);
    const id = ids[maria.username];
    const mismatch = await change(headers, id, {
      password: 'new-password-1',
      confirmedPassword: 'new-password-2',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().fieldErrors).toEqual([
      { field: 'confirmedPassword', key: 'validation.passwords_mismatch', params: {} },
    ]);
    const short = await change(headers, id, { password: 'short', confirmedPassword: 'short' });
    expect(short.json().fieldErrors).toEqual([
      { field: 'password', key: 'validation.password_too_short', params: {} },
    ]);
    const long = 'x'.repeat(221);
    const tooLong = await change(headers, id, { password: long, confirmedPassword: long });
    expect(tooLong.json().fieldErrors[0]).toMatchObject({
      key: 'validation.max_length',
      params: { length: 220 },
    });
    expect(tooLong.json().message).toBe('Τα δεδομένα που δώσατε δεν είναι σωστά.');
  });

  it('changes the own password: the new one signs in, the old one no longer, other sessions end', async () => {
    const current = await t.login(giorgos.username, giorgos.password);
    const other = await t.login(giorgos.username, giorgos.password);
    const id = ids[giorgos.username];
    const ok = await change(current, id, {
      currentPassword: giorgos.password,
      password: 'Νέος-κωδικός-2026',
      confirmedPassword: 'Νέος-κωδικός-2026',
    });
    expect(ok.statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: current }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: other })).statusCode,
    ).toBe(401);
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      payload: { username: giorgos.username, password: giorgos.password },
    });
    expect(old.statusCode).toBe(401);
    await t.login(giorgos.username, 'Νέος-κωδικός-2026');
    await change(current, id, {
      currentPassword: 'Νέος-κωδικός-2026',
      password: giorgos.password,
      confirmedPassword: giorgos.password,
    });
  });

  it('defect 3: the own password needs the current one; a stolen session alone cannot change it', async () => {
    const session = await t.login(giorgos.username, giorgos.password);
    const id = ids[giorgos.username];
    const body = { password: 'Κλεμμένος-2026', confirmedPassword: 'Κλεμμένος-2026' };
    const missing = await change(session, id, body);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors).toEqual([
      { field: 'currentPassword', key: 'validation.required', params: {} },
    ]);
    const wrong = await change(session, id, { ...body, currentPassword: 'not-it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      key: 'error.no_password_verification',
      message: 'Ο τρέχων κωδικός δεν είναι σωστός.',
      fieldErrors: [{ field: 'currentPassword', key: 'error.no_password_verification' }],
    });
    // Unchanged: the old password still signs in.
    await t.login(giorgos.username, giorgos.password);
  });

  it('an operator cannot change another operator’s password nor the super admin’s', async () => {
    const headers = await t.login(maria.username, maria.password);
    const other = await change(headers, ids[giorgos.username], {
      password: 'password-123',
      confirmedPassword: 'password-123',
    });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({
      key: 'error.no_access_user',
      message: 'Δεν έχετε πρόσβαση στον συγκεκριμένο χρήστη.',
    });
    const sa = await change(headers, ids.admin, {
      password: 'password-123',
      confirmedPassword: 'password-123',
    });
    expect(sa.statusCode).toBe(403);
    expect(sa.json().key).toBe('error.no_access_super_admin');
    const view = await t.app.inject({ method: 'GET', url: `/api/users/${ids.admin}`, headers });
    expect(view.statusCode).toBe(403);
  });

  it('an admin sets an operator’s password without hers, and the reset is audited', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const response = await change(admin, ids[maria.username], {
      password: 'reset-by-admin',
      confirmedPassword: 'reset-by-admin',
    });
    expect(response.statusCode).toBe(204);
    await t.login(maria.username, 'reset-by-admin');
    const [audit] = await t.database.db
      .select({ action: auditLog.action, username: auditLog.username })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'user'),
          eq(auditLog.entityId, String(ids[maria.username])),
          eq(auditLog.action, 'reset_password'),
        ),
      )
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toEqual({ action: 'reset_password', username: 'admin' });
  });

  it('answers 404 for an operator that does not exist', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const response = await change(admin, 999999, {
      password: 'password-123',
      confirmedPassword: 'password-123',
    });
    expect(response.statusCode).toBe(404);
  });
});
