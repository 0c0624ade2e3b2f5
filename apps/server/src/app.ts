import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { APP_NAME } from '@protocol/contracts';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { billingModule } from './modules/billing/index.ts';
import { companiesModule } from './modules/companies/index.ts';
import { dashboardModule } from './modules/dashboard/index.ts';
import { financeModule } from './modules/finance/index.ts';
import { formsModule } from './modules/forms/index.ts';
import { installationModule } from './modules/installation/index.ts';
import { mydataModule } from './modules/mydata/index.ts';
import { notificationsModule } from './modules/notifications/index.ts';
import { parametricsModule } from './modules/parametrics/index.ts';
import { paymentsModule } from './modules/payments/index.ts';
import { protocolModule } from './modules/protocol/index.ts';
import { readoutsModule } from './modules/readouts/index.ts';
import { customExportsOf } from './modules/settings/api.ts';
import { settingsModule } from './modules/settings/index.ts';
import { settlementsModule } from './modules/settlements/index.ts';
import { tradersModule } from './modules/traders/index.ts';
import { resolveSession, sessionHeld } from './modules/users/api.ts';
import { usersModule } from './modules/users/index.ts';
import { waterModule } from './modules/water/index.ts';
import { authPlugin } from './platform/auth.ts';
import { dashboardCardsOf } from './platform/dashboard.ts';
import { exportsRoutes } from './platform/exports/exports.routes.ts';
import { errorHandlerPlugin, send } from './platform/http-errors.ts';
import { keepImportFilesIn } from './platform/imports/files.ts';
import { importPipelineRoutes } from './platform/imports/pipeline.routes.ts';
import { inputGuardPlugin } from './platform/input-guard.ts';
import { jobsRoutes } from './platform/jobs/jobs.routes.ts';
import { createJobQueue, type JobHandler, type JobRegistry, jobRegistryOf } from './platform/jobs/jobs.ts';
import { startJobWorker } from './platform/jobs/worker.ts';
import { ListRegistry } from './platform/list/registry.ts';
import { createMailer } from './platform/mail.ts';
import { instrument } from './platform/metrics.ts';
import {
  type AppModule,
  companyDefaultsOf,
  type ModuleOptions,
  operationsOf,
  referencesOf,
} from './platform/module.ts';
import { readiness } from './platform/readiness.ts';
import { REINDEX_JOB, reindexHandler } from './platform/search/reindex.ts';
import { searchRoutes } from './platform/search/search.routes.ts';
import { createSecretBox } from './platform/secrets.ts';
import { responseSerializerCompiler } from './platform/serializer.ts';
import { SsoService } from './platform/sso.ts';
import { createDiskStorage, type Storage } from './platform/storage.ts';
import { createS3Storage } from './platform/storage-s3.ts';
import { type StorageColumn, sweepStorage } from './platform/storage-sweep.ts';
import { createTokenService } from './platform/tokens.ts';
import { viewsRoutes } from './platform/views/views.routes.ts';

export const VERSION: string = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8'),
).version;

/**
 * The modules, one line each, in the order their company defaults and demo data run: a module is
 * its folder `modules/<name>/` (index.ts declares it) plus its line here (README "Adding a module").
 */
export const appModules: readonly AppModule[] = [
  installationModule,
  companiesModule,
  usersModule,
  settingsModule,
  parametricsModule,
  notificationsModule,
  tradersModule,
  protocolModule,
  formsModule,
  financeModule,
  waterModule,
  billingModule,
  paymentsModule,
  settlementsModule,
  readoutsModule,
  mydataModule,
  dashboardModule,
];

/** The whole HTTP application: platform plugins first, then each module under /api. */
export async function buildApp(
  config: Config,
  database: Database,
  modules: readonly AppModule[] = appModules,
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      // pino appends to it.
      ...(config.logFile ? { file: config.logFile } : {}),
    },
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // One line per request at debug level instead of two at info: start-up output stays readable.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();
  const inFlight = countRequestsInFlight(app);
  app.addHook('onResponse', async (request, reply) => {
    request.log.debug(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });
  instrument(app, {
    config,
    database,
    operations: operationsOf(modules),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);

  await app.register(cookie);
  // Helmet's headers on every reply, its middleware built once (@fastify/helmet builds it again for
  // every request, parsing the policy each time).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI's emotion injects <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        // Attachments are previewed from blob: URLs (downloads carry the Bearer token).
        frameSrc: ["'self'", 'blob:'],
        // Chromium shows a PDF in that frame with its viewer plugin, which the blob: page's (inherited)
        // object-src must allow; nothing else may embed plugins.
        objectSrc: ['blob:'],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });
  await app.register(swagger, {
    openapi: {
      info: { title: `${APP_NAME} API`, version: VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: describeRoute,
  });
  await app.register(errorHandlerPlugin);
  await app.register(inputGuardPlugin);

  const tokens = createTokenService(config.jwtSecret);
  const db = database.db;
  await app.register(authPlugin, {
    tokens,
    resolveSession: (sid, uid) => resolveSession(db, sid, uid),
    sessionHeld,
  });

  const searchSources = modules.flatMap((m) => m.search ?? []);
  const jobRegistry = appJobRegistry(modules);
  const moduleOptions: ModuleOptions = {
    db,
    config,
    tokens,
    version: VERSION,
    sso: config.oidc ? new SsoService(config.oidc, tokens) : undefined,
    lists: new ListRegistry(),
    secrets: createSecretBox(config.credentialsKey),
    storage: config.s3 ? createS3Storage(config.s3) : createDiskStorage(config.storageDir),
    mailer: createMailer(config),
    companyDefaults: companyDefaultsOf(modules),
    references: referencesOf(modules),
    jobs: createJobQueue(jobRegistry),
    dashboardCards: dashboardCardsOf(modules),
  };
  keepImportFilesIn(db, moduleOptions.storage);
  const worker = scheduleJobWorker(app, db, jobRegistry, config.jobsLeaseMs, inFlight);
  readiness(app, {
    db,
    storage: moduleOptions.storage,
    workerRunning: worker.running,
    stopWorker: worker.stop,
  });
  scheduleStorageSweep(
    app,
    db,
    moduleOptions.storage,
    modules.flatMap((m) => m.storageColumns ?? []),
  );
  await app.register(
    async (api) => {
      await api.register(viewsRoutes, moduleOptions);
      await api.register(jobsRoutes, { ...moduleOptions, jobRegistry });
      await api.register(importPipelineRoutes, moduleOptions);
      for (const module of modules) if (module.plugin) await api.register(module.plugin, moduleOptions);
      // After the modules: it serves the lists they registered.
      await api.register(exportsRoutes, { ...moduleOptions, customExports: customExportsOf(db) });
      await api.register(searchRoutes, { db, sources: searchSources, jobs: moduleOptions.jobs });
      api.get('/docs', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api' },
  );

  serveWebApp(app, config.webDist);
  return app;
}

const companyId = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };

/**
 * The zod schemas as JSON schemas, with what the platform reads itself on every route: the company
 * in use of a signed-in request (auth.ts `resolveCompany`), named by `X-Company-Id` or `?companyid=`;
 * and a multipart route's (uploads) files, which it validates itself: one or more in the field `file`.
 */
const describeRoute: typeof jsonSchemaTransform = (input) => {
  const output = describeUploads(input);
  if ((input.route.config as { public?: boolean } | undefined)?.public) return output;
  type ObjectSchema = { type?: string; properties?: Record<string, unknown> };
  const schema = output.schema as Record<string, ObjectSchema | undefined>;
  const query: ObjectSchema = schema.querystring ?? { type: 'object' };
  const headers: ObjectSchema = schema.headers ?? { type: 'object' };
  return {
    ...output,
    schema: {
      ...output.schema,
      querystring: {
        ...query,
        properties: {
          ...query.properties,
          companyid: {
            ...companyId,
            description: 'The company in use, for clients that cannot send X-Company-Id',
          },
        },
      },
      headers: {
        ...headers,
        properties: {
          ...headers.properties,
          'x-company-id': {
            ...companyId,
            description: "The company in use (one of the operator's); the operator's first when not named",
          },
        },
      },
    },
  };
};

const describeUploads: typeof jsonSchemaTransform = (input) => {
  const output = jsonSchemaTransform(input);
  const consumes = (input.schema as { consumes?: string[] } | undefined)?.consumes;
  if (!consumes?.includes('multipart/form-data')) return output;
  const file = { type: 'string', format: 'binary' };
  return {
    ...output,
    schema: {
      ...output.schema,
      body: {
        type: 'object',
        required: ['file'],
        properties: { file: { oneOf: [file, { type: 'array', items: file }] } },
      },
    },
  };
};

/** The built web app: hashed assets cached for a year, every other page path gets index.html. */
function serveWebApp(app: FastifyInstance, webDist: string): void {
  const indexFile = path.join(webDist, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api/') && request.url !== '/api';
    if (hasWeb && isPage && !path.extname(request.url.split('?')[0] ?? '')) {
      return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return send(request, reply, 404, 'error.not_found', {});
  });
}

/**
 * A listening server sweeps stored objects no row points at (platform/storage-sweep.ts): a minute
 * after start, then daily. Only when listening: tests that inject requests never sweep.
 */
function scheduleStorageSweep(app: FastifyInstance, db: Db, storage: Storage, columns: StorageColumn[]) {
  const timers: NodeJS.Timeout[] = [];
  const sweep = () =>
    sweepStorage(db, storage, columns).then(
      (removed) => removed > 0 && app.log.info({ removed }, 'storage sweep removed unreferenced files'),
      (error: unknown) => app.log.warn({ err: error }, 'storage sweep failed'),
    );
  app.addHook('onListen', async () => {
    timers.push(setTimeout(sweep, 60_000).unref(), setInterval(sweep, 24 * 60 * 60 * 1000).unref());
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
  });
}

/** Every kind of job the app can queue (the queue refuses others): the modules' and the platform's own. */
export function appJobRegistry(modules: readonly AppModule[]): JobRegistry {
  // The platform's own kind of job beside the modules': rebuilding the search index.
  const reindex = reindexHandler(modules.flatMap((m) => m.search ?? []));
  return jobRegistryOf([
    ...modules,
    { name: 'search', jobs: { [REINDEX_JOB]: reindex as JobHandler<never> } },
  ]);
}

/**
 * Requests in flight on this node at which its jobs wait (a burst of public submissions is
 * answered first; their PDFs follow). A few users at once never reach it.
 */
const BUSY_REQUESTS = 16;

/** How many requests this node is answering now (received, their response not yet finished or aborted). */
function countRequestsInFlight(app: FastifyInstance): () => number {
  let count = 0;
  app.addHook('onRequest', (_request, reply, done) => {
    count += 1;
    reply.raw.once('close', () => {
      count -= 1;
    });
    done();
  });
  return () => count;
}

/**
 * A listening server runs the background jobs of every module (platform/jobs) until it closes or a
 * shutdown stops the worker first; tests that inject requests run none unless they start one themselves.
 */
function scheduleJobWorker(
  app: FastifyInstance,
  db: Db,
  registry: JobRegistry,
  leaseMs: number,
  inFlight: () => number,
) {
  let worker: ReturnType<typeof startJobWorker> | undefined;
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= worker?.stop() ?? Promise.resolve();
    return stopped;
  };
  app.addHook('onListen', async () => {
    if (!stopped) {
      worker = startJobWorker(db, registry, {
        log: app.log,
        leaseMs,
        busy: () => inFlight() >= BUSY_REQUESTS,
      });
    }
  });
  // Before the database closes (main.ts closes it after the app).
  app.addHook('onClose', async () => {
    await stop();
  });
  return { running: () => worker !== undefined && !stopped, stop };
}
