import type { AppNotification, Language } from '@protocol/contracts';
import { and, count, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { Principal } from '../../platform/auth.ts';
import { notFound } from '../../platform/errors.ts';
import { translate } from '../../platform/i18n.ts';
import { users } from '../users/users.schema.ts';
import { notifications } from './notifications.schema.ts';

export interface Notification {
  companyId: number | null;
  /** The recipients; the sender is skipped and each operator gets one row. */
  userIds: readonly number[];
  senderId: number | null;
  /** A catalog key, translated when shown, with its params. */
  messageKey: string;
  params?: Record<string, string | number>;
  entity?: string | null;
  entityId?: number | null;
  comments?: string | null;
}

/**
 * Stores a notification for each recipient in the caller's transaction, so it exists exactly when
 * the action that caused it commits. Returns how many rows were written.
 */
export async function notify(tx: Tx, notification: Notification): Promise<number> {
  const insert = notificationInsert(tx, notification);
  if (!insert) return 0;
  await insert;
  return recipientsOf(notification).length;
}

const recipientsOf = (notification: Notification) =>
  [...new Set(notification.userIds)].filter((id) => id !== notification.senderId);

/**
 * The INSERT of a notification's rows, not run (undefined when nobody is to be told): a caller makes
 * it part of the statement that causes it.
 */
export function notificationInsert(tx: Tx, notification: Notification) {
  const recipients = recipientsOf(notification);
  if (recipients.length === 0) return undefined;
  return tx.insert(notifications).values(
    recipients.map((userId) => ({
      companyId: notification.companyId,
      userId,
      senderId: notification.senderId,
      messageKey: notification.messageKey,
      params: notification.params ?? {},
      entity: notification.entity ?? null,
      entityId: notification.entityId ?? null,
      comments: notification.comments ?? null,
    })),
  );
}

/**
 * The page each kind of entity opens (language-neutral, as the web's routes): a module whose
 * notifications are about its own entities adds its line.
 */
const entityPaths: Record<string, (id: number) => string> = {
  document: (id) => `/document/${id}/edit`,
  job: () => '/jobs',
  submission: (id) => `/online_forms/submissions/${id}`,
};

/**
 * A notification's text in a language. A param named `…Key` is itself a catalog key (a job's kind),
 * translated first, so the stored row stays language-neutral.
 */
export function messageOf(language: Language, kind: string, params: Record<string, string | number>): string {
  const resolved = Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      name.endsWith('Key') && typeof value === 'string' ? translate(language, value) : value,
    ]),
  );
  return translate(language, kind, resolved);
}

export const pathOf = (entity: string | null, entityId: number | null): string | null =>
  entity !== null && entityId !== null ? (entityPaths[entity]?.(entityId) ?? null) : null;

/**
 * What an operator may see of the notifications: their own, of the companies they still work for
 * (or of no company, e.g. a job of theirs), so leaving a company also hides what came from it.
 */
export const ownNotifications = (principal: Principal): SQL =>
  and(
    eq(notifications.userId, principal.userId),
    or(isNull(notifications.companyId), inArray(notifications.companyId, principal.companyIds)),
  ) as SQL;

/** The sender as the list sorts and filters it: last name, first name (null without a sender). */
export const senderNameSql = sql<
  string | null
>`CASE WHEN ${users.id} IS NULL THEN NULL ELSE concat_ws(' ', ${users.lastname}, ${users.firstname}) END`;

export const notificationColumns = {
  id: notifications.id,
  kind: notifications.messageKey,
  params: notifications.params,
  firstname: users.firstname,
  lastname: users.lastname,
  senderName: senderNameSql,
  createdAt: notifications.createdAt,
  comments: notifications.comments,
  entity: notifications.entity,
  entityId: notifications.entityId,
  companyId: notifications.companyId,
  readAt: notifications.readAt,
};

export const selectNotifications = (db: Db | Tx) =>
  db.select(notificationColumns).from(notifications).leftJoin(users, eq(users.id, notifications.senderId));
type StoredNotification = Awaited<ReturnType<typeof selectNotifications>>[number];

/** A stored row as the API answers it, its message in `language`. */
export function presentNotification(row: StoredNotification, language: Language): AppNotification {
  return {
    id: row.id,
    kind: row.kind,
    params: row.params,
    message: messageOf(language, row.kind, row.params),
    // A deleted sender leaves the notification without one (ON DELETE SET NULL).
    sender: row.senderName === null ? null : { firstName: row.firstname ?? '', lastName: row.lastname ?? '' },
    senderName: row.senderName,
    createDate: row.createdAt.toISOString(),
    comments: row.comments,
    entity: row.entity,
    entityId: row.entityId,
    path: pathOf(row.entity, row.entityId),
    companyId: row.companyId,
    read: row.readAt !== null,
  };
}

/** The asker's newest notifications, read or not (the bell's list). */
export async function latestNotifications(
  db: Db,
  principal: Principal,
  language: Language,
  limit: number,
): Promise<AppNotification[]> {
  const rows = await selectNotifications(db)
    .where(ownNotifications(principal))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
  return rows.map((row) => presentNotification(row, language));
}

export async function unreadCount(db: Db, principal: Principal): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(ownNotifications(principal), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/**
 * Marks the asker's notifications among `ids` (all of them without ids) read; those already read
 * keep when they were read. Returns how many of the asker's notifications it named.
 */
export async function markRead(db: Db, principal: Principal, ids?: readonly number[]): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`COALESCE(${notifications.readAt}, now())` })
    .where(
      and(
        ownNotifications(principal),
        ids ? inArray(notifications.id, [...ids]) : isNull(notifications.readAt),
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
}

/** Marks one of the asker's notifications read; someone else's (or none) is 'not found'. */
export async function markOneRead(db: Db, principal: Principal, id: number): Promise<void> {
  if ((await markRead(db, principal, [id])) === 0) throw notFound();
}
