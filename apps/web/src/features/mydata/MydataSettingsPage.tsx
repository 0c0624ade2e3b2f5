import './i18n/index.ts';
import AddOutlinedIcon from '@mui/icons-material/AddOutlined';
import DeleteOutlineOutlinedIcon from '@mui/icons-material/DeleteOutlineOutlined';
import SettingsInputAntennaOutlinedIcon from '@mui/icons-material/SettingsInputAntennaOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import {
  type MydataSettings,
  mydataEnvironments,
  mydataInvoiceTypes,
  paymentMethods,
  type SaveMydataSettings,
  saveMydataSettingsSchema,
  vatCharges,
} from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type Control, type FieldArrayPath, useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { RecordFormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { Section, SelectField } from '../../components/form/fields.tsx';
import type { FormContract } from '../../components/form/resolver.ts';
import { useRecordForm } from '../../components/form/useRecordForm.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useCan } from '../../lib/permissions.ts';
import { mydataApi, settingsKey } from './api.ts';

/** The form holds what is typed (strings); numbers are made on save, and the contract checks them. */
interface FormValues {
  environment: string;
  testUrl: string;
  productionUrl: string;
  branch: string;
  exemptionCause: string;
  /** '' sends every water bill as its series' type. */
  businessBillType: string;
  vatCategories: { percent: string; category: string }[];
  classifications: { invoiceType: string; category: string; type: string }[];
  serviceClassifications: { serviceCode: string; category: string; type: string }[];
  accountClassifications: { accountCode: string; category: string; type: string }[];
  taxCodes: { kind: string; percent: string; category: string }[];
  paymentMethods: { method: string; type: string }[];
  billPaymentMethod: string;
  chargeClassifications: { charge: string; invoiceType: string; category: string; type: string }[];
}

function toForm(s: MydataSettings): FormValues {
  const m = s.mappings;
  return {
    environment: s.environment,
    testUrl: s.testUrl,
    productionUrl: s.productionUrl,
    branch: String(s.branch),
    exemptionCause: String(m.exemptionCause),
    businessBillType: m.businessBillType ?? '',
    vatCategories: m.vatCategories.map((r) => ({ percent: r.percent, category: String(r.category) })),
    classifications: m.classifications.map((r) => ({ ...r, type: r.type ?? '' })),
    serviceClassifications: m.serviceClassifications.map((r) => ({ ...r, type: r.type ?? '' })),
    accountClassifications: (m.accountClassifications ?? []).map((r) => ({ ...r, type: r.type ?? '' })),
    taxCodes: m.taxCodes.map((r) => ({
      kind: String(r.kind),
      percent: r.percent ?? '',
      category: String(r.category),
    })),
    paymentMethods: (m.paymentMethods ?? []).map((r) => ({ method: String(r.method), type: String(r.type) })),
    billPaymentMethod: String(m.billPaymentMethod ?? 5),
    chargeClassifications: (m.chargeClassifications ?? []).map((r) => ({ ...r, type: r.type ?? '' })),
  };
}

function toBody(v: FormValues): SaveMydataSettings {
  return {
    environment: v.environment as SaveMydataSettings['environment'],
    testUrl: v.testUrl.trim(),
    productionUrl: v.productionUrl.trim(),
    branch: Number(v.branch),
    mappings: {
      vatCategories: v.vatCategories.map((r) => ({
        percent: r.percent.trim(),
        category: Number(r.category),
      })),
      exemptionCause: Number(v.exemptionCause),
      businessBillType: (v.businessBillType || null) as SaveMydataSettings['mappings']['businessBillType'],
      classifications: v.classifications.map((r) => ({ ...r, type: r.type.trim() || null })),
      serviceClassifications: v.serviceClassifications.map((r) => ({ ...r, type: r.type.trim() || null })),
      accountClassifications: v.accountClassifications.map((r) => ({ ...r, type: r.type.trim() || null })),
      taxCodes: v.taxCodes.map((r) => ({
        kind: Number(r.kind),
        percent: r.percent.trim() || null,
        category: Number(r.category),
      })),
      paymentMethods: v.paymentMethods.map((r) => ({
        method: Number(r.method) as (typeof paymentMethods)[number],
        type: Number(r.type),
      })),
      billPaymentMethod: Number(v.billPaymentMethod),
      chargeClassifications: v.chargeClassifications.map((r) => ({
        charge: r.charge as (typeof vatCharges)[number],
        invoiceType: r.invoiceType as (typeof mydataInvoiceTypes)[number],
        category: r.category,
        type: r.type.trim() || null,
      })),
    },
  };
}

const contract: FormContract<FormValues, SaveMydataSettings> = {
  schema: saveMydataSettingsSchema,
  toBody,
  // The mappings are fields of the form's top level.
  mapError: (error) => ({ ...error, field: error.field.replace(/^mappings\./, '') }),
};

type ArrayName = FieldArrayPath<FormValues>;
interface Column {
  key: string;
  label: string;
  width: number;
  options?: { value: string; label: string }[];
}

/** An editable table of one mapping: a row per rule, added and removed in place. */
function MappingRows({
  control,
  name,
  columns,
  empty,
  readOnly,
}: {
  control: Control<FormValues>;
  name: ArrayName;
  columns: Column[];
  empty: Record<string, string>;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ control, name });
  return (
    <Stack spacing={1.25} data-testid={`mydata-${name}`}>
      {fields.map((row, index) => (
        <Box key={row.id} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          {columns.map((column) => {
            const field = `${name}.${index}.${column.key}` as never;
            return (
              <Box key={column.key} sx={{ flex: `1 1 ${column.width}px`, minWidth: 0 }}>
                {column.options ? (
                  <SelectField
                    control={control}
                    name={field}
                    label={column.label}
                    options={column.options}
                    testId={`mydata-${name}-${index}-${column.key}`}
                    disabled={readOnly}
                  />
                ) : (
                  <FormTextField
                    control={control}
                    name={field}
                    label={column.label}
                    testId={`mydata-${name}-${index}-${column.key}`}
                    disabled={readOnly}
                    autoComplete="off"
                  />
                )}
              </Box>
            );
          })}
          <IconButton
            aria-label={t('mydata.settings.removeRow')}
            onClick={() => remove(index)}
            disabled={readOnly}
            sx={{ mt: 1 }}
          >
            <DeleteOutlineOutlinedIcon fontSize="small" />
          </IconButton>
        </Box>
      ))}
      {!readOnly && (
        <Box>
          <Button
            size="small"
            startIcon={<AddOutlinedIcon />}
            onClick={() => append(empty as never)}
            data-testid={`mydata-${name}-add`}
          >
            {t('mydata.settings.addRow')}
          </Button>
        </Box>
      )}
    </Stack>
  );
}

function SettingsForm({ settings }: { settings: MydataSettings }) {
  const { t } = useTranslation();
  const can = useCan();
  const readOnly = !can('mydata:admin');
  const initial = useMemo(() => toForm(settings), [settings]);
  const record = useRecordForm({
    record: settings,
    initial,
    contract,
    update: (_current, body) => mydataApi.saveSettings(body),
    queryKey: () => settingsKey(),
    savedMessage: () => t('mydata.settings.saved'),
  });
  const { control } = record;
  const invoiceTypes = mydataInvoiceTypes.map((value) => ({
    value,
    label: `${value} · ${t(`mydata.invoiceType.${value.replace('.', '_')}`)}`,
  }));
  const taxKinds = [1, 2, 3, 4, 5, 6].map((k) => ({ value: String(k), label: t(`mydata.taxKind.${k}`) }));
  const methods = paymentMethods.map((k) => ({ value: String(k), label: t(`mydata.paymentMethod.${k}`) }));
  const paymentTypes = [1, 2, 3, 4, 5, 6, 7, 8].map((k) => ({
    value: String(k),
    label: `${k} · ${t(`mydata.paymentType.${k}`)}`,
  }));
  const charges = vatCharges.map((value) => ({ value, label: t(`mydata.charge.${value}`) }));
  const classification = (first: Column): Column[] => [
    first,
    { key: 'category', label: t('mydata.settings.classificationCategory'), width: 120 },
    { key: 'type', label: t('mydata.settings.classificationType'), width: 120 },
  ];
  return (
    <Box
      component="form"
      noValidate
      onSubmit={record.submit}
      data-testid="mydata-settings-form"
      autoComplete="off"
    >
      {!settings.credentialsSet && (
        <Alert
          severity={settings.localAade ? 'info' : 'warning'}
          sx={{ mb: 3 }}
          data-testid="mydata-no-credentials"
        >
          {t(settings.localAade ? 'mydata.settings.localAade' : 'mydata.settings.noCredentials')}
        </Alert>
      )}
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 5 }}>
          <Stack spacing={3}>
            <Section title={t('mydata.settings.connection')} hint={t('mydata.settings.connectionHint')}>
              <Stack spacing={2.25}>
                <SelectField
                  control={control}
                  name="environment"
                  label={t('mydata.settings.environment')}
                  options={mydataEnvironments.map((value) => ({
                    value,
                    label: t(`mydata.environment.${value}`),
                  }))}
                  testId="mydata-environment"
                  disabled={readOnly}
                />
                <FormTextField
                  control={control}
                  name="testUrl"
                  label={t('mydata.settings.testUrl')}
                  testId="mydata-testUrl"
                  disabled={readOnly}
                  autoComplete="off"
                />
                <FormTextField
                  control={control}
                  name="productionUrl"
                  label={t('mydata.settings.productionUrl')}
                  testId="mydata-productionUrl"
                  disabled={readOnly}
                  autoComplete="off"
                />
                <FormTextField
                  control={control}
                  name="branch"
                  label={t('mydata.settings.branch')}
                  helperText={t('mydata.settings.branchHint')}
                  testId="mydata-branch"
                  disabled={readOnly}
                  autoComplete="off"
                />
              </Stack>
            </Section>
            <Section title={t('mydata.settings.vat')} hint={t('mydata.settings.vatHint')}>
              <Stack spacing={2.25}>
                <MappingRows
                  control={control}
                  name="vatCategories"
                  readOnly={readOnly}
                  empty={{ percent: '', category: '' }}
                  columns={[
                    { key: 'percent', label: t('mydata.settings.vatPercent'), width: 100 },
                    { key: 'category', label: t('mydata.settings.vatCategory'), width: 100 },
                  ]}
                />
                <FormTextField
                  control={control}
                  name="exemptionCause"
                  label={t('mydata.settings.exemptionCause')}
                  helperText={t('mydata.settings.exemptionCauseHint')}
                  testId="mydata-exemptionCause"
                  disabled={readOnly}
                  autoComplete="off"
                />
              </Stack>
            </Section>
            <Section title={t('mydata.settings.waterBills')} hint={t('mydata.settings.waterBillsHint')}>
              <SelectField
                control={control}
                name="businessBillType"
                label={t('mydata.settings.businessBillType')}
                options={[
                  { value: '', label: t('mydata.settings.businessBillTypeNone') },
                  ...(['1.1', '2.1'] as const).map((value) => ({
                    value,
                    label: `${value} · ${t(`mydata.invoiceType.${value.replace('.', '_')}`)}`,
                  })),
                ]}
                testId="mydata-businessBillType"
                disabled={readOnly}
              />
              <Box sx={{ mt: 2.25 }}>
                <SelectField
                  control={control}
                  name="billPaymentMethod"
                  label={t('mydata.settings.billPaymentMethod')}
                  options={paymentTypes}
                  testId="mydata-billPaymentMethod"
                  disabled={readOnly}
                />
              </Box>
            </Section>
            <Section
              title={t('mydata.settings.paymentMethods')}
              hint={t('mydata.settings.paymentMethodsHint')}
            >
              <MappingRows
                control={control}
                name="paymentMethods"
                readOnly={readOnly}
                empty={{ method: '', type: '' }}
                columns={[
                  { key: 'method', label: t('mydata.settings.paymentMethod'), width: 180, options: methods },
                  { key: 'type', label: t('mydata.settings.paymentType'), width: 180, options: paymentTypes },
                ]}
              />
            </Section>
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Stack spacing={3}>
            <Section
              title={t('mydata.settings.classifications')}
              hint={t('mydata.settings.classificationsHint')}
            >
              <MappingRows
                control={control}
                name="classifications"
                readOnly={readOnly}
                empty={{ invoiceType: '2.1', category: '', type: '' }}
                columns={classification({
                  key: 'invoiceType',
                  label: t('mydata.settings.invoiceType'),
                  width: 200,
                  options: invoiceTypes,
                })}
              />
            </Section>
            <Section
              title={t('mydata.settings.serviceClassifications')}
              hint={t('mydata.settings.serviceClassificationsHint')}
            >
              <MappingRows
                control={control}
                name="serviceClassifications"
                readOnly={readOnly}
                empty={{ serviceCode: '', category: '', type: '' }}
                columns={classification({
                  key: 'serviceCode',
                  label: t('mydata.settings.serviceCode'),
                  width: 140,
                })}
              />
            </Section>
            <Section
              title={t('mydata.settings.accountClassifications')}
              hint={t('mydata.settings.accountClassificationsHint')}
            >
              <MappingRows
                control={control}
                name="accountClassifications"
                readOnly={readOnly}
                empty={{ accountCode: '', category: '', type: '' }}
                columns={classification({
                  key: 'accountCode',
                  label: t('mydata.settings.accountCode'),
                  width: 140,
                })}
              />
            </Section>
            <Section
              title={t('mydata.settings.chargeClassifications')}
              hint={t('mydata.settings.chargeClassificationsHint')}
            >
              <MappingRows
                control={control}
                name="chargeClassifications"
                readOnly={readOnly}
                empty={{ charge: 'water', invoiceType: '11.2', category: '', type: '' }}
                columns={[
                  { key: 'charge', label: t('mydata.settings.charge'), width: 170, options: charges },
                  {
                    key: 'invoiceType',
                    label: t('mydata.settings.invoiceType'),
                    width: 85,
                    options: mydataInvoiceTypes.map((value) => ({ value, label: value })),
                  },
                  { key: 'category', label: t('mydata.settings.classificationCategory'), width: 125 },
                  { key: 'type', label: t('mydata.settings.classificationType'), width: 125 },
                ]}
              />
            </Section>
            <Section title={t('mydata.settings.taxCodes')} hint={t('mydata.settings.taxCodesHint')}>
              <MappingRows
                control={control}
                name="taxCodes"
                readOnly={readOnly}
                empty={{ kind: '3', percent: '', category: '' }}
                columns={[
                  { key: 'kind', label: t('mydata.settings.taxKind'), width: 180, options: taxKinds },
                  { key: 'percent', label: t('mydata.settings.taxPercent'), width: 90 },
                  { key: 'category', label: t('mydata.settings.taxCategory'), width: 90 },
                ]}
              />
            </Section>
          </Stack>
        </Grid>
      </Grid>
      <RecordFormFooter
        record={record}
        texts="mydata.settings"
        testIdPrefix="mydata-settings"
        readOnly={readOnly}
      />
    </Box>
  );
}

/** /settings/mydata: where documents go (test or production) and how they translate into myDATA's codes. */
export default function MydataSettingsPage() {
  const { t } = useTranslation();
  useAppBar({ title: t('mydata.settings.title') });
  const query = useQuery({
    queryKey: settingsKey(),
    queryFn: ({ signal }) => mydataApi.settings(signal),
  });
  return (
    <>
      <PageHeader
        title={t('mydata.settings.title')}
        subtitle={t('mydata.settings.subtitle')}
        avatar={<SettingsInputAntennaOutlinedIcon />}
        testId="mydata-settings-header"
      />
      {query.isError ? (
        <RetryAlert error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data ? (
        <SettingsForm settings={query.data} />
      ) : (
        <Skeleton variant="rounded" height={420} />
      )}
    </>
  );
}
