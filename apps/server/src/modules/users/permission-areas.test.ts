import { readFileSync } from 'node:fs';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { userGroupPermissions, userGroups } from './groups.schema.ts';

/**
 * Migration 0010: a group that had the water module's or finance's permissions keeps its level in
 * each of their areas (water → consumers, readouts, billing, collections; finance → finance, mydata);
 * migration 0029 then moves the unused collections area onto payments, level kept.
 */
let t: TestApp;
const migrations = path.join(import.meta.dirname, '../../db/migrations');
const migration = readFileSync(path.join(migrations, '0010_permission_areas.sql'), 'utf8');
const collectionsToPayments = readFileSync(path.join(migrations, '0032_bank_files.sql'), 'utf8')
  .split('--> statement-breakpoint')
  .filter((statement) => statement.includes("'collections:%'"));

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('permission areas', () => {
  it('grants the demo water department its areas, and a super admin every area (before the re-run below)', async () => {
    const clerk = await t.login('gnikolaou', 'Demo-2026!');
    const me = await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: clerk });
    expect(me.json().scope).toEqual(
      expect.arrayContaining(['consumers:write', 'readouts:write', 'billing:write', 'payments:write']),
    );
    expect(me.json().scope).not.toContain('mydata:read');
    expect(me.json().scope.some((p: string) => p.startsWith('collections'))).toBe(false);
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const scope = (
      await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: admin })
    ).json().scope;
    expect(scope).toEqual(expect.arrayContaining(['mydata:admin', 'payments:admin', 'users:admin']));
  });

  it('moves a group’s water and finance permissions onto their areas, levels kept', async () => {
    const db = t.database.db;
    const [group] = await db
      .insert(userGroups)
      .values({ companyId: 1, name: 'Παλιά ομάδα ύδρευσης' })
      .returning({ id: userGroups.id });
    const id = group?.id as number;
    // As issue 4 stored them, before the areas.
    await db.insert(userGroupPermissions).values(
      ['water:read', 'water:write', 'finance:read', 'protocol:read'].map((permission) => ({
        groupId: id,
        permission,
      })),
    );
    for (const statement of [...migration.split('--> statement-breakpoint'), ...collectionsToPayments])
      await db.execute(sql.raw(statement));
    const rows = await db
      .select({ permission: userGroupPermissions.permission })
      .from(userGroupPermissions)
      .where(eq(userGroupPermissions.groupId, id))
      .orderBy(asc(userGroupPermissions.permission));
    expect(rows.map((r) => r.permission)).toEqual([
      'billing:read',
      'billing:write',
      'consumers:read',
      'consumers:write',
      'finance:read',
      'mydata:read',
      'payments:read',
      'payments:write',
      'protocol:read',
      'readouts:read',
      'readouts:write',
    ]);
  });
});
