import './i18n/index.ts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  type CreateUserRequest,
  createUserSchema,
  type UpdateAccountRequest,
  type UpdateUserRequest,
  type User,
  updateAccountSchema,
  updateUserSchema,
  userKinds,
} from '@protocol/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Controller, type useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { RecordFormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { Section, SelectField } from '../../components/form/fields.tsx';
import type { FormContract } from '../../components/form/resolver.ts';
import { useRecordForm } from '../../components/form/useRecordForm.ts';
import { useUser } from '../../lib/currentUser.tsx';
import { SESSION_USER_KEY } from '../../lib/session.tsx';
import { GroupsAndPermissions } from './UserPermissions.tsx';
import { userKey, usersApi, usersKey } from './userApi.ts';

type Kind = 1 | 2;

interface UserFormValues {
  username: string;
  password: string;
  passwordConfirmation: string;
  firstname: string;
  lastname: string;
  email: string;
  kind: Kind;
  superAdmin: boolean;
  active: boolean;
}

const EMPTY: UserFormValues = {
  username: '',
  password: '',
  passwordConfirmation: '',
  firstname: '',
  lastname: '',
  email: '',
  kind: userKinds.user,
  superAdmin: false,
  active: true,
};

function toForm(user: User): UserFormValues {
  return {
    ...EMPTY,
    username: user.username,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email ?? '',
    kind: user.kind,
    superAdmin: user.superAdmin,
    active: user.active,
  };
}

/** What the signed-in operator may do on this form (spec §6; the server enforces the same). */
export type Mode = 'create' | 'own' | 'admin';

type UserBody = CreateUserRequest | UpdateUserRequest | UpdateAccountRequest;

/** The request of each mode, checked with the schema the server checks it with. */
function userContract(mode: Mode, superAdmin: boolean): FormContract<UserFormValues, UserBody> {
  const toBody = (values: UserFormValues): UserBody => {
    const email = values.email.trim() || null;
    const names = { firstname: values.firstname.trim(), lastname: values.lastname.trim(), email };
    if (mode === 'own') return names satisfies UpdateAccountRequest;
    if (mode === 'admin') {
      return {
        ...names,
        kind: values.kind,
        active: values.active,
        ...(superAdmin ? { superAdmin: values.superAdmin } : {}),
      } satisfies UpdateUserRequest;
    }
    return {
      ...names,
      username: values.username.trim(),
      password: values.password,
      passwordConfirmation: values.passwordConfirmation,
      kind: values.kind,
      superAdmin: superAdmin ? values.superAdmin : false,
      active: values.active,
    } satisfies CreateUserRequest;
  };
  const schema =
    mode === 'create' ? createUserSchema : mode === 'admin' ? updateUserSchema : updateAccountSchema;
  return { schema: schema as FormContract<UserFormValues, UserBody>['schema'], toBody };
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

interface FormProps {
  mode: Mode;
  user?: User;
}

/** The operator form: names and e-mail for everyone; access fields for admins; password on create. */
export function UserForm({ mode, user }: FormProps) {
  const { t } = useTranslation();
  const me = useUser();
  const queryClient = useQueryClient();
  const editsAccess = mode !== 'own';
  const initial = useMemo(() => (user ? toForm(user) : EMPTY), [user]);
  const record = useRecordForm({
    record: user,
    initial,
    contract: userContract(mode, me.superAdmin),
    create: (body) => usersApi.create(body as CreateUserRequest),
    update: (current, body) => usersApi.update(current.id, body),
    queryKey: (saved) => userKey(saved.id),
    invalidate: [usersKey],
    savedMessage: (saved, creating) =>
      creating
        ? t('userForm.created', { name: userTitle(saved) })
        : mode === 'own'
          ? t('account.saved')
          : t('userForm.updated', { name: userTitle(saved) }),
    editPath: (saved) => `/users/${saved.id}/edit`,
    // The top bar shows the signed-in operator's name.
    onSaved: (saved) => {
      if (saved.id === me.id) void queryClient.invalidateQueries({ queryKey: SESSION_USER_KEY });
    },
    keyFields: { 'error.username_taken': 'username' },
  });
  const { control, creating } = record;

  const kindOptions = [
    { value: String(userKinds.admin), label: t('account.kinds.1') },
    { value: String(userKinds.user), label: t('account.kinds.2') },
  ];

  const personal = (
    <Section title={t('account.personal')}>
      <Stack spacing={2.25}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={control}
              name="firstname"
              label={t('account.firstname')}
              required
              testId="user-firstname"
              autoComplete={mode === 'own' ? 'given-name' : 'off'}
              autoFocus={!creating}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={control}
              name="lastname"
              label={t('account.lastname')}
              required
              testId="user-lastname"
              autoComplete={mode === 'own' ? 'family-name' : 'off'}
            />
          </Grid>
        </Grid>
        <FormTextField
          control={control}
          name="email"
          type="email"
          label={t('account.email')}
          testId="user-email"
          autoComplete={mode === 'own' ? 'email' : 'off'}
        />
      </Stack>
    </Section>
  );

  const signIn = creating && (
    <Section title={t('userForm.signIn')} hint={t('userForm.signInHint')}>
      <Stack spacing={2.25}>
        <FormTextField
          control={control}
          name="username"
          label={t('account.username')}
          required
          testId="user-username"
          autoComplete="off"
          autoFocus
          helperText={t('userForm.usernameHint')}
        />
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={control}
              name="password"
              type="password"
              label={t('userForm.password')}
              required
              testId="user-password"
              autoComplete="new-password"
              helperText={t('changePassword.hint')}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={control}
              name="passwordConfirmation"
              type="password"
              label={t('userForm.passwordConfirmation')}
              required
              testId="user-passwordConfirmation"
              autoComplete="new-password"
            />
          </Grid>
        </Grid>
      </Stack>
    </Section>
  );

  const companies = mode === 'own' ? me.companies : [];
  const access = (
    <Section
      title={t('account.access')}
      hint={editsAccess ? t('userForm.accessHint') : t('account.readOnlyHint')}
    >
      <Stack spacing={2.25}>
        {!creating && user && (
          <ReadOnlyField label={t('account.username')} value={user.username} testId="user-username" />
        )}
        {editsAccess ? (
          <>
            <SelectField
              control={control}
              name="kind"
              label={t('account.kind')}
              options={kindOptions}
              parse={Number}
              testId="user-kind"
            />
            <Paper variant="outlined" sx={{ px: 2, py: 0.5 }}>
              <Stack divider={<Box sx={{ borderTop: 1, borderColor: 'divider' }} />}>
                <SwitchRow
                  control={control}
                  name="active"
                  label={t('account.active')}
                  description={t('userForm.activeHint')}
                  testId="user-active"
                />
                {me.superAdmin && (
                  <SwitchRow
                    control={control}
                    name="superAdmin"
                    label={t('account.superAdmin')}
                    description={t('userForm.superAdminHint')}
                    testId="user-superAdmin"
                  />
                )}
              </Stack>
            </Paper>
          </>
        ) : (
          user && (
            <>
              <ReadOnlyField
                label={t('account.kind')}
                value={t(`account.kinds.${user.kind}`)}
                testId="user-kind"
              />
              {me.superAdmin && (
                <ReadOnlyField
                  label={t('account.superAdmin')}
                  value={user.superAdmin ? t('common.yes') : t('common.no')}
                  testId="user-superAdmin"
                />
              )}
              <Box>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  {t('account.companies')}
                </Typography>
                {companies.length > 0 ? (
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                    {companies.map((company) => (
                      <Chip key={company.id} label={company.companytitle} size="small" />
                    ))}
                  </Box>
                ) : (
                  <Typography variant="body2">{t('account.noCompanies')}</Typography>
                )}
              </Box>
            </>
          )
        )}
        {user ? (
          <GroupsAndPermissions user={user} />
        ) : (
          <Typography variant="body2" color="text.secondary" data-testid="user-groups-hint">
            {t('userForm.groupsOnCreate')}
          </Typography>
        )}
      </Stack>
    </Section>
  );

  return (
    <Box component="form" noValidate onSubmit={record.submit} data-testid="user-form" data-mode={mode}>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Stack spacing={3}>
            {signIn}
            {personal}
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>{access}</Grid>
      </Grid>
      <RecordFormFooter record={record} texts="userForm" testIdPrefix="user" />
    </Box>
  );
}

function SwitchRow({
  control,
  name,
  label,
  description,
  testId,
}: {
  control: ReturnType<typeof useForm<UserFormValues>>['control'];
  name: 'active' | 'superAdmin';
  label: string;
  description: string;
  testId: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Box sx={{ py: 1 }}>
          <FormControlLabel
            sx={{ m: 0, width: '100%', justifyContent: 'space-between' }}
            labelPlacement="start"
            label={<Typography sx={{ fontWeight: 500 }}>{label}</Typography>}
            control={
              <Switch
                checked={field.value}
                onChange={(event) => field.onChange(event.target.checked)}
                onBlur={field.onBlur}
                slotProps={{ input: { 'data-testid': testId, role: 'switch', ref: field.ref } as object }}
              />
            }
          />
          <FormHelperText sx={{ mt: 0 }}>{description}</FormHelperText>
        </Box>
      )}
    />
  );
}
export function userTitle(user: User): string {
  return `${user.firstname} ${user.lastname}`.trim() || user.username;
}
