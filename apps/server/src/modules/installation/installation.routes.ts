import {
  APP_NAME,
  defaultLanguage,
  healthSchema,
  installationEnvSchema,
  languages,
} from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../platform/module.ts';

/** What the web app reads at start (spec §7 /api/installation/env) and the health probe. */
export const installationRoutes: FastifyPluginAsyncZod<ModuleOptions> = async (
  app,
  { db, sso, version, mailer, config },
) => {
  app.get(
    '/installation/env',
    {
      config: { public: true, cacheable: true },
      schema: {
        tags: ['installation'],
        summary: 'Public facts the web app needs at start',
        response: { 200: installationEnvSchema },
      },
    },
    async (request) => {
      let logoutUrl: string | null = null;
      if (sso) {
        logoutUrl = await sso.endSessionUrl().catch((error: unknown) => {
          request.log.warn({ err: error }, 'identity provider discovery failed');
          return null;
        });
      }
      return {
        appName: APP_NAME,
        version,
        defaultLanguage,
        languages: [...languages],
        sso: { enabled: Boolean(sso), logoutUrl, clientId: sso?.clientId ?? null },
        mail: { enabled: mailer.configured },
        notificationPollMs: config.notificationPollMs,
      };
    },
  );

  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['installation'],
        summary: 'Liveness and database check',
        response: { 200: healthSchema },
      },
    },
    async () => {
      await db.execute(sql`select 1`);
      return { status: 'ok' as const, database: 'ok' as const };
    },
  );
};
