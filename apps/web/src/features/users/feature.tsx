import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import PersonAddOutlinedIcon from '@mui/icons-material/PersonAddOutlined';
import type { Feature } from '../../lib/feature.ts';

const UserEditPage = () => import('./UserEditPage.tsx');

/** Operators. Editing one's own account needs no permission; the page checks the rest. */
export const users: Feature = {
  key: 'users',
  routes: [
    { path: 'users', page: () => import('./UsersListPage.tsx'), requires: 'users:read' },
    { path: 'users/create', page: UserEditPage, requires: 'users:write' },
    { path: 'users/:id/edit', page: UserEditPage },
  ],
  menu: [
    {
      key: 'users',
      label: 'menu.users',
      path: '/users',
      icon: GroupOutlinedIcon,
      requires: 'users:read',
    },
  ],
  tiles: [
    {
      key: 'users',
      label: 'dashboard.tiles.users',
      description: 'dashboard.tiles.usersDescription',
      path: () => '/users',
      icon: GroupOutlinedIcon,
      testId: 'dashboard-tile-users',
      requires: 'users:read',
    },
  ],
  create: [
    {
      key: 'user',
      label: 'new.newUser',
      description: 'new.newUserDescription',
      path: '/users/create',
      icon: PersonAddOutlinedIcon,
      requires: 'users:write',
    },
  ],
};
