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
import type { Icon } from '../../lib/feature.ts';
import { type SettingsTableCode, settingsTables } from './settingsTables.ts';

/** A settings screen at /settings/{code}: a row table with an export menu over its /search list. */
export interface SettingsScreen {
  code: string;
  /** Catalog key of the title (the list's, shared with the exports). */
  titleKey: string;
  descriptionKey: string;
  icon: Icon;
  /** The list the exports run (POST /api/export with this uri). */
  searchUri: string;
  catalog: EntityCatalog;
  component: LazyExoticComponent<ComponentType>;
}

/** What each table's screen brings besides its menu entry; each table is its own chunk. */
const screens: Record<
  SettingsTableCode,
  { catalog: EntityCatalog; searchUri: string; component: LazyExoticComponent<ComponentType> }
> = {
  document_types: {
    catalog: documentTypesCatalog,
    searchUri: '/api/protocol/document_types/search',
    component: lazy(() => import('./tables/DocumentTypesTable.tsx')),
  },
  subject_categories: {
    catalog: subjectCategoriesCatalog,
    searchUri: '/api/protocol/subject_categories/search',
    component: lazy(() => import('./tables/SubjectCategoriesTable.tsx')),
  },
  case_types: {
    catalog: caseTypesCatalog,
    searchUri: '/api/protocol/case_types/search',
    component: lazy(() => import('./tables/CaseTypesTable.tsx')),
  },
  banks: {
    catalog: banksCatalog,
    searchUri: '/api/settings/banks/search',
    component: lazy(() => import('./tables/BanksTable.tsx')),
  },
  vat_percentages: {
    catalog: vatPercentagesCatalog,
    searchUri: '/api/settings/vat_percentages/search',
    component: lazy(() => import('./tables/VatPercentagesTable.tsx')),
  },
  vat_categories: {
    catalog: vatCategoriesCatalog,
    searchUri: '/api/settings/vat_categories/search',
    component: lazy(() => import('./tables/VatCategoriesTable.tsx')),
  },
  vat_statuses: {
    catalog: vatStatusesCatalog,
    searchUri: '/api/settings/vat_statuses/search',
    component: lazy(() => import('./tables/VatStatusesTable.tsx')),
  },
  departments: {
    catalog: departmentsCatalog,
    searchUri: '/api/settings/departments/search',
    component: lazy(() => import('./tables/DepartmentsTable.tsx')),
  },
  addresses: {
    catalog: addressesCatalog,
    searchUri: '/api/settings/addresses/search',
    component: lazy(() => import('./tables/AddressesTable.tsx')),
  },
  custom_tables: {
    catalog: customTablesCatalog,
    searchUri: '/api/settings/custom_tables/search',
    component: lazy(() => import('./tables/CustomTablesTable.tsx')),
  },
  custom_fields: {
    catalog: customFieldsCatalog,
    searchUri: '/api/settings/custom_fields/search',
    component: lazy(() => import('./tables/CustomFieldsTable.tsx')),
  },
  periodicity: {
    catalog: periodicityCatalog,
    searchUri: '/api/settings/periodicity/search',
    component: lazy(() => import('./tables/PeriodicityTable.tsx')),
  },
  general_settings: {
    catalog: generalSettingsCatalog,
    searchUri: '/api/settings/general_settings/search',
    component: lazy(() => import('./tables/GeneralSettingsTable.tsx')),
  },
};

/** The settings screens in menu order. */
export const settingsScreens: SettingsScreen[] = settingsTables.map(({ code, icon }) => {
  const { catalog, searchUri, component } = screens[code];
  return {
    code,
    titleKey: catalog.titleKey,
    descriptionKey: `settings.screens.${catalog.entity}.description`,
    icon,
    searchUri,
    catalog,
    component,
  };
});

export function findSettingsScreen(code: string | undefined): SettingsScreen | undefined {
  return settingsScreens.find((item) => item.code === code);
}
