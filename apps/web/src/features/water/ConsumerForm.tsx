import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import {
  type Consumer,
  type CustomFieldDefinition,
  consumerStatuses,
  type EncodingCodeDefinition,
  encodingLevels,
  type InvoicePolicy,
  type SaveConsumerRequest,
  saveConsumerSchema,
  type WaterCoded,
} from '@protocol/contracts';
import { useMemo, useState } from 'react';
import { type Control, Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  type CustomFieldFormValues,
  CustomFields,
  checkCustomFieldForm,
  customFieldsToBody,
  customFieldsToForm,
} from '../../components/CustomFields/index.ts';
import { wireDate } from '../../components/form/dates.ts';
import { RecordFormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { Section, SelectField, SwitchField } from '../../components/form/fields.tsx';
import type { FormContract } from '../../components/form/resolver.ts';
import { useRecordForm } from '../../components/form/useRecordForm.ts';
import { type PickedTrader, TraderPicker } from '../../components/TraderPicker/TraderPicker.tsx';
import { formatDate } from '../../lib/dates.ts';
import { fieldMessage } from '../../lib/errors.ts';
import { useCan } from '../../lib/permissions.ts';
import { consumerKey, consumersApi, consumersKey, useWaterTable } from './consumersApi.ts';
import { EncodingCodeBuilder } from './EncodingCodeBuilder.tsx';

const DATES = [
  'applicationDate',
  'connectionDate',
  'contractDate',
  'disconnectionDate',
  'specialFrom',
  'specialTo',
] as const;
const REFS = [
  'propertyUsageId',
  'connectionTypeId',
  'sewerageIndicatorId',
  'pipeDiameterId',
  'invoicePolicyId',
  'specialRegulationId',
] as const;
type DateName = (typeof DATES)[number];
type RefName = (typeof REFS)[number];

export type ConsumerFormValues = Record<DateName | RefName, string> & {
  parts: string[];
  routePosition: string;
  owner: PickedTrader | null;
  liable: PickedTrader | null;
  liableSame: boolean;
  receiver: PickedTrader | null;
  receiverSame: boolean;
  supplyAddress: string;
  supplyPostalCode: string;
  mailingAddress: string;
  status: string;
  notes: string;
  customFields: CustomFieldFormValues;
};

const idText = (ref: { id: number } | null) => (ref ? String(ref.id) : '');

function toForm(
  c: Consumer | undefined,
  fields: CustomFieldDefinition[],
  levels: number,
): ConsumerFormValues {
  const same = (other: Consumer['liable']) => Boolean(c?.owner && other && other.id === c.owner.id);
  return {
    parts: c?.parts.length === levels ? c.parts : Array.from({ length: levels }, () => ''),
    routePosition: c?.routePosition === null || c?.routePosition === undefined ? '' : String(c.routePosition),
    owner: c?.owner ?? null,
    liable: c && !same(c.liable) ? c.liable : null,
    liableSame: c ? same(c.liable) : true,
    receiver: c && !same(c.receiver) ? c.receiver : null,
    receiverSame: c ? same(c.receiver) : true,
    supplyAddress: c?.supplyAddress ?? '',
    supplyPostalCode: c?.supplyPostalCode ?? '',
    mailingAddress: c?.mailingAddress ?? '',
    propertyUsageId: idText(c?.propertyUsage ?? null),
    connectionTypeId: idText(c?.connectionType ?? null),
    sewerageIndicatorId: idText(c?.sewerageIndicator ?? null),
    pipeDiameterId: idText(c?.pipeDiameter ?? null),
    invoicePolicyId: idText(c?.invoicePolicy ?? null),
    specialRegulationId: idText(c?.specialRegulation ?? null),
    applicationDate: formatDate(c?.applicationDate),
    connectionDate: formatDate(c?.connectionDate),
    contractDate: formatDate(c?.contractDate),
    disconnectionDate: formatDate(c?.disconnectionDate),
    specialFrom: formatDate(c?.specialFrom),
    specialTo: formatDate(c?.specialTo),
    status: String(c?.status ?? consumerStatuses.pending),
    notes: c?.notes ?? '',
    customFields: customFieldsToForm(fields, c?.customFields),
  };
}

function toBody(v: ConsumerFormValues, fields: CustomFieldDefinition[]): SaveConsumerRequest {
  const id = (value: string) => (value ? Number(value) : null);
  const ownerId = v.owner?.id ?? 0;
  return {
    parts: v.parts,
    routePosition: v.routePosition.trim() === '' ? null : Number(v.routePosition),
    ownerId,
    liableId: v.liableSame ? ownerId || null : (v.liable?.id ?? null),
    receiverId: v.receiverSame ? ownerId || null : (v.receiver?.id ?? null),
    supplyAddress: v.supplyAddress,
    supplyPostalCode: v.supplyPostalCode,
    mailingAddress: v.mailingAddress,
    ...(Object.fromEntries(REFS.map((name) => [name, id(v[name])])) as Record<RefName, number | null>),
    ...(Object.fromEntries(DATES.map((name) => [name, wireDate(v[name])])) as Record<
      DateName,
      string | null
    >),
    status: Number(v.status),
    notes: v.notes,
    customFields: customFieldsToBody(fields, v.customFields),
  };
}

/** The body's fields that the form shows under another name. */
const FORM_FIELD: Record<string, string> = { ownerId: 'owner', liableId: 'liable', receiverId: 'receiver' };

interface Props {
  consumer?: Consumer;
  definition: EncodingCodeDefinition;
  customFields: CustomFieldDefinition[];
}

/** The consumer's form (spec §3 Consumer): code, traders, supply, billing, dates and status, custom fields. */
export function ConsumerForm({ consumer, definition, customFields }: Props) {
  const { t } = useTranslation();
  const can = useCan();
  const writable = can('consumers:write');
  const levels = encodingLevels(definition).length;
  const [codeAllowed, setCodeAllowed] = useState(Boolean(consumer));
  const initial = useMemo(() => toForm(consumer, customFields, levels), [consumer, customFields, levels]);
  const contract = useMemo<FormContract<ConsumerFormValues, SaveConsumerRequest>>(
    () => ({
      schema: saveConsumerSchema,
      toBody: (values) => toBody(values, customFields),
      mapError: (error) => ({ ...error, field: FORM_FIELD[error.field] ?? error.field }),
      check: (values) => {
        const errors: { field: string; key: string; params: Record<string, string | number> }[] = [];
        if (!codeAllowed && values.parts.every((p) => p.trim() !== ''))
          errors.push({
            field: `parts.${levels - 1}`,
            key: 'validation.backend.consumers.code_not_allowed',
            params: {},
          });
        if (!values.liableSame && !values.liable)
          errors.push({ field: 'liable', key: 'validation.required', params: {} });
        if (!values.receiverSame && !values.receiver)
          errors.push({ field: 'receiver', key: 'validation.required', params: {} });
        checkCustomFieldForm(customFields, values.customFields, (key, message) =>
          errors.push({ field: `customFields.${key}`, key: message, params: {} }),
        );
        return errors;
      },
    }),
    [customFields, codeAllowed, levels],
  );
  const record = useRecordForm({
    record: consumer,
    initial,
    contract,
    create: (body) => consumersApi.create(body),
    update: (current, body) => consumersApi.update(current.id, body),
    queryKey: (saved) => consumerKey(saved.id),
    invalidate: [consumersKey],
    savedMessage: (saved, creating) =>
      t(creating ? 'waterUi.consumer.created' : 'waterUi.consumer.updated', { code: saved.code }),
    editPath: (saved) => `/consumers/${saved.id}/edit`,
  });
  const { control } = record;
  const usages = useWaterTable<WaterCoded>('/api/water/parametrics/propertyUsages');
  const connections = useWaterTable<WaterCoded>('/api/water/parametrics/connectionTypes');
  const sewerage = useWaterTable<WaterCoded>('/api/water/parametrics/sewerageIndicators');
  const diameters = useWaterTable<WaterCoded>('/api/water/parametrics/pipeDiameters');
  const specials = useWaterTable<WaterCoded>('/api/water/parametrics/specialRegulations');
  const policies = useWaterTable<InvoicePolicy>('/api/water/invoice_policies');
  const options = (
    rows: { id: number; code?: string; description: string; active: boolean }[] | undefined,
    current: string,
  ) =>
    (rows ?? [])
      .filter((row) => row.active || String(row.id) === current)
      .map((row) => ({
        value: String(row.id),
        label: row.code ? `${row.code} · ${row.description}` : row.description,
      }));
  const values = useWatch({ control });
  const disabled = !writable;
  const text = (name: keyof ConsumerFormValues, extra: { required?: boolean; helperText?: string } = {}) => (
    <FormTextField
      control={control}
      name={name}
      label={t(`waterUi.consumer.${name}`)}
      testId={`consumer-${name}`}
      disabled={disabled}
      {...extra}
    />
  );
  const date = (name: DateName) => text(name, { helperText: t('common.dateHint') });
  const select = (name: RefName, rows: Parameters<typeof options>[0]) => (
    <SelectField
      control={control}
      name={name}
      label={t(`waterUi.consumer.${name}`)}
      testId={`consumer-${name}`}
      empty={t('common.empty')}
      disabled={disabled}
      options={options(rows, String(values[name] ?? ''))}
    />
  );

  return (
    <Box component="form" noValidate onSubmit={record.submit} data-testid="consumer-form">
      <Stack spacing={3}>
        <Section title={t('waterUi.consumer.codeSection')} hint={t('waterUi.consumer.codeHint')}>
          <Controller
            control={control}
            name="parts"
            render={({ field, formState }) => (
              <EncodingCodeBuilder
                definition={definition}
                parts={field.value}
                onChange={field.onChange}
                ownCode={consumer?.code}
                disabled={disabled}
                onVerdict={setCodeAllowed}
                errors={Array.from({ length: levels }, (_, i) =>
                  fieldMessage(
                    t,
                    (formState.errors.parts as { message?: string }[] | undefined)?.[i]?.message,
                  ),
                )}
              />
            )}
          />
          <Box sx={{ mt: 2, maxWidth: 240 }}>{text('routePosition')}</Box>
        </Section>

        <Section title={t('waterUi.consumer.tradersSection')} hint={t('waterUi.consumer.tradersHint')}>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 6 }}>
              <TraderField
                control={control}
                name="owner"
                label={t('waterUi.consumer.owner')}
                required
                disabled={disabled}
              />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }} />
            {(['liable', 'receiver'] as const).map((role) => (
              <Grid key={role} size={{ xs: 12, md: 6 }}>
                <Stack spacing={1}>
                  <SwitchField
                    control={control}
                    name={`${role}Same`}
                    label={t('waterUi.consumer.sameAsOwner', { role: t(`waterUi.consumer.${role}`) })}
                    testId={`consumer-${role}-same`}
                    disabled={disabled}
                  />
                  {!values[`${role}Same`] && (
                    <TraderField
                      control={control}
                      name={role}
                      label={t(`waterUi.consumer.${role}`)}
                      required
                      disabled={disabled}
                    />
                  )}
                </Stack>
              </Grid>
            ))}
          </Grid>
        </Section>

        <Section title={t('waterUi.consumer.supplySection')}>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 8 }}>{text('supplyAddress', { required: true })}</Grid>
            <Grid size={{ xs: 12, md: 4 }}>{text('supplyPostalCode')}</Grid>
            <Grid size={{ xs: 12 }}>
              {text('mailingAddress', { helperText: t('waterUi.consumer.mailingHint') })}
            </Grid>
            <Grid size={{ xs: 12, md: 3 }}>{select('propertyUsageId', usages.data)}</Grid>
            <Grid size={{ xs: 12, md: 3 }}>{select('connectionTypeId', connections.data)}</Grid>
            <Grid size={{ xs: 12, md: 3 }}>{select('sewerageIndicatorId', sewerage.data)}</Grid>
            <Grid size={{ xs: 12, md: 3 }}>{select('pipeDiameterId', diameters.data)}</Grid>
          </Grid>
        </Section>

        <Section title={t('waterUi.consumer.billingSection')} hint={t('waterUi.consumer.billingHint')}>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 6 }}>{select('invoicePolicyId', policies.data)}</Grid>
            <Grid size={{ xs: 12, md: 6 }}>{select('specialRegulationId', specials.data)}</Grid>
            <Grid size={{ xs: 12, md: 3 }}>{date('specialFrom')}</Grid>
            <Grid size={{ xs: 12, md: 3 }}>{date('specialTo')}</Grid>
          </Grid>
        </Section>

        <Section title={t('waterUi.consumer.datesSection')}>
          <Grid container spacing={2}>
            {(['applicationDate', 'connectionDate', 'contractDate', 'disconnectionDate'] as const).map(
              (name) => (
                <Grid key={name} size={{ xs: 12, sm: 6, md: 3 }}>
                  {date(name)}
                </Grid>
              ),
            )}
            <Grid size={{ xs: 12, md: 3 }}>
              <SelectField
                control={control}
                name="status"
                label={t('waterUi.consumer.status')}
                testId="consumer-status"
                disabled={disabled}
                options={Object.values(consumerStatuses).map((v) => ({
                  value: String(v),
                  label: t(`water.consumerStatus_${v}`),
                }))}
              />
            </Grid>
          </Grid>
        </Section>

        {customFields.length > 0 && (
          <Section title={t('waterUi.consumer.customSection')}>
            <CustomFields
              control={control}
              name="customFields"
              definitions={customFields}
              testIdPrefix="consumer-custom"
              disabled={disabled}
            />
          </Section>
        )}

        <Section title={t('waterUi.consumer.notes')}>
          <FormTextField
            control={control}
            name="notes"
            label={t('waterUi.consumer.notes')}
            testId="consumer-notes"
            disabled={disabled}
          />
        </Section>
      </Stack>
      <RecordFormFooter
        record={record}
        texts="waterUi.consumer.form"
        testIdPrefix="consumer"
        readOnly={!writable}
      />
    </Box>
  );
}

function TraderField({
  control,
  name,
  label,
  required,
  disabled,
}: {
  control: Control<ConsumerFormValues>;
  name: 'owner' | 'liable' | 'receiver';
  label: string;
  required?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TraderPicker
          value={field.value}
          onChange={field.onChange}
          label={label}
          required={required}
          disabled={disabled}
          error={fieldMessage(t, fieldState.error?.message)}
          testId={`consumer-${name}`}
        />
      )}
    />
  );
}
