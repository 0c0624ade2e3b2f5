import { defineModule } from '../../platform/module.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { notify } from './notifications.service.ts';

/** The operators' notifications: written by other modules through `api.ts`, read in the top bar and /notifications. */
export const notificationsModule = defineModule({
  name: 'notifications',
  plugin: notificationsRoutes,
  // A job of mine finished or failed: tell me (a cancelled one I cancelled myself).
  onJobSettled: async (tx, job) => {
    if (job.ownerId === null || (job.state !== 'succeeded' && job.state !== 'failed')) return;
    await notify(tx, {
      companyId: job.companyId,
      userIds: [job.ownerId],
      senderId: null,
      messageKey: `jobs.notification.${job.state}`,
      params: { kindKey: `jobs.kind.${job.kind}` },
      entity: 'job',
      entityId: job.id,
    });
  },
});
