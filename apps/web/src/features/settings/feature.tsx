import AccountBalanceOutlinedIcon from '@mui/icons-material/AccountBalanceOutlined';
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import CategoryOutlinedIcon from '@mui/icons-material/CategoryOutlined';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import EventRepeatOutlinedIcon from '@mui/icons-material/EventRepeatOutlined';
import FolderSpecialOutlinedIcon from '@mui/icons-material/FolderSpecialOutlined';
import HowToRegOutlinedIcon from '@mui/icons-material/HowToRegOutlined';
import LabelOutlinedIcon from '@mui/icons-material/LabelOutlined';
import ListAltOutlinedIcon from '@mui/icons-material/ListAltOutlined';
import PercentOutlinedIcon from '@mui/icons-material/PercentOutlined';
import PlaceOutlinedIcon from '@mui/icons-material/PlaceOutlined';
import SettingsApplicationsOutlinedIcon from '@mui/icons-material/SettingsApplicationsOutlined';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import TableChartOutlinedIcon from '@mui/icons-material/TableChartOutlined';
import type { Feature, Icon } from '../../app/feature.ts';

/**
 * The settings tables of the menu: route code, menu label key, icon. Their screens are in
 * registry.ts, which the menu must not load (it brings the tables' catalogs).
 */
const TABLES: [string, string, Icon][] = [
  ['document_types', 'documentTypes', DescriptionOutlinedIcon],
  ['subject_categories', 'subjectCategories', LabelOutlinedIcon],
  ['case_types', 'caseTypes', FolderSpecialOutlinedIcon],
  ['banks', 'banks', AccountBalanceOutlinedIcon],
  ['vat_percentages', 'vatPercentages', PercentOutlinedIcon],
  ['vat_categories', 'vatCategories', CategoryOutlinedIcon],
  ['vat_statuses', 'vatStatuses', HowToRegOutlinedIcon],
  ['departments', 'departments', AccountTreeOutlinedIcon],
  ['addresses', 'addresses', PlaceOutlinedIcon],
  ['custom_tables', 'customTables', TableChartOutlinedIcon],
  ['custom_fields', 'customFields', ListAltOutlinedIcon],
  ['periodicity', 'periodicity', EventRepeatOutlinedIcon],
  ['general_settings', 'generalSettings', SettingsApplicationsOutlinedIcon],
];

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
    ...TABLES.map(([code, label, icon]) => ({
      key: `settings-${code}`,
      label: `menu.${label}`,
      path: `/settings/${code}`,
      icon,
      parent: 'settings',
      requires: 'settings:read' as const,
    })),
  ],
};
