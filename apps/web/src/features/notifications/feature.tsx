import { lazy } from 'react';
import type { Feature } from '../../lib/feature.ts';

/** /notifications: all the operator's notifications (spec §2); the bell in the top bar links to it. */
export const notifications: Feature = {
  key: 'notifications',
  dashboardCards: [
    {
      key: 'unreadNotifications',
      reads: 'unreadNotifications',
      order: 30,
      component: lazy(() => import('./dashboard/UnreadCard.tsx')),
    },
  ],
  routes: [{ path: 'notifications', page: () => import('./NotificationsPage.tsx') }],
};
