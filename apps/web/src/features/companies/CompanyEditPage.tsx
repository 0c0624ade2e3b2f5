import './i18n/index.ts';
import AddBusinessOutlinedIcon from '@mui/icons-material/AddBusinessOutlined';
import ApartmentOutlinedIcon from '@mui/icons-material/ApartmentOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { companiesCatalog } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFastSwitch } from '../../components/DataTable/FastSwitch.tsx';
import ForbiddenPage from '../../components/errors/ForbiddenPage.tsx';
import { RecordFallback } from '../../components/errors/RecordFallback.tsx';
import { RecordRoute } from '../../components/form/RecordRoute.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { refreshAction } from '../../components/refreshAction.tsx';
import { type PageAction, useAppBar } from '../../lib/appBarContext.tsx';
import { useUser } from '../../lib/currentUser.tsx';
import { COMPANIES_SEARCH_URL, companiesApi, companyKey } from './api.ts';
import { CompanyForm } from './CompanyForm.tsx';

function CreateCompany() {
  const { t } = useTranslation();
  useAppBar({ title: t('companiesAdmin.createTitle') });
  return (
    <Box data-testid="company-page">
      <PageHeader
        title={t('companiesAdmin.createTitle')}
        subtitle={t('companiesAdmin.createSubtitle')}
        avatar={<AddBusinessOutlinedIcon />}
      />
      <CompanyForm />
    </Box>
  );
}

function EditCompany({ id }: { id: number }) {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: companyKey(id), queryFn: ({ signal }) => companiesApi.get(id, signal) });
  const company = query.data;
  useFastSwitch({
    entity: 'companies',
    catalog: companiesCatalog,
    editPath: (companyId) => `/companies/${companyId}/edit`,
    searchUrl: COMPANIES_SEARCH_URL,
    currentId: id,
  });
  const actions = useMemo<PageAction[]>(
    () => [refreshAction(t, () => void query.refetch(), 'company-refresh')],
    [t, query.refetch],
  );
  useAppBar({ title: t('companiesAdmin.editTitle'), actions });

  if (query.error || !company)
    return <RecordFallback error={query.error} onRetry={() => void query.refetch()} bodyHeight={320} />;
  return (
    <Box data-testid="company-page">
      <PageHeader
        title={company.companytitle}
        subtitle={
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            <span>{company.companyname}</span>
            {company.vatnumber && (
              <span>
                · {t('companiesAdmin.vatnumber')}: {company.vatnumber}
              </span>
            )}
            <Chip
              size="small"
              color={company.active ? 'success' : 'warning'}
              variant={company.active ? 'outlined' : 'filled'}
              label={company.active ? t('companiesAdmin.active') : t('companiesAdmin.inactive')}
              data-testid="company-status-chip"
            />
          </Box>
        }
        avatar={<ApartmentOutlinedIcon />}
        audit={company}
      />
      <CompanyForm key={company.id} company={company} />
    </Box>
  );
}

/** /companies/create and /companies/{id}/edit: the super administrator's; others get the reason. */
export default function CompanyEditPage() {
  const { t } = useTranslation();
  const user = useUser();
  if (!user.superAdmin) return <ForbiddenPage message={t('error.companies_super_admin_only')} />;
  return (
    <RecordRoute
      param="companyId"
      create={<CreateCompany />}
      edit={(id) => <EditCompany key={id} id={id} />}
    />
  );
}
