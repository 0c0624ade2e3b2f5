import './i18n/index.ts';
import DiscountOutlinedIcon from '@mui/icons-material/DiscountOutlined';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  type DiscountableCharge,
  type DiscountPolicyItem,
  discountableCharges,
  parseDecimal,
  type SaveDiscountPolicyInput,
  saveDiscountPolicySchema,
} from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type Control, Controller, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import ForbiddenPage from '../../components/errors/ForbiddenPage.tsx';
import { RecordFallback } from '../../components/errors/RecordFallback.tsx';
import { wireDate } from '../../components/form/dates.ts';
import { RecordFormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { Section, SelectField, SwitchField } from '../../components/form/fields.tsx';
import { RecordRoute } from '../../components/form/RecordRoute.tsx';
import { useRecordForm } from '../../components/form/useRecordForm.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { formatDate } from '../../lib/dates.ts';
import { fieldMessage } from '../../lib/errors.ts';
import { useCan } from '../../lib/permissions.ts';
import { billingApi, discountKey, useCoded } from './api.ts';

interface Values {
  description: string;
  fromdate: string;
  todate: string;
  reduction: string;
  amountType: string;
  calculation: string;
  amount: string;
  charges: DiscountableCharge[];
  specialRegulationIds: number[];
  active: boolean;
}

const EMPTY: Values = {
  description: '',
  fromdate: '',
  todate: '',
  reduction: '1',
  amountType: '2',
  calculation: '2',
  amount: '',
  charges: ['water'],
  specialRegulationIds: [],
  active: true,
};

const toForm = (d: DiscountPolicyItem): Values => ({
  description: d.description,
  fromdate: formatDate(d.fromdate),
  todate: d.todate ? formatDate(d.todate) : '',
  reduction: String(d.reduction),
  amountType: String(d.amountType),
  calculation: String(d.calculation),
  amount: d.amount,
  charges: d.charges,
  specialRegulationIds: d.specialRegulationIds,
  active: d.active,
});

const toBody = (v: Values): SaveDiscountPolicyInput => ({
  description: v.description,
  fromdate: wireDate(v.fromdate) ?? '',
  todate: wireDate(v.todate),
  reduction: Number(v.reduction) as 1 | -1,
  amountType: Number(v.amountType) as 1 | 2,
  calculation: Number(v.calculation) as 1 | 2,
  amount: parseDecimal(v.amount)?.toString() ?? v.amount.trim(),
  charges: v.charges,
  specialRegulationIds: v.specialRegulationIds,
  active: v.active,
});

/** Checkboxes bound to an array field of the form (charges, regulations). */
function CheckList<T extends string | number>({
  control,
  name,
  options,
  disabled,
  testId,
}: {
  control: Control<Values>;
  name: FieldPath<Values>;
  options: { value: T; label: string }[];
  disabled: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const value = field.value as T[];
        return (
          <Box data-testid={testId}>
            {options.map((option) => (
              <FormControlLabel
                key={option.value}
                label={option.label}
                control={
                  <Checkbox
                    checked={value.includes(option.value)}
                    disabled={disabled}
                    onChange={(_, checked) =>
                      field.onChange(
                        checked ? [...value, option.value] : value.filter((v) => v !== option.value),
                      )
                    }
                  />
                }
              />
            ))}
            {fieldState.error && (
              <FormHelperText error>{fieldMessage(t, fieldState.error.message)}</FormHelperText>
            )}
          </Box>
        );
      }}
    />
  );
}

function DiscountForm({ item }: { item?: DiscountPolicyItem }) {
  const { t } = useTranslation();
  const can = useCan();
  const writable = can('billing:write');
  const initial = useMemo(() => (item ? toForm(item) : EMPTY), [item]);
  const regulations = useCoded('specialRegulations');
  const record = useRecordForm({
    record: item,
    initial,
    contract: { schema: saveDiscountPolicySchema, toBody },
    create: (body) => billingApi.createDiscount(body),
    update: (current, body) => billingApi.updateDiscount(current.id, body),
    queryKey: (saved) => [...discountKey, 'one', saved.id],
    invalidate: [discountKey],
    savedMessage: (saved, creating) =>
      t(creating ? 'billingUi.discounts.created' : 'billingUi.discounts.updated', {
        name: saved.description,
      }),
    editPath: (saved) => `/billing/discount_policies/${saved.id}/edit`,
  });
  const { control } = record;
  const d = (key: string) => t(`billingUi.discounts.${key}`);
  const choice = (field: string, values: number[]) =>
    values.map((v) => ({ value: String(v), label: d(`${field}_${v}`) }));
  return (
    <Box component="form" noValidate onSubmit={record.submit}>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Section title={t('billingUi.pricing.details')}>
            <Grid container spacing={2}>
              <Grid size={12}>
                <FormTextField
                  control={control}
                  name="description"
                  label={t('billingUi.pricing.description')}
                  required
                  testId="discount-description"
                  disabled={!writable}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 4 }}>
                <SelectField
                  control={control}
                  name="reduction"
                  label={d('reduction')}
                  options={choice('reduction', [1, -1])}
                  testId="discount-reduction"
                  disabled={!writable}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 4 }}>
                <SelectField
                  control={control}
                  name="amountType"
                  label={d('amountType')}
                  options={choice('amountType', [2, 1])}
                  testId="discount-amountType"
                  disabled={!writable}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 4 }}>
                <SelectField
                  control={control}
                  name="calculation"
                  label={d('calculation')}
                  options={choice('calculation', [2, 1])}
                  testId="discount-calculation"
                  disabled={!writable}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 4 }}>
                <FormTextField
                  control={control}
                  name="amount"
                  label={d('amount')}
                  required
                  testId="discount-amount"
                  disabled={!writable}
                />
              </Grid>
              <Grid size={{ xs: 6, sm: 4 }}>
                <FormTextField
                  control={control}
                  name="fromdate"
                  label={t('billingUi.pricing.fromdate')}
                  required
                  testId="discount-fromdate"
                  disabled={!writable}
                />
              </Grid>
              <Grid size={{ xs: 6, sm: 4 }}>
                <FormTextField
                  control={control}
                  name="todate"
                  label={t('billingUi.pricing.todate')}
                  testId="discount-todate"
                  disabled={!writable}
                />
              </Grid>
              <Grid size={12}>
                <SwitchField
                  control={control}
                  name="active"
                  label={t('billingUi.pricing.active')}
                  testId="discount-active"
                />
              </Grid>
            </Grid>
          </Section>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Stack spacing={3}>
            <Section title={d('charges')}>
              <CheckList
                control={control}
                name="charges"
                options={discountableCharges.map((c) => ({ value: c, label: t(`billing.charge.${c}`) }))}
                disabled={!writable}
                testId="discount-charges"
              />
            </Section>
            <Section title={d('regulations')} hint={d('regulationsHint')}>
              <CheckList
                control={control}
                name="specialRegulationIds"
                options={regulations.map((r) => ({ value: r.id, label: r.description }))}
                disabled={!writable}
                testId="discount-regulations"
              />
              {regulations.length === 0 && <Typography variant="body2">—</Typography>}
            </Section>
          </Stack>
        </Grid>
      </Grid>
      <RecordFormFooter record={record} texts="billingUi.form" testIdPrefix="discount" readOnly={!writable} />
    </Box>
  );
}

function CreateDiscount() {
  const { t } = useTranslation();
  const can = useCan();
  useAppBar({ title: t('billingUi.discounts.createTitle') });
  if (!can('billing:write')) return <ForbiddenPage />;
  return (
    <Box data-testid="discount-page">
      <PageHeader title={t('billingUi.discounts.createTitle')} avatar={<DiscountOutlinedIcon />} />
      <DiscountForm />
    </Box>
  );
}

function EditDiscount({ id }: { id: number }) {
  const { t } = useTranslation();
  useAppBar({ title: t('billingUi.discounts.editTitle') });
  const query = useQuery({
    queryKey: [...discountKey, 'one', id],
    queryFn: ({ signal }) => billingApi.discountOne(id, signal),
  });
  const item = query.data;
  if (query.error || !item)
    return <RecordFallback error={query.error} onRetry={() => void query.refetch()} bodyHeight={320} />;
  return (
    <Box data-testid="discount-page">
      <PageHeader title={item.description} avatar={<DiscountOutlinedIcon />} />
      <DiscountForm item={item} />
    </Box>
  );
}

/** /billing/discount_policies/create and …/{id}/edit: who is eligible, on which charges, how much. */
export default function DiscountPolicyEditPage() {
  return (
    <RecordRoute
      param="policyId"
      create={<CreateDiscount />}
      edit={(id) => <EditDiscount key={id} id={id} />}
    />
  );
}
