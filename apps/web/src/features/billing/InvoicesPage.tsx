import './i18n/index.ts';
import RequestQuoteOutlinedIcon from '@mui/icons-material/RequestQuoteOutlined';
import { type BillListItem, billsCatalog } from '@protocol/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompany, useCompanyPath } from '../../app/company.tsx';
import { useLang } from '../../app/language.tsx';
import { useAppBar } from '../../app/shell/appBarContext.tsx';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { BILLS_META_KEY, BILLS_SEARCH_URL, openBillPdf } from './api.ts';

type Row = BillListItem & Record<string, unknown>;

/** /invoices: the bills on the list engine (period, route, state, amount; Greek filters; exports). */
export default function InvoicesPage() {
  const { t } = useTranslation();
  const language = useLang();
  const notify = useNotify();
  const { companyId } = useCompany();
  const title = t('billingUi.invoices.title');
  useAppBar({ title });
  const searchUrl = useCompanyPath(BILLS_SEARCH_URL);
  const onRowClick = useCallback(
    (row: Row) =>
      void openBillPdf(row.id, companyId, language).catch(() =>
        notify(t('billingUi.invoices.pdfError'), 'error'),
      ),
    [companyId, language, notify, t],
  );
  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('billingUi.invoices.subtitle')}
        avatar={<RequestQuoteOutlinedIcon />}
        testId="billing-invoices-header"
      />
      <DataTable<Row>
        catalog={billsCatalog}
        searchUrl={searchUrl}
        metaUrl="/api/users/meta"
        metaKey={BILLS_META_KEY}
        title={title}
        onRowClick={onRowClick}
        rowLabel={(row) => `${row.code.replace(/ +/g, ' ')} · ${row.periodLabel}`}
        rowSecondary={(row) => row.ownerName ?? ''}
      />
    </>
  );
}
