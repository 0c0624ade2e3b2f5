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
import TableChartOutlinedIcon from '@mui/icons-material/TableChartOutlined';
import type { Icon } from '../../lib/feature.ts';

/**
 * The settings tables in menu order: the route code (/settings/{code}), the menu label's catalog
 * key and the icon. Small data read by both the menu (feature.tsx, loaded with the shell) and the
 * screens (registry.ts, which brings the tables' catalogs and components and stays lazy).
 */
export const settingsTables = [
  // The protocol's tables first, after Parametrics (the protocol books).
  { code: 'document_types', label: 'menu.documentTypes', icon: DescriptionOutlinedIcon },
  { code: 'subject_categories', label: 'menu.subjectCategories', icon: LabelOutlinedIcon },
  { code: 'case_types', label: 'menu.caseTypes', icon: FolderSpecialOutlinedIcon },
  { code: 'banks', label: 'menu.banks', icon: AccountBalanceOutlinedIcon },
  { code: 'vat_percentages', label: 'menu.vatPercentages', icon: PercentOutlinedIcon },
  { code: 'vat_categories', label: 'menu.vatCategories', icon: CategoryOutlinedIcon },
  { code: 'vat_statuses', label: 'menu.vatStatuses', icon: HowToRegOutlinedIcon },
  { code: 'departments', label: 'menu.departments', icon: AccountTreeOutlinedIcon },
  { code: 'addresses', label: 'menu.addresses', icon: PlaceOutlinedIcon },
  { code: 'custom_tables', label: 'menu.customTables', icon: TableChartOutlinedIcon },
  { code: 'custom_fields', label: 'menu.customFields', icon: ListAltOutlinedIcon },
  { code: 'periodicity', label: 'menu.periodicity', icon: EventRepeatOutlinedIcon },
  { code: 'general_settings', label: 'menu.generalSettings', icon: SettingsApplicationsOutlinedIcon },
] as const satisfies readonly { code: string; label: string; icon: Icon }[];

export type SettingsTableCode = (typeof settingsTables)[number]['code'];
