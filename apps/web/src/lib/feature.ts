import type { AuthenticatedUser, Dashboard, Permission, SearchResponse } from '@protocol/contracts';
import { type ComponentType, createContext, type LazyExoticComponent, useContext } from 'react';
import { can } from './permissions.ts';

/**
 * What a feature (features/<name>/feature.tsx) tells the shell: its pages, menu entries, dashboard
 * tiles, /new entries and launcher applications, each with the permission it needs. Small data
 * only: pages are `import()` loaders, so a feature's code and catalogs stay in its own chunks. The
 * declarations are loaded with the signed-in shell (app/shellRoutes.tsx), never by the sign-in page.
 */
export interface Feature {
  key: string;
  routes?: FeatureRoute[];
  menu?: MenuEntry[];
  tiles?: DashboardTile[];
  /** Cards of the dashboard, drawn from GET /api/dashboard (where the server module loads them). */
  dashboardCards?: DashboardCard[];
  /** Entries of /new: what the user may create. */
  create?: NewEntry[];
  launcher?: LauncherApp[];
  /** Buttons of the top bar, beside the account menu; `React.lazy`, so their code is its own chunk. */
  topBar?: TopBarItem[];
  /** The lists of GET /api/search this feature shows in the top bar's search. */
  search?: SearchGroup[];
  /** Tabs this feature adds to the consumer's card (e.g. its readouts), after the card's own. */
  consumerTabs?: ConsumerTab[];
}

/** A tab of the consumer's card drawn by another feature; `label` is a shell catalog key. */
export interface ConsumerTab {
  key: string;
  label: string;
  requires: Permission;
  component: LazyExoticComponent<ComponentType<{ consumerId: number }>>;
}

export interface TopBarItem {
  key: string;
  component: ComponentType;
}

export type Icon = ComponentType<{ fontSize?: 'small' | 'medium' | 'large' | 'inherit' }>;

/** A page module's loader; declare it once per page, so paths that share a page share its component. */
export type PageLoader = () => Promise<{ default: ComponentType }>;

export interface FeatureRoute {
  /** Path inside the shell, without the /en prefix; '' is the home page. */
  path: string;
  page: PageLoader;
  /** Without it the operator is sent to /forbidden. */
  requires?: Permission;
}

export interface MenuEntry {
  key: string;
  /** Catalog key of the label. */
  label: string;
  /** Language-neutral path; the menu adds /en itself. */
  path: string;
  icon: Icon;
  /** Other paths for which the entry is the current one. */
  alsoActiveOn?: string[];
  /** The key of the entry this one is listed under (it may belong to another feature). */
  parent?: string;
  /** Filled in by menuEntries() from the entries that name this one as parent. */
  children?: MenuEntry[];
  /** The permission the entry needs; hidden without it. */
  requires?: Permission;
  /** Shown only to users this returns true for (scope, kind…). */
  visible?: (user: AuthenticatedUser) => boolean;
}

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

/**
 * A card of the dashboard: its component draws its grid item(s) from the answer of GET
 * /api/dashboard, and nothing when its key is absent there (the operator may not see what it counts).
 * `React.lazy`, so cards and their charts load with the dashboard, not with the shell.
 */
export interface DashboardCard {
  key: string;
  /** The card of GET /api/dashboard it draws (what the server module's `dashboardCards` loads). */
  reads: keyof Dashboard['cards'];
  /** Its place among every feature's cards, ascending. */
  order: number;
  component: LazyExoticComponent<ComponentType<DashboardCardProps>>;
}

export interface DashboardCardProps {
  dashboard: Dashboard;
}

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

export interface LauncherApp {
  key: string;
  label: string;
  description: string;
  path: string;
  icon: Icon;
}

/** One list of the global search's answer: its heading and how a result reads and opens. */
export interface SearchGroup<K extends keyof SearchResponse = keyof SearchResponse> {
  key: K;
  /** Catalog key of the heading. */
  label: string;
  icon: Icon;
  present(item: SearchResponse[K][number]): SearchResultView;
}

export interface SearchResultView {
  primary: string;
  secondary?: string;
  /** Language-neutral path of the record. */
  path: string;
}

/** Keeps the item type of one list while the groups of all features sit side by side. */
export function searchGroup<K extends keyof SearchResponse>(group: SearchGroup<K>): SearchGroup {
  return group as unknown as SearchGroup;
}

export const searchGroups = (features: readonly Feature[]): SearchGroup[] =>
  features.flatMap((feature) => feature.search ?? []);

/** Whether a menu entry, dashboard tile or /new entry is for this user: its permission, then `visible`. */
export function isAllowed(
  user: AuthenticatedUser,
  entry: { requires?: Permission; visible?: (user: AuthenticatedUser) => boolean },
): boolean {
  return (!entry.requires || can(user, entry.requires)) && (!entry.visible || entry.visible(user));
}

/**
 * The side menu: top-level entries in the order of the features list, each with the entries that
 * name it as parent, also in that order (so Settings gathers parametrics, tables and company).
 */
export function menuEntries(features: readonly Feature[]): MenuEntry[] {
  const all = features.flatMap((feature) => feature.menu ?? []);
  const top = all
    .filter((entry) => !entry.parent)
    .map((entry) => ({ ...entry, children: [] as MenuEntry[] }));
  for (const child of all.filter((entry) => entry.parent)) {
    const parent = top.find((entry) => entry.key === child.parent);
    if (!parent) throw new Error(`menu entry ${child.key}: no top-level entry ${child.parent}`);
    parent.children.push(child);
  }
  return top;
}

export const consumerTabs = (features: readonly Feature[]): ConsumerTab[] =>
  features.flatMap((feature) => feature.consumerTabs ?? []);

export const dashboardTiles = (features: readonly Feature[]): DashboardTile[] =>
  features.flatMap((feature) => feature.tiles ?? []);

export const dashboardCards = (features: readonly Feature[]): DashboardCard[] =>
  features.flatMap((feature) => feature.dashboardCards ?? []).sort((a, b) => a.order - b.order);

export const newEntries = (features: readonly Feature[]): NewEntry[] =>
  features.flatMap((feature) => feature.create ?? []);

export const launcherApps = (features: readonly Feature[]): LauncherApp[] =>
  features.flatMap((feature) => feature.launcher ?? []);

export const topBarItems = (features: readonly Feature[]): TopBarItem[] =>
  features.flatMap((feature) => feature.topBar ?? []);

/**
 * The app's features (app/features.ts), provided by the shell: a page that gathers what every feature
 * adds (the dashboard's cards and tiles, /new's entries, a consumer's tabs) reads them here, so no
 * feature imports the list of all features.
 */
export const FeaturesContext = createContext<readonly Feature[]>([]);

export const useFeatures = (): readonly Feature[] => useContext(FeaturesContext);
