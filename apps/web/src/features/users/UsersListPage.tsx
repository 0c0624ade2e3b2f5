import './i18n/index.ts';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import ShieldOutlinedIcon from '@mui/icons-material/ShieldOutlined';
import Button from '@mui/material/Button';
import { type UserListItem, usersCatalog } from '@protocol/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { useCan } from '../../lib/permissions.ts';
import { userLabel } from '../../lib/userLabel.ts';
import { USERS_LIST_META_KEY, USERS_META_URL, USERS_SEARCH_URL, usersListApi } from './listApi.ts';

type UserRow = UserListItem & Record<string, unknown>;

/** /users: the operators list (spec §2), the DataTable over the users catalog. */
export default function UsersListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const can = useCan();
  const title = t('users.title');
  useAppBar({ title });

  const onCreate = useCallback(() => navigate(localize('/users/create')), [navigate, localize]);
  const onRowClick = useCallback(
    (row: UserRow) => navigate(localize(`/users/${row.id}/edit`)),
    [navigate, localize],
  );

  return (
    <>
      <PageHeader
        title={title}
        subtitle={t('users.subtitle')}
        avatar={<GroupOutlinedIcon />}
        testId="users-header"
        actions={
          can('users:admin') && (
            <Button
              variant="outlined"
              component={RouterLink}
              to={localize('/users/groups')}
              startIcon={<ShieldOutlinedIcon />}
              data-testid="users-groups-link"
            >
              {t('users.groupsButton')}
            </Button>
          )
        }
      />
      <DataTable<UserRow>
        catalog={usersCatalog}
        searchUrl={USERS_SEARCH_URL}
        metaUrl={USERS_META_URL}
        metaKey={USERS_LIST_META_KEY}
        title={title}
        onCreate={can('users:write') ? onCreate : undefined}
        onRowClick={onRowClick}
        onDelete={can('users:admin') ? usersListApi.deleteMany : undefined}
        rowLabel={userLabel}
        rowSecondary={(row) => row.username}
      />
    </>
  );
}
