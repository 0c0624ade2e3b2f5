import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appModules, buildApp } from '@protocol/server/app';
import { loadConfig } from '@protocol/server/config';
import { openDatabase } from '@protocol/server/db';
import { bootstrap } from '@protocol/server/seed';
import { type FakeRegistry, startFakeRegistry } from '@protocol/server/testing/fake-registry';
import { startMailServer, type TestMailServer } from '@protocol/server/testing/mail-server';
import { freePort } from '@protocol/server/testing/ports';
import {
  copyEmbeddedTemplate,
  createTestDatabase,
  TEST_SEED_ENV,
  templateFor,
} from '@protocol/server/testing/template';
import { sql as sqlText } from 'drizzle-orm';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { startIdentityProvider, type TestIdentityProvider } from './oidc.ts';

export const ADMIN_PASSWORD: string = TEST_SEED_ENV.ADMIN_PASSWORD;
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../screenshots');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export interface E2E {
  baseUrl: string;
  idp: TestIdentityProvider;
  /** The tax authority's VAT-number registry, faked on loopback per its published contract. */
  registry: FakeRegistry;
  /** The utility's mail server: an SMTP server in this process that keeps what it receives. */
  mail: TestMailServer;
  browser: Browser;
  /** Runs SQL on the app's database: for data sets too large to create through the API in a test. */
  sql(statement: string): Promise<void>;
  /** A fresh browser profile (cookies, storage) for one scenario: Greek unless told, in the time zone when told. */
  newPage(options?: {
    locale?: string;
    timezoneId?: string;
  }): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/**
 * The whole product as a person meets it: the built web app served by the real server on an
 * embedded database with demo data, a real identity provider, and Debian's chromium. `env` adds
 * installation settings (e.g. a shorter NOTIFICATION_POLL_MS).
 */
export async function startE2E(env: Record<string, string> = {}): Promise<E2E> {
  const [appPort, idpPort] = [await freePort(), await freePort()];
  const baseUrl = `http://127.0.0.1:${appPort}`;
  const idp = await startIdentityProvider(idpPort, baseUrl);
  const registry = await startFakeRegistry();
  const mail = await startMailServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-e2e-'));
  // The run's migrated and seeded database (support/global-setup.ts), copied: a folder for PGlite, or
  // a database on the PostgreSQL server of TEST_DATABASE_URL. migrate() and bootstrap() then find
  // nothing to do.
  const template = templateFor(inject('testTemplates'), env, true);
  if ('embeddedDir' in template) copyEmbeddedTemplate(template, dataDir);
  const serverDatabase = await createTestDatabase('database' in template ? template.database : undefined);
  // Deleted by close(), and at exit when a run stops before it (a failed hook, Ctrl-C).
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  process.once('exit', removeDataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(appPort),
    ...TEST_SEED_ENV,
    ...(serverDatabase.url ? { DATABASE_URL: serverDatabase.url } : {}),
    LOG_LEVEL: 'warn',
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    AADE_REGISTRY_URL: registry.url,
    SMTP_URL: mail.url,
    MAIL_FROM: 'ΔΕΥΑ Αγίας Ελένης <protocol@deya-example.gr>',
    ...env,
  });
  const database = await openDatabase(config);
  await database.migrate();
  await bootstrap(database.db, config, appModules);
  const app = await buildApp(config, database);
  await app.listen({ port: appPort, host: '127.0.0.1' });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    baseUrl,
    idp,
    registry,
    mail,
    browser,
    async sql(statement) {
      await database.db.execute(sqlText.raw(statement));
    },
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: baseUrl,
        locale: options.locale ?? 'el-GR',
        timezoneId: options.timezoneId,
        viewport: { width: 1366, height: 800 },
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      return { context, page };
    },
    async close() {
      await browser.close();
      await app.close();
      await database.close();
      await serverDatabase.drop();
      await idp.close();
      await registry.close();
      await mail.close();
      removeDataDir();
      process.off('exit', removeDataDir);
    },
  };
}

/**
 * Signs in through the login form (at `path`); the app then goes to the dashboard. For the tests of
 * signing in itself: other scenarios start signed in with openSignedIn.
 */
export async function signIn(page: Page, username: string, password: string, path = '/login') {
  await page.goto(path);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/**
 * Opens `path` signed in as `username`: the session is asked of the sign-in API, as the login form
 * asks it, and kept where the app keeps it. The form and the dashboard it leads to are not loaded
 * first: each load starts the whole app in the browser, the largest part of the suite's time.
 */
export async function openSignedIn(page: Page, username: string, password: string, path = '/') {
  // A page of the app's origin without the app (its health answer), to reach the origin's storage.
  await page.goto('/api/health');
  const status = await page.evaluate(
    async ({ username, password }) => {
      const answer = await fetch('/api/account/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      if (answer.ok) localStorage.setItem('jwttoken', (await answer.json()).jwttoken);
      return answer.status;
    },
    { username, password },
  );
  if (status !== 200) throw new Error(`${username} could not sign in: ${status}`);
  await page.goto(path);
}
