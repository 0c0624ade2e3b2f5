import './i18n/index.ts';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined';
import ShieldOutlinedIcon from '@mui/icons-material/ShieldOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
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
import { useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { RecordFallback } from '../../components/errors/RecordFallback.tsx';
import { RecordFormFooter } from '../../components/form/FormFooter.tsx';
import { FormTextField } from '../../components/form/FormTextField.tsx';
import { Section } from '../../components/form/fields.tsx';
import { RecordRoute } from '../../components/form/RecordRoute.tsx';
import { useRecordForm } from '../../components/form/useRecordForm.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { refreshAction } from '../../components/refreshAction.tsx';
import { type PageAction, useAppBar } from '../../lib/appBarContext.tsx';
import { useCompany } from '../../lib/company.tsx';
import { useUser } from '../../lib/currentUser.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useLocalize } from '../../lib/language.tsx';
import { expandPermissions } from '../../lib/permissionLevels.ts';
import { SESSION_USER_KEY } from '../../lib/session.tsx';
import { userLabel } from '../../lib/userLabel.ts';
import { groupKey, groupsApi, groupsKey, operatorsKey } from './groupsApi.ts';
import { PermissionMatrix } from './PermissionMatrix.tsx';

interface GroupFormValues {
  name: string;
  description: string;
  permissions: Permission[];
  members: number[];
}

const EMPTY: GroupFormValues = { name: '', description: '', permissions: [], members: [] };

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

/** Name, description, the permission matrix and the members; saved after a confirmation. */
function GroupForm({ group }: { group?: UserGroup }) {
  const { t } = useTranslation();
  const afterChange = useAfterGroupChange();
  const [confirm, confirmDialog] = useConfirm();
  const initial = useMemo(() => (group ? toForm(group) : { ...EMPTY }), [group]);
  const record = useRecordForm({
    record: group,
    initial,
    contract: { schema: saveUserGroupSchema, toBody: toRequest },
    create: (body) => groupsApi.create(body),
    update: (current, body) => groupsApi.update(current.id, body),
    queryKey: (saved) => groupKey(saved.id),
    savedMessage: (saved, creating) =>
      t(creating ? 'userGroups.created' : 'userGroups.updated', { name: saved.name }),
    editPath: (saved) => `/users/groups/${saved.id}/edit`,
    onSaved: (saved) => afterChange(saved, group),
    confirm: (values) => {
      const body = toRequest(values);
      return confirm({
        title: t('userGroups.saveTitle'),
        message: t('userGroups.saveMessage', {
          name: body.name,
          permissions: body.permissions.length,
          members: body.members.length,
        }),
        confirmLabel: group ? t('userGroups.save') : t('userGroups.create'),
      });
    },
    keyFields: { 'error.names_not_unique': { field: 'name', message: 'userGroups.nameTaken' } },
  });
  const { form, control, creating, saving } = record;

  const operators = useQuery({
    queryKey: operatorsKey,
    queryFn: async ({ signal }) => (await groupsApi.operators(signal)).content.map(operatorOption),
    staleTime: 60_000,
  });

  const permissions = form.watch('permissions');
  return (
    <Box component="form" noValidate onSubmit={record.submit} data-testid="group-form">
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Stack spacing={3}>
            <Section title={t('userGroups.details')}>
              <Stack spacing={2.25}>
                <FormTextField
                  control={control}
                  name="name"
                  label={t('groups.field.name')}
                  required
                  testId="group-name"
                  autoComplete="off"
                  autoFocus={creating}
                />
                <FormTextField
                  control={control}
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
                control={control}
                name="permissions"
                render={({ field }) => (
                  <PermissionMatrix
                    value={field.value}
                    onChange={(next) => field.onChange(next)}
                    disabled={saving}
                  />
                )}
              />
            </Section>
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <Section title={t('userGroups.members')} hint={t('userGroups.membersHint')}>
            <Controller
              control={control}
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
                    disabled={saving}
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
      <RecordFormFooter record={record} texts="userGroups" testIdPrefix="group" />
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
  const { company } = useCompany();
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
      <GroupForm />
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
      refreshAction(t, () => void query.refetch(), 'group-refresh'),
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
      <GroupForm group={group} />
      {confirmDialog}
    </Box>
  );
}

/** /users/groups/create and /users/groups/{id}/edit. */
export default function UserGroupEditPage() {
  return <RecordRoute param="id" create={<CreateGroup />} edit={(id) => <EditGroup key={id} id={id} />} />;
}
