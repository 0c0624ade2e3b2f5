import FormatListNumberedOutlinedIcon from '@mui/icons-material/FormatListNumberedOutlined';
import {
  financePrintModes,
  mydataInvoiceTypes,
  type Series,
  seriesKinds,
  seriesRowSchema,
  seriesSchema,
} from '@protocol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../components/RowTable/index.ts';
import { SERIES_PATH, useSeries } from './api.ts';
import { FinanceTable } from './FinanceTable.tsx';

/**
 * /finance/series: document types and series (spec §3): numbering, print mode and copies, date
 * checks, the related series of credit notes, the kind (water bills included) and the myDATA type.
 */
export default function SeriesPage() {
  const { t } = useTranslation();
  const { rows: saved } = useSeries();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'code',
        label: t('finance.series.code'),
        type: 'text',
        required: true,
        maxLength: 10,
        width: 90,
      },
      {
        key: 'descr',
        label: t('finance.series.descr'),
        type: 'text',
        required: true,
        maxLength: 200,
        width: 240,
      },
      {
        key: 'kind',
        label: t('finance.series.kind'),
        type: 'select',
        required: true,
        width: 190,
        options: seriesKinds.map((value) => ({ value, label: t(`finance.series.kind_${value}`) })),
      },
      { key: 'seqnr', label: t('finance.series.seqnr'), type: 'number', min: 0, max: 9999, width: 90 },
      { key: 'autonr', label: t('finance.series.autonr'), type: 'boolean', width: 110 },
      {
        key: 'printype',
        label: t('finance.series.printype'),
        type: 'select',
        required: true,
        width: 140,
        options: financePrintModes.map((value) => ({ value, label: t(`finance.series.printype_${value}`) })),
      },
      { key: 'copies', label: t('finance.series.copies'), type: 'number', min: 1, max: 9, width: 80 },
      { key: 'checkdates', label: t('finance.series.checkdates'), type: 'boolean', width: 110 },
      {
        key: 'relseqid',
        label: t('finance.series.relseqid'),
        type: 'select',
        width: 200,
        options: saved
          .filter((s) => s.debitCredit === 2)
          .map((s) => ({ value: s.id, label: `${s.code} · ${s.descr}` })),
      },
      {
        key: 'debitCredit',
        label: t('finance.series.debitCredit'),
        type: 'select',
        required: true,
        width: 120,
        options: [1, 2].map((value) => ({ value, label: t(`finance.series.debitCredit_${value}`) })),
      },
      {
        key: 'mydataType',
        label: t('finance.series.mydataType'),
        type: 'select',
        width: 110,
        options: mydataInvoiceTypes.map((value) => ({ value, label: value })),
      },
      { key: 'movesStock', label: t('finance.series.movesStock'), type: 'boolean', width: 110 },
      { key: 'active', label: t('finance.series.active'), type: 'boolean', width: 80 },
    ],
    [t, saved],
  );
  return (
    <FinanceTable<Series>
      path={SERIES_PATH}
      titleKey="finance.series.title"
      subtitleKey="finance.series.subtitle"
      icon={FormatListNumberedOutlinedIcon}
      testId="finance-series"
      columns={columns}
      itemSchema={seriesSchema}
      rowSchema={seriesRowSchema}
      newRow={() => ({
        code: '',
        descr: '',
        kind: 'salesInvoice',
        seqnr: (saved.at(-1)?.seqnr ?? 0) + 10,
        autonr: true,
        printype: 2,
        copies: 1,
        checkdates: true,
        relseqid: null,
        debitCredit: 1,
        mydataType: null,
        movesStock: false,
        active: true,
      })}
      write="finance:admin"
    />
  );
}
