import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { bootstrap } from '../db/seed.ts';

export const ADMIN_PASSWORD = 'admin-Passw0rd';

export interface TestApp {
  app: FastifyInstance;
  /** Every SQL statement run so far; tests count the queries of one request with it. */
  queries: string[];
  database: Database;
  config: Config;
  /** Signs in and returns the Bearer header. */
  login(username: string, password: string): Promise<{ authorization: string }>;
  close(): Promise<void>;
}

/**
 * A real database for one test file: PGlite in a temporary folder, or — when the test script has
 * started PostgreSQL and set TEST_DATABASE_URL — a fresh database on that server.
 */
export async function createTestDatabase(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { url: undefined, drop: async () => undefined };
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-test-'));
  const testDb = await createTestDatabase();
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    SEED_DEMO: '1',
    LOG_LEVEL: 'silent',
    ...(testDb.url ? { DATABASE_URL: testDb.url } : {}),
    ...env,
  });
  const queries: string[] = [];
  const database = await openDatabase({ ...config, logQuery: (query) => queries.push(query) });
  await database.migrate();
  await bootstrap(database.db, config, () => undefined);
  const app = await buildApp(config, database);
  return {
    app,
    queries,
    database,
    config,
    async login(username, password) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: { username, password },
      });
      if (response.statusCode !== 200)
        throw new Error(`login ${username}: ${response.statusCode} ${response.body}`);
      return { authorization: `Bearer ${response.json().jwttoken}` };
    },
    async close() {
      await app.close();
      await database.close();
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
