import {
  MYDATA_VAT_CATEGORY_MAX,
  MYDATA_VAT_CATEGORY_MIN,
  vatPercentageRowSchema,
  vatPercentageSchema,
} from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn, TypedRow } from '../../../components/RowTable/index.ts';
import { SimpleTable } from './SimpleTable.tsx';

const toPayload = (row: TypedRow) => ({
  id: row.id,
  code: row.code,
  description: row.description,
  percentage: row.percentage ?? '',
  active: row.active,
});

/** /settings/vat_percentages: the rate of each myDATA VAT category (decimal strings on the wire). */
export default function VatPercentagesTable() {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'code',
        label: t('settings.vatPercentages.code'),
        type: 'number',
        required: true,
        min: MYDATA_VAT_CATEGORY_MIN,
        max: MYDATA_VAT_CATEGORY_MAX,
        width: 170,
        hint: t('validation.vat_category'),
      },
      {
        key: 'description',
        label: t('settings.vatPercentages.description'),
        type: 'text',
        required: true,
        maxLength: 200,
      },
      {
        key: 'percentage',
        label: t('settings.vatPercentages.percentage'),
        type: 'decimal',
        amount: 'percent',
        required: true,
        min: '0',
        max: '100',
        width: 150,
        hint: t('validation.percentage'),
      },
      { key: 'active', label: t('settings.vatPercentages.active'), type: 'boolean', width: 100 },
    ],
    [t],
  );
  const newRow = useCallback(() => ({ code: null, description: '', percentage: null, active: true }), []);
  return (
    <SimpleTable
      shared
      path="/api/settings/vat_percentages"
      title={t('settings.screens.vatPercentages.tableTitle')}
      columns={columns}
      itemSchema={vatPercentageSchema}
      rowSchema={vatPercentageRowSchema}
      newRow={newRow}
      descriptionColumn="description"
      toPayload={toPayload}
      uniqueColumns={['code']}
    />
  );
}
