import { defineModule } from '../../platform/module.ts';
import { coreDashboardCards } from './dashboard.cards.ts';
import { dashboardRoutes } from './dashboard.routes.ts';

/** The home page's data: the route serving every module's cards, and the cards of the core modules. */
export const dashboardModule = defineModule({
  name: 'dashboard',
  plugin: dashboardRoutes,
  dashboardCards: coreDashboardCards,
});
