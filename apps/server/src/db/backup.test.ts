import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appModules, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { bootstrap } from '../modules/installation/bootstrap.ts';
import { documentTypes } from '../modules/protocol/protocol.schema.ts';
import { multipart } from '../modules/protocol/protocol-fixtures.ts';
import { ADMIN_PASSWORD } from '../test/harness.ts';
import { databaseState, storageState } from '../test/tables.ts';
import { createTestDatabase } from '../test/template.ts';
import { BackupError, backup, restore } from './backup.ts';
import { type Database, openDatabase } from './client.ts';

/**
 * Issue 12, fault tests: a backup restored over changed data gives back every table and every
 * stored file as they were when it was taken, on PGlite and (TEST_DATABASE_URL) on PostgreSQL.
 */
type Headers = { authorization: string };

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

let dataDir: string;
let outDir: string;
let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
let config: Config;
let database: Database | undefined;
let app: FastifyInstance | undefined;
/** The first test's backup. */
let archive: string;

/** The server as `npm start` runs it, on the test's data. */
async function start(): Promise<FastifyInstance> {
  database = await openDatabase(config);
  await database.migrate();
  app = await buildApp(config, database);
  return app;
}
async function stop(): Promise<void> {
  await app?.close();
  await database?.close();
  app = undefined;
  database = undefined;
}

async function login(server: FastifyInstance): Promise<Headers> {
  const response = await server.inject({
    method: 'POST',
    url: '/api/account/login',
    payload: { username: 'admin', password: ADMIN_PASSWORD },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { authorization: `Bearer ${response.json().jwttoken}` };
}

function upload(
  server: FastifyInstance,
  headers: Headers,
  documentId: number,
  name: string,
  content: Buffer,
) {
  const body = multipart([{ name, content, type: 'application/pdf' }]);
  return server.inject({
    method: 'POST',
    url: `/api/document/${documentId}/attachments`,
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-backup-'));
  outDir = path.join(dataDir, 'backups');
  testDb = await createTestDatabase();
  config = loadConfig({
    DATA_DIR: path.join(dataDir, 'data'),
    ADMIN_PASSWORD,
    SEED_DEMO: '1',
    LOG_LEVEL: 'silent',
    ...(testDb.url ? { DATABASE_URL: testDb.url } : {}),
  });
  await start();
  await bootstrap((database as Database).db, config, appModules);
});

afterAll(async () => {
  await stop();
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  // A whole backup and restore of the seeded database: tens of seconds, more beside other test files.
  it('gives back every table and stored file as they were at backup time', async () => {
    let server = app as FastifyInstance;
    let admin = await login(server);
    const me = (
      await server.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: admin })
    ).json();
    const companyId: number = me.companies[0].id;
    const traderCreated = await server.inject({
      method: 'POST',
      url: `/api/traders?companyid=${companyId}`,
      headers: admin,
      payload: { individual: false, fullname: 'Ύδρευση Αντίγραφο Ασφαλείας ΑΕ' },
    });
    expect(traderCreated.statusCode, traderCreated.body).toBe(201);
    const trader: { id: number } & Record<string, unknown> = traderCreated.json();
    const books = await server.inject({
      method: 'GET',
      url: `/api/document/books?kind=0&companyid=${companyId}`,
      headers: admin,
    });
    const [type] = await (database as Database).db
      .select({ id: documentTypes.id })
      .from(documentTypes)
      .where(and(eq(documentTypes.companyId, companyId), eq(documentTypes.active, true)));
    const created = await server.inject({
      method: 'POST',
      url: `/api/document?companyid=${companyId}`,
      headers: admin,
      payload: {
        kind: 0,
        subject: 'Αίτηση σύνδεσης υδρόμετρου',
        documentTypeId: type?.id,
        protocolBookId: books.json()[0].id,
        senders: [trader.id],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const document = created.json();
    expect(document.protocolNumber).toBeGreaterThan(0);
    const attached = await upload(server, admin, document.id, 'Αίτηση.pdf', PDF);
    expect(attached.statusCode, attached.body).toBe(201);
    const attachmentId: number = attached.json().uploaded[0].id;

    const tables = await databaseState((database as Database).db);
    const files = await storageState(config.storageDir);
    expect(Object.keys(files)).toHaveLength(1);
    expect(tables['public.documents']).toMatchObject({ rows: expect.any(Number) });

    // pg_dump reads a snapshot, so a PostgreSQL server goes on; PGlite's must stop first.
    if (!config.databaseUrl) {
      await expect(backup(config, { outDir })).rejects.toThrow(/in use: stop the Protocol server/);
      await stop();
    }
    const { file, manifest } = await backup(config, { outDir });
    archive = file;
    expect(path.basename(file)).toMatch(/^protocol-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.tar\.gz$/);
    expect(manifest).toMatchObject({
      database: config.databaseUrl ? 'postgres' : 'pglite',
      files: 1,
      migration: expect.stringMatching(/^\d{4}_/),
    });
    server = app ?? (await start());
    admin = await login(server);

    // Changes after the backup: data edited, added and deleted through the app, a table emptied
    // behind its back, a stored file lost and a stray one left in the storage folder.
    const renamed = await server.inject({
      method: 'PUT',
      url: `/api/traders/${trader.id}?companyid=${companyId}`,
      headers: admin,
      payload: { ...trader, fullname: 'Άλλο όνομα' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(
      (await upload(server, admin, document.id, 'Δεύτερο.pdf', Buffer.concat([PDF, PDF]))).statusCode,
    ).toBe(201);
    const removed = await server.inject({
      method: 'DELETE',
      url: `/api/document/${document.id}/attachments/${attachmentId}`,
      headers: admin,
    });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    await (database as Database).db.execute(sql`DELETE FROM audit_log`);
    await rm(path.join(config.storageDir, Object.keys(files)[0] as string));
    writeFileSync(path.join(config.storageDir, 'stray'), 'not in the backup');
    expect(await databaseState((database as Database).db)).not.toEqual(tables);

    await expect(restore(config, { file })).rejects.toSatisfy(
      (error) => error instanceof BackupError && error.exitCode === 3,
    );
    await stop();
    expect(await restore(config, { file })).toEqual(manifest);

    database = await openDatabase(config);
    await database.migrate();
    expect(await databaseState(database.db)).toEqual(tables);
    expect(await storageState(config.storageDir)).toEqual(files);

    // The restored app serves the document with its number and file, and hands out new ids.
    app = await buildApp(config, database);
    admin = await login(app);
    const served = await app.inject({ method: 'GET', url: `/api/document/${document.id}`, headers: admin });
    expect(served.json()).toMatchObject({
      protocolNumber: document.protocolNumber,
      subject: document.subject,
    });
    const content = await app.inject({
      method: 'GET',
      url: `/api/document/${document.id}/attachments/${attachmentId}/content`,
      headers: admin,
    });
    expect(content.statusCode).toBe(200);
    expect(content.rawPayload.equals(PDF)).toBe(true);
    const another = await app.inject({
      method: 'POST',
      url: `/api/traders?companyid=${companyId}`,
      headers: admin,
      payload: { individual: false, fullname: 'Μετά την επαναφορά' },
    });
    expect(another.statusCode, another.body).toBe(201);
    expect(another.json().id).toBeGreaterThan(trader.id);
  }, 120_000);

  it('refuses an archive that is not a backup, or one of the other kind of database', async () => {
    mkdirSync(outDir, { recursive: true });
    const notBackup = path.join(outDir, 'not-a-backup.tar.gz');
    writeFileSync(notBackup, readFileSync(path.join(import.meta.dirname, 'migrations/meta/_journal.json')));
    await expect(restore(config, { file: notBackup })).rejects.toThrow(BackupError);
    await expect(restore(config, { file: path.join(outDir, 'missing.tar.gz') })).rejects.toThrow(
      /There is no backup/,
    );
    const otherKind: Config = {
      ...config,
      databaseUrl: config.databaseUrl ? undefined : 'postgres://nobody@127.0.0.1:1/none',
    };
    await expect(restore(otherKind, { file: archive })).rejects.toThrow(
      config.databaseUrl ? /restore it with DATABASE_URL set/ : /restore it without DATABASE_URL/,
    );
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'refuses a PostgreSQL database at a newer migration than the backup',
    async () => {
      await stop();
      // A migration a later version applied: pg_restore --clean would leave its tables behind.
      const client = new pg.Client({ connectionString: config.databaseUrl });
      await client.connect();
      try {
        await client.query(
          `INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('later', 9999999999999)`,
        );
        await expect(restore(config, { file: archive })).rejects.toThrow(/newer than the backup's/);
      } finally {
        await client.end();
      }
    },
  );
});
