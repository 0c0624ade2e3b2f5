import './i18n/index.ts';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import Box from '@mui/material/Box';
import { invoicePolicyRowSchema, invoicePolicySchema, type Periodicity } from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import type { RowTableColumn } from '../../components/RowTable/index.ts';
import { api } from '../../lib/api.ts';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { WaterTable } from './WaterTable.tsx';

const DATE_COLUMNS = ['fromdate', 'todate'] as const;

/** /water/invoice_policies: the invoice policies (spec §3) that consumers point to and billing reads. */
export default function InvoicePoliciesPage() {
  const { t } = useTranslation();
  useAppBar({ title: t('menu.water') });
  const periodicityPath = '/api/water_service/parametrics/periodicity';
  const periodicities = useQuery({
    queryKey: ['water', 'periodicity', periodicityPath],
    queryFn: ({ signal }) => api.get<Periodicity[]>(periodicityPath, { signal }),
  });
  const columns = useMemo<RowTableColumn[]>(() => {
    const p = 'water.invoicePolicies';
    return [
      {
        key: 'description',
        label: t(`${p}.description`),
        type: 'text',
        required: true,
        maxLength: 200,
        width: 180,
      },
      {
        key: 'fromdate',
        label: t(`${p}.fromdate`),
        type: 'text',
        required: true,
        placeholder: t('common.dateHint'),
        width: 125,
      },
      { key: 'todate', label: t(`${p}.todate`), type: 'text', placeholder: t('common.dateHint'), width: 125 },
      {
        key: 'periodicityId',
        label: t(`${p}.periodicity`),
        type: 'select',
        required: true,
        width: 140,
        options: (periodicities.data ?? []).map((row) => ({
          value: row.id,
          label: t('waterUi.periodicity', { months: row.periodicityType.id, year: row.startyear }),
        })),
      },
      { key: 'bonusdays', label: t(`${p}.bonusdays`), type: 'number', min: 0, max: 365, width: 65 },
      { key: 'expiredays', label: t(`${p}.expiredays`), type: 'number', min: 0, max: 365, width: 65 },
      { key: 'minConsumption', label: t(`${p}.minConsumption`), type: 'number', min: 0, width: 65 },
      {
        key: 'envtax',
        label: t(`${p}.envtax`),
        type: 'decimal',
        amount: 'price',
        min: '0',
        required: true,
        width: 80,
      },
      {
        key: 'resourcetax',
        label: t(`${p}.resourcetax`),
        type: 'decimal',
        amount: 'price',
        min: '0',
        required: true,
        width: 80,
      },
      { key: 'active', label: t(`${p}.active`), type: 'boolean', width: 60 },
    ];
  }, [t, periodicities.data]);
  return (
    <Box data-testid="invoice-policies-page">
      <PageHeader
        title={t('water.invoicePolicies.title')}
        subtitle={t('waterUi.invoicePoliciesSubtitle')}
        avatar={<ReceiptLongOutlinedIcon />}
      />
      {periodicities.error && (
        <RetryAlert error={periodicities.error} onRetry={() => void periodicities.refetch()} />
      )}
      {periodicities.data && (
        <WaterTable
          path="/api/water/invoice_policies"
          title={t('water.invoicePolicies.title')}
          columns={columns}
          itemSchema={invoicePolicySchema}
          rowSchema={invoicePolicyRowSchema}
          dateColumns={DATE_COLUMNS}
          newRow={() => ({
            description: '',
            fromdate: '',
            todate: '',
            periodicityId: periodicities.data[0]?.id ?? null,
            bonusdays: 0,
            expiredays: 30,
            minConsumption: 0,
            envtax: '0',
            resourcetax: '0',
            active: true,
          })}
        />
      )}
    </Box>
  );
}
