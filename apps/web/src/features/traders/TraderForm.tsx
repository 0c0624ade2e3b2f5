import './i18n/index.ts';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Bank, CodedEntry, CustomFieldDefinition } from '@protocol/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { type Control, Controller, useFieldArray, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { CustomFields } from '../../components/CustomFields/index.ts';
import { RecordFormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { Section, SelectField, SwitchField } from '../../components/form/fields.tsx';
import { useRecordForm } from '../../components/form/useRecordForm.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { isApiError } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { referenceApi, traderKey, traderLabel, tradersApi, tradersKey } from './api.ts';
import {
  isValidVatNumber,
  normalizeVatNumber,
  type Trader,
  type TraderDuplicate,
  type TraderLookup,
} from './model.ts';
import {
  emptyTrader,
  type TextField as TextFieldName,
  type TraderFormValues,
  toForm,
  traderContract,
} from './traderForm.ts';

/** What a save hands the edit page it opens: the traders with the same ΑΦΜ (a warning). */
export interface LocationState {
  duplicates?: TraderDuplicate[];
}

type FormControlT = Control<TraderFormValues>;

/** A text input of the form: label `traders.field.<name>`, test id `trader-<name>`. */
function Text({
  control,
  name,
  required,
  type,
  helperText,
  endAdornment,
}: {
  control: FormControlT;
  name: TextFieldName;
  required?: boolean;
  type?: string;
  helperText?: string;
  endAdornment?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <FormTextField
      control={control}
      name={name}
      label={t(`traders.field.${name}`)}
      required={required}
      type={type}
      helperText={helperText}
      testId={`trader-${name}`}
      autoComplete="off"
      endAdornment={endAdornment}
    />
  );
}

const codedOptions = (entries: CodedEntry[] | undefined) =>
  (entries ?? []).map((entry) => ({
    value: String(entry.id),
    label: `${entry.code} · ${entry.description}`,
  }));

/** The bank accounts: an inline list of IBAN, BIC and bank, each checked as typed. */
function BankAccounts({ control, banks }: { control: FormControlT; banks: Bank[] }) {
  const { t } = useTranslation();
  const { fields, append, remove, update } = useFieldArray({ control, name: 'traderbanks' });
  const rows = useWatch({ control, name: 'traderbanks' });
  const bankOptions = banks.map((bank) => ({ value: String(bank.id), label: bank.name }));
  return (
    <Section title={t('traders.form.banks')} testId="trader-banks">
      <Stack spacing={2}>
        {fields.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('traders.form.noBanks')}
          </Typography>
        )}
        {fields.map((item, index) => (
          <Grid
            container
            spacing={1.5}
            key={item.id}
            sx={{ alignItems: 'flex-start' }}
            data-testid={`trader-bank-${index}`}
          >
            <Grid size={{ xs: 12, md: 5 }}>
              <FormTextField
                control={control}
                name={`traderbanks.${index}.iban`}
                label={t('traders.field.iban')}
                required
                testId={`trader-bank-iban-${index}`}
                autoComplete="off"
              />
            </Grid>
            <Grid size={{ xs: 6, md: 3 }}>
              <FormTextField
                control={control}
                name={`traderbanks.${index}.bic`}
                label={t('traders.field.bic')}
                testId={`trader-bank-bic-${index}`}
                autoComplete="off"
              />
            </Grid>
            <Grid size={{ xs: 5, md: 3.5 }}>
              <Controller
                control={control}
                name={`traderbanks.${index}.bankId`}
                render={({ field }) => (
                  <TextField
                    select
                    fullWidth
                    label={t('traders.field.bank')}
                    value={field.value}
                    onChange={(event) => {
                      field.onChange(event.target.value);
                      // the bank's BIC, when none was typed
                      const bank = banks.find((entry) => String(entry.id) === event.target.value);
                      const row = rows?.[index];
                      if (bank && row && !row.bic.trim()) {
                        update(index, { ...row, bankId: event.target.value, bic: bank.bic });
                      }
                    }}
                    slotProps={{
                      select: { native: true },
                      inputLabel: { shrink: true },
                      htmlInput: { 'data-testid': `trader-bank-bank-${index}` },
                    }}
                  >
                    <option value="">{t('traders.form.none')}</option>
                    {bankOptions.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </TextField>
                )}
              />
            </Grid>
            <Grid size={{ xs: 1, md: 0.5 }}>
              <Tooltip title={t('traders.form.removeBank')}>
                <IconButton
                  onClick={() => remove(index)}
                  aria-label={t('traders.form.removeBank')}
                  data-testid={`trader-bank-remove-${index}`}
                  sx={{ mt: 1 }}
                >
                  <DeleteOutlineIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </Grid>
          </Grid>
        ))}
        <Box>
          <Button
            startIcon={<AddIcon />}
            onClick={() => append({ id: null, iban: '', bic: '', bankId: '' })}
            data-testid="trader-bank-add"
          >
            {t('traders.form.addBank')}
          </Button>
        </Box>
      </Stack>
    </Section>
  );
}

/** Other traders with the same ΑΦΜ: a warning with links, never a blocking error. */
export function DuplicateWarning({ duplicates }: { duplicates: TraderDuplicate[] }) {
  const { t } = useTranslation();
  const localize = useLocalize();
  if (duplicates.length === 0) return null;
  return (
    <Alert severity="warning" sx={{ mb: 3 }} data-testid="trader-duplicate-warning">
      <AlertTitle>{t('traders.duplicates.title', { count: duplicates.length })}</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {duplicates.map((duplicate) => (
          <li key={duplicate.id}>
            <Link component={RouterLink} to={localize(`/traders/${duplicate.id}/edit`)}>
              {duplicate.fullname || `#${duplicate.id}`}
            </Link>
          </li>
        ))}
      </Box>
    </Alert>
  );
}

/** What a registry answer writes, field by field (spec §5: completing by ΑΦΜ overwrites). */
function lookupValues(answer: TraderLookup, individual: boolean): Partial<Record<TextFieldName, string>> {
  const street = [answer.address, answer.addressNumber].filter(Boolean).join(' ');
  const values: Partial<Record<TextFieldName, string>> = {
    // an individual's name is derived from the last and first names
    fullname: individual ? '' : (answer.fullname ?? answer.title ?? ''),
    title: individual ? '' : (answer.title ?? ''),
    doy: answer.doy_descr ?? answer.doy ?? '',
    address: street,
    zipcode: answer.zipcode ?? '',
    area: answer.area ?? '',
    job: answer.activity ?? '',
  };
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value)) as typeof values;
}

interface FormProps {
  trader?: Trader;
  customFields: CustomFieldDefinition[];
  /** The other traders with the same ΑΦΜ that the saved trader has. */
  onDuplicates?: (duplicates: TraderDuplicate[]) => void;
}

export function TraderForm({ trader, customFields, onDuplicates }: FormProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const can = useCan();
  const [confirm, confirmDialog] = useConfirm();
  const initial = useMemo(
    () => (trader ? toForm(trader, customFields) : emptyTrader(customFields)),
    [trader, customFields],
  );
  const contract = useMemo(() => traderContract(customFields), [customFields]);
  const record = useRecordForm({
    record: trader,
    initial,
    contract,
    create: (body) => tradersApi.create(body),
    update: (current, body) => tradersApi.update(current.id, body),
    queryKey: (saved) => traderKey(saved.id),
    invalidate: [tradersKey],
    savedMessage: (saved, creating) =>
      t(creating ? 'traders.form.created' : 'traders.form.updated', { name: traderLabel(saved) }),
    editPath: (saved) => `/traders/${saved.id}/edit`,
    editState: (saved) => ({ duplicates: saved.duplicates ?? [] }) satisfies LocationState,
    onSaved: (saved, creating) => {
      if (!creating) onDuplicates?.(saved.duplicates ?? []);
    },
  });
  const { form, control, creating } = record;

  const individual = useWatch({ control: form.control, name: 'individual' });
  const banks = useQuery({
    queryKey: ['settings', 'banks'],
    queryFn: ({ signal }) => referenceApi.banks(signal),
  });
  const vatCategories = useQuery({
    queryKey: ['settings', 'vat_categories'],
    queryFn: ({ signal }) => referenceApi.vatCategories(signal),
  });
  const vatStatuses = useQuery({
    queryKey: ['settings', 'vat_statuses'],
    queryFn: ({ signal }) => referenceApi.vatStatuses(signal),
  });

  // ----- lookup at the tax registry -----
  const [lookupError, setLookupError] = useState<string | null>(null);
  const lookup = useMutation({
    mutationFn: (vatnumber: string) => tradersApi.lookup(vatnumber),
    meta: { errorSnackbar: false },
    onError: (failure) =>
      setLookupError(
        isApiError(failure) && failure.key.startsWith('error.registry')
          ? t(failure.key, { ...failure.params, defaultValue: t('traders.lookup.failed') })
          : errorMessage(t, failure),
      ),
    onSuccess: async (answer) => {
      const next = lookupValues(answer, form.getValues('individual'));
      const current = form.getValues();
      const overwritten = (Object.keys(next) as TextFieldName[]).filter(
        (field) => current[field].trim() && current[field].trim() !== next[field],
      );
      if (overwritten.length > 0) {
        const ok = await confirm({
          title: t('traders.lookup.overwriteTitle'),
          message: (
            <>
              {t('traders.lookup.overwriteMessage')}
              <Box component="ul" sx={{ mb: 0, pl: 2.5 }} data-testid="trader-lookup-overwrites">
                {overwritten.map((field) => (
                  <li key={field}>
                    <strong>{t(`traders.field.${field}`)}</strong>: {current[field]} → {next[field]}
                  </li>
                ))}
              </Box>
            </>
          ),
          confirmLabel: t('traders.lookup.overwrite'),
        });
        if (!ok) return;
      }
      for (const [field, value] of Object.entries(next)) {
        form.setValue(field as TextFieldName, value ?? '', { shouldDirty: true, shouldValidate: true });
      }
      if (answer.legalStatus) notify(t('traders.lookup.done', { status: answer.legalStatus }), 'success');
      else notify(t('traders.lookup.doneShort'), 'success');
      if (answer.active === false) notify(t('traders.lookup.inactive'), 'warning');
    },
  });
  const runLookup = () => {
    setLookupError(null);
    const vatnumber = normalizeVatNumber(form.getValues('vatnumber'));
    if (!isValidVatNumber(vatnumber)) {
      form.setError('vatnumber', { type: 'lookup', message: 'validation.vatnumber' }, { shouldFocus: true });
      return;
    }
    form.clearErrors('vatnumber');
    lookup.mutate(vatnumber);
  };

  const writable = can('traders:write');
  const statusOptions = (['0', '1', '9'] as const).map((value) => ({
    value,
    label: t(`traders.status.${value}`),
  }));

  return (
    <Box
      component="form"
      noValidate
      onSubmit={record.submit}
      data-testid="trader-form"
      data-mode={creating ? 'create' : 'edit'}
    >
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Stack spacing={3}>
            <Section title={t('traders.form.identity')}>
              <Stack spacing={2.25}>
                <Box>
                  <FormTextField
                    control={control}
                    name="vatnumber"
                    label={t('traders.field.vatnumber')}
                    testId="trader-vatnumber"
                    autoComplete="off"
                    autoFocus={creating}
                    helperText={t('traders.lookup.hint')}
                    endAdornment={
                      <InputAdornment position="end">
                        <Button
                          size="small"
                          onClick={runLookup}
                          loading={lookup.isPending}
                          startIcon={<ManageSearchIcon />}
                          data-testid="trader-lookup"
                          disabled={!writable}
                        >
                          {t('traders.lookup.button')}
                        </Button>
                      </InputAdornment>
                    }
                  />
                  {lookupError && (
                    <Alert
                      severity="error"
                      sx={{ mt: 1 }}
                      onClose={() => setLookupError(null)}
                      data-testid="trader-lookup-error"
                    >
                      {lookupError}
                    </Alert>
                  )}
                </Box>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
                  <SwitchField
                    control={control}
                    name="individual"
                    label={t('traders.field.individual')}
                    testId="trader-individual"
                  />
                  <SwitchField
                    control={control}
                    name="active"
                    label={t('traders.field.active')}
                    testId="trader-active"
                  />
                </Box>
                {individual ? (
                  <Grid container spacing={2} data-testid="trader-individual-names">
                    <Grid size={{ xs: 12, sm: 6 }}>
                      <Text control={control} name="lastname" required />
                    </Grid>
                    <Grid size={{ xs: 12, sm: 6 }}>
                      <Text control={control} name="firstname" required />
                    </Grid>
                    <Grid size={{ xs: 12, sm: 6 }}>
                      <Text control={control} name="fathername" />
                    </Grid>
                    <Grid size={{ xs: 12, sm: 6 }}>
                      <Text control={control} name="mothername" />
                    </Grid>
                    <Grid size={{ xs: 12, sm: 6 }}>
                      <Text control={control} name="birthday" helperText={t('common.dateHint')} />
                    </Grid>
                    <Grid size={{ xs: 12, sm: 6 }}>
                      <Text control={control} name="idnumber" />
                    </Grid>
                  </Grid>
                ) : (
                  <Grid container spacing={2} data-testid="trader-entity-names">
                    <Grid size={12}>
                      <Text control={control} name="fullname" required />
                    </Grid>
                    <Grid size={12}>
                      <Text control={control} name="title" />
                    </Grid>
                  </Grid>
                )}
                <Grid container spacing={2}>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <Text
                      control={control}
                      name="tradercode"
                      helperText={creating ? t('traders.form.codeHint') : undefined}
                    />
                  </Grid>
                  <Grid size={{ xs: 12, sm: 6 }}>
                    <Text control={control} name="job" />
                  </Grid>
                </Grid>
              </Stack>
            </Section>
            <Section title={t('traders.form.contact')}>
              <Grid container spacing={2}>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <Text control={control} name="phones" />
                </Grid>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <Text control={control} name="mobile" />
                </Grid>
                <Grid size={12}>
                  <Text control={control} name="email" type="email" />
                </Grid>
                <Grid size={{ xs: 12, sm: 8 }}>
                  <Text control={control} name="address" />
                </Grid>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <Text control={control} name="zipcode" />
                </Grid>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <Text control={control} name="area" />
                </Grid>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <Text control={control} name="city" />
                </Grid>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <Text control={control} name="country" />
                </Grid>
              </Grid>
            </Section>
            <BankAccounts control={control} banks={banks.data ?? []} />
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <Stack spacing={3}>
            <Section title={t('traders.form.tax')}>
              <Stack spacing={2.25}>
                <Text control={control} name="doy" />
                <SelectField
                  control={control}
                  name="vat_category"
                  label={t('traders.field.vat_category')}
                  options={codedOptions(vatCategories.data)}
                  testId="trader-vat_category"
                  empty={t('traders.form.none')}
                />
                <SelectField
                  control={control}
                  name="vat_status"
                  label={t('traders.field.vat_status')}
                  options={codedOptions(vatStatuses.data)}
                  testId="trader-vat_status"
                  empty={t('traders.form.none')}
                />
                <SelectField
                  control={control}
                  name="status"
                  label={t('traders.field.status')}
                  options={statusOptions}
                  testId="trader-status"
                />
                <SwitchField
                  control={control}
                  name="kepyo"
                  label={t('traders.field.kepyo')}
                  testId="trader-kepyo"
                />
              </Stack>
            </Section>
            {customFields.length > 0 && (
              <Section title={t('traders.form.customFields')} testId="trader-custom-fields">
                <CustomFields
                  control={control}
                  name="customFields"
                  definitions={customFields}
                  testIdPrefix="trader-cf"
                />
              </Section>
            )}
          </Stack>
        </Grid>
      </Grid>
      <RecordFormFooter record={record} texts="traders.form" testIdPrefix="trader" readOnly={!writable} />
      {confirmDialog}
    </Box>
  );
}
