import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import ManageAccountsOutlinedIcon from '@mui/icons-material/ManageAccountsOutlined';
import PersonAddOutlinedIcon from '@mui/icons-material/PersonAddOutlined';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import WaterDropOutlinedIcon from '@mui/icons-material/WaterDropOutlined';
import type { AuthenticatedUser } from '@protocol/contracts';
import type { ComponentType } from 'react';

/**
 * What the shell offers, as data: each module adds its entries here when it arrives, so the
 * menu, the launcher, the dashboard and /new only ever show what exists (no dead links).
 */

type Icon = ComponentType<{ fontSize?: 'small' | 'medium' | 'large' | 'inherit' }>;

export interface MenuEntry {
  key: string;
  /** Catalog key of the label. */
  label: string;
  /** Language-neutral path; the menu adds /en itself. */
  path: string;
  icon: Icon;
  /** Other paths for which the entry is the current one. */
  alsoActiveOn?: string[];
  children?: MenuEntry[];
  /** Shown only to users this returns true for (scope, kind…). */
  visible?: (user: AuthenticatedUser) => boolean;
}

/** Admins: kind 1 (spec §3 User) or the super admin. */
export function isAdminUser(user: AuthenticatedUser): boolean {
  return user.kind === 1 || user.superAdmin;
}

/**
 * Side menu, in the order of spec §2: dashboard, new document, inbox, outbox, protocol book,
 * case files, applications, traders, operators, settings. Only modules that exist are listed.
 */
export const menuEntries: MenuEntry[] = [
  {
    key: 'dashboard',
    label: 'menu.dashboard',
    path: '/',
    icon: DashboardOutlinedIcon,
    alsoActiveOn: ['/dashboard'],
  },
  {
    key: 'users',
    label: 'menu.users',
    path: '/users',
    icon: GroupOutlinedIcon,
  },
  // Settings stays the last entry (spec §2); its children are the parametric tables.
  {
    key: 'settings',
    label: 'menu.settings',
    path: '/parametrics/protocolBook',
    icon: SettingsOutlinedIcon,
    alsoActiveOn: ['/parametrics', '/settings'],
    visible: isAdminUser,
    children: [
      {
        key: 'parametrics',
        label: 'menu.parametrics',
        path: '/parametrics/protocolBook',
        icon: TuneOutlinedIcon,
        alsoActiveOn: ['/parametrics'],
        visible: isAdminUser,
      },
    ],
  },
];

export interface LauncherApp {
  key: string;
  label: string;
  description: string;
  path: string;
  icon: Icon;
}

/** Application launcher: the product's applications; 'Protocol' is the only one so far. */
export const launcherApps: LauncherApp[] = [
  {
    key: 'protocol',
    label: 'apps.protocol',
    description: 'apps.protocolDescription',
    path: '/',
    icon: WaterDropOutlinedIcon,
  },
];
export const CURRENT_APP = 'protocol';

export interface DashboardTile {
  key: string;
  label: string;
  description: string;
  path: (user: AuthenticatedUser) => string;
  icon: Icon;
  testId: string;
}

/** Dashboard tiles, one per module that exists. */
export const dashboardTiles: DashboardTile[] = [
  {
    key: 'account',
    label: 'dashboard.tiles.account',
    description: 'dashboard.tiles.accountDescription',
    path: (user) => `/users/${user.id}/edit`,
    icon: ManageAccountsOutlinedIcon,
    testId: 'dashboard-tile-account',
  },
  {
    key: 'about',
    label: 'dashboard.tiles.about',
    description: 'dashboard.tiles.aboutDescription',
    path: () => '/about',
    icon: InfoOutlinedIcon,
    testId: 'dashboard-tile-about',
  },
];

export interface NewEntry {
  key: string;
  label: string;
  description: string;
  path: string;
  icon: Icon;
  visible?: (user: AuthenticatedUser) => boolean;
}

/** What a user may create on /new: one entry per module that exists. */
export const newEntries: NewEntry[] = [
  {
    key: 'user',
    label: 'new.newUser',
    description: 'new.newUserDescription',
    path: '/users/create',
    icon: PersonAddOutlinedIcon,
    visible: isAdminUser,
  },
];
