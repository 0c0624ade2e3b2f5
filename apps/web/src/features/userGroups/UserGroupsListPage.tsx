import './i18n/index.ts';
import ShieldOutlinedIcon from '@mui/icons-material/ShieldOutlined';
import { type UserGroup, userGroupsCatalog } from '@protocol/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTable } from '../../components/DataTable/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAppBar } from '../../lib/appBarContext.tsx';
import { useCompany } from '../../lib/company.tsx';
import { useLocalize } from '../../lib/language.tsx';
import { GROUPS_LIST_META_KEY, GROUPS_SEARCH_URL, groupsApi } from './groupsApi.ts';

type GroupRow = Pick<UserGroup, 'id' | 'name' | 'description'> & Record<string, unknown>;

/** /users/groups: the user groups of the company in use (users:admin, guarded in the router). */
export default function UserGroupsListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localize = useLocalize();
  const { company } = useCompany();
  const title = t('groups.title');
  useAppBar({ title });

  const onCreate = useCallback(() => navigate(localize('/users/groups/create')), [navigate, localize]);
  const onRowClick = useCallback(
    (row: GroupRow) => navigate(localize(`/users/groups/${row.id}/edit`)),
    [navigate, localize],
  );

  return (
    <>
      <PageHeader
        title={title}
        subtitle={company ? `${t('userGroups.subtitle')} · ${company.companyname}` : t('userGroups.subtitle')}
        avatar={<ShieldOutlinedIcon />}
        testId="groups-header"
      />
      <DataTable<GroupRow>
        catalog={userGroupsCatalog}
        searchUrl={GROUPS_SEARCH_URL}
        metaKey={GROUPS_LIST_META_KEY}
        title={title}
        onCreate={onCreate}
        onRowClick={onRowClick}
        onDelete={groupsApi.deleteMany}
        rowLabel={(row) => row.name}
        rowSecondary={(row) => row.description ?? ''}
      />
    </>
  );
}
