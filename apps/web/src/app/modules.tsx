import AccountBalanceOutlinedIcon from '@mui/icons-material/AccountBalanceOutlined';
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import AddBusinessOutlinedIcon from '@mui/icons-material/AddBusinessOutlined';
import BusinessOutlinedIcon from '@mui/icons-material/BusinessOutlined';
import CategoryOutlinedIcon from '@mui/icons-material/CategoryOutlined';
import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import EventRepeatOutlinedIcon from '@mui/icons-material/EventRepeatOutlined';
import FolderCopyOutlinedIcon from '@mui/icons-material/FolderCopyOutlined';
import FolderSpecialOutlinedIcon from '@mui/icons-material/FolderSpecialOutlined';
import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import HowToRegOutlinedIcon from '@mui/icons-material/HowToRegOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import LabelOutlinedIcon from '@mui/icons-material/LabelOutlined';
import ListAltOutlinedIcon from '@mui/icons-material/ListAltOutlined';
import ManageAccountsOutlinedIcon from '@mui/icons-material/ManageAccountsOutlined';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import MoveToInboxOutlinedIcon from '@mui/icons-material/MoveToInboxOutlined';
import NoteAddOutlinedIcon from '@mui/icons-material/NoteAddOutlined';
import OutboxOutlinedIcon from '@mui/icons-material/OutboxOutlined';
import PercentOutlinedIcon from '@mui/icons-material/PercentOutlined';
import PersonAddOutlinedIcon from '@mui/icons-material/PersonAddOutlined';
import PlaceOutlinedIcon from '@mui/icons-material/PlaceOutlined';
import SettingsApplicationsOutlinedIcon from '@mui/icons-material/SettingsApplicationsOutlined';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import ShieldOutlinedIcon from '@mui/icons-material/ShieldOutlined';
import StorefrontOutlinedIcon from '@mui/icons-material/StorefrontOutlined';
import TableChartOutlinedIcon from '@mui/icons-material/TableChartOutlined';
import TuneOutlinedIcon from '@mui/icons-material/TuneOutlined';
import WaterDropOutlinedIcon from '@mui/icons-material/WaterDropOutlined';
import type { AuthenticatedUser, Permission } from '@protocol/contracts';
import type { ComponentType } from 'react';
import { can } from './permissions.ts';
// The documents' tiles and /new entries bring their texts with the shell (not the sign-in page).
import '../features/documents/i18n/shell.ts';

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
  /** The permission the entry needs (issue 4); hidden without it. */
  requires?: Permission;
  /** Shown only to users this returns true for (scope, kind…). */
  visible?: (user: AuthenticatedUser) => boolean;
}

/** Whether a menu entry, dashboard tile or /new entry is for this user: its permission, then `visible`. */
export function isAllowed(
  user: AuthenticatedUser,
  entry: { requires?: Permission; visible?: (user: AuthenticatedUser) => boolean },
): boolean {
  return (!entry.requires || can(user, entry.requires)) && (!entry.visible || entry.visible(user));
}

/** Operators who may see the settings (their scope grants settings:read). */
export function canReadSettings(user: AuthenticatedUser): boolean {
  return can(user, 'settings:read');
}

/** The settings tables of the menu: route code, menu label key, icon. */
const SETTINGS_TABLES: [string, string, Icon][] = [
  ['document_types', 'documentTypes', DescriptionOutlinedIcon],
  ['subject_categories', 'subjectCategories', LabelOutlinedIcon],
  ['case_types', 'caseTypes', FolderSpecialOutlinedIcon],
  ['banks', 'banks', AccountBalanceOutlinedIcon],
  ['vat_percentages', 'vatPercentages', PercentOutlinedIcon],
  ['vat_categories', 'vatCategories', CategoryOutlinedIcon],
  ['vat_statuses', 'vatStatuses', HowToRegOutlinedIcon],
  ['departments', 'departments', AccountTreeOutlinedIcon],
  ['addresses', 'addresses', PlaceOutlinedIcon],
  ['custom_tables', 'customTables', TableChartOutlinedIcon],
  ['custom_fields', 'customFields', ListAltOutlinedIcon],
  ['periodicity', 'periodicity', EventRepeatOutlinedIcon],
  ['general_settings', 'generalSettings', SettingsApplicationsOutlinedIcon],
];

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
  // The documents: a new one, then the incoming and outgoing lists (spec §2).
  {
    key: 'new-document',
    label: 'menu.newDocument',
    path: '/document/create',
    icon: NoteAddOutlinedIcon,
    requires: 'protocol:write',
  },
  {
    key: 'inbox',
    label: 'menu.inbox',
    path: '/inbox',
    icon: MoveToInboxOutlinedIcon,
    requires: 'protocol:read',
  },
  {
    key: 'outbox',
    label: 'menu.outbox',
    path: '/outbox',
    icon: OutboxOutlinedIcon,
    requires: 'protocol:read',
  },
  // The protocol book and the case files: after inbox and outbox (spec §2).
  {
    key: 'book-summary',
    label: 'menu.bookSummary',
    path: '/book_summary',
    icon: MenuBookOutlinedIcon,
    requires: 'protocol:read',
  },
  {
    key: 'cases',
    label: 'menu.cases',
    path: '/cases',
    icon: FolderCopyOutlinedIcon,
    requires: 'protocol:read',
  },
  // Traders: after applications, before operators (spec §2).
  {
    key: 'traders',
    label: 'menu.traders',
    path: '/traders',
    icon: StorefrontOutlinedIcon,
    requires: 'traders:read',
  },
  {
    key: 'users',
    label: 'menu.users',
    path: '/users',
    icon: GroupOutlinedIcon,
    requires: 'users:read',
    children: [
      {
        key: 'user-groups',
        label: 'menu.userGroups',
        path: '/users/groups',
        icon: ShieldOutlinedIcon,
        requires: 'users:admin',
      },
    ],
  },
  // Settings stays the last entry (spec §2): the hub at /settings, Parametrics first among its children.
  {
    key: 'settings',
    label: 'menu.settings',
    path: '/settings',
    icon: SettingsOutlinedIcon,
    alsoActiveOn: ['/parametrics', '/settings'],
    requires: 'settings:read',
    children: [
      {
        key: 'parametrics',
        label: 'menu.parametrics',
        path: '/parametrics/protocolBook',
        icon: TuneOutlinedIcon,
        alsoActiveOn: ['/parametrics'],
        requires: 'settings:read',
      },
      ...SETTINGS_TABLES.map(([code, label, icon]) => ({
        key: `settings-${code}`,
        label: `menu.${label}`,
        path: `/settings/${code}`,
        icon,
        requires: 'settings:read' as const,
      })),
      {
        key: 'company',
        label: 'menu.company',
        path: '/settings/company',
        icon: BusinessOutlinedIcon,
        requires: 'settings:admin',
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
  /** The permission the tile's page needs; hidden without it. */
  requires?: Permission;
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
    key: 'inbox',
    label: 'dashboard.tiles.inbox',
    description: 'dashboard.tiles.inboxDescription',
    path: () => '/inbox',
    icon: MoveToInboxOutlinedIcon,
    testId: 'dashboard-tile-inbox',
    requires: 'protocol:read',
  },
  {
    key: 'outbox',
    label: 'dashboard.tiles.outbox',
    description: 'dashboard.tiles.outboxDescription',
    path: () => '/outbox',
    icon: OutboxOutlinedIcon,
    testId: 'dashboard-tile-outbox',
    requires: 'protocol:read',
  },
  {
    key: 'traders',
    label: 'dashboard.tiles.traders',
    description: 'dashboard.tiles.tradersDescription',
    path: () => '/traders',
    icon: StorefrontOutlinedIcon,
    testId: 'dashboard-tile-traders',
    requires: 'traders:read',
  },
  {
    key: 'users',
    label: 'dashboard.tiles.users',
    description: 'dashboard.tiles.usersDescription',
    path: () => '/users',
    icon: GroupOutlinedIcon,
    testId: 'dashboard-tile-users',
    requires: 'users:read',
  },
  {
    key: 'userGroups',
    label: 'dashboard.tiles.userGroups',
    description: 'dashboard.tiles.userGroupsDescription',
    path: () => '/users/groups',
    icon: ShieldOutlinedIcon,
    testId: 'dashboard-tile-userGroups',
    requires: 'users:admin',
  },
  {
    key: 'company',
    label: 'dashboard.tiles.company',
    description: 'dashboard.tiles.companyDescription',
    path: () => '/settings/company',
    icon: BusinessOutlinedIcon,
    testId: 'dashboard-tile-company',
    requires: 'settings:admin',
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
  /** The permission creating it needs; hidden without it. */
  requires?: Permission;
  visible?: (user: AuthenticatedUser) => boolean;
}

/** What a user may create on /new: one entry per module that exists. */
export const newEntries: NewEntry[] = [
  {
    key: 'incomingDocument',
    label: 'new.newIncoming',
    description: 'new.newIncomingDescription',
    path: '/document/create?kind=0',
    icon: MoveToInboxOutlinedIcon,
    requires: 'protocol:write',
  },
  {
    key: 'outgoingDocument',
    label: 'new.newOutgoing',
    description: 'new.newOutgoingDescription',
    path: '/document/create?kind=1',
    icon: OutboxOutlinedIcon,
    requires: 'protocol:write',
  },
  {
    key: 'trader',
    label: 'new.newTrader',
    description: 'new.newTraderDescription',
    path: '/traders/create',
    icon: AddBusinessOutlinedIcon,
    requires: 'traders:write',
  },
  {
    key: 'user',
    label: 'new.newUser',
    description: 'new.newUserDescription',
    path: '/users/create',
    icon: PersonAddOutlinedIcon,
    requires: 'users:write',
  },
  {
    key: 'userGroup',
    label: 'new.newUserGroup',
    description: 'new.newUserGroupDescription',
    path: '/users/groups/create',
    icon: GroupAddOutlinedIcon,
    requires: 'users:admin',
  },
];
