import BusinessOutlinedIcon from '@mui/icons-material/BusinessOutlined';
import type { Feature } from '../../lib/feature.ts';

/** The company's own settings: the last entry under Settings. */
export const company: Feature = {
  key: 'company',
  routes: [
    { path: 'settings/company', page: () => import('./CompanySettingsPage.tsx'), requires: 'settings:admin' },
  ],
  menu: [
    {
      key: 'company',
      label: 'menu.company',
      path: '/settings/company',
      icon: BusinessOutlinedIcon,
      parent: 'settings',
      requires: 'settings:admin',
    },
  ],
  tiles: [
    {
      key: 'company',
      label: 'dashboard.tiles.company',
      description: 'dashboard.tiles.companyDescription',
      path: () => '/settings/company',
      icon: BusinessOutlinedIcon,
      testId: 'dashboard-tile-company',
      requires: 'settings:admin',
    },
  ],
};
