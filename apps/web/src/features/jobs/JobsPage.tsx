import './i18n/index.ts';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import { jobsCatalog } from '@protocol/contracts';
import { useTranslation } from 'react-i18next';
import { useAppBar } from '../../app/shell/appBarContext.tsx';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { JOBS_LIST_META_KEY, JOBS_META_URL, JOBS_SEARCH_URL } from './api.ts';

type JobRow = { id: number; kind: string } & Record<string, unknown>;

/** /jobs: every background job the operator started, on the shared DataTable. */
export default function JobsPage() {
  const { t } = useTranslation();
  const title = t('jobs.title');
  useAppBar({ title });
  return (
    <>
      <PageHeader title={title} subtitle={t('jobs.subtitle')} avatar={<TaskAltIcon />} testId="jobs-header" />
      <DataTable<JobRow>
        catalog={jobsCatalog}
        searchUrl={JOBS_SEARCH_URL}
        metaUrl={JOBS_META_URL}
        metaKey={JOBS_LIST_META_KEY}
        title={title}
        rowLabel={(row) => t(`jobs.kind.${row.kind}`, { defaultValue: row.kind })}
      />
    </>
  );
}
