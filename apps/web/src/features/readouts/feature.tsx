import SpeedOutlinedIcon from '@mui/icons-material/SpeedOutlined';
import { lazy } from 'react';
import type { Feature } from '../../lib/feature.ts';

/** Readouts: the reading periods of the routes, their entry, review and close. */
export const readouts: Feature = {
  key: 'readouts',
  routes: [
    { path: 'readouts', page: () => import('./ReadoutsPage.tsx'), requires: 'readouts:read' },
    // The meter reader's phone: one meter at a time, offline too (an installable web app).
    { path: 'readouts/field', page: () => import('./FieldPage.tsx'), requires: 'readouts:read' },
  ],
  menu: [
    {
      key: 'readouts',
      label: 'menu.readouts',
      path: '/readouts',
      icon: SpeedOutlinedIcon,
      parent: 'water',
      requires: 'readouts:read',
    },
  ],
  consumerTabs: [
    {
      key: 'readouts',
      label: 'menu.readouts',
      requires: 'readouts:read',
      component: lazy(() => import('./ConsumerReadoutsTab.tsx')),
    },
  ],
};
