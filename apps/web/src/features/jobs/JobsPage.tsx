import './i18n/index.ts';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import { type Job, jobsCatalog, type Page } from '@protocol/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { withQuery } from '../../components/DataTable/state.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { api } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { jobErrorText } from '../../lib/jobs.ts';
import { JOBS_LIST_META_KEY, JOBS_META_URL, JOBS_SEARCH_URL } from './api.ts';

type JobRow = Job & Record<string, unknown>;

/** /jobs: every background job the operator started, on the shared DataTable. */
export default function JobsPage() {
  const { t } = useTranslation();
  const title = t('jobs.title');
  useAppBar({ title });
  // A failed job's reason in the reader's words (the list holds its catalog key and params).
  const fetchPage = useCallback(
    async (query: string, signal: AbortSignal) => {
      const page = await api.get<Page<JobRow>>(withQuery(JOBS_SEARCH_URL, query), { signal });
      const content = page.content.map((job) => ({
        ...job,
        error: job.state === 'failed' ? jobErrorText(t, job) : null,
      }));
      return { ...page, content };
    },
    [t],
  );
  return (
    <>
      <PageHeader title={title} subtitle={t('jobs.subtitle')} avatar={<TaskAltIcon />} testId="jobs-header" />
      <DataTable<JobRow>
        catalog={jobsCatalog}
        searchUrl={JOBS_SEARCH_URL}
        metaUrl={JOBS_META_URL}
        metaKey={JOBS_LIST_META_KEY}
        title={title}
        fetchPage={fetchPage}
        rowLabel={(row) => t(`jobs.kind.${row.kind}`, { defaultValue: row.kind })}
      />
    </>
  );
}
