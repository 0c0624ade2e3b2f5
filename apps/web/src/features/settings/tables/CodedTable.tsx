import { codedEntryRowSchema, codedEntrySchema } from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../../components/RowTable/index.ts';
import { SimpleTable } from './SimpleTable.tsx';

/** A code + description + active table (VAT categories, VAT status). */
export function CodedTable({ path, prefix, title }: { path: string; prefix: string; title: string }) {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      { key: 'code', label: t(`${prefix}.code`), type: 'text', required: true, maxLength: 20, width: 160 },
      { key: 'description', label: t(`${prefix}.description`), type: 'text', required: true, maxLength: 200 },
      { key: 'active', label: t(`${prefix}.active`), type: 'boolean', width: 100 },
    ],
    [t, prefix],
  );
  const newRow = useCallback(() => ({ code: '', description: '', active: true }), []);
  return (
    <SimpleTable
      shared
      path={path}
      title={title}
      columns={columns}
      itemSchema={codedEntrySchema}
      rowSchema={codedEntryRowSchema}
      newRow={newRow}
      descriptionColumn="description"
      uniqueColumns={['code']}
    />
  );
}
