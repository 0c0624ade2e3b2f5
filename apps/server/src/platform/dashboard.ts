import type { DashboardCards, Permission } from '@protocol/contracts';
import type { Db } from '../db/client.ts';
import type { Principal } from './auth.ts';

/** What a dashboard card is loaded for: who asks, in which company, on which utility day. */
export interface DashboardContext {
  db: Db;
  principal: Principal;
  companyId: number;
  /** Today in the utility's time zone, YYYY-MM-DD (contracts `utilityDay`). */
  today: string;
}

/**
 * One card of GET /api/dashboard, declared by the module that owns its data (`dashboardCards` on
 * AppModule): the dashboard route loads the cards the asker may see, so a new module adds its card
 * without editing the dashboard. Its answer's shape is the card's key in contracts' dashboard schema.
 */
export type DashboardCard = {
  [K in keyof DashboardCards]-?: {
    key: K;
    /** Without it the card is left out of the answer. */
    requires?: Permission;
    /** A constant number of queries, whatever the data: the dashboard states its query count. */
    load(context: DashboardContext): Promise<NonNullable<DashboardCards[K]>>;
  };
}[keyof DashboardCards];

/** The cards of all modules, in module order. */
export const dashboardCardsOf = (modules: readonly { dashboardCards?: DashboardCard[] }[]): DashboardCard[] =>
  modules.flatMap((module) => module.dashboardCards ?? []);
