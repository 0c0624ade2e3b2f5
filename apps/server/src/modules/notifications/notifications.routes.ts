import {
  type AppNotification,
  markedReadSchema,
  markNotificationsReadSchema,
  NOTIFICATION_BELL_SIZE,
  notificationSchema,
  type Page,
  unreadNotificationsSchema,
} from '@protocol/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../platform/auth.ts';
import { requestLanguage } from '../../platform/i18n.ts';
import { registerListRoute } from '../../platform/list/route.ts';
import type { ModuleOptions } from '../../platform/module.ts';
import { idParams } from '../../platform/params.ts';
import { notificationsList } from './notifications.list.ts';
import {
  latestNotifications,
  markOneRead,
  markRead,
  messageOf,
  ownNotifications,
  unreadCount,
} from './notifications.service.ts';

const tags = ['notifications'];
const languageOf = (request: FastifyRequest) =>
  requestLanguage(request.cookies?.locale, request.headers['accept-language']);

/**
 * The operator's own notifications (spec §3, §4, §7): every route is for any signed-in operator and
 * reads or marks only the asker's rows (`ownNotifications`); someone else's is 'not found'.
 */
export const notificationsRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, lists }) => {
  app.get(
    '/notification',
    {
      config: { signedIn: true },
      schema: {
        tags,
        summary: `The asker's ${NOTIFICATION_BELL_SIZE} newest notifications, read or not, in their language`,
        response: { 200: z.array(notificationSchema) },
      },
    },
    async (request) =>
      latestNotifications(db, principalOf(request), languageOf(request), NOTIFICATION_BELL_SIZE),
  );

  app.get(
    '/notification/getUnread',
    {
      config: { signedIn: true },
      schema: {
        tags,
        summary: "How many of the asker's notifications are unread (the bell polls it)",
        response: { 200: unreadNotificationsSchema },
      },
    },
    async (request) => ({ count: await unreadCount(db, principalOf(request)) }),
  );

  app.post(
    '/notification/markAllRead',
    {
      config: { signedIn: true },
      schema: {
        tags,
        summary: "Marks all the asker's notifications read; answers how many were unread",
        response: { 200: markedReadSchema },
      },
    },
    async (request) => ({ updated: await markRead(db, principalOf(request)) }),
  );

  app.post(
    '/notification/markRead',
    {
      config: { signedIn: true },
      schema: {
        tags,
        summary: "Marks the selected notifications read (the list's mass action); others' ids are skipped",
        body: markNotificationsReadSchema,
        response: { 200: markedReadSchema },
      },
    },
    async (request) => ({ updated: await markRead(db, principalOf(request), request.body.ids) }),
  );

  app.post(
    '/notification/:id/markRead',
    {
      config: { signedIn: true },
      schema: {
        tags,
        summary: "Marks one of the asker's notifications read; anyone else's is 'not found'",
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await markOneRead(db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  // The list's rows carry their message in Greek (what exports write): the screen gets the asker's.
  await app.register(async (search) => {
    search.addHook('preSerialization', async (request, _reply, payload: Page<AppNotification>) => {
      const language = languageOf(request);
      if (language === 'el' || !Array.isArray(payload?.content)) return payload;
      return {
        ...payload,
        content: payload.content.map((row) => ({
          ...row,
          message: messageOf(language, row.kind, row.params),
        })),
      };
    });
    registerListRoute(search, lists, {
      path: '/notification/search',
      permission: 'signedIn',
      companyScoped: false,
      list: notificationsList(db),
      scope: ({ principal }) => ownNotifications(principal),
      tags,
      summary: "The asker's notifications on the list engine: filters unread, kind and date",
      item: notificationSchema,
    });
  });
};
