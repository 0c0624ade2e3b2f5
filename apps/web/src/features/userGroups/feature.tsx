import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined';
import ShieldOutlinedIcon from '@mui/icons-material/ShieldOutlined';
import type { Feature } from '../../lib/feature.ts';

const UserGroupEditPage = () => import('./UserGroupEditPage.tsx');

/** User groups and the permissions they grant: administrators only, listed under Operators. */
export const userGroups: Feature = {
  key: 'userGroups',
  routes: [
    { path: 'users/groups', page: () => import('./UserGroupsListPage.tsx'), requires: 'users:admin' },
    { path: 'users/groups/create', page: UserGroupEditPage, requires: 'users:admin' },
    { path: 'users/groups/:id/edit', page: UserGroupEditPage, requires: 'users:admin' },
  ],
  menu: [
    {
      key: 'user-groups',
      label: 'menu.userGroups',
      path: '/users/groups',
      icon: ShieldOutlinedIcon,
      parent: 'users',
      requires: 'users:admin',
    },
  ],
  tiles: [
    {
      key: 'userGroups',
      label: 'dashboard.tiles.userGroups',
      description: 'dashboard.tiles.userGroupsDescription',
      path: () => '/users/groups',
      icon: ShieldOutlinedIcon,
      testId: 'dashboard-tile-userGroups',
      requires: 'users:admin',
    },
  ],
  create: [
    {
      key: 'userGroup',
      label: 'new.newUserGroup',
      description: 'new.newUserGroupDescription',
      path: '/users/groups/create',
      icon: GroupAddOutlinedIcon,
      requires: 'users:admin',
    },
  ],
};
