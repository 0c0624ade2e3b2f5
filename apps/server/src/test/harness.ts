import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { effectiveScope } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { appModules, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase, rowsOf } from '../db/client.ts';
import { bootstrap } from '../modules/installation/bootstrap.ts';
import type { Principal } from '../platform/auth.ts';
import type { AppModule } from '../platform/module.ts';
import { copyEmbeddedTemplate, createTestDatabase, TEST_SEED_ENV, templateFor } from './template.ts';

export const ADMIN_PASSWORD: string = TEST_SEED_ENV.ADMIN_PASSWORD;

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

/** The password of the operators that createOperator adds. */
export const OPERATOR_PASSWORD = 'Operator-2026';

export interface NewOperator {
  username: string;
  firstname: string;
  lastname: string;
  /** 1 admin, 2 user (the default). */
  kind?: 1 | 2;
  active?: boolean;
  /** `<username>@deya.example` unless given. */
  email?: string | null;
}

/** POST /api/users as `headers`: an operator in no group, not super admin; returns the response. */
export function createOperator(
  t: TestApp,
  headers: { authorization: string },
  { username, firstname, lastname, kind = 2, active = true, email = `${username}@deya.example` }: NewOperator,
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/users',
    headers,
    payload: {
      username,
      password: OPERATOR_PASSWORD,
      passwordConfirmation: OPERATOR_PASSWORD,
      firstname,
      lastname,
      email,
      kind,
      superAdmin: false,
      active,
    },
  });
}

/** The app on a fresh database; `modules` replaces the app's module list (a test's extra module). */
export async function startTestApp(
  env: Record<string, string> = {},
  modules: readonly AppModule[] = appModules,
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-test-'));
  // Starts from the run's migrated database (src/test/global-setup.ts), seeded as by default unless
  // the test seeds in its own way: migrate() and bootstrap() then find nothing to do.
  const template = templateFor(inject('testTemplates'), env, modules === appModules);
  const testDb = await createTestDatabase('database' in template ? template.database : undefined);
  if (!testDb.url && 'embeddedDir' in template) copyEmbeddedTemplate(template, dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...TEST_SEED_ENV,
    LOG_LEVEL: 'silent',
    ...(testDb.url ? { DATABASE_URL: testDb.url } : {}),
    // The PostgreSQL pass of `npm test` runs behind the company wall, the PGlite pass without it
    // (the default): the services hold in both, and the wall hides no condition the PGlite pass misses.
    COMPANY_WALL: process.env.TEST_COMPANY_WALL ?? 'off',
    ...env,
  });
  const queries: string[] = [];
  const database = await openDatabase({ ...config, logQuery: (query) => queries.push(query) });
  await database.migrate();
  await bootstrap(database.db, config, modules);
  const app = await buildApp(config, database, modules);
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

/** Gives an operator permissions through a new group of their first company (as a super admin). */
export async function grant(t: TestApp, username: string, permissions: string[]): Promise<void> {
  const admin = await t.login('admin', ADMIN_PASSWORD);
  const search = await t.app.inject({ method: 'GET', url: '/api/users/search?size=-1', headers: admin });
  const user = search.json().content.find((u: { username: string }) => u.username === username);
  const groupName = `grant-${username}-${permissions.join('+')}`;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/users/groups',
    headers: admin,
    payload: { name: groupName, description: null, permissions, members: [user.id] },
  });
  if (response.statusCode !== 201)
    throw new Error(`grant ${username}: ${response.statusCode} ${response.body}`);
}

/** The company a signed-in operator works in by default (the first of theirs: the demo company for the administrator). */
export async function companyInUseOf(t: TestApp, headers: { authorization: string }): Promise<number> {
  const me = (await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers })).json();
  return me.companies[0].id;
}

/** A background job as GET /api/jobs/:id answers it. */
export interface JobView {
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  // biome-ignore lint/suspicious/noExplicitAny: each handler's own result, which its test reads as it knows it
  result: any;
  error: string | null;
  [key: string]: unknown;
}

/**
 * Polls GET /api/jobs/:id until the job has ended and returns it. Waits by time, not by a count
 * of polls: on a loaded machine a job with retries and back-off may take many seconds, and a test
 * that gave up by counting would fail for nothing.
 */
export async function waitForJob(
  t: TestApp,
  headers: { authorization: string },
  id: number | string,
  timeoutMs = 90_000,
): Promise<JobView> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const job = (await t.app.inject({ method: 'GET', url: `/api/jobs/${id}`, headers })).json() as JobView;
    if (job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled') return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} did not end within ${timeoutMs} ms`);
}

/** The super administrator as a service sees them, of every company there is now (a test calling a service directly). */
export async function adminPrincipal(t: TestApp): Promise<Principal> {
  const [admin] = rowsOf<{ id: number; username: string }>(
    await t.database.db.execute(sql`SELECT id, username FROM users WHERE username = 'admin'`),
  );
  if (!admin) throw new Error('no admin');
  const companies = rowsOf<{ id: number }>(
    await t.database.db.execute(sql`SELECT id FROM companies ORDER BY id`),
  );
  return {
    userId: admin.id,
    sessionId: 'test',
    username: admin.username,
    kind: 1,
    superAdmin: true,
    scope: effectiveScope([], 1, true),
    companyIds: companies.map((c) => Number(c.id)),
    sso: false,
  };
}
