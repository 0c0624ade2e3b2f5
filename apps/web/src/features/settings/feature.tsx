import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import type { Feature } from '../../lib/feature.ts';
import { settingsTables } from './settingsTables.ts';

/** Settings stays the last menu entry (spec §2): the hub at /settings and one screen per table. */
export const settings: Feature = {
  key: 'settings',
  routes: [
    { path: 'settings', page: () => import('./SettingsHubPage.tsx'), requires: 'settings:read' },
    { path: 'settings/:table', page: () => import('./SettingsTablePage.tsx'), requires: 'settings:read' },
  ],
  menu: [
    {
      key: 'settings',
      label: 'menu.settings',
      path: '/settings',
      icon: SettingsOutlinedIcon,
      alsoActiveOn: ['/parametrics', '/settings'],
      requires: 'settings:read',
    },
    ...settingsTables.map(({ code, label, icon }) => ({
      key: `settings-${code}`,
      label,
      path: `/settings/${code}`,
      icon,
      parent: 'settings',
      requires: 'settings:read' as const,
    })),
  ],
};
