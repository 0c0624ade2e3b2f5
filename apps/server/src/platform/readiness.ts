import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  errorKeys,
  notReadySchema,
  type ReadinessCheck,
  readinessChecks,
  readySchema,
} from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Db, rowsOf } from '../db/client.ts';
import { requestLanguage, translate } from './i18n.ts';
import type { Storage } from './storage.ts';

export interface ReadinessOptions {
  db: Db;
  storage: Storage;
  /** Whether this node's job worker runs (a node that does not listen runs none). */
  workerRunning(): boolean;
  /** Stops the job worker: its handlers end their current chunk and their jobs go back to the queue. */
  stopWorker(): Promise<void>;
}

/** When the newest migration this code ships was written (drizzle keeps it as `created_at`). */
const newestMigration: number = (() => {
  const journal = JSON.parse(
    readFileSync(path.join(import.meta.dirname, '../db/migrations/meta/_journal.json'), 'utf8'),
  ) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((entry) => entry.when));
})();

const shutdowns = new WeakMap<FastifyInstance, (delayMs: number) => Promise<void>>();

/**
 * GET /api/ready (README "Readiness and shutdown"): 200 when the database answers with every
 * migration applied, the storage takes a file, the job worker runs and no shutdown began; else 503
 * with each check's outcome. Liveness stays /api/health.
 */
export function readiness(app: FastifyInstance, options: ReadinessOptions): void {
  let draining = false;
  const check = async (): Promise<Record<ReadinessCheck, 'ok' | 'failed'>> => {
    const passes = async (probe: () => Promise<boolean>) => {
      try {
        return (await probe()) ? 'ok' : 'failed';
      } catch (error) {
        app.log.warn({ err: error }, 'readiness check failed');
        return 'failed';
      }
    };
    const [database, migrations, storage] = await Promise.all([
      passes(async () => {
        await options.db.execute(sql`SELECT 1`);
        return true;
      }),
      passes(async () => {
        const [row] = rowsOf<{ last: string | null }>(
          await options.db.execute(
            sql`SELECT max(created_at)::text AS last FROM drizzle.__drizzle_migrations`,
          ),
        );
        return Number(row?.last ?? 0) >= newestMigration;
      }),
      passes(async () => {
        const probe = await options.storage.put(Buffer.from('ready'));
        await options.storage.delete(probe.key);
        return true;
      }),
    ]);
    return {
      migrations,
      database,
      storage,
      worker: options.workerRunning() ? 'ok' : 'failed',
      shutdown: draining ? 'failed' : 'ok',
    };
  };

  app.get(
    '/api/ready',
    {
      config: { public: true },
      schema: {
        tags: ['installation'],
        summary: 'Readiness: migrated, database and storage usable, job worker running, not shutting down',
        response: { 200: readySchema, 503: notReadySchema },
      },
    },
    async (request, reply) => {
      const checks = await check();
      const failing = readinessChecks.filter((name) => checks[name] !== 'ok');
      if (failing.length === 0) return { status: 'ready' as const, checks };
      const params = { failing: failing.join(', ') };
      const language = requestLanguage(request.cookies?.locale, request.headers['accept-language']);
      return reply.status(503).send({
        status: 503,
        key: errorKeys.notReady,
        params,
        message: translate(language, errorKeys.notReady, params),
        requestId: request.id,
        checks,
      });
    },
  );

  shutdowns.set(app, async (delayMs) => {
    draining = true;
    // The worker takes no new job from now on; the proxies, told not-ready, stop sending requests.
    const workerStopped = options.stopWorker();
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    // Stops listening, ends idle connections and waits for the requests in flight.
    await Promise.all([workerStopped, app.close()]);
  });
}

/**
 * The graceful stop of a SIGTERM: answers not-ready at once, stops the job worker after its jobs'
 * current chunk (the jobs go back to the queue, for this node's next start or another node), waits
 * `delayMs` (SHUTDOWN_DELAY_SECONDS) and closes the server once its requests in flight are answered.
 */
export async function shutDown(app: FastifyInstance, delayMs: number): Promise<void> {
  const drain = shutdowns.get(app);
  if (drain) await drain(delayMs);
  else await app.close();
}
