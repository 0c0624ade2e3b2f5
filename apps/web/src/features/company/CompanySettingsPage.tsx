import './i18n/index.ts';
import BusinessOutlinedIcon from '@mui/icons-material/BusinessOutlined';
import LockResetOutlinedIcon from '@mui/icons-material/LockResetOutlined';
import VisibilityOffOutlinedIcon from '@mui/icons-material/VisibilityOffOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type Company, type SaveCompanyRequest, saveCompanySchema } from '@protocol/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { Controller, type useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { NotFoundPage } from '../../components/errors/NotFoundPage.tsx';
import { RecordFormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { Section } from '../../components/form/fields.tsx';
import { OutlinedField } from '../../components/form/OutlinedField.tsx';
import type { FormContract } from '../../components/form/resolver.ts';
import { useRecordForm } from '../../components/form/useRecordForm.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { refreshAction } from '../../components/refreshAction.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { type PageAction, useAppBar } from '../../lib/appBarContext.tsx';
import { useCompany } from '../../lib/company.tsx';
import { fieldMessage } from '../../lib/errors.ts';
import { SESSION_USER_KEY } from '../../lib/session.tsx';

/** The secrets of a company: never shown; a save keeps, clears ('') or replaces each one. */
const SECRETS = ['aadeSubscriptionKey', 'registryPassword', 'smtpPassword'] as const;
type SecretName = (typeof SECRETS)[number];
type SecretAction = 'keep' | 'replace' | 'clear';
const SET_FLAG = {
  aadeSubscriptionKey: 'aadeSubscriptionKeySet',
  registryPassword: 'registryPasswordSet',
  smtpPassword: 'smtpPasswordSet',
} as const satisfies Record<SecretName, keyof Company['credentials']>;

const TEXT_CREDENTIALS = [
  'aadeUsername',
  'registryUsername',
  'smtpHost',
  'smtpUsername',
  'smtpFrom',
] as const;

interface SecretValue {
  action: SecretAction;
  value: string;
}

/** The form: every field as typed (strings); the request is built from it on save. */
type CompanyFormValues = Record<'companyname' | 'companytitle' | 'vatnumber' | 'smtpPort', string> &
  Record<(typeof TEXT_CREDENTIALS)[number], string> &
  Record<SecretName, SecretValue>;

function toForm(company: Company): CompanyFormValues {
  const c = company.credentials;
  const keep = { action: 'keep' as const, value: '' };
  return {
    companyname: company.companyname,
    companytitle: company.companytitle,
    vatnumber: company.vatnumber ?? '',
    aadeUsername: c.aadeUsername ?? '',
    registryUsername: c.registryUsername ?? '',
    smtpHost: c.smtpHost ?? '',
    smtpUsername: c.smtpUsername ?? '',
    smtpPort: c.smtpPort === null ? '' : String(c.smtpPort),
    smtpFrom: c.smtpFrom ?? '',
    aadeSubscriptionKey: keep,
    registryPassword: keep,
    smtpPassword: keep,
  };
}

function toRequest(values: CompanyFormValues): SaveCompanyRequest {
  const orNull = (value: string) => value.trim() || null;
  const credentials: NonNullable<SaveCompanyRequest['credentials']> = {
    aadeUsername: orNull(values.aadeUsername),
    registryUsername: orNull(values.registryUsername),
    smtpHost: orNull(values.smtpHost),
    smtpUsername: orNull(values.smtpUsername),
    smtpFrom: orNull(values.smtpFrom),
    smtpPort: values.smtpPort.trim() === '' ? null : Number(values.smtpPort),
  };
  // Absent keeps the stored secret, '' clears it, any other text replaces it.
  for (const name of SECRETS) {
    const secret = values[name];
    if (secret.action === 'clear') credentials[name] = '';
    else if (secret.action === 'replace') credentials[name] = secret.value;
  }
  return {
    companyname: values.companyname.trim(),
    companytitle: values.companytitle.trim(),
    vatnumber: orNull(values.vatnumber),
    credentials,
  };
}

const companyKey = (id: number) => ['companies', id] as const;

/** Checked with saveCompanySchema on the request; the credentials' errors belong to the fields of the same name. */
const companyContract: FormContract<CompanyFormValues, SaveCompanyRequest> = {
  schema: saveCompanySchema,
  toBody: toRequest,
  mapError: (error) => {
    const field = error.field.replace(/^credentials\./, '');
    // A port that is not a number is sent as NaN: the contract's type error would not say why.
    if (field === 'smtpPort') return { field, key: 'companySettings.portInvalid', params: {} };
    return { ...error, field };
  },
  // The request cannot tell a secret to replace without a value from one to clear ('').
  check: (values) =>
    SECRETS.filter((name) => values[name].action === 'replace' && values[name].value === '').map((name) => ({
      field: name,
      key: 'companySettings.secret.required',
      params: {},
    })),
};

/**
 * A secret: a password field that is empty and locked unless 'replace' is chosen; the chip says
 * whether a value is stored. 'Clear' marks it to be cleared on save. Never prefilled, never shown.
 */
function SecretField({
  control,
  name,
  label,
  isSet,
}: {
  control: ReturnType<typeof useForm<CompanyFormValues>>['control'];
  name: SecretName;
  label: string;
  isSet: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const { action, value } = field.value;
        const placeholder =
          action === 'clear'
            ? t('companySettings.secret.clearPlaceholder')
            : isSet
              ? t('companySettings.secret.setPlaceholder')
              : t('companySettings.secret.notSetPlaceholder');
        const hint =
          action === 'replace'
            ? t('companySettings.secret.replaceHint')
            : action === 'clear'
              ? t('companySettings.secret.clearHint')
              : t('companySettings.secret.keepHint');
        const set = (next: { action: SecretAction; value: string }) => field.onChange(next);
        return (
          <Box
            data-testid={`company-secret-${name}`}
            data-state={isSet ? 'set' : 'unset'}
            data-action={action}
          >
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
              <Typography variant="body2" sx={{ fontWeight: 500, flexGrow: 1 }}>
                {label}
              </Typography>
              <Chip
                size="small"
                variant={isSet ? 'filled' : 'outlined'}
                color={action === 'clear' ? 'warning' : isSet ? 'success' : 'default'}
                label={isSet ? t('companySettings.secret.set') : t('companySettings.secret.notSet')}
                data-testid={`company-secret-${name}-status`}
              />
            </Box>
            <Box
              sx={{
                display: 'flex',
                gap: 1,
                alignItems: 'flex-start',
                flexWrap: { xs: 'wrap', sm: 'nowrap' },
              }}
            >
              <Box sx={{ flexGrow: 1, minWidth: 200 }}>
                {action === 'replace' ? (
                  <OutlinedField
                    name={`${name}-new`}
                    type="password"
                    label={label}
                    value={value}
                    autoComplete="new-password"
                    autoFocus
                    testId={`company-${name}`}
                    onChange={(event) => set({ action: 'replace', value: event.target.value })}
                    onBlur={field.onBlur}
                    inputRef={field.ref}
                    error={fieldMessage(t, fieldState.error?.message)}
                    helperText={hint}
                  />
                ) : (
                  <OutlinedField
                    name={`${name}-stored`}
                    type="password"
                    label={placeholder}
                    value=""
                    disabled
                    testId={`company-${name}`}
                    onChange={() => undefined}
                    helperText={hint}
                    endAdornment={<VisibilityOffOutlinedIcon fontSize="small" color="disabled" />}
                  />
                )}
              </Box>
              {action === 'keep' ? (
                <>
                  <Button
                    variant="outlined"
                    startIcon={<LockResetOutlinedIcon />}
                    onClick={() => set({ action: 'replace', value: '' })}
                    data-testid={`company-secret-${name}-replace`}
                    sx={{ height: 40, mt: '8px', whiteSpace: 'nowrap' }}
                  >
                    {isSet ? t('companySettings.secret.replace') : t('companySettings.secret.set_action')}
                  </Button>
                  <Button
                    color="error"
                    disabled={!isSet}
                    onClick={() => set({ action: 'clear', value: '' })}
                    data-testid={`company-secret-${name}-clear`}
                    sx={{ height: 40, mt: '8px', whiteSpace: 'nowrap' }}
                  >
                    {t('companySettings.secret.clear')}
                  </Button>
                </>
              ) : (
                <Button
                  color="inherit"
                  onClick={() => set({ action: 'keep', value: '' })}
                  data-testid={`company-secret-${name}-keep`}
                  sx={{ height: 40, mt: '8px', whiteSpace: 'nowrap' }}
                >
                  {t('companySettings.secret.keep')}
                </Button>
              )}
            </Box>
          </Box>
        );
      }}
    />
  );
}

function CompanyForm({ company }: { company: Company }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [confirm, confirmDialog] = useConfirm();
  const initial = useMemo(() => toForm(company), [company]);
  const record = useRecordForm({
    record: company,
    initial,
    contract: companyContract,
    update: (current, body) => api.put<Company>(`/api/companies/${current.id}`, body),
    queryKey: (saved) => companyKey(saved.id),
    savedMessage: (saved) => t('companySettings.saved', { name: saved.companyname }),
    onSaved: (saved) => {
      // Reset here too: an unchanged answer keeps the cached object (structural sharing), so the
      // form would not be reset and the secrets would stay in 'replace'.
      form.reset(toForm(saved));
      // The top bar shows the company's name.
      void queryClient.invalidateQueries({ queryKey: SESSION_USER_KEY });
    },
    confirm: async (values) => {
      const cleared = SECRETS.filter((name) => values[name].action === 'clear');
      if (cleared.length === 0) return true;
      return confirm({
        title: t('companySettings.clearTitle'),
        message: t('companySettings.clearMessage', {
          names: cleared.map((name) => t(`companySettings.${name}`)).join(', '),
        }),
        confirmLabel: t('companySettings.clearConfirm'),
        danger: true,
      });
    },
  });
  const { form, control } = record;
  const secrets = useWatch({ control, name: [...SECRETS] });

  const dirty = form.formState.isDirty || secrets.some((secret) => secret.action !== 'keep');
  const secretField = (name: SecretName) => (
    <SecretField
      control={control}
      name={name}
      label={t(`companySettings.${name}`)}
      isSet={company.credentials[SET_FLAG[name]]}
    />
  );
  const textField = (name: (typeof TEXT_CREDENTIALS)[number] | 'smtpPort', type = 'text') => (
    <FormTextField
      control={control}
      name={name}
      type={type}
      label={t(`companySettings.${name}`)}
      testId={`company-${name}`}
      autoComplete="off"
    />
  );

  return (
    <Box component="form" noValidate onSubmit={record.submit} data-testid="company-form" autoComplete="off">
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Stack spacing={3}>
            <Section title={t('companySettings.details')}>
              <Stack spacing={2.25}>
                <FormTextField
                  control={control}
                  name="companyname"
                  label={t('companySettings.companyname')}
                  helperText={t('companySettings.companynameHint')}
                  required
                  testId="company-companyname"
                  autoComplete="off"
                />
                <FormTextField
                  control={control}
                  name="companytitle"
                  label={t('companySettings.companytitle')}
                  helperText={t('companySettings.companytitleHint')}
                  required
                  testId="company-companytitle"
                  autoComplete="off"
                />
                <FormTextField
                  control={control}
                  name="vatnumber"
                  label={t('companySettings.vatnumber')}
                  testId="company-vatnumber"
                  autoComplete="off"
                />
              </Stack>
            </Section>
            <Section title={t('companySettings.registry')} hint={t('companySettings.registryHint')}>
              <Stack spacing={2.25}>
                {textField('registryUsername')}
                {secretField('registryPassword')}
              </Stack>
            </Section>
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Stack spacing={3}>
            <Section title={t('companySettings.aade')} hint={t('companySettings.aadeHint')}>
              <Stack spacing={2.25}>
                {textField('aadeUsername')}
                {secretField('aadeSubscriptionKey')}
              </Stack>
            </Section>
            <Section title={t('companySettings.smtp')} hint={t('companySettings.smtpHint')}>
              <Stack spacing={2.25}>
                <Grid container spacing={2}>
                  <Grid size={{ xs: 12, sm: 8 }}>{textField('smtpHost')}</Grid>
                  <Grid size={{ xs: 12, sm: 4 }}>{textField('smtpPort')}</Grid>
                </Grid>
                {textField('smtpUsername')}
                {secretField('smtpPassword')}
                {textField('smtpFrom', 'email')}
              </Stack>
            </Section>
          </Stack>
        </Grid>
      </Grid>
      <RecordFormFooter
        record={record}
        texts="companySettings"
        testIdPrefix="company"
        cancelTestId="company-undo"
        saveLabel={t('companySettings.save')}
        dirty={dirty}
      />
      {confirmDialog}
    </Box>
  );
}

/** /settings/company: the company in use, its names and its service credentials (settings:admin). */
export default function CompanySettingsPage() {
  const { t } = useTranslation();
  const { companyId } = useCompany();

  const query = useQuery({
    queryKey: companyKey(companyId ?? 0),
    queryFn: ({ signal }) => api.get<Company>(`/api/companies/${companyId}`, { signal }),
    enabled: companyId !== null,
  });
  const company = query.data;

  const actions = useMemo<PageAction[]>(
    () => [refreshAction(t, () => void query.refetch(), 'company-refresh')],
    [t, query.refetch],
  );
  useAppBar({ title: t('companySettings.title'), actions });

  let body: ReactNode;
  if (companyId === null) body = <Alert severity="info">{t('companySettings.noCompany')}</Alert>;
  else if (query.error) {
    if (isApiError(query.error) && query.error.status === 404) return <NotFoundPage />;
    body = <RetryAlert error={query.error} onRetry={() => void query.refetch()} />;
  } else if (!company) {
    body = (
      <Box aria-busy="true">
        <Skeleton variant="rounded" height={420} />
      </Box>
    );
  } else {
    body = <CompanyForm key={company.id} company={company} />;
  }

  return (
    <Box data-testid="company-page">
      <PageHeader
        title={company ? company.companytitle : t('companySettings.title')}
        subtitle={
          company ? `${t('companySettings.title')} · ${company.companyname}` : t('companySettings.subtitle')
        }
        avatar={<BusinessOutlinedIcon />}
        testId="company-header"
      />
      {body}
    </Box>
  );
}
