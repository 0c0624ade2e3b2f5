import './i18n/index.ts';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import { type FinanceDocumentListItem, financeDocumentsCatalog } from '@protocol/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { DOCUMENTS_META_KEY, DOCUMENTS_SEARCH_URL } from './api.ts';

type Row = FinanceDocumentListItem & Record<string, unknown>;

/** The printed number of a list row: series-number/year, or the draft mark. */
export const documentNumber = (
  row: { seriesCode: string; number: number | null; year: number | null },
  draft: string,
) => (row.number === null ? `${row.seriesCode} · ${draft}` : `${row.seriesCode}-${row.number}/${row.year}`);

/** /finance/documents: commercial documents of every series, views and exports (water bills: /invoices). */
export default function DocumentsListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const title = t('finance.documents.title');
  useAppBar({ title: t('finance.menu') });
  const onCreate = useCallback(() => navigate(localize('/finance/documents/create')), [navigate, localize]);
  const onRowClick = useCallback(
    (row: Row) => navigate(localize(`/finance/documents/${row.id}/edit`)),
    [navigate, localize],
  );
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('finance.documents.subtitle')}
        avatar={<ReceiptLongOutlinedIcon />}
        testId="finance-documents-header"
      />
      <DataTable<Row>
        catalog={financeDocumentsCatalog}
        searchUrl={DOCUMENTS_SEARCH_URL}
        metaUrl="/api/users/meta"
        metaKey={DOCUMENTS_META_KEY}
        title={title}
        onCreate={can('finance:write') ? onCreate : undefined}
        onRowClick={onRowClick}
        rowLabel={(row) => documentNumber(row, t('finance.pdf.draft'))}
        rowSecondary={(row) => row.traderName ?? ''}
      />
    </>
  );
}
