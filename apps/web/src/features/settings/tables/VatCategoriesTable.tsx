import { useTranslation } from 'react-i18next';
import { CodedTable } from './CodedTable.tsx';

/** /settings/vat_categories: the VAT regimes of traders. */
export default function VatCategoriesTable() {
  const { t } = useTranslation();
  return (
    <CodedTable
      path="/api/settings/vat_categories"
      prefix="settings.vatCategories"
      title={t('settings.screens.vatCategories.tableTitle')}
    />
  );
}
