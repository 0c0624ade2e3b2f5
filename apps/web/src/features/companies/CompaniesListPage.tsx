import './i18n/index.ts';
import ApartmentOutlinedIcon from '@mui/icons-material/ApartmentOutlined';
import { type CompanyListItem, companiesCatalog } from '@protocol/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import ForbiddenPage from '../../components/errors/ForbiddenPage.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useUser } from '../../lib/currentUser.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { COMPANIES_SEARCH_URL } from './api.ts';

type CompanyRow = CompanyListItem & Record<string, unknown>;

/** /companies: the installation's companies, the super administrator's (others get the reason). */
export default function CompaniesListPage() {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const localize = useLocalize();
  const title = t('companies.title');
  useAppBar({ title });

  const onCreate = useCallback(() => navigate(localize('/companies/create')), [navigate, localize]);
  const onRowClick = useCallback(
    (row: CompanyRow) => navigate(localize(`/companies/${row.id}/edit`)),
    [navigate, localize],
  );

  if (!user.superAdmin) return <ForbiddenPage message={t('error.companies_super_admin_only')} />;
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('companiesAdmin.subtitle')}
        avatar={<ApartmentOutlinedIcon />}
        testId="companies-header"
      />
      <DataTable<CompanyRow>
        catalog={companiesCatalog}
        searchUrl={COMPANIES_SEARCH_URL}
        title={title}
        onCreate={onCreate}
        onRowClick={onRowClick}
        rowLabel={(row) => row.companyname}
        rowSecondary={(row) => row.companytitle}
      />
    </>
  );
}
