import './i18n/index.ts';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import { type SubmissionListItem, submissionsCatalog } from '@protocol/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { FORMS_META_URL, SUBMISSIONS_LIST_META_KEY, SUBMISSIONS_SEARCH_URL } from './api.ts';

type SubmissionRow = SubmissionListItem & Record<string, unknown>;

/** /online_forms/submissions: the review desk's list, across forms or of one (?formId=). */
export default function SubmissionsListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const [params] = useSearchParams();
  const formId = params.get('formId');
  const base =
    formId && /^\d+$/.test(formId)
      ? `${SUBMISSIONS_SEARCH_URL}?formId=eq(${formId})`
      : SUBMISSIONS_SEARCH_URL;
  const searchUrl = base;
  const title = t('onlineForms.submissions.title');
  useAppBar({ title });
  const onRowClick = useCallback(
    (row: SubmissionRow) => navigate(localize(`/online_forms/submissions/${row.id}`)),
    [navigate, localize],
  );
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('onlineForms.submissions.subtitle')}
        avatar={<InboxOutlinedIcon />}
        testId="submissions-header"
      />
      <DataTable<SubmissionRow>
        key={base}
        catalog={submissionsCatalog}
        searchUrl={searchUrl}
        metaUrl={FORMS_META_URL}
        metaKey={SUBMISSIONS_LIST_META_KEY}
        title={title}
        onRowClick={onRowClick}
        rowLabel={(row) => row.reference}
        rowSecondary={(row) => row.applicant ?? ''}
      />
    </>
  );
}
