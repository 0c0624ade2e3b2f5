import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import { type Item, itemRowSchema, itemSchema } from '@protocol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../components/RowTable/index.ts';
import { ITEMS_PATH, useWarehouses } from './api.ts';
import { FinanceTable } from './FinanceTable.tsx';
import { useAnalyticAccountOptions } from './ServicesPage.tsx';
import { StockPanel } from './StockPanel.tsx';

/**
 * /finance/items: warehouse items with barcode (EAN-13 check digit), CPV, prices, groups 1–4 and the
 * stock their documents moved (read-only: stock moves only through documents).
 */
export default function ItemsPage() {
  const { t } = useTranslation();
  const accounts = useAnalyticAccountOptions();
  const { rows: warehouses } = useWarehouses();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'code',
        label: t('finance.items.code'),
        type: 'text',
        required: true,
        maxLength: 30,
        width: 100,
      },
      {
        key: 'descr',
        label: t('finance.items.descr'),
        type: 'text',
        required: true,
        maxLength: 200,
        width: 240,
      },
      { key: 'barcode', label: t('finance.items.barcode'), type: 'text', maxLength: 13, width: 150 },
      {
        key: 'cpv',
        label: t('finance.items.cpv'),
        type: 'text',
        maxLength: 10,
        width: 120,
        placeholder: 'NNNNNNNN-N',
      },
      { key: 'unit', label: t('finance.items.unit'), type: 'text', maxLength: 20, width: 80 },
      {
        key: 'purchasePrice',
        label: t('finance.items.purchasePrice'),
        type: 'decimal',
        amount: 'price',
        min: '0',
        required: true,
        width: 100,
      },
      {
        key: 'salePrice',
        label: t('finance.items.salePrice'),
        type: 'decimal',
        amount: 'price',
        min: '0',
        required: true,
        width: 100,
      },
      {
        key: 'vatPercent',
        label: t('finance.items.vatPercent'),
        type: 'decimal',
        amount: 'percent',
        min: '0',
        max: '100',
        required: true,
        width: 80,
      },
      { key: 'accountId', label: t('finance.items.account'), type: 'select', width: 220, options: accounts },
      {
        key: 'warehouseId',
        label: t('finance.items.warehouse'),
        type: 'select',
        width: 170,
        options: warehouses.map((w) => ({ value: w.id, label: w.descr })),
      },
      { key: 'group1', label: t('finance.items.group1'), type: 'text', maxLength: 60, width: 120 },
      { key: 'group2', label: t('finance.items.group2'), type: 'text', maxLength: 60, width: 120 },
      { key: 'group3', label: t('finance.items.group3'), type: 'text', maxLength: 60, width: 120 },
      { key: 'group4', label: t('finance.items.group4'), type: 'text', maxLength: 60, width: 120 },
      { key: 'active', label: t('finance.items.active'), type: 'boolean', width: 80 },
    ],
    [t, accounts, warehouses],
  );
  return (
    <FinanceTable<Item>
      path={ITEMS_PATH}
      titleKey="finance.items.title"
      subtitleKey="finance.items.subtitle"
      icon={Inventory2OutlinedIcon}
      testId="finance-items"
      columns={columns}
      itemSchema={itemSchema}
      rowSchema={itemRowSchema}
      newRow={() => ({
        code: '',
        descr: '',
        barcode: null,
        cpv: null,
        unit: null,
        purchasePrice: '0',
        salePrice: '0',
        vatPercent: '24',
        accountId: null,
        warehouseId: warehouses[0]?.id ?? null,
        group1: null,
        group2: null,
        group3: null,
        group4: null,
        active: true,
      })}
      write="finance:write"
      below={<StockPanel />}
    />
  );
}
