import { randomUUID } from 'node:crypto';
import {
  type AuthenticatedUser,
  type CreateUserRequest,
  effectiveScope,
  errorKeys,
  hasPermission,
  type UpdateUserRequest,
  type User,
  userKinds,
} from '@protocol/contracts';
import { and, eq, isNull, ne, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { type JsonRow, jsonRowOf, preparedStatement, rowOf } from '../../db/prepared.ts';
import { auditInsert, diff, recordAudit } from '../../platform/audit.ts';
import { auditFieldsOf, updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { pgError, UNIQUE_VIOLATION } from '../../platform/db-errors.ts';
import { AppError, badRequest, forbidden, notFound, tooManyAttempts } from '../../platform/errors.ts';
import { hashPassword, verifyPassword } from '../../platform/password.ts';
import { addUserToCompany, companiesOfUser, companyIdsOfUser } from '../companies/api.ts';
import { userGroupMembers, userGroupPermissions } from './groups.schema.ts';
import { groupsOfUser } from './groups.service.ts';
import { loginFailures, sessions, users } from './users.schema.ts';

type UserRow = typeof users.$inferSelect;

/** Failed sign-ins tolerated within a minute: per user name, and per address across names. */
export const LOGIN_LIMIT_PER_USERNAME = 10;
export const LOGIN_LIMIT_PER_IP = 30;
const LOGIN_WINDOW_SECONDS = 60;

/** An operator with the effective permissions of their groups and kind, and the groups themselves. */
async function describeUser(db: Db, row: UserRow): Promise<User> {
  const [granted, groups] = await Promise.all([
    db
      .selectDistinct({ p: userGroupPermissions.permission })
      .from(userGroupMembers)
      .innerJoin(userGroupPermissions, eq(userGroupPermissions.groupId, userGroupMembers.groupId))
      .where(eq(userGroupMembers.userId, row.id)),
    groupsOfUser(db, row.id),
  ]);
  const scope = effectiveScope(
    granted.map((g) => g.p),
    row.kind,
    row.superAdmin,
  );
  return toUserDto(row, scope, groups);
}

export function toUserDto(row: UserRow, scope: string[], groups: User['groups']): User {
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
    scope,
    groups,
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

/**
 * Checks user name and password, with rate limits on failures. The per-name limit is strict: past
 * it even the right password waits, so a name cannot be guessed. The per-address limit stops only
 * failing attempts: colleagues behind one address (a town hall's NAT) still sign in. The attempt is
 * counted and recorded as a failure before the password is verified, atomically with the check
 * (`login_attempt`, migration 0040), so attempts arriving at once cannot all pass the check before
 * any of them is recorded; `openSession` deletes the record of a sign-in that succeeds.
 */
export async function checkCredentials(
  db: Db,
  username: string,
  password: string,
  client: ClientInfo,
): Promise<{ user: UserRow; attempt: number }> {
  const [found] = await credentialsOf<{
    byName: Failures;
    byIp: Failures;
    reserved: string | null;
    user: JsonRow | null;
  }>(db, { key: username.toLowerCase(), username, ip: client.ip });
  const wait = (failures: Failures | undefined) => Math.max(1, Number(failures?.retryAfter ?? 1));
  if (!found?.reserved) throw tooManyAttempts(wait(found?.byName));
  const attempt = Number(found.reserved);
  const user = found.user ? rowOf<UserRow>(users, found.user) : undefined;
  const ok = await verifyPassword(password, user?.passwordHash ?? null);
  if (!user || !ok) {
    // The attempt stays recorded; old failures only matter for the window: keep the table small.
    await db.delete(loginFailures).where(sql`${loginFailures.at} < now() - interval '1 day'`);
    if (found.byIp.n >= LOGIN_LIMIT_PER_IP) throw tooManyAttempts(wait(found.byIp));
    throw new AppError(401, errorKeys.badCredentials);
  }
  if (!user.active) {
    // The right password of an inactive operator is no failure.
    await db.delete(loginFailures).where(eq(loginFailures.id, attempt));
    throw new AppError(401, errorKeys.userInactive);
  }
  return { user, attempt };
}

/** Failures in the window and the seconds until the oldest leaves it (when the next attempt may pass). */
type Failures = { n: number; retryAfter: number | null };

/**
 * A sign-in's first statement, prepared (every sign-in runs it): the attempt counted and reserved
 * against the name and the address (`login_attempt`), and the operator of that name (lower-cased, as
 * stored unique).
 */
const credentialsOf = preparedStatement(
  () => sql`SELECT a."byName", a."byIp", a.reserved::text AS reserved,
      (SELECT ${jsonRowOf(users, 'u')} FROM ${users} u WHERE lower(u.username) = lower(${sql.placeholder('username')}::text)) AS "user"
    FROM login_attempt(${sql.placeholder('key')}::text, ${sql.placeholder('ip')}::text,
      ${sql.raw(String(LOGIN_LIMIT_PER_USERNAME))}, ${sql.raw(String(LOGIN_WINDOW_SECONDS))}) AS a`,
);

/**
 * The session row and its audit line, written by one prepared statement (every sign-in runs it). Its
 * commit does not wait for the WAL to reach the disk (the flush cost more than everything else of a
 * sign-in but the hash): should PostgreSQL crash in the fraction of a second before it does, the row
 * and its audit line are lost together and the token naming the session is refused, so the operator
 * signs in again. Nothing is let in that should not be.
 */
const sessionOpening = preparedStatement(
  (db) => sql`WITH opened AS (${db
    .insert(sessions)
    .values({
      id: sql.placeholder('sessionId'),
      userId: sql.placeholder('userId'),
      expiresAt: sql`${sql.placeholder('expiresAt')}::timestamptz`,
      ip: sql.placeholder('ip'),
      userAgent: sql.placeholder('userAgent'),
      sso: sql.placeholder('sso'),
    })
    .getSQL()}), audited AS (${auditInsert(db, [
    {
      entity: 'user',
      entityId: sql`${sql.placeholder('userId')}::text`,
      action: sql.placeholder('action'),
      userId: sql.placeholder('userId'),
      username: sql.placeholder('username'),
      requestId: sql.placeholder('requestId'),
    },
  ]).getSQL()}), succeeded AS (${db
    .delete(loginFailures)
    .where(eq(loginFailures.id, sql`${sql.placeholder('attempt')}::bigint`))
    .getSQL()})
  SELECT set_config('synchronous_commit', 'off', true)`,
);

/**
 * Opens a session for a signed-in operator; the JWT will name it. `attempt`, the sign-in's record
 * from `checkCredentials`, is deleted in the same statement: a sign-in that succeeds is no failure.
 */
export async function openSession(
  db: Db,
  user: UserRow,
  client: ClientInfo,
  options: { hours: number; sso: boolean; attempt?: number },
): Promise<{ sessionId: string; expiresAt: Date }> {
  const sessionId = randomUUID();
  const expiresAt = new Date(Date.now() + options.hours * 3600_000);
  await sessionOpening(db, {
    sessionId,
    userId: user.id,
    expiresAt: expiresAt.toISOString(),
    ip: client.ip,
    userAgent: client.userAgent?.slice(0, 500) ?? null,
    sso: options.sso,
    action: options.sso ? 'login_sso' : 'login',
    username: user.username,
    requestId: client.requestId,
    attempt: options.attempt ?? null,
  });
  return { sessionId, expiresAt };
}

/**
 * The live session with its active operator, the permissions of their groups and their companies
 * (the database's `live_session`, migration 0038); no row when revoked, expired or the operator is
 * inactive. `fingerprint` sums all of it up: a statement on behalf of a session remembered by a node
 * compares it (`session_held`), and a function keeps its plan, so that check costs a statement little.
 */
const liveSession = preparedStatement(
  () => sql`SELECT * FROM live_session(${sql.placeholder('sessionId')}, ${sql.placeholder('userId')})`,
);

const held = (sessionId: SQLWrapper, userId: SQLWrapper, fingerprint: SQLWrapper) =>
  sql`session_held(${sessionId}::text, ${userId}::int, ${fingerprint}::text)`;

/**
 * For a statement that writes on behalf of a principal: true when the principal was just read from
 * the database, or when the session it was remembered from is still live and unchanged (same
 * operator, permissions and companies). Its placeholders: `sessionId`, `userId`, `sessionFingerprint`
 * (null for a principal just read); `sessionValues` gives them.
 */
export const sessionHolds = () =>
  sql`(${sql.placeholder('sessionFingerprint')}::text IS NULL OR ${held(
    sql.placeholder('sessionId'),
    sql.placeholder('userId'),
    sql.placeholder('sessionFingerprint'),
  )})`;

/**
 * For a statement that reads on behalf of a principal its node remembered: true while the session is
 * still live and unchanged, so the read answers nothing once it is not, and the caller confirms the
 * session (auth.ts). A one-time filter: PostgreSQL evaluates it once per statement.
 */
export const sessionHeld = (principal: Principal): SQL =>
  held(sql`${principal.sessionId}`, sql`${principal.userId}`, sql`${principal.fingerprint ?? null}`);

export const sessionValues = (principal: Principal) => ({
  sessionId: principal.sessionId,
  userId: principal.userId,
  sessionFingerprint: principal.remembered ? principal.fingerprint : null,
});

export async function resolveSession(db: Db, sessionId: string, userId: number): Promise<Principal | null> {
  const [row] = await liveSession<{
    id: number;
    username: string;
    kind: number;
    superAdmin: boolean;
    sso: boolean;
    granted: string[];
    companyIds: number[];
    fingerprint: string;
  }>(db, { sessionId, userId });
  if (!row) return null;
  const kind = row.kind === userKinds.admin ? 1 : 2;
  return {
    userId: row.id,
    sessionId,
    username: row.username,
    kind,
    superAdmin: row.superAdmin,
    scope: effectiveScope(row.granted, kind, row.superAdmin),
    companyIds: row.companyIds.map(Number),
    sso: row.sso,
    fingerprint: row.fingerprint,
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
 * Who may see or change whom: oneself; a super admin everyone; with users:read / users:write the
 * operators of one's companies, except super admins (spec §6 messages). Operators of other
 * companies are 'not found'.
 */
async function assertAccess(db: Db, actor: Principal, target: UserRow, write: boolean): Promise<void> {
  if (actor.userId === target.id || actor.superAdmin) return;
  const theirs = await companyIdsOfUser(db, target.id);
  // An operator is not one company's record: the users screen lists those of all the actor's
  // companies (`usersVisibleTo`), so the card follows the same rule, not the company in use.
  if (!theirs.some((id) => actor.companyIds.includes(id))) throw notFound();
  if (target.superAdmin) throw forbidden(errorKeys.noAccessSuperAdmin);
  if (write && !hasPermission(actor.scope, 'users:write')) throw forbidden(errorKeys.noAccessUser);
  if (!write && !hasPermission(actor.scope, 'users:read')) throw forbidden(errorKeys.noAccessUser);
}

export async function getAuthenticatedUser(db: Db, principal: Principal): Promise<AuthenticatedUser> {
  const [row, companies] = await Promise.all([
    getUserRow(db, principal.userId),
    companiesOfUser(db, principal.userId, principal.superAdmin),
  ]);
  const groups = await groupsOfUser(db, principal.userId);
  return { ...toUserDto(row, principal.scope, groups), companies, sso: principal.sso };
}

export async function getUser(db: Db, actor: Principal, id: number): Promise<User> {
  const row = await getUserRow(db, id);
  await assertAccess(db, actor, row, false);
  return describeUser(db, row);
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
  if (changed('active') || changed('kind')) {
    // Only who manages operators changes these, never on their own account (no self-promotion, no lock-out).
    if (actor.userId === id || !hasPermission(actor.scope, 'users:write')) {
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
  };
  return db
    .transaction(async (tx) => {
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
      return row;
    })
    .then((row) => describeUser(db, row));
}

/** Sets a new password; the operator's other sessions end, the caller's own stays. */
export async function changePassword(
  db: Db,
  actor: Principal,
  id: number,
  { password, currentPassword }: { password: string; currentPassword?: string | undefined },
  requestId: string,
): Promise<void> {
  const target = await getUserRow(db, id);
  await assertAccess(db, actor, target, true);
  // One's own password needs the current one (a stolen session is not enough); an administrator
  // resetting someone else's does not, and the audit trail records who did it.
  const own = actor.userId === id;
  if (own && target.passwordHash !== null) {
    const field = (key: string) => [{ field: 'currentPassword', key, params: {} }];
    if (!currentPassword) throw badRequest(field('validation.required'));
    if (!(await verifyPassword(currentPassword, target.passwordHash))) {
      throw new AppError(400, errorKeys.noPasswordVerification, {}, field(errorKeys.noPasswordVerification));
    }
  }
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
      action: own ? 'change_password' : 'reset_password',
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

/** An admin creates an operator of a company; only a super admin makes super admins. */
export async function registerUser(
  db: Db,
  actor: Principal,
  companyId: number,
  request: CreateUserRequest,
  requestId: string,
): Promise<User> {
  return describeUser(db, await insertOperator(db, actor, companyId, request, requestId));
}

/** The new operator works for the company the admin is working in. */
async function insertOperator(
  db: Db,
  actor: Principal,
  companyId: number,
  request: CreateUserRequest,
  requestId: string,
): Promise<UserRow> {
  if (request.superAdmin && !actor.superAdmin) throw forbidden(errorKeys.noAccessSuperAdmin);
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
        },
        actor.username,
        requestId,
      );
      if (!request.active) await tx.update(users).set({ active: false }).where(eq(users.id, row.id));
      await addUserToCompany(tx, companyId, row.id);
      return { ...row, active: request.active };
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
