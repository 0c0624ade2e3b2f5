import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, type PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { QueryTiming } from './timing.ts';
import { type WallSwitch, wallAvailable, wallOnPglite, wallOnPool } from './wall.ts';
/** One type for both drivers: modules never know which PostgreSQL they talk to. */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction or the database itself. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

/** The rows of a raw `execute` (node-postgres and PGlite both answer `{ rows }`). */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Every statement's duration, and how many run or wait now (platform/metrics.ts). */
  timing: QueryTiming;
  /**
   * The connections: held by a query or transaction, and the requests waiting for one. PGlite has
   * a single connection: one statement runs, the others in flight wait for it.
   */
  connections(): { inUse: number; idle: number; waiting: number };
  /**
   * The company wall (db/wall.ts): on once migrated where the connecting user may take the wall's
   * role; off, the services' own company conditions are the only scoping.
   */
  wall: WallSwitch;
}

/**
 * Runs independent queries: side by side on the pool, one after another inside a transaction, whose
 * single connection runs one query at a time (node-postgres refuses to queue them in its next major).
 */
export async function concurrently<T extends readonly unknown[]>(
  db: Tx,
  queries: { [K in keyof T]: () => PromiseLike<T[K]> },
): Promise<T> {
  if (!(db instanceof PgTransaction))
    return Promise.all(queries.map((query) => query())) as unknown as Promise<T>;
  const results: unknown[] = [];
  for (const query of queries) results.push(await query());
  return results as unknown as T;
}

const migrationsFolder = path.join(import.meta.dirname, 'migrations');

/** The embedded database's folder (PGlite's PostgreSQL data directory) inside DATA_DIR. */
export const embeddedDatabaseDir = (dataDir: string) => path.join(dataDir, 'pglite');

/** PostgreSQL through a node-postgres pool when a URL is given, else PGlite files in `dataDir`. */
export async function openDatabase(options: {
  databaseUrl?: string;
  databasePoolMax?: number;
  dataDir: string;
  /** Raise the company wall once migrated, where the database allows it (db/wall.ts). */
  companyWall?: boolean;
  /** Sees every SQL statement (tests count queries with it, benchmarks replay them). */
  logQuery?: (query: string, params: unknown[]) => void;
}): Promise<Database> {
  const logger = options.logQuery
    ? { logQuery: (query: string, params: unknown[]) => options.logQuery?.(query, params) }
    : undefined;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.databasePoolMax ?? 10 });
    // An idle connection the server drops (restart, failover) must not crash the process: the pool
    // replaces it on the next query.
    pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
    return databaseOnPool(pool, logger, options.companyWall);
  }
  const client = await PGlite.create(embeddedDatabaseDir(options.dataDir), {
    extensions: { unaccent, pg_trgm },
  });
  const wall: WallSwitch = { on: false };
  wallOnPglite(client, wall);
  const timing = new QueryTiming();
  timing.wrap(client, 'query');
  timing.wrap(client, 'exec');
  // A transaction's statements go through the object it hands its callback.
  const transaction = client.transaction.bind(client);
  client.transaction = (callback) =>
    transaction((tx) => {
      timing.wrap(tx, 'query');
      timing.wrap(tx, 'exec');
      return callback(tx);
    });
  const db = drizzlePglite(client, { logger }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(db as never, { migrationsFolder });
      wall.on = options.companyWall === true && (await wallAvailable((sql) => client.query(sql)));
    },
    close: () => client.close(),
    timing,
    wall,
    connections: () => ({
      inUse: timing.inFlight > 0 ? 1 : 0,
      idle: timing.inFlight > 0 ? 0 : 1,
      waiting: Math.max(0, timing.inFlight - 1),
    }),
  };
}

/** The database on a node-postgres pool (openDatabase's, or a test's larger one). */
export function databaseOnPool(
  pool: pg.Pool,
  logger?: { logQuery(query: string, params: unknown[]): void },
  companyWall = false,
): Database {
  // Each new connection's queries are timed: the pool's own `query` and transactions both use them.
  const timing = new QueryTiming();
  pool.on('connect', (client) => timing.wrap(client, 'query'));
  const wall: WallSwitch = { on: false };
  wallOnPool(pool, wall);
  const db = drizzlePg(pool, { logger }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      // Several nodes may start at once: one migrates, the others wait on the lock.
      const lock = await pool.connect();
      try {
        await lock.query('SELECT pg_advisory_lock(72510001)');
        await migratePg(db as never, { migrationsFolder });
      } finally {
        await lock.query('SELECT pg_advisory_unlock(72510001)').catch(() => undefined);
        lock.release();
      }
      wall.on = companyWall && (await wallAvailable((sql) => pool.query(sql)));
    },
    close: () => pool.end(),
    timing,
    wall,
    connections: () => ({
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
  };
}
