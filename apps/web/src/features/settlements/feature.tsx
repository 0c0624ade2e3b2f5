import HandshakeOutlinedIcon from '@mui/icons-material/HandshakeOutlined';
import { lazy } from 'react';
import type { Feature } from '../../lib/feature.ts';

/** Settlements of consumers' debts in instalments: list, new, one, categories, card tab. */
export const settlements: Feature = {
  key: 'settlements',
  routes: [
    { path: 'settlements', page: () => import('./SettlementsPage.tsx'), requires: 'settlements:read' },
    { path: 'settlements/new', page: () => import('./NewSettlementPage.tsx'), requires: 'settlements:write' },
    {
      path: 'settlements/categories',
      page: () => import('./CategoriesPage.tsx'),
      requires: 'settlements:read',
    },
    { path: 'settlements/:id', page: () => import('./SettlementPage.tsx'), requires: 'settlements:read' },
  ],
  menu: [
    {
      key: 'settlements',
      label: 'menu.settlements',
      path: '/settlements',
      icon: HandshakeOutlinedIcon,
      parent: 'water',
      requires: 'settlements:read',
      alsoActiveOn: ['/settlements'],
    },
  ],
  consumerTabs: [
    {
      key: 'settlements',
      label: 'menu.settlements',
      requires: 'settlements:read',
      component: lazy(() => import('./ConsumerSettlementsTab.tsx')),
    },
  ],
};
