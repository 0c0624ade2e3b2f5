import './i18n/index.ts';
import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import Box from '@mui/material/Box';
import {
  type SettlementCategory,
  settlementCategoryRowSchema,
  settlementCategorySchema,
} from '@protocol/contracts';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { PageHeader } from '../../components/PageHeader.tsx';
import {
  type DraftRow,
  RowTable,
  type RowTableColumn,
  type TypedRow,
} from '../../components/RowTable/index.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { CATEGORIES_PATH } from './api.ts';

const listSchema = z.array(settlementCategorySchema);

/** /settlements/categories: the settlement categories (a settings table saved as a whole). */
export default function CategoriesPage() {
  const { t } = useTranslation();
  const writable = usePermission('settings:write');
  useAppBar({ title: t('menu.water') });
  const columns = useMemo<RowTableColumn[]>(() => {
    const label = (key: string) => t(`settlements.categories.${key}`);
    const money = (key: string): RowTableColumn => ({
      key,
      label: label(key),
      type: 'decimal',
      amount: 'money',
      min: '0',
      required: true,
      width: 95,
    });
    const percent = (key: string): RowTableColumn => ({
      key,
      label: label(key),
      type: 'decimal',
      amount: 'percent',
      min: '0',
      max: '100',
      required: true,
      width: 95,
    });
    const count = (key: string, max: number, min = 0): RowTableColumn => ({
      key,
      label: label(key),
      type: 'number',
      min,
      max,
      width: 95,
    });
    return [
      { key: 'code', label: label('code'), type: 'text', required: true, maxLength: 12, width: 70 },
      {
        key: 'description',
        label: label('description'),
        type: 'text',
        required: true,
        maxLength: 200,
        width: 200,
      },
      money('minInstalment'),
      money('maxInstalment'),
      count('maxInstalments', 120, 1),
      percent('minDownPaymentPercent'),
      count('intervalDays', 365),
      count('toleranceInstalments', 120),
      count('toleranceDays', 365),
      { key: 'waiveInterest', label: label('waiveInterest'), type: 'boolean', width: 70 },
      percent('discountPercent'),
      { key: 'active', label: label('active'), type: 'boolean', width: 60 },
    ];
  }, [t]);
  const fromServer = useCallback((item: SettlementCategory): DraftRow => ({ ...item }), []);
  const toPayload = useCallback(
    (row: TypedRow) => {
      const out: Record<string, unknown> = { id: row.id };
      for (const column of columns) out[column.key] = row[column.key] ?? null;
      return out;
    },
    [columns],
  );
  return (
    <Box data-testid="settlement-categories-page">
      <PageHeader
        title={t('settlements.categories.title')}
        subtitle={t('settlementsUi.categories.subtitle')}
        avatar={<TuneOutlinedIcon />}
      />
      <RowTable<SettlementCategory>
        path={CATEGORIES_PATH}
        title={t('settlements.categories.title')}
        columns={columns}
        fromServer={fromServer}
        toPayload={toPayload}
        parse={(data) => listSchema.parse(data)}
        rowSchema={settlementCategoryRowSchema}
        newRow={() => ({
          code: '',
          description: '',
          minInstalment: '20.00',
          maxInstalment: '5000.00',
          maxInstalments: 12,
          minDownPaymentPercent: '10.00',
          intervalDays: 0,
          toleranceInstalments: 1,
          toleranceDays: 30,
          waiveInterest: false,
          discountPercent: '0.00',
          active: true,
        })}
        descriptionColumn="description"
        readOnly={writable ? undefined : t('rowTable.readOnly')}
      />
    </Box>
  );
}
