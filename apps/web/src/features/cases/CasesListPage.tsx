import './i18n/index.ts';
import FolderCopyOutlinedIcon from '@mui/icons-material/FolderCopyOutlined';
import { casesCatalog } from '@protocol/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { CASES_LIST_META_KEY, CASES_META_URL, CASES_SEARCH_URL, type CaseListItem, casesApi } from './api.ts';

type CaseRow = CaseListItem & Record<string, unknown>;

/** /cases: the case folders (spec §2) on the shared DataTable over the cases catalog. */
export default function CasesListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const title = t('cases.title');
  useAppBar({ title });
  const onCreate = useCallback(() => navigate(localize('/cases/Create')), [navigate, localize]);
  const onRowClick = useCallback(
    (row: CaseRow) => navigate(localize(`/cases/${row.id}/edit`)),
    [navigate, localize],
  );
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('cases.subtitle')}
        avatar={<FolderCopyOutlinedIcon />}
        testId="cases-header"
      />
      <DataTable<CaseRow>
        catalog={casesCatalog}
        searchUrl={CASES_SEARCH_URL}
        metaUrl={CASES_META_URL}
        metaKey={CASES_LIST_META_KEY}
        title={title}
        onCreate={can('protocol:write') ? onCreate : undefined}
        onRowClick={onRowClick}
        onDelete={can('protocol:write') ? casesApi.deleteMany : undefined}
        rowLabel={(row) => row.code}
        rowSecondary={(row) => row.name}
      />
    </>
  );
}
