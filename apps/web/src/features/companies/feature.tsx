import ApartmentOutlinedIcon from '@mui/icons-material/ApartmentOutlined';
import type { Feature } from '../../lib/feature.ts';

const CompanyEditPage = () => import('./CompanyEditPage.tsx');

/**
 * The installation's companies, the super administrator's (one installation serves several
 * utilities): listed under Settings; the pages themselves refuse anyone else with the reason.
 */
export const companies: Feature = {
  key: 'companies',
  routes: [
    { path: 'companies', page: () => import('./CompaniesListPage.tsx') },
    { path: 'companies/create', page: CompanyEditPage },
    { path: 'companies/:companyId/edit', page: CompanyEditPage },
  ],
  menu: [
    {
      key: 'companies',
      label: 'menu.companies',
      path: '/companies',
      icon: ApartmentOutlinedIcon,
      parent: 'settings',
      visible: (user) => user.superAdmin,
    },
  ],
};
