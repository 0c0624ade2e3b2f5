import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { embeddedDatabaseDir, openDatabase } from '../db/client.ts';

/**
 * A migrated, empty database made once for a whole test run and copied by each app it starts:
 * creating and migrating a PGlite folder costs about 4 s, copying one 0.3 s. On PostgreSQL it is a
 * template database for `CREATE DATABASE … TEMPLATE`.
 */
export type MigratedTemplate = { embeddedDir: string } | { database: string };

export async function createMigratedTemplate(
  serverUrl: string | undefined,
): Promise<{ template: MigratedTemplate; remove(): Promise<void> }> {
  if (!serverUrl) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-template-'));
    const database = await openDatabase({ dataDir });
    await database.migrate();
    await database.close();
    return {
      template: { embeddedDir: embeddedDatabaseDir(dataDir) },
      remove: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `template_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.href, dataDir: tmpdir() });
  await database.migrate();
  await database.close();
  return {
    template: { database: name },
    remove: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name}`);
      await client.end();
    },
  };
}

/** Puts a copy of the embedded template into `dataDir`, where openDatabase will find it. */
export function copyEmbeddedTemplate(template: { embeddedDir: string }, dataDir: string): void {
  cpSync(template.embeddedDir, embeddedDatabaseDir(dataDir), { recursive: true });
}
