import {
  errorKeys,
  type Permission,
  type SaveUserGroupRequest,
  type UserGroup,
  userGroupsCatalog,
} from '@protocol/contracts';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { pgError, UNIQUE_VIOLATION } from '../../platform/db-errors.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { defineList } from '../../platform/list/list.ts';
import { companyUsers } from '../companies/companies.schema.ts';
import { userGroupMembers, userGroupPermissions, userGroups } from './groups.schema.ts';
import { users } from './users.schema.ts';

const permissionCount = sql<number>`(SELECT count(*)::int FROM ${userGroupPermissions} WHERE ${userGroupPermissions.groupId} = ${userGroups.id})`;
const memberCount = sql<number>`(SELECT count(*)::int FROM ${userGroupMembers} WHERE ${userGroupMembers.groupId} = ${userGroups.id})`;

/** The user groups list of a company (GET /api/users/groups/search) on the list engine. */
export function groupsList(db: Db) {
  return defineList({
    catalog: userGroupsCatalog,
    columns: {
      name: userGroups.name,
      description: userGroups.description,
      permissionCount,
      memberCount,
    },
    id: userGroups.id,
    fetch: (where, orderBy, limit, offset) =>
      db
        .select({
          id: userGroups.id,
          name: userGroups.name,
          description: userGroups.description,
          permissionCount,
          memberCount,
        })
        .from(userGroups)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset),
    async count(where) {
      const [row] = await db.select({ n: count() }).from(userGroups).where(where);
      return row?.n ?? 0;
    },
  });
}

export const groupsOfCompany = (companyId: number) => eq(userGroups.companyId, companyId);

/** A group of the company in use; any other is 'not found'. */
async function groupRow(db: Db, companyId: number, id: number) {
  const [row] = await db.select().from(userGroups).where(eq(userGroups.id, id));
  if (!row || row.companyId !== companyId) throw notFound();
  return row;
}

export async function getGroup(db: Db, companyId: number, id: number): Promise<UserGroup> {
  const row = await groupRow(db, companyId, id);
  const [permissions, members] = await Promise.all([
    db
      .select({ p: userGroupPermissions.permission })
      .from(userGroupPermissions)
      .where(eq(userGroupPermissions.groupId, id)),
    db.select({ u: userGroupMembers.userId }).from(userGroupMembers).where(eq(userGroupMembers.groupId, id)),
  ]);
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    description: row.description,
    permissions: permissions.map((r) => r.p).sort() as UserGroup['permissions'],
    members: members.map((r) => r.u).sort((a, b) => a - b),
  };
}

/** Members must be operators of the group's company; a super admin is never a member. */
async function checkMembers(db: Db, companyId: number, members: number[]): Promise<void> {
  if (members.length === 0) return;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(companyUsers, and(eq(companyUsers.userId, users.id), eq(companyUsers.companyId, companyId)))
    .where(and(inArray(users.id, members), eq(users.superAdmin, false)));
  if (rows.length !== new Set(members).size) {
    throw new AppError(400, errorKeys.badData, {}, [
      { field: 'members', key: 'validation.invalid', params: {} },
    ]);
  }
}

/** Creates (id null) or changes a group, its permissions and members, in one transaction. */
export async function saveGroup(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number | null,
  request: SaveUserGroupRequest,
  requestId: string,
): Promise<UserGroup> {
  const existing = id === null ? undefined : await groupRow(db, companyId, id);
  await checkMembers(db, companyId, request.members);
  let groupId: number;
  try {
    groupId = await db.transaction(async (tx) => {
      let gid: number;
      if (existing) {
        gid = existing.id;
        await tx
          .update(userGroups)
          .set({ name: request.name, description: request.description, ...updatedBy(principal.username) })
          .where(eq(userGroups.id, gid));
        await tx.delete(userGroupPermissions).where(eq(userGroupPermissions.groupId, gid));
        await tx.delete(userGroupMembers).where(eq(userGroupMembers.groupId, gid));
      } else {
        const [row] = await tx
          .insert(userGroups)
          .values({
            companyId,
            name: request.name,
            description: request.description,
            createuser: principal.username,
          })
          .returning({ id: userGroups.id });
        if (!row) throw new Error('group insert returned nothing');
        gid = row.id;
      }
      const permissions = [...new Set(request.permissions)];
      if (permissions.length > 0) {
        await tx
          .insert(userGroupPermissions)
          .values(permissions.map((permission) => ({ groupId: gid, permission })));
      }
      const members = [...new Set(request.members)];
      if (members.length > 0) {
        await tx.insert(userGroupMembers).values(members.map((userId) => ({ groupId: gid, userId })));
      }
      await recordAudit(tx, {
        entity: 'userGroup',
        entityId: gid,
        action: existing ? 'update' : 'create',
        companyId,
        user: principal,
        changes: {
          permissions: { before: null, after: permissions },
          members: { before: null, after: members },
        },
        requestId,
      });
      return gid;
    });
  } catch (error) {
    if (pgError(error)?.code === UNIQUE_VIOLATION) {
      throw new AppError(409, errorKeys.namesNotUnique, {}, [
        { field: 'name', key: errorKeys.namesNotUnique, params: {} },
      ]);
    }
    throw error;
  }
  return getGroup(db, companyId, groupId);
}

export async function deleteGroups(
  db: Db,
  principal: Principal,
  companyId: number,
  ids: number[],
  requestId: string,
): Promise<void> {
  for (const id of ids) await groupRow(db, companyId, id);
  await db.transaction(async (tx) => {
    await tx.delete(userGroups).where(inArray(userGroups.id, ids));
    for (const id of ids) {
      await recordAudit(tx, {
        entity: 'userGroup',
        entityId: id,
        action: 'delete',
        user: principal,
        requestId,
      });
    }
  });
}

/** The groups an operator belongs to (shown on the operator's page). */
export async function groupsOfUser(
  db: Db,
  userId: number,
): Promise<{ id: number; name: string; companyId: number }[]> {
  return db
    .select({ id: userGroups.id, name: userGroups.name, companyId: userGroups.companyId })
    .from(userGroupMembers)
    .innerJoin(userGroups, eq(userGroups.id, userGroupMembers.groupId))
    .where(eq(userGroupMembers.userId, userId))
    .orderBy(userGroups.name);
}

/** A group created at start-up (demo data): no operator is acting. */
export async function seedGroup(
  tx: Tx,
  companyId: number,
  group: { name: string; description: string; permissions: Permission[]; members: number[] },
): Promise<void> {
  const [row] = await tx
    .insert(userGroups)
    .values({ companyId, name: group.name, description: group.description, createuser: 'system' })
    .returning({ id: userGroups.id });
  if (!row) throw new Error('group insert returned nothing');
  await tx
    .insert(userGroupPermissions)
    .values(group.permissions.map((permission) => ({ groupId: row.id, permission })));
  if (group.members.length > 0) {
    await tx.insert(userGroupMembers).values(group.members.map((userId) => ({ groupId: row.id, userId })));
  }
}
