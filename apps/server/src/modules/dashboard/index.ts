import { defineModule } from '../../platform/module.ts';
import { coreDashboardCards } from './dashboard.cards.ts';
import { dashboardRoutes } from './dashboard.routes.ts';
import { financeSummaryCard } from './finance.card.ts';
import { waterSummaryCard } from './water.card.ts';

/**
 * The home page's data: the route serving every module's cards, and the cards that read across modules
 * (the protocol's, the water service's and finance's), which keeps those modules from reading each other.
 */
export const dashboardModule = defineModule({
  name: 'dashboard',
  plugin: dashboardRoutes,
  dashboardCards: [...coreDashboardCards, waterSummaryCard, financeSummaryCard],
});
