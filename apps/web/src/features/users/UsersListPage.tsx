import './i18n/index.ts';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import { type UserListItem, usersCatalog } from '@protocol/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLocalize } from '../../app/language.tsx';
import { useAppBar } from '../../app/shell/appBarContext.tsx';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { USERS_LIST_META_KEY, USERS_META_URL, USERS_SEARCH_URL, userLabel, usersListApi } from './listApi.ts';

type UserRow = UserListItem & Record<string, unknown>;

/** /users: the operators list (spec §2), the DataTable over the users catalog. */
export default function UsersListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
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
      />
      <DataTable<UserRow>
        catalog={usersCatalog}
        searchUrl={USERS_SEARCH_URL}
        metaUrl={USERS_META_URL}
        metaKey={USERS_LIST_META_KEY}
        title={title}
        onCreate={onCreate}
        onRowClick={onRowClick}
        onDelete={usersListApi.deleteMany}
        rowLabel={userLabel}
        rowSecondary={(row) => row.username}
      />
    </>
  );
}
