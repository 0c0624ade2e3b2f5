import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import ManageAccountsOutlinedIcon from '@mui/icons-material/ManageAccountsOutlined';
import WaterDropOutlinedIcon from '@mui/icons-material/WaterDropOutlined';
import type { Feature } from '../../lib/feature.ts';

const DashboardPage = () => import('./DashboardPage.tsx');

/** The home page of the Protocol application; its first tile is the operator's own account. */
export const dashboard: Feature = {
  key: 'dashboard',
  routes: [
    { path: '', page: DashboardPage },
    { path: 'dashboard', page: DashboardPage },
  ],
  menu: [
    {
      key: 'dashboard',
      label: 'menu.dashboard',
      path: '/',
      icon: DashboardOutlinedIcon,
      alsoActiveOn: ['/dashboard'],
    },
  ],
  tiles: [
    {
      key: 'account',
      label: 'dashboard.tiles.account',
      description: 'dashboard.tiles.accountDescription',
      path: (user) => `/users/${user.id}/edit`,
      icon: ManageAccountsOutlinedIcon,
      testId: 'dashboard-tile-account',
    },
  ],
  launcher: [
    {
      key: 'protocol',
      label: 'apps.protocol',
      description: 'apps.protocolDescription',
      path: '/',
      icon: WaterDropOutlinedIcon,
    },
  ],
};
