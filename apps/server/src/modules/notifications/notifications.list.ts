import { type AppNotification, notificationsCatalog } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { listSource } from '../../platform/list/source.ts';
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
    ...listSource(
      db,
      () => selectNotifications(db).$dynamic(),
      (row) => presentNotification(row, 'el'),
    ),
  });
}
