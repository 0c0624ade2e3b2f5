import { addressRowSchema, addressSchema } from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../../components/RowTable/index.ts';
import { SimpleTable } from './SimpleTable.tsx';

/** /settings/addresses: the company's addresses. */
export default function AddressesTable() {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      { key: 'street', label: t('settings.addresses.street'), type: 'text', required: true, maxLength: 200 },
      { key: 'number', label: t('settings.addresses.number'), type: 'text', maxLength: 20, width: 110 },
      { key: 'area', label: t('settings.addresses.area'), type: 'text', maxLength: 100 },
      {
        key: 'postalCode',
        label: t('settings.addresses.postalCode'),
        type: 'text',
        required: true,
        minLength: 5,
        maxLength: 5,
        width: 120,
        hint: t('validation.postal_code'),
      },
      { key: 'municipality', label: t('settings.addresses.municipality'), type: 'text', maxLength: 100 },
    ],
    [t],
  );
  const newRow = useCallback(
    () => ({ street: '', number: '', area: '', postalCode: '', municipality: '' }),
    [],
  );
  return (
    <SimpleTable
      path="/api/settings/addresses"
      title={t('settings.screens.addresses.tableTitle')}
      columns={columns}
      itemSchema={addressSchema}
      rowSchema={addressRowSchema}
      newRow={newRow}
      descriptionColumn="street"
    />
  );
}
