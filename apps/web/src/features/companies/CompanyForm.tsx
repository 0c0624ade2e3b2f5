import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type Company, type SaveCompanyRequest, saveCompanySchema } from '@protocol/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { RecordFormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { Section, SwitchField } from '../../components/form/fields.tsx';
import type { FormContract } from '../../components/form/resolver.ts';
import { useRecordForm } from '../../components/form/useRecordForm.ts';
import { companiesApi, companiesKey, companyKey } from './api.ts';

const TEXTS = [
  'companyname',
  'companytitle',
  'vatnumber',
  'address',
  'city',
  'zipcode',
  'phone',
  'email',
] as const;
type CompanyFormValues = Record<(typeof TEXTS)[number], string> & { active: boolean };

const EMPTY: CompanyFormValues = {
  companyname: '',
  companytitle: '',
  vatnumber: '',
  address: '',
  city: '',
  zipcode: '',
  phone: '',
  email: '',
  active: true,
};

function toForm(company: Company | undefined): CompanyFormValues {
  if (!company) return EMPTY;
  const values = { ...EMPTY, active: company.active };
  for (const name of TEXTS) values[name] = company[name] ?? '';
  return values;
}

const orNull = (value: string) => value.trim() || null;

/** Checked with the server's saveCompanySchema (ΑΦΜ check digit, postal code, e-mail) on the request. */
const contract: FormContract<CompanyFormValues, SaveCompanyRequest> = {
  schema: saveCompanySchema,
  toBody: (values) => ({
    companyname: values.companyname.trim(),
    companytitle: values.companytitle.trim(),
    vatnumber: orNull(values.vatnumber),
    address: orNull(values.address),
    city: orNull(values.city),
    zipcode: orNull(values.zipcode),
    phone: orNull(values.phone),
    email: orNull(values.email),
    active: values.active,
  }),
};

/** A company's names, ΑΦΜ, seat and contact details and whether it is active (super administrator). */
export function CompanyForm({ company }: { company?: Company }) {
  const { t } = useTranslation();
  const [confirm, confirmDialog] = useConfirm();
  const initial = useMemo(() => toForm(company), [company]);
  const record = useRecordForm({
    record: company,
    initial,
    contract,
    create: companiesApi.create,
    update: (current, body) => companiesApi.update(current.id, body),
    queryKey: (saved) => companyKey(saved.id),
    invalidate: [companiesKey],
    savedMessage: (saved, creating) =>
      t(creating ? 'companiesAdmin.created' : 'companiesAdmin.updated', { name: saved.companyname }),
    editPath: (saved) => `/companies/${saved.id}/edit`,
    // Closing a company to its operators is asked first.
    confirm: async (values) =>
      !company?.active || values.active
        ? true
        : confirm({
            title: t('companiesAdmin.deactivateTitle'),
            message: t('companiesAdmin.deactivateMessage', { name: company.companyname }),
            confirmLabel: t('companiesAdmin.deactivateConfirm'),
            danger: true,
          }),
  });
  const { control } = record;
  const text = (
    name: (typeof TEXTS)[number],
    extra: { required?: boolean; hint?: string; type?: string } = {},
  ) => (
    <FormTextField
      control={control}
      name={name}
      label={t(`companiesAdmin.${name}`)}
      helperText={extra.hint}
      required={extra.required}
      type={extra.type}
      testId={`company-${name}`}
      autoComplete="off"
    />
  );

  return (
    <Box component="form" noValidate onSubmit={record.submit} data-testid="company-form" autoComplete="off">
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Section title={t('companiesAdmin.details')}>
            <Stack spacing={2.25}>
              {text('companyname', { required: true, hint: t('companiesAdmin.companynameHint') })}
              {text('companytitle', { required: true, hint: t('companiesAdmin.companytitleHint') })}
              {text('vatnumber', { hint: t('companiesAdmin.vatnumberHint') })}
            </Stack>
          </Section>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Stack spacing={3}>
            <Section title={t('companiesAdmin.contact')}>
              <Stack spacing={2.25}>
                {text('address')}
                <Grid container spacing={2}>
                  <Grid size={{ xs: 12, sm: 8 }}>{text('city')}</Grid>
                  <Grid size={{ xs: 12, sm: 4 }}>{text('zipcode')}</Grid>
                </Grid>
                <Grid container spacing={2}>
                  <Grid size={{ xs: 12, sm: 5 }}>{text('phone', { type: 'tel' })}</Grid>
                  <Grid size={{ xs: 12, sm: 7 }}>{text('email', { type: 'email' })}</Grid>
                </Grid>
              </Stack>
            </Section>
            <Section
              title={t('companiesAdmin.status')}
              aside={
                <SwitchField
                  control={control}
                  name="active"
                  label={t('companiesAdmin.active')}
                  testId="company-active"
                />
              }
            >
              <Typography variant="body2" color="text.secondary">
                {t('companiesAdmin.statusHint')}
              </Typography>
            </Section>
          </Stack>
        </Grid>
      </Grid>
      <RecordFormFooter record={record} texts="companiesAdmin" testIdPrefix="company" />
      {confirmDialog}
    </Box>
  );
}
