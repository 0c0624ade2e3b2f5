import {
  PERIODICITY_START_YEAR_MAX,
  PERIODICITY_START_YEAR_MIN,
  type Periodicity,
  periodicityMonths,
  periodicityRowSchema,
  periodicitySchema,
  periodsPerYear,
  utilityYear,
} from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DraftRow, RowTableColumn, TypedRow } from '../../../components/RowTable/index.ts';
import { SimpleTable } from './SimpleTable.tsx';

/** Spec §7: GET and POST /api/water_service/parametrics/periodicity (the operator's first company). */
const PATH = '/api/water_service/parametrics/periodicity';

const fromServer = (item: Periodicity): DraftRow => ({
  id: item.id,
  periodicityType: item.periodicityType.id,
  startyear: item.startyear,
  startperiod: item.startperiod,
});

/** The periods are not typed: they follow from the months (12 / months). */
const toPayload = (row: TypedRow) => {
  const months = Number(row.periodicityType);
  return {
    id: row.id,
    periodicityType: { id: months },
    periods: months > 0 ? periodsPerYear(months) : 0,
    startyear: row.startyear,
    startperiod: row.startperiod,
  };
};

/** /settings/periodicity: periodicity rows (spec §3, §5). */
export default function PeriodicityTable() {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'periodicityType',
        label: t('settings.periodicity.periodicityType'),
        type: 'select',
        required: true,
        width: 280,
        hint: t('settings.screens.periodicity.periodsHint'),
        options: periodicityMonths.map((months) => ({
          value: months,
          label: `${t(`settings.periodicity.months_${months}`)} · ${t('settings.periodicity.periods')}: ${periodsPerYear(months)}`,
        })),
      },
      {
        key: 'startyear',
        label: t('settings.periodicity.startyear'),
        type: 'number',
        required: true,
        min: PERIODICITY_START_YEAR_MIN,
        max: PERIODICITY_START_YEAR_MAX,
        width: 170,
      },
      {
        key: 'startperiod',
        label: t('settings.periodicity.startperiod'),
        type: 'number',
        required: true,
        min: 1,
        max: 12,
        width: 170,
      },
    ],
    [t],
  );
  const newRow = useCallback(() => ({ periodicityType: null, startyear: utilityYear(), startperiod: 1 }), []);
  return (
    <SimpleTable
      path={PATH}
      title={t('settings.screens.periodicity.tableTitle')}
      columns={columns}
      itemSchema={periodicitySchema}
      rowSchema={periodicityRowSchema}
      newRow={newRow}
      fromServer={fromServer}
      toPayload={toPayload}
    />
  );
}
