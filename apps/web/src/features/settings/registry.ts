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
import {
  addressesCatalog,
  banksCatalog,
  caseTypesCatalog,
  customFieldsCatalog,
  customTablesCatalog,
  departmentsCatalog,
  documentTypesCatalog,
  type EntityCatalog,
  generalSettingsCatalog,
  periodicityCatalog,
  subjectCategoriesCatalog,
  vatCategoriesCatalog,
  vatPercentagesCatalog,
  vatStatusesCatalog,
} from '@protocol/contracts';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** A settings screen at /settings/{code}: a row table with an export menu over its /search list. */
export interface SettingsScreen {
  code: string;
  /** Catalog key of the title (the list's, shared with the exports). */
  titleKey: string;
  descriptionKey: string;
  icon: ComponentType;
  /** The list the exports run (POST /api/export with this uri). */
  searchUri: string;
  catalog: EntityCatalog;
  component: LazyExoticComponent<ComponentType>;
}

const screen = (
  code: string,
  catalog: EntityCatalog,
  icon: ComponentType,
  searchUri: string,
  component: LazyExoticComponent<ComponentType>,
): SettingsScreen => ({
  code,
  titleKey: catalog.titleKey,
  descriptionKey: `settings.screens.${catalog.entity}.description`,
  icon,
  searchUri,
  catalog,
  component,
});

/** The settings screens in menu order; each table is its own chunk. */
export const settingsScreens: SettingsScreen[] = [
  // The protocol's tables first, after Parametrics (the protocol books).
  screen(
    'document_types',
    documentTypesCatalog,
    DescriptionOutlinedIcon,
    '/api/protocol/document_types/search',
    lazy(() => import('./tables/DocumentTypesTable.tsx')),
  ),
  screen(
    'subject_categories',
    subjectCategoriesCatalog,
    LabelOutlinedIcon,
    '/api/protocol/subject_categories/search',
    lazy(() => import('./tables/SubjectCategoriesTable.tsx')),
  ),
  screen(
    'case_types',
    caseTypesCatalog,
    FolderSpecialOutlinedIcon,
    '/api/protocol/case_types/search',
    lazy(() => import('./tables/CaseTypesTable.tsx')),
  ),
  screen(
    'banks',
    banksCatalog,
    AccountBalanceOutlinedIcon,
    '/api/settings/banks/search',
    lazy(() => import('./tables/BanksTable.tsx')),
  ),
  screen(
    'vat_percentages',
    vatPercentagesCatalog,
    PercentOutlinedIcon,
    '/api/settings/vat_percentages/search',
    lazy(() => import('./tables/VatPercentagesTable.tsx')),
  ),
  screen(
    'vat_categories',
    vatCategoriesCatalog,
    CategoryOutlinedIcon,
    '/api/settings/vat_categories/search',
    lazy(() => import('./tables/VatCategoriesTable.tsx')),
  ),
  screen(
    'vat_statuses',
    vatStatusesCatalog,
    HowToRegOutlinedIcon,
    '/api/settings/vat_statuses/search',
    lazy(() => import('./tables/VatStatusesTable.tsx')),
  ),
  screen(
    'departments',
    departmentsCatalog,
    AccountTreeOutlinedIcon,
    '/api/settings/departments/search',
    lazy(() => import('./tables/DepartmentsTable.tsx')),
  ),
  screen(
    'addresses',
    addressesCatalog,
    PlaceOutlinedIcon,
    '/api/settings/addresses/search',
    lazy(() => import('./tables/AddressesTable.tsx')),
  ),
  screen(
    'custom_tables',
    customTablesCatalog,
    TableChartOutlinedIcon,
    '/api/settings/custom_tables/search',
    lazy(() => import('./tables/CustomTablesTable.tsx')),
  ),
  screen(
    'custom_fields',
    customFieldsCatalog,
    ListAltOutlinedIcon,
    '/api/settings/custom_fields/search',
    lazy(() => import('./tables/CustomFieldsTable.tsx')),
  ),
  screen(
    'periodicity',
    periodicityCatalog,
    EventRepeatOutlinedIcon,
    '/api/settings/periodicity/search',
    lazy(() => import('./tables/PeriodicityTable.tsx')),
  ),
  screen(
    'general_settings',
    generalSettingsCatalog,
    SettingsApplicationsOutlinedIcon,
    '/api/settings/general_settings/search',
    lazy(() => import('./tables/GeneralSettingsTable.tsx')),
  ),
];

export function findSettingsScreen(code: string | undefined): SettingsScreen | undefined {
  return settingsScreens.find((item) => item.code === code);
}
