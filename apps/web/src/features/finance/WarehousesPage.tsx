import WarehouseOutlinedIcon from '@mui/icons-material/WarehouseOutlined';
import { type Warehouse, warehouseRowSchema, warehouseSchema, warehouseTypes } from '@protocol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../components/RowTable/index.ts';
import { WAREHOUSES_PATH } from './api.ts';
import { FinanceTable } from './FinanceTable.tsx';

/** /finance/warehouses: the company's warehouses (1 normal, 2 consumables, 3 damaged, 4 other). */
export default function WarehousesPage() {
  const { t } = useTranslation();
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'code',
        label: t('finance.warehouses.code'),
        type: 'text',
        required: true,
        maxLength: 20,
        width: 110,
      },
      {
        key: 'descr',
        label: t('finance.warehouses.descr'),
        type: 'text',
        required: true,
        maxLength: 200,
        width: 300,
      },
      {
        key: 'type',
        label: t('finance.warehouses.type'),
        type: 'select',
        required: true,
        width: 170,
        options: warehouseTypes.map((value) => ({ value, label: t(`finance.warehouses.type_${value}`) })),
      },
      { key: 'active', label: t('finance.warehouses.active'), type: 'boolean', width: 90 },
    ],
    [t],
  );
  return (
    <FinanceTable<Warehouse>
      path={WAREHOUSES_PATH}
      titleKey="finance.warehouses.title"
      subtitleKey="finance.warehouses.subtitle"
      icon={WarehouseOutlinedIcon}
      testId="finance-warehouses"
      columns={columns}
      itemSchema={warehouseSchema}
      rowSchema={warehouseRowSchema}
      newRow={() => ({ code: '', descr: '', type: 1, active: true })}
      write="finance:write"
    />
  );
}
