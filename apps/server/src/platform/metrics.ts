import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { errorKeys } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { type Database, rowsOf } from '../db/client.ts';
import { type SqlTime, sqlTime } from '../db/timing.ts';
import { wallCrossings } from '../db/wall.ts';
import { send } from './http-errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes the public's submissions: counted apart (protocol_public_submissions_total). */
    publicSubmission?: boolean;
  }
}

/**
 * Operations a module tells the operators about, each the job kinds that carry it out, e.g.
 * `{ billing_run: ['billing.run'] }`: their queued and running jobs are the operations in progress.
 */
export type Operations = Record<string, readonly string[]>;

export interface MetricsOptions {
  config: Pick<Config, 'metrics' | 'slowRequestMs'>;
  database: Database;
  /** Every module's operations (AppModule.operations), merged. */
  operations: Operations;
}

/** The label of a request no route matched (a 404): one series, whatever the path asked. */
const UNMATCHED = 'unmatched';

const sqlTimes = new WeakMap<FastifyRequest, SqlTime>();

/**
 * Operations' instruments (README "Metrics"): every request's SQL time, for the slow-request log
 * line; and, when METRICS_PORT or METRICS_TOKEN is set, a Prometheus registry of this app (not the
 * global one: several apps in one process, as in the tests, count apart) served at GET /metrics.
 * Call before the routes are registered: the hooks must cover them all.
 */
export function instrument(app: FastifyInstance, { config, database, operations }: MetricsOptions): void {
  const { port, host, token } = config.metrics;
  const registry =
    port !== undefined || token !== undefined ? createRegistry(app, database, operations) : null;

  // The request's SQL time is kept in its async context from the start, and entered again before the
  // handler: a body read from the socket resumes in the socket's context, not the request's.
  app.addHook('onRequest', (request, _reply, done) => {
    const unit: SqlTime = { ms: 0 };
    sqlTimes.set(request, unit);
    sqlTime.run(unit, done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const unit = sqlTimes.get(request);
    if (unit) sqlTime.run(unit, done);
    else done();
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    const seconds = reply.elapsedTime / 1000;
    registry?.observeRequest(request, route, reply.statusCode, seconds);
    if (config.slowRequestMs > 0 && reply.elapsedTime >= config.slowRequestMs) {
      request.log.warn(
        {
          route,
          method: request.method,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
          sqlMs: Math.round(sqlTimes.get(request)?.ms ?? 0),
          companyId: request.companyId,
        },
        'slow request',
      );
    }
  });

  if (!registry) return;
  if (token !== undefined) {
    const expected = Buffer.from(`Bearer ${token}`);
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return send(request, reply, 401, errorKeys.unauthorized, {});
      }
      return reply
        .header('Cache-Control', 'no-store')
        .type(registry.contentType)
        .send(await registry.metrics());
    });
  }
  if (port !== undefined) {
    // Its own server, listening only when the app does (tests that inject requests open no port).
    let server: Server | undefined;
    app.addHook('onListen', async () => {
      const listening = createServer((req, res) => {
        if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
          res.writeHead(404).end();
          return;
        }
        registry.metrics().then(
          (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
          (error: unknown) => {
            app.log.warn({ err: error }, 'metrics collection failed');
            res.writeHead(500).end();
          },
        );
      });
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(port, host, () => resolve());
      });
      server = listening;
    });
    app.addHook('onClose', async () => {
      if (!server) return;
      server.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    });
  }
}

interface AppRegistry {
  contentType: string;
  metrics(): Promise<string>;
  observeRequest(request: FastifyRequest, route: string, status: number, seconds: number): void;
}

function createRegistry(app: FastifyInstance, database: Database, operations: Operations): AppRegistry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Counter({
    name: 'protocol_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'protocol_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and method',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const submissions = new Counter({
    name: 'protocol_public_submissions_total',
    help: 'Submissions of the public (online forms without sign-in), by route pattern and status',
    labelNames: ['route', 'status'] as const,
    registers,
  });
  const refusals = new Counter({
    name: 'protocol_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit (429), by route pattern',
    labelNames: ['route'] as const,
    registers,
  });
  const queries = new Histogram({
    name: 'protocol_db_query_duration_seconds',
    help: 'Time of one SQL statement, waiting for a connection included',
    labelNames: ['database'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const unlisten = database.timing.listen((seconds) => queries.observe({ database: database.kind }, seconds));
  app.addHook('onClose', async () => {
    unlisten();
  });
  new Gauge({
    name: 'protocol_db_connections',
    help: 'Database connections: in use, idle, and requests waiting for one (PGlite: one connection)',
    labelNames: ['state', 'database'] as const,
    registers,
    collect() {
      const { inUse, idle, waiting } = database.connections();
      this.set({ state: 'in_use', database: database.kind }, inUse);
      this.set({ state: 'idle', database: database.kind }, idle);
      this.set({ state: 'waiting', database: database.kind }, waiting);
    },
  });

  new Gauge({
    name: 'protocol_company_wall',
    help: 'Whether the company wall (row-level security) stands: 1 on, 0 off (README "The company wall")',
    registers,
    collect() {
      this.set(database.wall.on ? 1 : 0);
    },
  });
  new Counter({
    name: 'protocol_company_wall_crossings_total',
    help: 'Work that crossed the company wall by name, by reason (a session read, a company created, a COPY)',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      this.reset();
      for (const [reason, count] of wallCrossings) this.inc({ reason }, count);
    },
  });

  // The jobs gauges read the jobs table once a scrape (shared by every node: the same on each).
  let scrape: Promise<JobCounts[]> | undefined;
  const jobCounts = () => {
    scrape ??= readJobCounts(database).finally(() => {
      scrape = undefined;
    });
    return scrape;
  };
  new Gauge({
    name: 'protocol_jobs',
    help: 'Background jobs by kind and state: queued, running, and failed in the last 24 hours',
    labelNames: ['kind', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      for (const row of await jobCounts()) {
        this.set({ kind: row.kind, state: 'queued' }, row.queued);
        this.set({ kind: row.kind, state: 'running' }, row.running);
        this.set({ kind: row.kind, state: 'failed' }, row.failed);
      }
    },
  });
  new Gauge({
    name: 'protocol_jobs_oldest_queued_seconds',
    help: 'How long the oldest job of a kind that may run now has waited in the queue',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      this.reset();
      for (const row of await jobCounts()) this.set({ kind: row.kind }, row.oldestQueuedSeconds);
    },
  });
  new Gauge({
    name: 'protocol_operations_in_progress',
    help: 'Operations queued or running (billing runs, imports, …), by operation',
    labelNames: ['operation'] as const,
    registers,
    async collect() {
      const counts = await jobCounts();
      for (const [operation, kinds] of Object.entries(operations)) {
        const active = counts.filter((row) => kinds.includes(row.kind));
        this.set(
          { operation },
          active.reduce((sum, row) => sum + row.queued + row.running, 0),
        );
      }
    },
  });

  return {
    contentType: registry.contentType,
    metrics: () => registry.metrics(),
    observeRequest(request, route, status, seconds) {
      requests.inc({ route, method: request.method, status: String(status) });
      duration.observe({ route, method: request.method }, seconds);
      if (request.routeOptions.config?.publicSubmission) submissions.inc({ route, status: String(status) });
      if (status === 429) refusals.inc({ route });
    },
  };
}

interface JobCounts {
  kind: string;
  queued: number;
  running: number;
  failed: number;
  oldestQueuedSeconds: number;
}

/** One grouped query: the unfinished jobs (a partial index) and the ones failed in the last day. */
async function readJobCounts(database: Database): Promise<JobCounts[]> {
  const result = await database.db.execute(sql`
    SELECT kind,
      count(*) FILTER (WHERE state = 'queued')::int AS queued,
      count(*) FILTER (WHERE state = 'running')::int AS running,
      count(*) FILTER (WHERE state = 'failed')::int AS failed,
      coalesce(extract(epoch FROM now() - min(run_after) FILTER (WHERE state = 'queued' AND run_after <= now())), 0)::float8
        AS oldest
    FROM jobs
    WHERE state IN ('queued', 'running') OR (state = 'failed' AND finished_at > now() - interval '1 day')
    GROUP BY kind`);
  return rowsOf<{ kind: string; queued: number; running: number; failed: number; oldest: number }>(
    result,
  ).map((row) => ({
    kind: row.kind,
    queued: row.queued,
    running: row.running,
    failed: row.failed,
    oldestQueuedSeconds: Number(row.oldest),
  }));
}
