import { departmentRowSchema, departmentSchema } from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../../components/RowTable/index.ts';
import { SimpleTable } from './SimpleTable.tsx';
import { useSavedRows } from './useRows.ts';

const PATH = '/api/settings/departments';

/** /settings/departments: code, description, parent department (a saved one), active. */
export default function DepartmentsTable() {
  const { t } = useTranslation();
  const saved = useSavedRows(PATH, departmentSchema);
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'code',
        label: t('settings.departments.code'),
        type: 'text',
        required: true,
        maxLength: 30,
        width: 140,
      },
      {
        key: 'description',
        label: t('settings.departments.description'),
        type: 'text',
        required: true,
        maxLength: 200,
      },
      {
        key: 'parentId',
        label: t('settings.departments.parent'),
        type: 'select',
        width: 280,
        hint: t('settings.screens.departments.parentHint'),
        options: saved.map((item) => ({ value: item.id, label: `${item.code} · ${item.description}` })),
      },
      { key: 'active', label: t('settings.departments.active'), type: 'boolean', width: 100 },
    ],
    [t, saved],
  );
  const newRow = useCallback(() => ({ code: '', description: '', parentId: null, active: true }), []);
  return (
    <SimpleTable
      path={PATH}
      title={t('settings.screens.departments.tableTitle')}
      columns={columns}
      itemSchema={departmentSchema}
      rowSchema={departmentRowSchema}
      newRow={newRow}
      descriptionColumn="description"
      uniqueColumns={['code']}
    />
  );
}
