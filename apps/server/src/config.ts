import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NOTIFICATION_POLL_MS } from '@protocol/contracts';
import { z } from 'zod';
import type { S3StorageOptions } from './platform/storage-s3.ts';

/** A bad setting: start-up stops with a message that names it. */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    detail: string,
  ) {
    super(`Invalid setting ${setting}: ${detail}`);
  }
}

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** The official address of AADE's VAT-number registry service (RgWsPublic2, SOAP 1.2). */
export const AADE_REGISTRY_DEFAULT_URL = 'https://www1.gsis.gr/wsaade/RgWsPublic2/RgWsPublic2';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  /** Where the disk storage adapter keeps uploaded files; `DATA_DIR/files` by default. */
  STORAGE_DIR: optionalText,
  /** With a bucket, files are kept in an S3-compatible object store instead (README "File storage"). */
  S3_BUCKET: optionalText,
  S3_ENDPOINT: optionalText.pipe(z.url('must be a URL').optional()),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: optionalText.pipe(flag.optional()),
  S3_PREFIX: z.string().trim().default(''),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  /** Connections per server process to DATABASE_URL (at least 2: start-up seeding reads beside its transaction). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(500).default(10),
  COMPANY_WALL: optionalText.pipe(flag.optional()),
  JWT_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  CREDENTIALS_KEY: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ADMIN_USERNAME: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[\p{L}\p{N}._@-]+$/u, 'letters, digits and . _ @ - only')
    .default('admin'),
  ADMIN_PASSWORD: optionalText.pipe(z.string().min(8, 'must be at least 8 characters').max(220).optional()),
  SEED_DEMO: optionalText.pipe(flag.optional()),
  SEED_DEMO_WATER: optionalText.pipe(flag.optional()),
  SESSION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(12),
  OIDC_ISSUER: optionalText.pipe(z.url('must be a URL').optional()),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  TRUST_PROXY: optionalText.pipe(flag.optional()),
  AADE_REGISTRY_URL: optionalText.pipe(z.url('must be a URL').default(AADE_REGISTRY_DEFAULT_URL)),
  /** The outgoing mail server, e.g. smtp://user:password@mail.example.gr:587 or smtps://…:465. */
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  /** The sender of outgoing mail, e.g. "ΔΕΥΑ Αγίας Ελένης <protocol@deya.gr>". */
  MAIL_FROM: optionalText,
  /** How often the web app asks for the unread notifications (spec §9: every 60 s). */
  NOTIFICATION_POLL_MS: z.coerce.number().int().min(1000).max(3_600_000).default(NOTIFICATION_POLL_MS),
  /**
   * How long a worker's claim on a job holds without renewal (renewed every third of it): after a
   * node dies, another takes its job up this long after the last renewal.
   */
  JOBS_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  /** Serves GET /metrics (Prometheus) on this port of METRICS_HOST only; unset: not served apart. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** Serves GET /metrics on the main port too, to a scraper sending `Authorization: Bearer <token>`. */
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  /** A request slower than this is logged with its SQL time (warn); 0: none is. */
  SLOW_REQUEST_MS: z.coerce.number().int().min(0).max(3_600_000).default(1000),
  /**
   * On SIGTERM the node answers not-ready this long before it stops taking requests, so a proxy or
   * an orchestrator polling /api/ready sends no more its way.
   */
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(300).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The JSON logs go to this file (appended) instead of the console; `npm start` sets DATA_DIR/protocol.log. */
  LOG_FILE: z.string().min(1).optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** The folder of the disk storage adapter (uploaded files): STORAGE_DIR, else DATA_DIR/files. */
  storageDir: string;
  /** The S3-compatible store of the files (S3_BUCKET and friends); undefined: the disk folder. */
  s3: S3StorageOptions | undefined;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  /**
   * The company wall (row-level security behind the services' conditions, db/wall.ts): off unless
   * COMPANY_WALL=on, since it still costs some statements more than the 10% the benches allow
   * (README "The company wall").
   */
  companyWall: boolean;
  jwtSecret: string;
  /** Encrypts the companies' service credentials at rest. */
  credentialsKey: string;
  adminUsername: string;
  adminPassword: string | undefined;
  seedDemo: boolean;
  /** The demo company's water service in use: bills, payments, a settlement (db/demo-water.ts). */
  seedDemoWater: boolean;
  sessionHours: number;
  oidc: { issuer: string; clientId: string; clientSecret: string | undefined } | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Where the JSON logs go; undefined: the console. */
  logFile: string | undefined;
  /** Behind a reverse proxy: take the client address and protocol from X-Forwarded-* headers. */
  trustProxy: boolean;
  /** The built web app, served when present. */
  webDist: string;
  /** AADE's VAT-number registry (trader lookup); tests point it at a local fake. */
  aadeRegistryUrl: string;
  /** Outgoing mail (SMTP_URL, MAIL_FROM); undefined: the installation sends no e-mail. */
  mail: { smtpUrl: string; from: string } | undefined;
  /** The web app's notification poll interval, told to it by /api/installation/env. */
  notificationPollMs: number;
  /** How long a worker's claim on a job holds without renewal. */
  jobsLeaseMs: number;
  /** GET /metrics: on its own port and host, and/or on the main port behind a Bearer token. */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  /** Requests slower than this are logged with their SQL time; 0: none. */
  slowRequestMs: number;
  /** How long a node answers not-ready after SIGTERM before it stops taking requests. */
  shutdownDelayMs: number;
}

/** Reads every setting from the environment (README "Configuration"). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(String(issue?.path[0] ?? 'environment'), issue?.message ?? 'invalid');
  }
  const e = parsed.data;
  if (e.SMTP_URL && !e.MAIL_FROM) throw new ConfigError('MAIL_FROM', 'SMTP_URL needs a sender address');
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID',
      'S3 credentials need both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY',
    );
  }
  if (Boolean(e.OIDC_ISSUER) !== Boolean(e.OIDC_CLIENT_ID)) {
    throw new ConfigError(
      e.OIDC_ISSUER ? 'OIDC_CLIENT_ID' : 'OIDC_ISSUER',
      'single sign-on needs both OIDC_ISSUER and OIDC_CLIENT_ID',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  if (e.LOG_FILE) mkdirSync(path.dirname(path.resolve(e.LOG_FILE)), { recursive: true });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    storageDir: e.STORAGE_DIR ? path.resolve(e.STORAGE_DIR) : path.join(dataDir, 'files'),
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          credentials:
            e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
              : undefined,
          // A self-hosted service (an endpoint of its own) usually has no per-bucket host names.
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
          prefix: e.S3_PREFIX,
          spoolDir: path.join(dataDir, 's3-spool'),
        }
      : undefined,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    companyWall: e.COMPANY_WALL ?? false,
    jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir, 'jwt-secret'),
    credentialsKey: e.CREDENTIALS_KEY ?? persistentSecret(dataDir, 'credentials-key'),
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    seedDemoWater: (e.SEED_DEMO ?? !e.DATABASE_URL) && (e.SEED_DEMO_WATER ?? true),
    sessionHours: e.SESSION_HOURS,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID
        ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET }
        : undefined,
    logLevel: e.LOG_LEVEL,
    logFile: e.LOG_FILE ? path.resolve(e.LOG_FILE) : undefined,
    trustProxy: e.TRUST_PROXY ?? false,
    webDist: path.resolve(import.meta.dirname, '../../web/dist'),
    aadeRegistryUrl: e.AADE_REGISTRY_URL,
    mail: e.SMTP_URL && e.MAIL_FROM ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM } : undefined,
    notificationPollMs: e.NOTIFICATION_POLL_MS,
    jobsLeaseMs: e.JOBS_LEASE_SECONDS * 1000,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    slowRequestMs: e.SLOW_REQUEST_MS,
    shutdownDelayMs: Math.round(e.SHUTDOWN_DELAY_SECONDS * 1000),
  };
}

/**
 * Refuses to start a server on PostgreSQL without JWT_SECRET and CREDENTIALS_KEY, except for
 * development (NODE_ENV `development` or `test`). With PGlite the database lives in DATA_DIR and only
 * this process can open it, so a key generated beside it is sound and is backed up with it. A
 * PostgreSQL database outlives any one node's DATA_DIR and can be shared by other nodes, which a node
 * cannot see: a key generated into this node's folder would make every other node refuse its sessions,
 * and the companies' stored credentials would become unreadable the day the folder is lost.
 */
export function requireSharedSecrets(env: Record<string, string | undefined> = process.env): void {
  if (!env.DATABASE_URL?.trim() || ['development', 'test'].includes(env.NODE_ENV ?? '')) return;
  for (const setting of ['JWT_SECRET', 'CREDENTIALS_KEY'])
    if (!env[setting]?.trim())
      throw new ConfigError(
        setting,
        'a server on PostgreSQL (DATABASE_URL) needs JWT_SECRET and CREDENTIALS_KEY, the same on every node ' +
          '(at least 32 characters each, e.g. from `openssl rand -hex 32`); set NODE_ENV=development to ' +
          "let a development server generate its own into DATA_DIR/secrets (README 'Several nodes')",
      );
}

/** A secret generated once and kept in DATA_DIR, so tokens survive restarts. */
function persistentSecret(dataDir: string, name: string): string {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const secret = randomBytes(48).toString('base64url');
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      // Another process created it first: use theirs.
      return readFileSync(file, 'utf8').trim();
    }
  }
}
