import './i18n/index.ts';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import ShieldOutlinedIcon from '@mui/icons-material/ShieldOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  allPermissions,
  type Permission,
  type SaveUserGroupRequest,
  saveUserGroupSchema,
  type UserGroup,
  type UserListItem,
} from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { useCompany } from '../../app/company.tsx';
import { useUser } from '../../app/currentUser.tsx';
import { NotFoundPage } from '../../app/errors/NotFoundPage.tsx';
import { RecordFallback } from '../../app/errors/RecordFallback.tsx';
import { useLocalize } from '../../app/language.tsx';
import { SESSION_USER_KEY } from '../../app/session.tsx';
import { type PageAction, useAppBar } from '../../app/shell/appBarContext.tsx';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { FormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { contractResolver } from '../../components/form/resolver.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { isApiError } from '../../lib/api.ts';
import { applyFieldErrors, errorMessage } from '../../lib/errors.ts';
import { expandPermissions } from '../../lib/permissionLevels.ts';
import { userLabel } from '../../lib/userLabel.ts';
import { groupKey, groupsApi, groupsKey, operatorsKey } from './groupsApi.ts';
import { PermissionMatrix } from './PermissionMatrix.tsx';

interface GroupFormValues {
  name: string;
  description: string;
  permissions: Permission[];
  members: number[];
}

const FORM_FIELDS = ['name', 'description', 'permissions', 'members'] as const;
const EMPTY: GroupFormValues = { name: '', description: '', permissions: [], members: [] };
const resolver = contractResolver(saveUserGroupSchema) as unknown as Resolver<GroupFormValues>;

function toForm(group: UserGroup): GroupFormValues {
  return {
    name: group.name,
    description: group.description ?? '',
    // Shown and saved with the lower levels included (a level includes the lower ones).
    permissions: expandPermissions(group.permissions),
    members: [...group.members].sort((a, b) => a - b),
  };
}

function toRequest(values: GroupFormValues): SaveUserGroupRequest {
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    permissions: expandPermissions(values.permissions),
    members: values.members,
  };
}

interface OperatorOption {
  id: number;
  label: string;
  username: string;
  active: boolean;
}

function operatorOption(user: UserListItem): OperatorOption {
  return { id: user.id, label: userLabel(user), username: user.username, active: user.active };
}

function Section({
  title,
  hint,
  aside,
  children,
}: {
  title: string;
  hint?: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 3 } }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 2, mb: hint ? 0.5 : 2.5 }}>
        <Typography variant="h2" sx={{ fontSize: '1.05rem', flexGrow: 1 }}>
          {title}
        </Typography>
        {aside}
      </Box>
      {hint && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
          {hint}
        </Typography>
      )}
      {children}
    </Paper>
  );
}

interface FormProps {
  group?: UserGroup;
  onSaved: (group: UserGroup) => void;
}

/** Name, description, the permission matrix and the members; saved after a confirmation. */
function GroupForm({ group, onSaved }: FormProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const { companyId } = useCompany();
  const [confirm, confirmDialog] = useConfirm();
  const creating = !group;
  const form = useForm<GroupFormValues>({ resolver, defaultValues: group ? toForm(group) : EMPTY });

  useEffect(() => {
    if (group) form.reset(toForm(group));
  }, [group, form]);

  const operators = useQuery({
    queryKey: operatorsKey,
    queryFn: async ({ signal }) => (await groupsApi.operators(signal)).content.map(operatorOption),
    staleTime: 60_000,
  });

  const save = useMutation({
    mutationFn: (body: SaveUserGroupRequest) =>
      group ? groupsApi.update(group.id, body) : groupsApi.create(companyId, body),
    meta: { errorSnackbar: false },
    onSuccess: (saved) => {
      form.reset(toForm(saved));
      onSaved(saved);
    },
    onError: (failure) => {
      if (isApiError(failure) && failure.key === 'error.names_not_unique') {
        form.setError('name', { type: 'server', message: 'userGroups.nameTaken' }, { shouldFocus: true });
        return;
      }
      const unmatched = isApiError(failure)
        ? applyFieldErrors(failure.fieldErrors, FORM_FIELDS, form.setError)
        : [];
      if (!isApiError(failure) || failure.fieldErrors.length === 0 || unmatched.length > 0) {
        notify(errorMessage(t, failure), 'error');
      }
    },
  });

  const onSubmit = form.handleSubmit(
    async (values) => {
      const body = toRequest(values);
      const ok = await confirm({
        title: t('userGroups.saveTitle'),
        message: t('userGroups.saveMessage', {
          name: body.name,
          permissions: body.permissions.length,
          members: body.members.length,
        }),
        confirmLabel: creating ? t('userGroups.create') : t('userGroups.save'),
      });
      if (ok) save.mutate(body);
    },
    () => notify(t('validation.fix_errors'), 'error'),
  );

  const permissions = form.watch('permissions');
  const dirty = form.formState.isDirty;

  return (
    <Box component="form" noValidate onSubmit={onSubmit} data-testid="group-form">
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Stack spacing={3}>
            <Section title={t('userGroups.details')}>
              <Stack spacing={2.25}>
                <FormTextField
                  control={form.control}
                  name="name"
                  label={t('groups.field.name')}
                  required
                  testId="group-name"
                  autoComplete="off"
                  autoFocus={creating}
                />
                <FormTextField
                  control={form.control}
                  name="description"
                  label={t('groups.field.description')}
                  testId="group-description"
                  autoComplete="off"
                  helperText={t('userGroups.descriptionHint')}
                />
              </Stack>
            </Section>
            <Section
              title={t('userGroups.permissions')}
              hint={t('userGroups.permissionsHint')}
              aside={
                <Typography variant="body2" color="text.secondary" data-testid="group-permission-count">
                  {t('userGroups.permissionCount', {
                    count: permissions.length,
                    total: allPermissions.length,
                  })}
                </Typography>
              }
            >
              <Controller
                control={form.control}
                name="permissions"
                render={({ field }) => (
                  <PermissionMatrix
                    value={field.value}
                    onChange={(next) => field.onChange(next)}
                    disabled={save.isPending}
                  />
                )}
              />
            </Section>
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <Section title={t('userGroups.members')} hint={t('userGroups.membersHint')}>
            <Controller
              control={form.control}
              name="members"
              render={({ field }) => {
                const options = operators.data ?? [];
                const byId = new Map(options.map((option) => [option.id, option]));
                const value = field.value.map(
                  (id) => byId.get(id) ?? { id, label: `#${id}`, username: '', active: true },
                );
                return (
                  <Autocomplete<OperatorOption, true>
                    multiple
                    options={options}
                    value={value}
                    loading={operators.isLoading}
                    disabled={save.isPending}
                    filterSelectedOptions
                    noOptionsText={t('userGroups.noOperators')}
                    getOptionLabel={(option) => option.label}
                    getOptionKey={(option) => option.id}
                    isOptionEqualToValue={(option, selected) => option.id === selected.id}
                    onChange={(_event, next) => field.onChange(next.map((option) => option.id))}
                    onBlur={field.onBlur}
                    renderOption={({ key, ...props }, option) => (
                      <li key={key} {...props} data-testid={`group-member-option-${option.id}`}>
                        <Box>
                          <Typography variant="body2">{option.label}</Typography>
                          <Typography variant="caption" color="text.secondary">
                            {option.username}
                          </Typography>
                        </Box>
                      </li>
                    )}
                    renderValue={(selected, getItemProps) =>
                      selected.map((option, index) => {
                        const { key, ...itemProps } = getItemProps({ index });
                        return (
                          <Chip
                            key={key}
                            {...itemProps}
                            size="small"
                            label={option.label}
                            data-testid={`group-member-${option.id}`}
                          />
                        );
                      })
                    }
                    renderInput={(params) => (
                      <TextField
                        {...params}
                        label={t('userGroups.membersLabel')}
                        placeholder={t('userGroups.membersPlaceholder')}
                        helperText={t('userGroups.membersCount', { count: field.value.length })}
                        slotProps={{
                          ...params.slotProps,
                          htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'group-members' },
                        }}
                      />
                    )}
                  />
                );
              }}
            />
            {operators.error && (
              <Alert severity="error" sx={{ mt: 2 }}>
                {errorMessage(t, operators.error)}
              </Alert>
            )}
          </Section>
        </Grid>
      </Grid>
      <FormFooter
        dirty={dirty}
        status={
          dirty
            ? t('userGroups.unsaved')
            : creating
              ? t('userGroups.requiredHint')
              : t('userGroups.noChanges')
        }
        cancel={{
          label: creating ? t('common.cancel') : t('userGroups.undo'),
          disabled: save.isPending || (!creating && !dirty),
          onClick: () => {
            if (creating) navigate(-1);
            else form.reset(group ? toForm(group) : EMPTY);
          },
          testId: 'group-cancel',
        }}
        save={{
          label: creating ? t('userGroups.create') : t('userGroups.save'),
          pending: save.isPending,
          disabled: !creating && !dirty,
          testId: 'group-save',
        }}
      />
      {confirmDialog}
    </Box>
  );
}

/** The session's scope follows a group change when the signed-in operator is (or was) a member. */
function useAfterGroupChange() {
  const queryClient = useQueryClient();
  const me = useUser();
  return (group: UserGroup | undefined, before?: UserGroup) => {
    void queryClient.invalidateQueries({ queryKey: groupsKey, exact: false, refetchType: 'none' });
    void queryClient.invalidateQueries({ queryKey: ['list', '/api/users/groups/search'], exact: false });
    if (group?.members.includes(me.id) || before?.members.includes(me.id)) {
      void queryClient.invalidateQueries({ queryKey: SESSION_USER_KEY });
    }
  };
}

/** /users/groups/create: a group of the company in use. */
function CreateGroup() {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const localize = useLocalize();
  const queryClient = useQueryClient();
  const { company } = useCompany();
  const afterChange = useAfterGroupChange();
  useAppBar({ title: t('userGroups.createTitle') });

  return (
    <Box data-testid="group-page">
      <PageHeader
        title={t('userGroups.createTitle')}
        subtitle={
          company
            ? `${t('userGroups.createSubtitle')} · ${t('userGroups.company', { name: company.companyname })}`
            : t('userGroups.createSubtitle')
        }
        avatar={<GroupAddOutlinedIcon />}
      />
      <GroupForm
        onSaved={(created) => {
          queryClient.setQueryData(groupKey(created.id), created);
          afterChange(created);
          notify(t('userGroups.created', { name: created.name }), 'success');
          navigate(localize(`/users/groups/${created.id}/edit`), { replace: true });
        }}
      />
    </Box>
  );
}

/** /users/groups/{id}/edit. */
function EditGroup({ id }: { id: number }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const localize = useLocalize();
  const queryClient = useQueryClient();
  const { companyId, companies } = useCompany();
  const afterChange = useAfterGroupChange();
  const [confirm, confirmDialog] = useConfirm();

  const query = useQuery({ queryKey: groupKey(id), queryFn: ({ signal }) => groupsApi.get(id, signal) });
  const group = query.data;

  const remove = useMutation({
    mutationFn: () => groupsApi.deleteMany([id]),
    onSuccess: () => {
      afterChange(undefined, group);
      queryClient.removeQueries({ queryKey: groupKey(id) });
      notify(t('userGroups.deleted', { name: group?.name ?? '' }), 'success');
      navigate(localize('/users/groups'), { replace: true });
    },
  });

  const actions = useMemo<PageAction[]>(() => {
    if (!group) return [];
    return [
      {
        key: 'delete',
        label: t('userGroups.delete'),
        icon: <DeleteOutlineIcon fontSize="small" />,
        disabled: remove.isPending,
        testId: 'group-delete',
        onClick: () =>
          void confirm({
            title: t('userGroups.deleteTitle'),
            message: t('userGroups.deleteMessage', { name: group.name }),
            confirmLabel: t('userGroups.delete'),
            danger: true,
          }).then((ok) => {
            if (ok) remove.mutate();
          }),
      },
      {
        key: 'refresh',
        label: t('common.refresh'),
        icon: <RefreshIcon fontSize="small" />,
        onClick: () => void query.refetch(),
        testId: 'group-refresh',
      },
    ];
  }, [group, t, confirm, remove, query.refetch]);
  useAppBar({ title: t('userGroups.editTitle'), actions });

  if (query.error || !group)
    return <RecordFallback error={query.error} onRetry={() => void query.refetch()} bodyHeight={420} />;

  const groupCompany = companies.find((item) => item.id === group.companyId);
  return (
    <Box data-testid="group-page">
      <PageHeader
        title={group.name}
        subtitle={
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            {groupCompany && <span>{t('userGroups.company', { name: groupCompany.companyname })}</span>}
            <Chip
              size="small"
              variant="outlined"
              label={t('userGroups.membersCount', { count: group.members.length })}
            />
            <Button size="small" component={RouterLink} to={localize('/users/groups')}>
              {t('userGroups.backToList')}
            </Button>
          </Box>
        }
        avatar={<ShieldOutlinedIcon />}
      />
      {groupCompany && companyId !== null && group.companyId !== companyId && (
        <Alert severity="info" sx={{ mb: 3 }} data-testid="group-other-company">
          {t('userGroups.otherCompany', { name: groupCompany.companyname })}
        </Alert>
      )}
      <GroupForm
        group={group}
        onSaved={(next) => {
          queryClient.setQueryData(groupKey(next.id), next);
          afterChange(next, group);
          notify(t('userGroups.updated', { name: next.name }), 'success');
        }}
      />
      {confirmDialog}
    </Box>
  );
}

/** /users/groups/create and /users/groups/{id}/edit (issue 4). */
export default function UserGroupEditPage() {
  const { id: idParam } = useParams();
  if (idParam === undefined) return <CreateGroup />;
  const id = Number(idParam);
  if (!Number.isInteger(id) || id <= 0) return <NotFoundPage />;
  return <EditGroup key={id} id={id} />;
}
