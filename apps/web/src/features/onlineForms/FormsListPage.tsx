import './i18n/index.ts';
import DynamicFormOutlinedIcon from '@mui/icons-material/DynamicFormOutlined';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import Button from '@mui/material/Button';
import { type OnlineFormListItem, onlineFormsCatalog } from '@protocol/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { FORMS_LIST_META_KEY, FORMS_META_URL, FORMS_SEARCH_URL } from './api.ts';

type FormRow = OnlineFormListItem & Record<string, unknown>;

/** /online_forms: the company's forms on the list engine (saved views, exports). */
export default function FormsListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const title = t('onlineForms.title');
  useAppBar({ title });
  const onCreate = useCallback(() => navigate(localize('/online_forms/create')), [navigate, localize]);
  const onRowClick = useCallback(
    (row: FormRow) => navigate(localize(`/online_forms/${row.id}/edit`)),
    [navigate, localize],
  );
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('onlineForms.subtitle')}
        avatar={<DynamicFormOutlinedIcon />}
        testId="online-forms-header"
        actions={
          <Button
            variant="outlined"
            startIcon={<InboxOutlinedIcon />}
            onClick={() => navigate(localize('/online_forms/submissions'))}
          >
            {t('onlineForms.submissions.showSubmissions')}
          </Button>
        }
      />
      <DataTable<FormRow>
        catalog={onlineFormsCatalog}
        searchUrl={FORMS_SEARCH_URL}
        metaUrl={FORMS_META_URL}
        metaKey={FORMS_LIST_META_KEY}
        title={title}
        onCreate={can('forms:write') ? onCreate : undefined}
        onRowClick={onRowClick}
        rowLabel={(row) => row.title}
        rowSecondary={(row) => row.form_id}
      />
    </>
  );
}
