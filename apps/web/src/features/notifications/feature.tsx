import type { Feature } from '../../app/feature.ts';

/** /notifications: all the operator's notifications (spec §2); the bell in the top bar links to it. */
export const notifications: Feature = {
  key: 'notifications',
  routes: [{ path: 'notifications', page: () => import('./NotificationsPage.tsx') }],
};
