import { lazy } from 'react';
import type { Feature } from '../../lib/feature.ts';

/** Background jobs: the top bar's button with its drawer, and /jobs (any signed-in operator). */
export const jobs: Feature = {
  key: 'jobs',
  routes: [{ path: 'jobs', page: () => import('./JobsPage.tsx') }],
  topBar: [{ key: 'jobs', component: lazy(() => import('./JobsButton.tsx')) }],
};
