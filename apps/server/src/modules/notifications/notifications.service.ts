import type { Tx } from '../../db/client.ts';
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
