import { subjectCategoryRowSchema, subjectCategorySchema } from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../../components/RowTable/index.ts';
import { SimpleTable } from './SimpleTable.tsx';

/** /settings/subject_categories: the subject categories that classify documents (code, description, active). */
export default function SubjectCategoriesTable() {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      { key: 'code', label: t('settings.subjectCategories.code'), type: 'text', maxLength: 30, width: 140 },
      {
        key: 'descr',
        label: t('settings.subjectCategories.descr'),
        type: 'text',
        required: true,
        maxLength: 200,
      },
      { key: 'active', label: t('settings.subjectCategories.active'), type: 'boolean', width: 100 },
    ],
    [t],
  );
  const newRow = useCallback(() => ({ code: '', descr: '', active: true }), []);
  return (
    <SimpleTable
      path="/api/protocol/subject_categories"
      title={t('settings.screens.subjectCategories.tableTitle')}
      columns={columns}
      itemSchema={subjectCategorySchema}
      rowSchema={subjectCategoryRowSchema}
      newRow={newRow}
      descriptionColumn="descr"
    />
  );
}
