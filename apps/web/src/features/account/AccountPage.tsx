import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type UpdateAccountRequest, type User, updateAccountSchema } from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { useUser } from '../../app/currentUser.tsx';
import { NotFoundPage } from '../../app/errors/NotFoundPage.tsx';
import { useLocalize } from '../../app/language.tsx';
import { SESSION_USER_KEY } from '../../app/session.tsx';
import { type PageAction, useAppBar } from '../../app/shell/appBarContext.tsx';
import { useOpenChangePassword } from '../../app/shell/changePasswordContext.tsx';
import { FormTextField } from '../../components/FormTextField.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { initials, PageHeader } from '../../components/PageHeader.tsx';
import { isApiError } from '../../lib/api.ts';
import { contractResolver } from '../../lib/contractResolver.ts';
import { applyFieldErrors, errorMessage } from '../../lib/errors.ts';
import { userKey, usersApi } from './api.ts';

const FIELDS = ['firstname', 'lastname', 'email'] as const;

function toForm(user: User): UpdateAccountRequest {
  return { firstname: user.firstname, lastname: user.lastname, email: user.email ?? '' };
}

function ReadOnlyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <TextField
      label={label}
      value={value}
      variant="filled"
      slotProps={{ htmlInput: { readOnly: true, 'data-testid': testId } }}
    />
  );
}

function AccountForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const form = useForm<UpdateAccountRequest>({
    resolver: contractResolver(updateAccountSchema),
    defaultValues: toForm(user),
  });

  useEffect(() => {
    form.reset(toForm(user));
  }, [user, form]);

  const save = useMutation({
    mutationFn: (values: UpdateAccountRequest) => usersApi.update(user.id, values),
    onSuccess: (saved) => {
      queryClient.setQueryData(userKey(user.id), saved);
      void queryClient.invalidateQueries({ queryKey: SESSION_USER_KEY });
      notify(t('account.saved'), 'success');
    },
    onError: (failure) => {
      if (isApiError(failure)) applyFieldErrors(failure.fieldErrors, FIELDS, form.setError);
    },
  });

  return (
    <Box
      component="form"
      noValidate
      onSubmit={form.handleSubmit((values) => save.mutate({ ...values, email: values.email || null }))}
    >
      <Stack spacing={2.25}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={form.control}
              name="firstname"
              label={t('account.firstname')}
              required
              testId="account-firstname"
              autoComplete="given-name"
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={form.control}
              name="lastname"
              label={t('account.lastname')}
              required
              testId="account-lastname"
              autoComplete="family-name"
            />
          </Grid>
        </Grid>
        <FormTextField
          control={form.control}
          name="email"
          type="email"
          label={t('account.email')}
          testId="account-email"
          autoComplete="email"
        />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1 }}>
          <Button
            color="inherit"
            disabled={!form.formState.isDirty || save.isPending}
            onClick={() => form.reset(toForm(user))}
          >
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending} data-testid="account-save">
            {t('common.save')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

/** /users/{id}/edit: the user's own account (admins may open others'). */
export default function AccountPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const me = useUser();
  const openChangePassword = useOpenChangePassword();
  const { id: idParam } = useParams();
  const id = Number(idParam);
  const validId = Number.isInteger(id) && id > 0;

  const query = useQuery({
    queryKey: userKey(id),
    queryFn: ({ signal }) => usersApi.get(id, signal),
    enabled: validId,
  });
  const user = query.data;
  const own = user?.id === me.id;

  const actions = useMemo<PageAction[]>(
    () => [
      ...(own
        ? [
            {
              key: 'change-password',
              label: t('accountMenu.changePassword'),
              icon: <KeyOutlinedIcon fontSize="small" />,
              onClick: openChangePassword,
              testId: 'account-action-change-password',
            },
          ]
        : []),
      {
        key: 'refresh',
        label: t('common.refresh'),
        icon: <RefreshIcon fontSize="small" />,
        onClick: () => void query.refetch(),
        testId: 'account-action-refresh',
      },
    ],
    [own, t, openChangePassword, query.refetch],
  );
  useAppBar({ title: t('account.title'), actions: user ? actions : undefined });

  if (!validId) return <NotFoundPage />;
  if (query.error) {
    if (isApiError(query.error) && query.error.status === 404) return <NotFoundPage />;
    if (isApiError(query.error) && query.error.status === 403)
      return <Navigate to={localize('/forbidden')} replace />;
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
      >
        {errorMessage(t, query.error)}
      </Alert>
    );
  }
  if (!user) {
    return (
      <Box aria-busy="true">
        <Skeleton variant="rounded" height={104} sx={{ mb: 3 }} />
        <Skeleton variant="rounded" height={280} />
      </Box>
    );
  }

  const fullName = `${user.firstname} ${user.lastname}`.trim() || user.username;
  const companies =
    'companies' in user && Array.isArray(user.companies)
      ? (user.companies as { id: number; companytitle: string }[])
      : own
        ? me.companies
        : [];

  return (
    <Box data-testid="account-page">
      <PageHeader
        title={fullName}
        subtitle={user.username}
        avatar={initials(user.firstname, user.lastname, user.username)}
        audit={user}
      />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 3 } }}>
            <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 2.5 }}>
              {t('account.personal')}
            </Typography>
            <AccountForm user={user} />
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 3 } }}>
            <Typography variant="h2" sx={{ fontSize: '1.1rem', mb: 0.5 }}>
              {t('account.access')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
              {t('account.readOnlyHint')}
            </Typography>
            <Stack spacing={2}>
              <ReadOnlyField label={t('account.username')} value={user.username} testId="account-username" />
              <ReadOnlyField
                label={t('account.kind')}
                value={t(`account.kinds.${user.kind}`)}
                testId="account-kind"
              />
              <ReadOnlyField
                label={t('account.superAdmin')}
                value={user.superAdmin ? t('common.yes') : t('common.no')}
                testId="account-super-admin"
              />
              <Box>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  {t('account.companies')}
                </Typography>
                {companies.length > 0 ? (
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                    {companies.map((company) => (
                      <Chip key={company.id} label={company.companytitle} />
                    ))}
                  </Box>
                ) : (
                  <Typography variant="body2">{t('account.noCompanies')}</Typography>
                )}
              </Box>
            </Stack>
          </Paper>
        </Grid>
      </Grid>
    </Box>
  );
}
