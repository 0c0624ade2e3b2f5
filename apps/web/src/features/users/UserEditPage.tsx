import './i18n/index.ts';
import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import PersonAddOutlinedIcon from '@mui/icons-material/PersonAddOutlined';
import PersonOffOutlinedIcon from '@mui/icons-material/PersonOffOutlined';
import PersonOutlinedIcon from '@mui/icons-material/PersonOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { type User, usersCatalog } from '@protocol/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '../../components/ConfirmDialog.tsx';
import { useFastSwitch } from '../../components/DataTable/FastSwitch.tsx';
import ForbiddenPage from '../../components/errors/ForbiddenPage.tsx';
import { RecordFallback } from '../../components/errors/RecordFallback.tsx';
import { RecordRoute } from '../../components/form/RecordRoute.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { initials, PageHeader } from '../../components/PageHeader.tsx';
import { refreshAction } from '../../components/refreshAction.tsx';
import { type PageAction, useAppBar } from '../../lib/appBarContext.tsx';
import { useOpenChangePassword } from '../../lib/changePasswordContext.tsx';
import { useUser } from '../../lib/currentUser.tsx';
import { can } from '../../lib/permissions.ts';
import { SESSION_USER_KEY } from '../../lib/session.tsx';
import { type Mode, UserForm, userTitle } from './UserForm.tsx';
import { userKey, usersApi, usersKey } from './userApi.ts';

const ChangePasswordDialog = lazy(() => import('../../components/ChangePasswordDialog.tsx'));

/** /users/create (admins only). */
function CreateUser() {
  const { t } = useTranslation();
  const me = useUser();
  useAppBar({ title: t('userForm.createTitle') });

  if (!can(me, 'users:write')) return <ForbiddenPage />;

  return (
    <Box data-testid="user-page">
      <PageHeader
        title={t('userForm.createTitle')}
        subtitle={t('userForm.createSubtitle')}
        avatar={<PersonAddOutlinedIcon />}
      />
      <UserForm mode="create" />
    </Box>
  );
}

/** /users/{id}/edit: an operator, or the signed-in user's own account (spec §2). */
function EditUser({ id }: { id: number }) {
  const { t } = useTranslation();
  const me = useUser();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const openOwnChangePassword = useOpenChangePassword();
  const [confirm, confirmDialog] = useConfirm();
  const [passwordDialog, setPasswordDialog] = useState<'closed' | 'open' | 'unmounted'>('unmounted');

  const query = useQuery({
    queryKey: userKey(id),
    queryFn: ({ signal }) => usersApi.get(id, signal),
  });
  const user = query.data;
  const own = id === me.id;
  const mode: Mode = own || !can(me, 'users:write') ? 'own' : 'admin';

  // The 'fast switch' (spec §2 app bar): the operators list the user came from, to move between records.
  useFastSwitch({ entity: 'users', catalog: usersCatalog, editPath: (userId) => `/users/${userId}/edit` });

  const saved = (next: User, message: string) => {
    queryClient.setQueryData(userKey(next.id), next);
    void queryClient.invalidateQueries({ queryKey: usersKey, exact: false, refetchType: 'none' });
    if (next.id === me.id) void queryClient.invalidateQueries({ queryKey: SESSION_USER_KEY });
    notify(message, 'success');
  };

  const setActive = useMutation({
    mutationFn: (active: boolean) => {
      if (!user) throw new Error('no user');
      return usersApi.update(user.id, {
        firstname: user.firstname,
        lastname: user.lastname,
        email: user.email,
        active,
      });
    },
    onSuccess: (next, active) =>
      saved(next, active ? t('userForm.activated') : t('userForm.deactivated', { name: userTitle(next) })),
  });

  const actions = useMemo<PageAction[]>(() => {
    if (!user) return [];
    const list: PageAction[] = [];
    if (own || mode === 'admin') {
      list.push({
        key: 'change-password',
        label: t('accountMenu.changePassword'),
        icon: <KeyOutlinedIcon fontSize="small" />,
        onClick: own ? openOwnChangePassword : () => setPasswordDialog('open'),
        testId: 'user-change-password',
      });
    }
    if (mode === 'admin') {
      list.push(
        user.active
          ? {
              key: 'deactivate',
              label: t('userForm.deactivate'),
              icon: <PersonOffOutlinedIcon fontSize="small" />,
              disabled: setActive.isPending,
              testId: 'user-deactivate',
              onClick: () =>
                void confirm({
                  title: t('userForm.deactivateTitle'),
                  message: t('userForm.deactivateMessage', { name: userTitle(user) }),
                  confirmLabel: t('userForm.deactivate'),
                  danger: true,
                }).then((ok) => {
                  if (ok) setActive.mutate(false);
                }),
            }
          : {
              key: 'activate',
              label: t('userForm.activate'),
              icon: <PersonOutlinedIcon fontSize="small" />,
              disabled: setActive.isPending,
              testId: 'user-activate',
              onClick: () => setActive.mutate(true),
            },
      );
    }
    list.push(refreshAction(t, () => void query.refetch(), 'user-refresh'));
    return list;
  }, [user, own, mode, t, openOwnChangePassword, confirm, setActive, query.refetch]);
  useAppBar({ title: own ? t('account.title') : t('userForm.editTitle'), actions });

  if (query.error || !user)
    return <RecordFallback error={query.error} onRetry={() => void query.refetch()} bodyHeight={320} />;

  return (
    <Box data-testid="user-page">
      <PageHeader
        title={userTitle(user)}
        subtitle={
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            <span>{user.username}</span>
            <Chip size="small" variant="outlined" label={t(`account.kinds.${user.kind}`)} />
            {user.superAdmin && <Chip size="small" color="primary" label={t('account.superAdmin')} />}
            {!user.active && (
              <Chip size="small" color="warning" label={t('userForm.inactive')} data-testid="user-inactive" />
            )}
          </Box>
        }
        avatar={initials(user.firstname, user.lastname, user.username)}
        audit={user}
      />
      <UserForm key={mode} mode={mode} user={user} />
      {confirmDialog}
      {passwordDialog !== 'unmounted' && (
        <Suspense fallback={null}>
          <ChangePasswordDialog
            open={passwordDialog === 'open'}
            onClose={() => setPasswordDialog('closed')}
            userId={user.id}
            userName={`${userTitle(user)} (${user.username})`}
          />
        </Suspense>
      )}
    </Box>
  );
}

/** /users/create and /users/{id}/edit (spec §2, §3 User). */
export default function UserEditPage() {
  return <RecordRoute param="id" create={<CreateUser />} edit={(id) => <EditUser key={id} id={id} />} />;
}
