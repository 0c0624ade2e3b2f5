import {
  documentTypeRowSchema,
  documentTypeSchema,
  MAX_COPIES,
  MAX_SEQNR,
  MIN_COPIES,
  printTypes,
} from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../../components/RowTable/index.ts';
import { SimpleTable } from './SimpleTable.tsx';
import { useSavedRows } from './useRows.ts';

const PATH = '/api/protocol/document_types';

/**
 * /settings/document_types: the document types and their sequence settings (spec §3): code
 * (seqnr, unique), description, automatic registration, what happens with the registration receipt
 * (print mode and copies), date checks and the type a reply gets (a saved type).
 */
export default function DocumentTypesTable() {
  const { t } = useTranslation();
  const saved = useSavedRows(PATH, documentTypeSchema);
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'seqnr',
        label: t('settings.documentTypes.seqnr'),
        type: 'number',
        required: true,
        min: 1,
        max: MAX_SEQNR,
        width: 80,
        hint: t('settings.screens.documentTypes.seqnrHint'),
      },
      {
        key: 'descr',
        label: t('settings.documentTypes.descr'),
        type: 'text',
        required: true,
        maxLength: 200,
        width: 220,
      },
      {
        key: 'autonr',
        label: t('settings.documentTypes.autonr'),
        type: 'boolean',
        width: 120,
        hint: t('settings.screens.documentTypes.autonrHint'),
      },
      {
        key: 'printype',
        label: t('settings.documentTypes.printype'),
        type: 'select',
        required: true,
        width: 180,
        hint: t('settings.screens.documentTypes.printypeHint'),
        options: printTypes.map((value) => ({ value, label: t(`settings.documentTypes.printype_${value}`) })),
      },
      {
        key: 'copies',
        label: t('settings.documentTypes.copies'),
        type: 'number',
        required: true,
        min: MIN_COPIES,
        max: MAX_COPIES,
        width: 80,
      },
      {
        key: 'checkdates',
        label: t('settings.documentTypes.checkdates'),
        type: 'boolean',
        width: 120,
        hint: t('settings.screens.documentTypes.checkdatesHint'),
      },
      {
        key: 'relseqid',
        label: t('settings.documentTypes.relseqid'),
        type: 'select',
        width: 190,
        hint: t('settings.screens.documentTypes.relseqidHint'),
        options: saved.map((item) => ({ value: item.id, label: `${item.seqnr} · ${item.descr}` })),
      },
      { key: 'active', label: t('settings.documentTypes.active'), type: 'boolean', width: 90 },
    ],
    [t, saved],
  );
  const newRow = useCallback(() => {
    const next = saved.reduce((max, item) => Math.max(max, item.seqnr), 0) + 1;
    return {
      seqnr: next,
      descr: '',
      autonr: true,
      printype: 0,
      copies: 1,
      checkdates: true,
      relseqid: null,
      active: true,
    };
  }, [saved]);
  return (
    <SimpleTable
      path={PATH}
      title={t('settings.screens.documentTypes.tableTitle')}
      columns={columns}
      itemSchema={documentTypeSchema}
      rowSchema={documentTypeRowSchema}
      newRow={newRow}
      descriptionColumn="descr"
      uniqueColumns={['seqnr']}
    />
  );
}
