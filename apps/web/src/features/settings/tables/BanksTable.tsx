import { bankRowSchema, bankSchema } from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../../components/RowTable/index.ts';
import { SimpleTable } from './SimpleTable.tsx';

/** /settings/banks: name, BIC (ISO 9362, cell test id `cell-bic-<rowId>`), active. */
export default function BanksTable() {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      { key: 'name', label: t('settings.banks.name'), type: 'text', required: true, maxLength: 200 },
      {
        key: 'bic',
        label: t('settings.banks.bic'),
        type: 'text',
        required: true,
        maxLength: 11,
        width: 200,
        placeholder: 'ETHNGRAA',
        hint: t('validation.bic'),
      },
      { key: 'active', label: t('settings.banks.active'), type: 'boolean', width: 100 },
    ],
    [t],
  );
  const newRow = useCallback(() => ({ name: '', bic: '', active: true }), []);
  return (
    <SimpleTable
      shared
      path="/api/settings/banks"
      title={t('settings.screens.banks.tableTitle')}
      columns={columns}
      itemSchema={bankSchema}
      rowSchema={bankRowSchema}
      newRow={newRow}
      descriptionColumn="name"
      uniqueColumns={['name', 'bic']}
    />
  );
}
