import { type DashboardCards, dashboardSchema, hasPermission, utilityDay } from '@protocol/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { companyOf, principalOf } from '../../platform/auth.ts';
import type { DashboardContext } from '../../platform/dashboard.ts';
import type { ModuleOptions } from '../../platform/module.ts';

/** GET /api/dashboard: every module's cards the asker may see, for the company in use. */
export const dashboardRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, dashboardCards }) => {
  app.get(
    '/dashboard',
    {
      config: { signedIn: true },
      schema: {
        tags: ['dashboard'],
        summary:
          "The home page's cards (charged to me, registrations, unread notifications, recent cases…), each only with its permission; one query per card",
        response: { 200: dashboardSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const context: DashboardContext = {
        db,
        principal,
        companyId: companyOf(request),
        today: utilityDay(new Date()),
      };
      const cards: Record<string, unknown> = {};
      // One after the other: the embedded database runs one statement at a time anyway.
      for (const card of dashboardCards) {
        if (card.requires && !hasPermission(principal.scope, card.requires)) continue;
        cards[card.key] = await card.load(context);
      }
      return { today: context.today, cards: cards as DashboardCards };
    },
  );
};
