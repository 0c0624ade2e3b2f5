import { randomUUID } from 'node:crypto';
import {
  type AuthenticatedUser,
  type CreateUserRequest,
  errorKeys,
  type UpdateUserRequest,
  type User,
  userKinds,
} from '@protocol/contracts';
import { and, count, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { diff, recordAudit } from '../../platform/audit.ts';
import { auditFieldsOf, updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { pgError, UNIQUE_VIOLATION } from '../../platform/db-errors.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { hashPassword, verifyPassword } from '../../platform/password.ts';
import { addUserToCompany, companiesOfUser, companyIdsOfUser } from '../companies/companies.service.ts';
import { loginFailures, sessions, users } from './users.schema.ts';

type UserRow = typeof users.$inferSelect;

/** Failed sign-ins tolerated within a minute: per user name, and per address across names. */
export const LOGIN_LIMIT_PER_USERNAME = 10;
export const LOGIN_LIMIT_PER_IP = 30;
const LOGIN_WINDOW_SECONDS = 60;

export function toUserDto(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    firstname: row.firstname,
    lastname: row.lastname,
    firstName: row.firstname,
    lastName: row.lastname,
    email: row.email,
    active: row.active,
    superAdmin: row.superAdmin,
    kind: row.kind === userKinds.admin ? 1 : 2,
    scope: row.scope,
    ...auditFieldsOf(row),
  };
}

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`);
  return row;
}

/** The operator with this e-mail, when exactly one has it. */
export async function findUserByUniqueEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(2);
  return rows.length === 1 ? rows[0] : undefined;
}

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
  requestId: string;
}

/** Checks user name and password, with per-name and per-address rate limiting. */
export async function checkCredentials(
  db: Db,
  username: string,
  password: string,
  client: ClientInfo,
): Promise<UserRow> {
  const key = username.toLowerCase();
  const since = sql`now() - make_interval(secs => ${LOGIN_WINDOW_SECONDS})`;
  const [[byName], [byIp]] = await Promise.all([
    db
      .select({ n: count() })
      .from(loginFailures)
      .where(and(eq(loginFailures.username, key), gt(loginFailures.at, since))),
    db
      .select({ n: count() })
      .from(loginFailures)
      .where(and(eq(loginFailures.ip, client.ip), gt(loginFailures.at, since))),
  ]);
  if ((byName?.n ?? 0) >= LOGIN_LIMIT_PER_USERNAME || (byIp?.n ?? 0) >= LOGIN_LIMIT_PER_IP) {
    throw new AppError(429, errorKeys.tooManyAttempts, { seconds: LOGIN_WINDOW_SECONDS });
  }
  const user = await findUserByUsername(db, username);
  const ok = await verifyPassword(password, user?.passwordHash ?? null);
  if (!user || !ok) {
    await db.transaction(async (tx) => {
      await tx.insert(loginFailures).values({ username: key, ip: client.ip });
      // Old failures only matter for the window; keep the table small.
      await tx.delete(loginFailures).where(sql`${loginFailures.at} < now() - interval '1 day'`);
    });
    throw new AppError(401, errorKeys.badCredentials);
  }
  if (!user.active) throw new AppError(401, errorKeys.userInactive);
  return user;
}

/** Opens a session for a signed-in operator; the JWT will name it. */
export async function openSession(
  db: Db,
  user: UserRow,
  client: ClientInfo,
  options: { hours: number; sso: boolean },
): Promise<{ sessionId: string; expiresAt: Date }> {
  const sessionId = randomUUID();
  const expiresAt = new Date(Date.now() + options.hours * 3600_000);
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({
      id: sessionId,
      userId: user.id,
      expiresAt,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 500),
      sso: options.sso,
    });
    await recordAudit(tx, {
      entity: 'user',
      entityId: user.id,
      action: options.sso ? 'login_sso' : 'login',
      user: { userId: user.id, username: user.username },
      requestId: client.requestId,
    });
  });
  return { sessionId, expiresAt };
}

/** The live session with its active operator, in one query; null when revoked, expired or inactive. */
export async function resolveSession(db: Db, sessionId: string, userId: number): Promise<Principal | null> {
  const [row] = await db
    .select({ user: users, sso: sessions.sso })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        eq(users.active, true),
      ),
    );
  if (!row) return null;
  return {
    userId: row.user.id,
    sessionId,
    username: row.user.username,
    kind: row.user.kind === userKinds.admin ? 1 : 2,
    superAdmin: row.user.superAdmin,
    scope: row.user.scope,
    sso: row.sso,
  };
}

export async function closeSession(db: Db, principal: Principal, requestId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, principal.sessionId));
    await recordAudit(tx, {
      entity: 'user',
      entityId: principal.userId,
      action: 'logout',
      user: principal,
      requestId,
    });
  });
}

async function revokeSessionsOf(tx: Tx, userId: number, except?: string): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        except ? ne(sessions.id, except) : undefined,
      ),
    );
}

async function getUserRow(db: Tx, id: number): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw notFound();
  return row;
}

/**
 * Who may see or change whom: oneself; a super admin everyone; an admin the operators of their
 * companies, except super admins (spec §6 messages). Operators of other companies are 'not found'.
 */
async function assertAccess(db: Db, actor: Principal, target: UserRow, write: boolean): Promise<void> {
  if (actor.userId === target.id || actor.superAdmin) return;
  const [mine, theirs] = await Promise.all([
    companyIdsOfUser(db, actor.userId),
    companyIdsOfUser(db, target.id),
  ]);
  if (!theirs.some((id) => mine.includes(id))) throw notFound();
  if (target.superAdmin) throw forbidden(errorKeys.noAccessSuperAdmin);
  if (actor.kind !== userKinds.admin && write) throw forbidden(errorKeys.noAccessUser);
}

export async function getAuthenticatedUser(db: Db, principal: Principal): Promise<AuthenticatedUser> {
  const [row, companies] = await Promise.all([
    getUserRow(db, principal.userId),
    companiesOfUser(db, principal.userId, principal.superAdmin),
  ]);
  return { ...toUserDto(row), companies, sso: principal.sso };
}

export async function getUser(db: Db, actor: Principal, id: number): Promise<User> {
  const row = await getUserRow(db, id);
  await assertAccess(db, actor, row, false);
  return toUserDto(row);
}

export async function updateUser(
  db: Db,
  actor: Principal,
  id: number,
  changes: UpdateUserRequest,
  requestId: string,
): Promise<User> {
  const before = await getUserRow(db, id);
  await assertAccess(db, actor, before, true);
  const changed = <K extends 'active' | 'kind' | 'superAdmin'>(key: K) =>
    changes[key] !== undefined && changes[key] !== before[key];
  const scopeChanged = changes.scope !== undefined && changes.scope.join('\n') !== before.scope.join('\n');
  if (changed('active') || changed('kind') || scopeChanged) {
    // Only admins change these, and never on their own account (no self-promotion, no lock-out).
    if (actor.userId === id || (actor.kind !== userKinds.admin && !actor.superAdmin)) {
      throw forbidden(errorKeys.noAccessUser);
    }
  }
  if (changed('superAdmin') && (!actor.superAdmin || actor.userId === id)) {
    throw forbidden(errorKeys.noAccessSuperAdmin);
  }
  const values = {
    firstname: changes.firstname,
    lastname: changes.lastname,
    email: changes.email === '' ? null : changes.email,
    ...(changes.active === undefined ? {} : { active: changes.active }),
    ...(changes.kind === undefined ? {} : { kind: changes.kind }),
    ...(changes.superAdmin === undefined ? {} : { superAdmin: changes.superAdmin }),
    ...(changes.scope === undefined ? {} : { scope: changes.scope }),
  };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ ...values, ...updatedBy(actor.username) })
      .where(eq(users.id, id))
      .returning();
    if (!row) throw notFound();
    // Deactivating ends every session of the operator at once.
    if (values.active === false) await revokeSessionsOf(tx, id);
    await recordAudit(tx, {
      entity: 'user',
      entityId: id,
      action: 'update',
      user: actor,
      changes: diff(before, values),
      requestId,
    });
    return toUserDto(row);
  });
}

/** Sets a new password; the operator's other sessions end, the caller's own stays. */
export async function changePassword(
  db: Db,
  actor: Principal,
  id: number,
  password: string,
  requestId: string,
): Promise<void> {
  const target = await getUserRow(db, id);
  await assertAccess(db, actor, target, true);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, ...updatedBy(actor.username) })
      .where(eq(users.id, id));
    await revokeSessionsOf(tx, id, actor.userId === id ? actor.sessionId : undefined);
    await recordAudit(tx, {
      entity: 'user',
      entityId: id,
      action: 'change_password',
      user: actor,
      requestId,
    });
  });
}

/** Creates an operator (used by start-up and demo data until the operators screen arrives). */
export async function createUser(
  tx: Tx,
  values: {
    username: string;
    password: string;
    firstname: string;
    lastname: string;
    email?: string;
    kind: 1 | 2;
    superAdmin?: boolean;
    scope?: string[];
  },
  createdBy: string,
  requestId?: string,
): Promise<UserRow> {
  const [row] = await tx
    .insert(users)
    .values({
      username: values.username,
      passwordHash: await hashPassword(values.password),
      firstname: values.firstname,
      lastname: values.lastname,
      email: values.email ?? null,
      kind: values.kind,
      superAdmin: values.superAdmin ?? false,
      scope: values.scope ?? [],
      createuser: createdBy,
    })
    .returning();
  if (!row) throw new Error('user insert returned nothing');
  await recordAudit(tx, {
    entity: 'user',
    entityId: row.id,
    action: 'create',
    user: null,
    comments: `created by ${createdBy}`,
    requestId,
  });
  return row;
}

/** An admin creates an operator, who joins the admin's companies; only a super admin makes super admins. */
export async function registerUser(
  db: Db,
  actor: Principal,
  request: CreateUserRequest,
  requestId: string,
): Promise<User> {
  if (actor.kind !== userKinds.admin && !actor.superAdmin) throw forbidden(errorKeys.noAccessUser);
  if (request.superAdmin && !actor.superAdmin) throw forbidden(errorKeys.noAccessSuperAdmin);
  const companies = await companiesOfUser(db, actor.userId, actor.superAdmin);
  try {
    return await db.transaction(async (tx) => {
      const row = await createUser(
        tx,
        {
          username: request.username,
          password: request.password,
          firstname: request.firstname,
          lastname: request.lastname,
          email: request.email || undefined,
          kind: request.kind,
          superAdmin: request.superAdmin,
          scope: request.scope,
        },
        actor.username,
        requestId,
      );
      if (!request.active) await tx.update(users).set({ active: false }).where(eq(users.id, row.id));
      // A super admin works for every company already; others give the new operator their own.
      const joined = actor.superAdmin ? companies.slice(0, 1) : companies;
      for (const company of joined) await addUserToCompany(tx, company.id, row.id);
      return toUserDto({ ...row, active: request.active });
    });
  } catch (error) {
    if (pgError(error)?.code === UNIQUE_VIOLATION) {
      throw new AppError(409, errorKeys.usernameTaken, {}, [
        { field: 'username', key: errorKeys.usernameTaken, params: {} },
      ]);
    }
    throw error;
  }
}

/** Operators are never deleted (spec §6): they are deactivated instead. */
export function refuseUserDeletion(): never {
  throw forbidden(errorKeys.deleteUsersForbidden);
}
