import './i18n/index.ts';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import { type MydataDocumentListItem, mydataDocumentsCatalog, type Page } from '@protocol/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { withQuery } from '../../components/DataTable/state.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { api } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { MYDATA_META_KEY, MYDATA_SEARCH_URL } from './api.ts';
import { errorText } from './errorText.ts';
import { TransmitDayPanel } from './TransmitDayPanel.tsx';

type Row = MydataDocumentListItem & Record<string, unknown>;

/** /mydata: finalized documents by transmission state (filter `state`), a day's batch, and each document's page. */
export default function MydataListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const title = t('mydata.list.title');
  useAppBar({ title });
  // The errors column in the user's language, as the document's page says them (the server's is AADE's raw text).
  const fetchPage = useCallback(
    async (query: string, signal: AbortSignal) => {
      const page = await api.get<Page<Row>>(withQuery(MYDATA_SEARCH_URL, query), { signal });
      return {
        ...page,
        content: page.content.map((row) => ({
          ...row,
          errorText: row.errors.length > 0 ? row.errors.map((e) => errorText(t, e)).join(' · ') : null,
        })),
      };
    },
    [t],
  );
  const onRowClick = useCallback(
    (row: Row) => navigate(localize(`/mydata/${row.source === 'bill' ? 'bills' : 'documents'}/${row.id}`)),
    [navigate, localize],
  );
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('mydata.list.subtitle')}
        avatar={<CloudUploadOutlinedIcon />}
        testId="mydata-list-header"
      />
      {can('mydata:write') && <TransmitDayPanel />}
      <DataTable<Row>
        catalog={mydataDocumentsCatalog}
        searchUrl={MYDATA_SEARCH_URL}
        metaUrl="/api/users/meta"
        metaKey={MYDATA_META_KEY}
        title={title}
        fetchPage={fetchPage}
        onRowClick={onRowClick}
        rowLabel={(row) => `${row.seriesCode}-${row.number}/${row.year}`}
        rowSecondary={(row) => t(`mydata.state.${row.state}`)}
      />
    </>
  );
}
