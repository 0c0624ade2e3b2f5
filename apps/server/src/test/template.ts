import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { appModules } from '../app.ts';
import { loadConfig } from '../config.ts';
import { embeddedDatabaseDir, openDatabase } from '../db/client.ts';
import { bootstrap } from '../modules/installation/bootstrap.ts';

/**
 * A database made once for a whole test run and copied by each app it starts: creating and
 * migrating a PGlite folder costs about 4 s, copying one 0.3 s. On PostgreSQL it is a template
 * database for `CREATE DATABASE … TEMPLATE`.
 */
export type MigratedTemplate = { embeddedDir: string } | { database: string };

/**
 * The two a run makes: `migrated` (empty, for an app that seeds in its own way) and `seeded`, also
 * bootstrapped as a test app is by default (`TEST_SEED_ENV`: the administrator and the demo
 * company with its operators and data), which saves each app that seeding.
 */
export interface TestTemplates {
  migrated: MigratedTemplate;
  seeded: MigratedTemplate;
}

/** What a test app's bootstrap depends on, as the seeded template was made with it. */
export const TEST_SEED_ENV = { ADMIN_PASSWORD: 'admin-Passw0rd', SEED_DEMO: '1' } as const;

/** The settings that change what bootstrap writes: an app naming one starts from `migrated`. */
const SEED_SETTINGS = ['ADMIN_PASSWORD', 'ADMIN_USERNAME', 'SEED_DEMO'];

/** The template an app with these settings (and the app's own modules, `standardModules`) starts from. */
export function templateFor(
  templates: TestTemplates,
  env: Record<string, string>,
  standardModules: boolean,
): MigratedTemplate {
  const seedsAsDefault = standardModules && SEED_SETTINGS.every((name) => env[name] === undefined);
  return seedsAsDefault ? templates.seeded : templates.migrated;
}

const seed = async (database: Awaited<ReturnType<typeof openDatabase>>, dataDir: string) => {
  await bootstrap(
    database.db,
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...TEST_SEED_ENV }),
    appModules,
  );
};

export async function createTestTemplates(
  serverUrl: string | undefined,
): Promise<{ templates: TestTemplates; remove(): Promise<void> }> {
  if (!serverUrl) {
    const migrated = mkdtempSync(path.join(tmpdir(), 'protocol-template-'));
    const database = await openDatabase({ dataDir: migrated });
    await database.migrate();
    await database.close();
    const seeded = mkdtempSync(path.join(tmpdir(), 'protocol-template-'));
    copyEmbeddedTemplate({ embeddedDir: embeddedDatabaseDir(migrated) }, seeded);
    const copy = await openDatabase({ dataDir: seeded });
    await seed(copy, seeded);
    await copy.close();
    return {
      templates: {
        migrated: { embeddedDir: embeddedDatabaseDir(migrated) },
        seeded: { embeddedDir: embeddedDatabaseDir(seeded) },
      },
      remove: async () => {
        for (const dir of [migrated, seeded]) rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const suffix = randomBytes(6).toString('hex');
  const [migrated, seeded] = [`template_${suffix}`, `template_seeded_${suffix}`];
  const urlOf = (name: string) => {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return url.href;
  };
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${migrated}`);
    const database = await openDatabase({ databaseUrl: urlOf(migrated), dataDir: tmpdir() });
    await database.migrate();
    await database.close();
    await admin.query(`CREATE DATABASE ${seeded} TEMPLATE ${migrated}`);
    const copy = await openDatabase({ databaseUrl: urlOf(seeded), dataDir: tmpdir() });
    await seed(copy, tmpdir());
    await copy.close();
  } finally {
    await admin.end();
  }
  return {
    templates: { migrated: { database: migrated }, seeded: { database: seeded } },
    remove: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      for (const name of [seeded, migrated]) await client.query(`DROP DATABASE IF EXISTS ${name}`);
      await client.end();
    },
  };
}

/** Puts a copy of the embedded template into `dataDir`, where openDatabase will find it. */
export function copyEmbeddedTemplate(template: { embeddedDir: string }, dataDir: string): void {
  cpSync(template.embeddedDir, embeddedDatabaseDir(dataDir), { recursive: true });
}

/**
 * A real database for one test file: PGlite in a temporary folder, or — when the test script has
 * started PostgreSQL and set TEST_DATABASE_URL — a fresh database on that server, empty or a copy
 * of the `template` database.
 */
export async function createTestDatabase(
  template?: string,
): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { url: undefined, drop: async () => undefined };
  const name = `test_${randomBytes(6).toString('hex')}`;
  // A template's last connection may still be closing.
  await runWhenFree(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      // The app's pool has ended, but its backends may still be closing: wait for them rather
      // than terminate them (a terminated backend's message would reach a client mid-close).
      await runWhenFree(serverUrl, `DROP DATABASE IF EXISTS ${name}`);
    },
  };
}

/**
 * Runs a CREATE or DROP DATABASE on the server, again every 100 ms (at most 50 times) while a
 * database it names is still in use by connections that are closing (55006, "being accessed by
 * other users").
 */
async function runWhenFree(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(statement);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await client.end();
  }
}
