import { z } from 'zod';
import { apiErrorSchema } from './errors.ts';

/** The product's name, as the installation and the API description show it. */
export const APP_NAME = 'Protocol';

export const languages = ['el', 'en'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'el';

export const installationEnvSchema = z.object({
  appName: z.string(),
  version: z.string(),
  defaultLanguage: z.enum(languages),
  languages: z.array(z.enum(languages)),
  sso: z.object({
    enabled: z.boolean(),
    /** The provider's end-session address, when it publishes one. */
    logoutUrl: z.string().nullable(),
    clientId: z.string().nullable(),
  }),
  /** Whether the installation sends e-mail (SMTP_URL is set). */
  mail: z.object({ enabled: z.boolean() }),
  /** How often the bell asks for the unread count (NOTIFICATION_POLL_MS; spec §9: 60000). */
  notificationPollMs: z.number().int().positive(),
});
export type InstallationEnv = z.infer<typeof installationEnvSchema>;

export const healthSchema = z.object({ status: z.literal('ok'), database: z.literal('ok') });

/** What GET /api/ready checks (README "Readiness and shutdown"); `shutdown` fails once SIGTERM came. */
export const readinessChecks = ['migrations', 'database', 'storage', 'worker', 'shutdown'] as const;
export type ReadinessCheck = (typeof readinessChecks)[number];
export const readinessChecksSchema = z.record(z.enum(readinessChecks), z.enum(['ok', 'failed']));
export const readySchema = z.object({ status: z.literal('ready'), checks: readinessChecksSchema });
/** The 503: the error shape (key `error.not_ready`) with every check's outcome. */
export const notReadySchema = apiErrorSchema.extend({ checks: readinessChecksSchema });
