import { type AppNotification, notificationsCatalog } from '@protocol/contracts';
import { count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { users } from '../users/users.schema.ts';
import { notifications } from './notifications.schema.ts';
import { presentNotification, selectNotifications, senderNameSql } from './notifications.service.ts';

/**
 * The /notifications list (GET /api/notification/search) on the list engine. Its rows carry the
 * message in Greek, the default language, as exports write it; the route answers it in the asker's.
 */
export function notificationsList(db: Db) {
  return defineList<AppNotification>({
    catalog: notificationsCatalog,
    columns: {
      createDate: notifications.createdAt,
      kind: notifications.messageKey,
      senderName: senderNameSql,
      comments: notifications.comments,
      read: sql`(${notifications.readAt} IS NOT NULL)`,
    },
    id: notifications.id,
    async fetch(where, orderBy, limit, offset) {
      const rows = await selectNotifications(db)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset);
      return rows.map((row) => presentNotification(row, 'el'));
    },
    async count(where) {
      const [row] = await db
        .select({ n: count() })
        .from(notifications)
        .leftJoin(users, eq(users.id, notifications.senderId))
        .where(where);
      return row?.n ?? 0;
    },
  });
}
