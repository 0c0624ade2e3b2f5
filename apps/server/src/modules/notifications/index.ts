import { defineModule } from '../../platform/module.ts';
import { notificationsRoutes } from './notifications.routes.ts';

/** The operators' notifications: written by other modules through `api.ts`, read in the top bar and /notifications. */
export const notificationsModule = defineModule({ name: 'notifications', plugin: notificationsRoutes });
