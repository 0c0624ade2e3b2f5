import {
  type LevelLookupItem,
  meterKinds,
  waterCodedRowSchema,
  waterCodedSchema,
  type waterCodedTables,
  waterMeterTypeRowSchema,
  waterMeterTypeSchema,
  waterRouteRowSchema,
  waterRouteSchema,
  waterSpecialRegulationRowSchema,
  waterSpecialRegulationSchema,
} from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../components/RowTable/index.ts';
import { api } from '../../lib/api.ts';
import { WaterTable } from './WaterTable.tsx';

/** The water parametric tables by their route code (/parametrics/{code}), in menu order. */
export const waterParametricCodes = [
  'sectors',
  'routes',
  'areas',
  'buildings',
  'meterTypes',
  'propertyUsages',
  'connectionTypes',
  'sewerageIndicators',
  'specialRegulations',
  'pipeDiameters',
] as const;
export type WaterParametricCode = (typeof waterParametricCodes)[number];

const codeColumns = (t: TFunction, table: string): RowTableColumn[] => [
  {
    key: 'code',
    label: t(`water.${table}.code`),
    type: 'text',
    required: true,
    maxLength: 12,
    width: 120,
    hint: t('validation.water_code'),
  },
  {
    key: 'description',
    label: t(`water.${table}.description`),
    type: 'text',
    required: true,
    maxLength: 200,
  },
];
const active = (t: TFunction, table: string): RowTableColumn => ({
  key: 'active',
  label: t(`water.${table}.active`),
  type: 'boolean',
  width: 90,
});
const codedRow = () => ({ code: '', description: '', active: true });

function CodedTable({ code }: { code: (typeof waterCodedTables)[number] }) {
  const { t } = useTranslation();
  const columns = useMemo(() => [...codeColumns(t, code), active(t, code)], [t, code]);
  return (
    <WaterTable
      path={`/api/water/parametrics/${code}`}
      title={t(`water.${code}.title`)}
      columns={columns}
      itemSchema={waterCodedSchema}
      rowSchema={waterCodedRowSchema}
      newRow={codedRow}
    />
  );
}

function RoutesTable() {
  const { t } = useTranslation();
  const sectorsPath = '/api/protocol/parametrics/sectors';
  const sectors = useQuery({
    queryKey: ['water', 'lookup', sectorsPath],
    queryFn: ({ signal }) => api.get<LevelLookupItem[]>(sectorsPath, { signal }),
  });
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'sectorId',
        label: t('water.routes.sector'),
        type: 'select',
        required: true,
        width: 240,
        options: (sectors.data ?? []).map((s) => ({ value: s.id, label: `${s.code} · ${s.descr}` })),
      },
      ...codeColumns(t, 'routes'),
      {
        key: 'readingOrder',
        label: t('water.routes.readingOrder'),
        type: 'number',
        min: 0,
        max: 100000,
        width: 130,
      },
      active(t, 'routes'),
    ],
    [t, sectors.data],
  );
  if (!sectors.data) return null;
  return (
    <WaterTable
      path="/api/water/parametrics/routes"
      title={t('water.routes.title')}
      columns={columns}
      itemSchema={waterRouteSchema}
      rowSchema={waterRouteRowSchema}
      newRow={() => ({ ...codedRow(), sectorId: null, readingOrder: 0 })}
    />
  );
}

function MeterTypesTable() {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      ...codeColumns(t, 'meterTypes'),
      {
        key: 'meterKind',
        label: t('water.meterTypes.meterKind'),
        type: 'select',
        required: true,
        width: 190,
        options: Object.values(meterKinds).map((v) => ({ value: v, label: t(`water.meterKind_${v}`) })),
      },
      { key: 'diameter', label: t('water.meterTypes.diameter'), type: 'text', maxLength: 30, width: 110 },
      {
        key: 'digits',
        label: t('water.meterTypes.digits'),
        type: 'number',
        min: 3,
        max: 9,
        required: true,
        width: 90,
      },
      active(t, 'meterTypes'),
    ],
    [t],
  );
  return (
    <WaterTable
      path="/api/water/parametrics/meterTypes"
      title={t('water.meterTypes.title')}
      columns={columns}
      itemSchema={waterMeterTypeSchema}
      rowSchema={waterMeterTypeRowSchema}
      newRow={() => ({ ...codedRow(), meterKind: meterKinds.analog, diameter: '', digits: 5 })}
    />
  );
}

function SpecialRegulationsTable() {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      ...codeColumns(t, 'specialRegulations'),
      {
        key: 'requiredDocuments',
        label: t('water.specialRegulations.requiredDocuments'),
        type: 'text',
        maxLength: 1000,
      },
      active(t, 'specialRegulations'),
    ],
    [t],
  );
  return (
    <WaterTable
      path="/api/water/parametrics/specialRegulations"
      title={t('water.specialRegulations.title')}
      columns={columns}
      itemSchema={waterSpecialRegulationSchema}
      rowSchema={waterSpecialRegulationRowSchema}
      newRow={() => ({ ...codedRow(), requiredDocuments: '' })}
    />
  );
}

/** The table of a code. */
export function WaterParametricTable({ code }: { code: WaterParametricCode }) {
  switch (code) {
    case 'routes':
      return <RoutesTable />;
    case 'meterTypes':
      return <MeterTypesTable />;
    case 'specialRegulations':
      return <SpecialRegulationsTable />;
    default:
      return <CodedTable code={code} />;
  }
}
