import MiscellaneousServicesOutlinedIcon from '@mui/icons-material/MiscellaneousServicesOutlined';
import { type Service, serviceRowSchema, serviceSchema } from '@protocol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RowTableColumn } from '../../components/RowTable/index.ts';
import { SERVICES_PATH, useAccounts } from './api.ts';
import { FinanceTable } from './FinanceTable.tsx';

/** The analytic accounts as options (only they take entries). */
export function useAnalyticAccountOptions(kind?: number) {
  const { rows } = useAccounts();
  return useMemo(
    () =>
      rows
        .filter((a) => a.aggregate === 0 && (kind === undefined || a.kind === kind))
        .map((a) => ({ value: a.id, label: `${a.code} · ${a.descr}` })),
    [rows, kind],
  );
}

/** /finance/services: what documents sell as services, with price, VAT and income account. */
export default function ServicesPage() {
  const { t } = useTranslation();
  const accounts = useAnalyticAccountOptions(1);
  const columns = useMemo<RowTableColumn[]>(
    () => [
      {
        key: 'code',
        label: t('finance.services.code'),
        type: 'text',
        required: true,
        maxLength: 30,
        width: 110,
      },
      {
        key: 'descr',
        label: t('finance.services.descr'),
        type: 'text',
        required: true,
        maxLength: 200,
        width: 280,
      },
      { key: 'unit', label: t('finance.services.unit'), type: 'text', maxLength: 20, width: 90 },
      {
        key: 'price',
        label: t('finance.services.price'),
        type: 'decimal',
        amount: 'price',
        min: '0',
        required: true,
        width: 110,
      },
      {
        key: 'vatPercent',
        label: t('finance.services.vatPercent'),
        type: 'decimal',
        amount: 'percent',
        min: '0',
        max: '100',
        required: true,
        width: 90,
      },
      {
        key: 'vatCategory',
        label: t('finance.services.vatCategory'),
        type: 'number',
        min: 1,
        max: 9,
        width: 100,
      },
      {
        key: 'accountId',
        label: t('finance.services.account'),
        type: 'select',
        width: 260,
        options: accounts,
      },
      { key: 'active', label: t('finance.services.active'), type: 'boolean', width: 90 },
    ],
    [t, accounts],
  );
  return (
    <FinanceTable<Service>
      path={SERVICES_PATH}
      titleKey="finance.services.title"
      subtitleKey="finance.services.subtitle"
      icon={MiscellaneousServicesOutlinedIcon}
      testId="finance-services"
      columns={columns}
      itemSchema={serviceSchema}
      rowSchema={serviceRowSchema}
      newRow={() => ({
        code: '',
        descr: '',
        unit: null,
        price: '0',
        vatPercent: '24',
        vatCategory: 1,
        accountId: null,
        active: true,
      })}
      write="finance:write"
    />
  );
}
