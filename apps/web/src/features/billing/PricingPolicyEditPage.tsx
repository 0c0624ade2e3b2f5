import './i18n/index.ts';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import PriceChangeOutlinedIcon from '@mui/icons-material/PriceChangeOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  Decimal,
  formatDecimal,
  type Language,
  type PricingPolicy,
  parseDecimal,
  type SavePricingPolicyInput,
  savePricingPolicySchema,
  type VatCharge,
  vatCharges,
} from '@protocol/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Controller, useFieldArray } from 'react-hook-form';
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
import { useLang } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { billingApi, pricingKey, useCoded, useVatPercentages } from './api.ts';

interface Values {
  description: string;
  propertyUsageId: string;
  fromdate: string;
  todate: string;
  baseMonths: string;
  fixedCharges: { charge: 'waterFixed' | 'sewerageFixed'; pipeDiameterId: string; amount: string }[];
  bands: { upTo: string; price: string }[];
  sewerageMode: 'percent' | 'perCubicMetre' | 'none';
  sewerageValue: string;
  sewerageIndicatorIds: number[];
  specialFees: { description: string; amount: string }[];
  vat: Record<VatCharge, string>;
  active: boolean;
}

const EMPTY: Values = {
  description: '',
  propertyUsageId: '',
  fromdate: '',
  todate: '',
  baseMonths: '4',
  fixedCharges: [{ charge: 'waterFixed', pipeDiameterId: '', amount: '' }],
  bands: [
    { upTo: '', price: '' },
    { upTo: '', price: '' },
  ],
  sewerageMode: 'percent',
  sewerageValue: '',
  sewerageIndicatorIds: [],
  specialFees: [],
  vat: Object.fromEntries(vatCharges.map((c) => [c, ''])) as Record<VatCharge, string>,
  active: true,
};

/** A number typed either way ("0,50", "0.50") as the wire's decimal; as typed when it is none, for the contract to refuse. */
const decimal = (value: string) => parseDecimal(value)?.toString() ?? value.trim();
const shown = (value: string | null) => (value ? formatDate(value) : '');
const toForm = (p: PricingPolicy, language: Language): Values => {
  /** Decimals as people type them: no trailing zeros, the language's point ("0.4000" → "0,40"). */
  const typed = (value: string, minScale = 0) =>
    formatDecimal(value, language, minScale)
      .split(language === 'el' ? '.' : ',')
      .join('');
  return {
    description: p.description,
    propertyUsageId: String(p.propertyUsageId),
    fromdate: shown(p.fromdate),
    todate: shown(p.todate),
    baseMonths: String(p.baseMonths),
    fixedCharges: p.fixedCharges.map((f) => ({
      charge: f.charge,
      pipeDiameterId: f.pipeDiameterId === null ? '' : String(f.pipeDiameterId),
      amount: typed(f.amount, 2),
    })),
    bands: p.bands.map((b) => ({ upTo: b.upTo === null ? '' : typed(b.upTo), price: typed(b.price, 2) })),
    sewerageMode: p.sewerageMode,
    sewerageValue: typed(p.sewerageValue),
    sewerageIndicatorIds: p.sewerageIndicatorIds,
    specialFees: p.specialFees.map((f) => ({ description: f.description, amount: typed(f.amount, 2) })),
    vat: Object.fromEntries(vatCharges.map((c) => [c, String(p.vat[c] ?? '')])) as Record<VatCharge, string>,
    active: p.active,
  };
};

const toBody = (v: Values): SavePricingPolicyInput => ({
  description: v.description,
  propertyUsageId: Number(v.propertyUsageId),
  fromdate: wireDate(v.fromdate) ?? '',
  todate: wireDate(v.todate),
  baseMonths: Number(v.baseMonths),
  fixedCharges: v.fixedCharges.map((f) => ({
    charge: f.charge,
    pipeDiameterId: f.pipeDiameterId ? Number(f.pipeDiameterId) : null,
    amount: decimal(f.amount),
  })),
  // The last band is open: its limit is not asked.
  bands: v.bands.map((b, i) => ({
    upTo: i === v.bands.length - 1 ? null : decimal(b.upTo),
    price: decimal(b.price),
  })),
  sewerageMode: v.sewerageMode,
  sewerageValue: decimal(v.sewerageValue || '0'),
  sewerageIndicatorIds: v.sewerageIndicatorIds,
  specialFees: v.specialFees.map((f) => ({ description: f.description, amount: decimal(f.amount) })),
  vat: Object.fromEntries(vatCharges.map((c) => [c, Number(v.vat[c])])) as Record<VatCharge, number>,
  active: v.active,
});

function PricingForm({ item }: { item?: PricingPolicy }) {
  const { t } = useTranslation();
  const can = useCan();
  const language = useLang();
  const writable = can('billing:write');
  const usages = useCoded('propertyUsages');
  const diameters = useCoded('pipeDiameters');
  const indicators = useCoded('sewerageIndicators');
  const vat = useVatPercentages();
  // A new tariff starts with the usual rates: 13% on water and its fixed charge, 24% on the rest.
  const initial = useMemo(() => {
    if (item) return toForm(item, language);
    const rate = (percent: number) =>
      String(vat.find((v) => new Decimal(v.percentage).eq(percent))?.id ?? '');
    const water: VatCharge[] = ['waterFixed', 'water', 'resource', 'environmental'];
    const defaults = Object.fromEntries(vatCharges.map((c) => [c, rate(water.includes(c) ? 13 : 24)]));
    return { ...EMPTY, vat: defaults as Record<VatCharge, string> };
  }, [item, vat, language]);
  const record = useRecordForm({
    record: item,
    initial,
    contract: { schema: savePricingPolicySchema, toBody },
    create: (body) => billingApi.createPricing(body),
    update: (current, body) => billingApi.updatePricing(current.id, body),
    queryKey: (saved) => [...pricingKey, 'one', saved.id],
    invalidate: [pricingKey],
    savedMessage: (saved, creating) =>
      t(creating ? 'billingUi.pricing.created' : 'billingUi.pricing.updated', { name: saved.description }),
    editPath: (saved) => `/billing/pricing_policies/${saved.id}/edit`,
  });
  const { control } = record;
  const bands = useFieldArray({ control, name: 'bands' });
  const fixed = useFieldArray({ control, name: 'fixedCharges' });
  const fees = useFieldArray({ control, name: 'specialFees' });
  const p = (key: string, params?: Record<string, unknown>) => t(`billingUi.pricing.${key}`, params);
  const usageOptions = usages.map((u) => ({ value: String(u.id), label: u.description }));
  const diameterOptions = diameters.map((d) => ({ value: String(d.id), label: d.description }));
  const vatOptions = vat.map((v) => ({ value: String(v.id), label: v.description }));
  const remove = (onClick: () => void, testId: string) => (
    <IconButton aria-label={p('remove')} onClick={onClick} disabled={!writable} data-testid={testId}>
      <DeleteOutlineIcon />
    </IconButton>
  );

  return (
    <Box component="form" noValidate onSubmit={record.submit}>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Stack spacing={3}>
            <Section title={p('details')}>
              <Grid container spacing={2}>
                <Grid size={12}>
                  <FormTextField
                    control={control}
                    name="description"
                    label={p('description')}
                    required
                    testId="pricing-description"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <SelectField
                    control={control}
                    name="propertyUsageId"
                    label={p('usage')}
                    options={usageOptions}
                    empty=""
                    required
                    testId="pricing-usage"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <SelectField
                    control={control}
                    name="baseMonths"
                    label={p('baseMonths')}
                    options={[1, 2, 3, 4, 6, 12].map((m) => ({ value: String(m), label: String(m) }))}
                    helperText={p('baseMonthsHint')}
                    testId="pricing-baseMonths"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={{ xs: 6 }}>
                  <FormTextField
                    control={control}
                    name="fromdate"
                    label={p('fromdate')}
                    required
                    testId="pricing-fromdate"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={{ xs: 6 }}>
                  <FormTextField
                    control={control}
                    name="todate"
                    label={p('todate')}
                    testId="pricing-todate"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={12}>
                  <SwitchField control={control} name="active" label={p('active')} testId="pricing-active" />
                </Grid>
              </Grid>
            </Section>
            <Section title={p('bands')} hint={p('bandsHint')} testId="pricing-bands">
              <Stack spacing={1.5}>
                {bands.fields.map((field, i) => (
                  <Grid container spacing={1.5} key={field.id} sx={{ alignItems: 'center' }}>
                    <Grid size={3}>
                      <Typography variant="body2">{p('band', { n: i + 1 })}</Typography>
                    </Grid>
                    <Grid size={4}>
                      {i === bands.fields.length - 1 ? (
                        <Typography variant="body2" color="text.secondary">
                          {p('open')}
                        </Typography>
                      ) : (
                        <FormTextField
                          control={control}
                          name={`bands.${i}.upTo`}
                          label={p('upTo')}
                          testId={`pricing-band-${i}-upTo`}
                          disabled={!writable}
                        />
                      )}
                    </Grid>
                    <Grid size={4}>
                      <FormTextField
                        control={control}
                        name={`bands.${i}.price`}
                        label={p('price')}
                        testId={`pricing-band-${i}-price`}
                        disabled={!writable}
                      />
                    </Grid>
                    <Grid size={1}>
                      {bands.fields.length > 1 && remove(() => bands.remove(i), `pricing-band-${i}-remove`)}
                    </Grid>
                  </Grid>
                ))}
                <Box>
                  <Button
                    startIcon={<AddIcon />}
                    onClick={() =>
                      bands.insert(Math.max(0, bands.fields.length - 1), { upTo: '', price: '' })
                    }
                    disabled={!writable || bands.fields.length >= 12}
                    data-testid="pricing-band-add"
                  >
                    {p('addBand')}
                  </Button>
                </Box>
              </Stack>
            </Section>
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Stack spacing={3}>
            <Section title={p('fixed')} hint={p('fixedHint')}>
              <Stack spacing={1.5}>
                {fixed.fields.map((field, i) => (
                  <Grid container spacing={1.5} key={field.id} sx={{ alignItems: 'center' }}>
                    <Grid size={4}>
                      <SelectField
                        control={control}
                        name={`fixedCharges.${i}.charge`}
                        label={p('charge')}
                        options={(['waterFixed', 'sewerageFixed'] as const).map((c) => ({
                          value: c,
                          label: t(`billing.charge.${c}`),
                        }))}
                        testId={`pricing-fixed-${i}-charge`}
                        disabled={!writable}
                      />
                    </Grid>
                    <Grid size={4}>
                      <SelectField
                        control={control}
                        name={`fixedCharges.${i}.pipeDiameterId`}
                        label={p('diameter')}
                        options={diameterOptions}
                        empty={p('anyDiameter')}
                        testId={`pricing-fixed-${i}-diameter`}
                        disabled={!writable}
                      />
                    </Grid>
                    <Grid size={3}>
                      <FormTextField
                        control={control}
                        name={`fixedCharges.${i}.amount`}
                        label={p('amount')}
                        testId={`pricing-fixed-${i}-amount`}
                        disabled={!writable}
                      />
                    </Grid>
                    <Grid size={1}>{remove(() => fixed.remove(i), `pricing-fixed-${i}-remove`)}</Grid>
                  </Grid>
                ))}
                <Box>
                  <Button
                    startIcon={<AddIcon />}
                    onClick={() => fixed.append({ charge: 'waterFixed', pipeDiameterId: '', amount: '' })}
                    disabled={!writable}
                    data-testid="pricing-fixed-add"
                  >
                    {p('addFixed')}
                  </Button>
                </Box>
              </Stack>
            </Section>
            <Section title={p('sewerage')}>
              <Grid container spacing={2}>
                <Grid size={{ xs: 12, sm: 7 }}>
                  <SelectField
                    control={control}
                    name="sewerageMode"
                    label={p('sewerageMode')}
                    options={(['percent', 'perCubicMetre', 'none'] as const).map((m) => ({
                      value: m,
                      label: p(`sewerageMode_${m}`),
                    }))}
                    testId="pricing-sewerageMode"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 5 }}>
                  <FormTextField
                    control={control}
                    name="sewerageValue"
                    label={p('sewerageValue')}
                    testId="pricing-sewerageValue"
                    disabled={!writable}
                  />
                </Grid>
                <Grid size={12}>
                  <Typography variant="body2" color="text.secondary">
                    {p('sewerageIndicators')}
                  </Typography>
                  <Controller
                    control={control}
                    name="sewerageIndicatorIds"
                    render={({ field }) => (
                      <Box>
                        {indicators.map((indicator) => (
                          <FormControlLabel
                            key={indicator.id}
                            label={indicator.description}
                            control={
                              <Checkbox
                                checked={field.value.includes(indicator.id)}
                                disabled={!writable}
                                onChange={(_, checked) =>
                                  field.onChange(
                                    checked
                                      ? [...field.value, indicator.id]
                                      : field.value.filter((id: number) => id !== indicator.id),
                                  )
                                }
                              />
                            }
                          />
                        ))}
                      </Box>
                    )}
                  />
                </Grid>
              </Grid>
            </Section>
            <Section title={p('fees')}>
              <Stack spacing={1.5}>
                {fees.fields.map((field, i) => (
                  <Grid container spacing={1.5} key={field.id} sx={{ alignItems: 'center' }}>
                    <Grid size={8}>
                      <FormTextField
                        control={control}
                        name={`specialFees.${i}.description`}
                        label={p('feeDescription')}
                        testId={`pricing-fee-${i}-description`}
                        disabled={!writable}
                      />
                    </Grid>
                    <Grid size={3}>
                      <FormTextField
                        control={control}
                        name={`specialFees.${i}.amount`}
                        label={p('amount')}
                        testId={`pricing-fee-${i}-amount`}
                        disabled={!writable}
                      />
                    </Grid>
                    <Grid size={1}>{remove(() => fees.remove(i), `pricing-fee-${i}-remove`)}</Grid>
                  </Grid>
                ))}
                <Box>
                  <Button
                    startIcon={<AddIcon />}
                    onClick={() => fees.append({ description: '', amount: '' })}
                    disabled={!writable}
                    data-testid="pricing-fee-add"
                  >
                    {p('addFee')}
                  </Button>
                </Box>
              </Stack>
            </Section>
            <Section title={p('vat')} hint={p('vatHint')}>
              <Grid container spacing={2}>
                {vatCharges.map((charge) => (
                  <Grid size={{ xs: 12, sm: 6 }} key={charge}>
                    <SelectField
                      control={control}
                      name={`vat.${charge}`}
                      label={t(`billing.charge.${charge}`)}
                      options={vatOptions}
                      empty=""
                      testId={`pricing-vat-${charge}`}
                      disabled={!writable}
                    />
                  </Grid>
                ))}
              </Grid>
            </Section>
          </Stack>
        </Grid>
      </Grid>
      <RecordFormFooter record={record} texts="billingUi.form" testIdPrefix="pricing" readOnly={!writable} />
    </Box>
  );
}

function CreatePricing() {
  const { t } = useTranslation();
  const can = useCan();
  useAppBar({ title: t('billingUi.pricing.createTitle') });
  if (!can('billing:write')) return <ForbiddenPage />;
  return (
    <Box data-testid="pricing-page">
      <PageHeader title={t('billingUi.pricing.createTitle')} avatar={<PriceChangeOutlinedIcon />} />
      <PricingForm />
    </Box>
  );
}

function EditPricing({ id }: { id: number }) {
  const { t } = useTranslation();
  useAppBar({ title: t('billingUi.pricing.editTitle') });
  const query = useQuery({
    queryKey: [...pricingKey, 'one', id],
    queryFn: ({ signal }) => billingApi.pricingOne(id, signal),
  });
  const item = query.data;
  if (query.error || !item)
    return <RecordFallback error={query.error} onRetry={() => void query.refetch()} bodyHeight={320} />;
  return (
    <Box data-testid="pricing-page">
      <PageHeader
        title={item.description}
        subtitle={item.propertyUsage}
        avatar={<PriceChangeOutlinedIcon />}
      />
      <PricingForm item={item} />
    </Box>
  );
}

/** /billing/pricing_policies/create and …/{id}/edit: a tariff with its bands as an editable row list. */
export default function PricingPolicyEditPage() {
  return (
    <RecordRoute
      param="policyId"
      create={<CreatePricing />}
      edit={(id) => <EditPricing key={id} id={id} />}
    />
  );
}
