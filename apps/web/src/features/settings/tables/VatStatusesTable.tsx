import { useTranslation } from 'react-i18next';
import { CodedTable } from './CodedTable.tsx';

/** /settings/vat_statuses: the VAT status of traders. */
export default function VatStatusesTable() {
  const { t } = useTranslation();
  return (
    <CodedTable
      path="/api/settings/vat_statuses"
      prefix="settings.vatStatuses"
      title={t('settings.screens.vatStatuses.tableTitle')}
    />
  );
}
