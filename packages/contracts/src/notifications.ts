import { z } from 'zod';
import { idSchema } from './db.ts';
import type { EntityCatalog } from './list.ts';

/** Spec §9: the unread count is polled every 60 s; an installation may set another interval. */
export const NOTIFICATION_POLL_MS = 60_000;
/** Spec §9: the badge shows '9+' above 9. */
export const NOTIFICATION_BADGE_MAX = 9;
/** How many of the newest notifications the bell's list shows; /notifications has them all. */
export const NOTIFICATION_BELL_SIZE = 20;

/**
 * The kinds of notification: the catalog key of each source's message (the `kind` filter). A module
 * that sends a new kind adds its key here, with its label in the lists catalog.
 */
export const notificationKinds = [
  'documents.notification.charged',
  'documents.notification.shared',
  'documents.notification.returned',
  'jobs.notification.succeeded',
  'jobs.notification.failed',
  'onlineForms.notification.submission_received',
  'onlineForms.notification.submission_assigned',
] as const;

/** Spec §3 Notification: message, sender, createDate, comments; and what it is about, and whether read. */
export const notificationSchema = z.object({
  id: idSchema,
  /** The source's catalog key (the kind) and its params; `message` is their text in the asker's language. */
  kind: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  message: z.string(),
  sender: z.object({ firstName: z.string(), lastName: z.string() }).nullable(),
  /** The sender as the list shows and sorts it: last name, first name. */
  senderName: z.string().nullable(),
  createDate: z.string(),
  comments: z.string().nullable(),
  entity: z.string().nullable(),
  entityId: z.number().int().nullable(),
  /** The page of what it is about, e.g. /document/12/edit (language-neutral); null when none. */
  path: z.string().nullable(),
  /**
   * The company it came from (null for none, e.g. a job's): its page is opened in that company, as a
   * record is found in the company in use only.
   */
  companyId: idSchema.nullable(),
  read: z.boolean(),
});
export type AppNotification = z.infer<typeof notificationSchema>;

export const unreadNotificationsSchema = z.object({ count: z.number().int().min(0) });
export const markNotificationsReadSchema = z.object({ ids: z.array(idSchema).min(1).max(10_000) });
export const markedReadSchema = z.object({ updated: z.number().int().min(0) });

/** The /notifications list (GET /api/notification/search): filters unread, kind and date. */
export const notificationsCatalog = {
  entity: 'notifications',
  titleKey: 'notifications.title',
  defaultSort: { field: 'createDate', desc: true },
  fields: [
    {
      id: 'createDate',
      type: 'date',
      labelKey: 'notifications.field.createDate',
      sortable: true,
      filters: ['eq', 'gte', 'lte'],
      exportable: true,
      width: 170,
    },
    {
      id: 'read',
      type: 'boolean',
      labelKey: 'notifications.field.read',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 150,
    },
    {
      id: 'kind',
      type: 'enum',
      labelKey: 'notifications.field.kind',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: notificationKinds.map((value) => ({
        value,
        labelKey: `notifications.kind.${value.split('.').pop()}`,
      })),
      width: 170,
    },
    {
      id: 'message',
      type: 'text',
      labelKey: 'notifications.field.message',
      sortable: false,
      filters: [],
      exportable: true,
      width: 340,
    },
    {
      id: 'senderName',
      type: 'text',
      labelKey: 'notifications.field.sender',
      sortable: true,
      filters: ['contains'],
      exportable: true,
      searchable: true,
      width: 200,
    },
    {
      id: 'comments',
      type: 'text',
      labelKey: 'notifications.field.comments',
      sortable: false,
      filters: ['contains'],
      exportable: true,
      searchable: true,
      notes: true,
    },
  ],
} as const satisfies EntityCatalog;
