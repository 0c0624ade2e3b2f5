import './i18n/index.ts';
import BusinessOutlinedIcon from '@mui/icons-material/BusinessOutlined';
import LockResetOutlinedIcon from '@mui/icons-material/LockResetOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import VisibilityOffOutlinedIcon from '@mui/icons-material/VisibilityOffOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Company, SaveCompanyRequest } from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo } from 'react';
import { Controller, type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useCompany } from '../../app/company.tsx';
import { NotFoundPage } from '../../app/errors/NotFoundPage.tsx';
import { SESSION_USER_KEY } from '../../app/session.tsx';
import { type PageAction, useAppBar } from '../../app/shell/appBarContext.tsx';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { FormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { OutlinedField } from '../../components/form/OutlinedField.tsx';
import { contractResolver } from '../../components/form/resolver.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RetryAlert } from '../../components/RetryAlert.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { encodeFieldMessage, errorMessage, fieldMessage } from '../../lib/errors.ts';

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

const secretSchema = z.object({ action: z.enum(['keep', 'replace', 'clear']), value: z.string().max(500) });
const text = z.string().trim().max(200);

/** The form: every field as typed (strings); the request is built from it on save. */
const formSchema = z
  .object({
    companyname: z.string().trim().min(1).max(200),
    companytitle: z.string().trim().min(1).max(300),
    vatnumber: z.string().trim().max(20),
    aadeUsername: text,
    registryUsername: text,
    smtpHost: text,
    smtpUsername: text,
    smtpPort: z.string().trim(),
    smtpFrom: z.union([z.literal(''), z.email().max(200)]),
    aadeSubscriptionKey: secretSchema,
    registryPassword: secretSchema,
    smtpPassword: secretSchema,
  })
  .superRefine((value, ctx) => {
    const port = value.smtpPort;
    if (port !== '' && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) {
      ctx.addIssue({ code: 'custom', path: ['smtpPort'], message: 'companySettings.portInvalid' });
    }
    for (const name of SECRETS) {
      if (value[name].action === 'replace' && value[name].value === '') {
        ctx.addIssue({ code: 'custom', path: [name], message: 'companySettings.secret.required' });
      }
    }
  });
type CompanyFormValues = z.input<typeof formSchema>;
const FORM_FIELDS = Object.keys(formSchema.shape) as (keyof CompanyFormValues)[];
const resolver = contractResolver(formSchema) as unknown as Resolver<CompanyFormValues>;

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

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 3 } }}>
      <Typography variant="h2" sx={{ fontSize: '1.05rem', mb: hint ? 0.5 : 2.5 }}>
        {title}
      </Typography>
      {hint && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
          {hint}
        </Typography>
      )}
      {children}
    </Paper>
  );
}

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

function CompanyForm({ company, onSaved }: { company: Company; onSaved: (company: Company) => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [confirm, confirmDialog] = useConfirm();
  const form = useForm<CompanyFormValues>({ resolver, defaultValues: toForm(company) });
  const secrets = useWatch({ control: form.control, name: [...SECRETS] });

  useEffect(() => {
    form.reset(toForm(company));
  }, [company, form]);

  const save = useMutation({
    mutationFn: (body: SaveCompanyRequest) => api.put<Company>(`/api/companies/${company.id}`, body),
    meta: { errorSnackbar: false },
    onSuccess: (next) => {
      // Reset here too: an unchanged answer keeps the cached object (structural sharing), so the
      // effect above would not run and the secrets would stay in 'replace'.
      form.reset(toForm(next));
      onSaved(next);
    },
    onError: (failure) => {
      let unmatched = true;
      if (isApiError(failure) && failure.fieldErrors.length > 0) {
        unmatched = false;
        for (const fieldError of failure.fieldErrors) {
          const field = fieldError.field.replace(/^credentials\./, '') as keyof CompanyFormValues;
          if (FORM_FIELDS.includes(field)) {
            form.setError(field, {
              type: 'server',
              message: encodeFieldMessage(fieldError.key, fieldError.params),
            });
          } else unmatched = true;
        }
      }
      if (unmatched) notify(errorMessage(t, failure), 'error');
    },
  });

  const onSubmit = form.handleSubmit(
    async (values) => {
      const cleared = SECRETS.filter((name) => values[name].action === 'clear');
      if (cleared.length > 0) {
        const ok = await confirm({
          title: t('companySettings.clearTitle'),
          message: t('companySettings.clearMessage', {
            names: cleared.map((name) => t(`companySettings.${name}`)).join(', '),
          }),
          confirmLabel: t('companySettings.clearConfirm'),
          danger: true,
        });
        if (!ok) return;
      }
      save.mutate(toRequest(values));
    },
    () => notify(t('validation.fix_errors'), 'error'),
  );

  const dirty = form.formState.isDirty || secrets.some((secret) => secret.action !== 'keep');
  const secretField = (name: SecretName) => (
    <SecretField
      control={form.control}
      name={name}
      label={t(`companySettings.${name}`)}
      isSet={company.credentials[SET_FLAG[name]]}
    />
  );
  const textField = (name: (typeof TEXT_CREDENTIALS)[number] | 'smtpPort', type = 'text') => (
    <FormTextField
      control={form.control}
      name={name}
      type={type}
      label={t(`companySettings.${name}`)}
      testId={`company-${name}`}
      autoComplete="off"
    />
  );

  return (
    <Box component="form" noValidate onSubmit={onSubmit} data-testid="company-form" autoComplete="off">
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Stack spacing={3}>
            <Section title={t('companySettings.details')}>
              <Stack spacing={2.25}>
                <FormTextField
                  control={form.control}
                  name="companyname"
                  label={t('companySettings.companyname')}
                  helperText={t('companySettings.companynameHint')}
                  required
                  testId="company-companyname"
                  autoComplete="off"
                />
                <FormTextField
                  control={form.control}
                  name="companytitle"
                  label={t('companySettings.companytitle')}
                  helperText={t('companySettings.companytitleHint')}
                  required
                  testId="company-companytitle"
                  autoComplete="off"
                />
                <FormTextField
                  control={form.control}
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
      <FormFooter
        dirty={dirty}
        status={dirty ? t('companySettings.unsaved') : t('companySettings.noChanges')}
        cancel={{
          label: t('companySettings.undo'),
          disabled: save.isPending || !dirty,
          onClick: () => form.reset(toForm(company)),
          testId: 'company-undo',
        }}
        save={{
          label: t('companySettings.save'),
          pending: save.isPending,
          disabled: !dirty,
          testId: 'company-save',
        }}
      />
      {confirmDialog}
    </Box>
  );
}

/** /settings/company: the company in use, its names and its service credentials (settings:admin). */
export default function CompanySettingsPage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { companyId } = useCompany();

  const query = useQuery({
    queryKey: companyKey(companyId ?? 0),
    queryFn: ({ signal }) => api.get<Company>(`/api/companies/${companyId}`, { signal }),
    enabled: companyId !== null,
  });
  const company = query.data;

  const actions = useMemo<PageAction[]>(
    () => [
      {
        key: 'refresh',
        label: t('common.refresh'),
        icon: <RefreshIcon fontSize="small" />,
        onClick: () => void query.refetch(),
        testId: 'company-refresh',
      },
    ],
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
    body = (
      <CompanyForm
        key={company.id}
        company={company}
        onSaved={(next) => {
          queryClient.setQueryData(companyKey(next.id), next);
          // The top bar shows the company's name.
          void queryClient.invalidateQueries({ queryKey: SESSION_USER_KEY });
          notify(t('companySettings.saved', { name: next.companyname }), 'success');
        }}
      />
    );
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
