import { caseTypeRowSchema, caseTypeSchema } from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../../components/RowTable/index.ts';
import { SimpleTable } from './SimpleTable.tsx';

/** /settings/case_types: the types of case folders (description, active). */
export default function CaseTypesTable() {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      { key: 'descr', label: t('settings.caseTypes.descr'), type: 'text', required: true, maxLength: 200 },
      { key: 'active', label: t('settings.caseTypes.active'), type: 'boolean', width: 100 },
    ],
    [t],
  );
  const newRow = useCallback(() => ({ descr: '', active: true }), []);
  return (
    <SimpleTable
      path="/api/protocol/case_types"
      title={t('settings.screens.caseTypes.tableTitle')}
      columns={columns}
      itemSchema={caseTypeSchema}
      rowSchema={caseTypeRowSchema}
      newRow={newRow}
      descriptionColumn="descr"
      uniqueColumns={['descr']}
    />
  );
}
