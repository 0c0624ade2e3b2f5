import {
  customFieldEntities,
  customFieldRowSchema,
  customFieldSchema,
  customFieldTypes,
  customTableSchema,
} from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../../components/RowTable/index.ts';
import { SimpleTable } from './SimpleTable.tsx';
import { useSavedRows } from './useRows.ts';

/** /settings/custom_fields: the custom fields of traders and consumers. */
export default function CustomFieldsTable() {
  const { t } = useTranslation();
  const tables = useSavedRows('/api/settings/custom_tables', customTableSchema);
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'entity',
        label: t('settings.customFields.entity'),
        type: 'select',
        required: true,
        width: 170,
        options: customFieldEntities.map((value) => ({
          value,
          label: t(`settings.customFields.entity_${value}`),
        })),
      },
      {
        key: 'key',
        label: t('settings.customFields.key'),
        type: 'text',
        required: true,
        maxLength: 50,
        width: 150,
        hint: t('settings.screens.customFields.keyHint'),
      },
      {
        key: 'labelEl',
        label: t('settings.customFields.labelEl'),
        type: 'text',
        required: true,
        maxLength: 100,
      },
      {
        key: 'labelEn',
        label: t('settings.customFields.labelEn'),
        type: 'text',
        required: true,
        maxLength: 100,
      },
      {
        key: 'type',
        label: t('settings.customFields.type'),
        type: 'select',
        required: true,
        width: 150,
        options: customFieldTypes.map((value) => ({
          value,
          label: t(`settings.customFields.type_${value}`),
        })),
      },
      {
        key: 'customTableId',
        label: t('settings.customFields.customTable'),
        type: 'select',
        width: 190,
        hint: t('validation.custom_table_required'),
        options: tables.map((item) => ({ value: item.id, label: item.name })),
      },
      { key: 'required', label: t('settings.customFields.required'), type: 'boolean', width: 110 },
      {
        key: 'order',
        label: t('settings.customFields.order'),
        type: 'number',
        required: true,
        min: 0,
        max: 100_000,
        width: 100,
      },
    ],
    [t, tables],
  );
  const newRow = useCallback(
    () => ({
      entity: 'traders',
      key: '',
      labelEl: '',
      labelEn: '',
      type: 'text',
      customTableId: null,
      required: false,
      order: 0,
    }),
    [],
  );
  return (
    <SimpleTable
      path="/api/settings/custom_fields"
      title={t('settings.screens.customFields.tableTitle')}
      columns={columns}
      itemSchema={customFieldSchema}
      rowSchema={customFieldRowSchema}
      newRow={newRow}
      descriptionColumn="key"
      uniqueColumns={['key']}
    />
  );
}
