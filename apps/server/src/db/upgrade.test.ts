import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appModules, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { bootstrap } from '../modules/installation/bootstrap.ts';
import { protocolYearOf } from '../modules/protocol/documents/documents.common.ts';
import { hashPassword } from '../platform/password.ts';
import { ADMIN_PASSWORD } from '../test/harness.ts';
import { createTestDatabase } from '../test/template.ts';
import { type Database, type Db, openDatabase } from './client.ts';

/**
 * Issue 12, fault tests: a database filled at an earlier schema (migration 0009, before the
 * permission areas) is migrated to the latest; every row survives, the data migrations transform
 * what they should, and the app serves it. On PGlite and (TEST_DATABASE_URL) on PostgreSQL.
 */
const EARLIER = '0009_protocol';
const CLERK_PASSWORD = 'Tameias-2026!';

let dataDir: string;
let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
let config: Config;
let database: Database;
let app: FastifyInstance | undefined;
const year = protocolYearOf(new Date());

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The migrations folder as it was at `tag`: the same files, the journal cut after it. */
function migrationsUpTo(tag: string): string {
  const folder = path.join(dataDir, 'migrations');
  cpSync(path.join(import.meta.dirname, 'migrations'), folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
  const last = journal.entries.findIndex((e: { tag: string }) => e.tag === tag);
  expect(last).toBeGreaterThanOrEqual(0);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

/** Every public table's columns, as information_schema lists them. */
async function columnsByTable(db: Db): Promise<Map<string, string[]>> {
  const list = await rows<{ table: string; column: string }>(
    db,
    sql`SELECT c.table_name AS "table", c.column_name AS "column"
        FROM information_schema.columns c
        JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        ORDER BY c.table_name, c.ordinal_position`,
  );
  const map = new Map<string, string[]>();
  for (const { table, column } of list) map.set(table, [...(map.get(table) ?? []), column]);
  return map;
}

/** Row count and checksum of the given columns of a table: later migrations may add columns. */
async function tableContent(db: Db, table: string, columns: string[]) {
  const row = columns.map((c) => `"${c}"`).join(', ');
  const [content] = await rows<{ rows: number; checksum: string }>(
    db,
    sql.raw(
      `SELECT count(*)::int AS rows, md5(coalesce(string_agg(r::text, ',' ORDER BY r::text), '')) AS checksum
       FROM (SELECT ${row} FROM "${table}") r`,
    ),
  );
  return content;
}

/** Realistic rows at the 0009 schema, as the app of that time stored them (banks and VAT tables: the migrations' own). */
async function fillAtEarlierSchema(db: Db): Promise<void> {
  const adminHash = await hashPassword(ADMIN_PASSWORD);
  const clerkHash = await hashPassword(CLERK_PASSWORD);
  const statements = [
    sql`INSERT INTO companies (id, companyname, companytitle, vatnumber, createuser) VALUES
        (1, 'ΔΕΥΑ Αγίας Ελένης', 'Δημοτική Επιχείρηση Ύδρευσης-Αποχέτευσης Αγίας Ελένης', '090000045', 'system'),
        (2, 'Δήμος Αγίας Ελένης', 'Δήμος Αγίας Ελένης', '090000046', 'system')`,
    sql`INSERT INTO users (id, username, password_hash, firstname, lastname, email, super_admin, kind) VALUES
        (1, 'admin', ${adminHash}, 'Διαχειριστής', 'Συστήματος', NULL, true, 1),
        (2, 'tameias', ${clerkHash}, 'Σοφία', 'Ταμία', 's.tamia@deya-example.gr', false, 2),
        (3, 'grammateia', ${clerkHash}, 'Νίκος', 'Γραμματέας', NULL, false, 2)`,
    sql`INSERT INTO company_users (company_id, user_id) VALUES (1, 1), (1, 2), (1, 3), (2, 1), (2, 3)`,
    sql`INSERT INTO user_groups (id, company_id, name, description) VALUES
        (1, 1, 'Ύδρευση και ταμείο', 'Καταμετρήσεις, τιμολόγηση, εισπράξεις'),
        (2, 1, 'Γραμματεία', NULL),
        (3, 2, 'Γραμματεία Δήμου', NULL)`,
    sql`INSERT INTO user_group_permissions (group_id, permission) VALUES
        (1, 'water:write'), (1, 'finance:read'), (1, 'protocol:read'),
        (2, 'protocol:write'), (2, 'traders:write'),
        (3, 'protocol:admin')`,
    sql`INSERT INTO user_group_members (group_id, user_id) VALUES (1, 2), (2, 3), (3, 3)`,
    sql`INSERT INTO traders (id, company_id, vatnumber, fullname, firstname, lastname, individual, email, city,
          zipcode, vat_category_id, vat_status_id, custom_fields) VALUES
        (1, 1, '123456783', 'Παπαδόπουλος Ιωάννης', 'Ιωάννης', 'Παπαδόπουλος', true, 'i.papadopoulos@example.gr',
          'Αγία Ελένη', '22100', (SELECT min(id) FROM vat_categories), (SELECT min(id) FROM vat_statuses), '{}'),
        (2, 1, '090153025', 'Υπουργείο Εσωτερικών', NULL, NULL, false, NULL, 'Αθήνα', '10183', NULL, NULL,
          '{"sector": "δημόσιο"}'),
        (3, 2, NULL, 'Κωνσταντίνου Ελένη', 'Ελένη', 'Κωνσταντίνου', true, NULL, NULL, NULL, NULL, NULL, '{}')`,
    sql`INSERT INTO trader_banks (trader_id, iban, bic, bank_id) VALUES
        (1, 'GR1601101250000000012300695', 'ETHNGRAA', (SELECT min(id) FROM banks))`,
    sql`INSERT INTO protocol_books (id, company_id, descr, year, booktype) VALUES
        (1, 1, ${`Εισερχόμενα ${year}`}, ${year}, 1),
        (2, 1, ${`Εξερχόμενα ${year}`}, ${year}, 2),
        (3, 1, ${`Εισερχόμενα ${year - 1}`}, ${year - 1}, 1)`,
    sql`INSERT INTO document_types (id, company_id, seqnr, descr, autonr) VALUES
        (1, 1, 1, 'Αίτηση', true), (2, 1, 2, 'Έγγραφο', false)`,
    sql`INSERT INTO documents (id, company_id, kind, subject, document_type_id, protocol_book_id, protocol_number,
          protocol_year, protocol_date, correspondents, create_user_id, charged_user_id, state, createuser) VALUES
        (1, 1, 0, 'Αίτηση σύνδεσης υδρόμετρου', 1, 1, 1, ${year}, now(), 'Παπαδόπουλος Ιωάννης', 3, 2, 0, 'grammateia'),
        (2, 1, 0, 'Εγκύκλιος για τα τέλη ύδρευσης', 1, 1, 2, ${year}, now(), 'Υπουργείο Εσωτερικών', 3, NULL, 0,
          'grammateia'),
        (3, 1, 1, 'Απάντηση σε αίτηση σύνδεσης', 2, 2, 1, ${year}, now(), 'Παπαδόπουλος Ιωάννης', 3, NULL, 0,
          'grammateia'),
        (4, 1, 0, 'Περσινό εισερχόμενο', 1, 3, 57, ${year - 1}, now() - interval '1 year', NULL, 3, NULL, 1,
          'grammateia'),
        (5, 1, 1, 'Πρόχειρο χωρίς αριθμό', 2, NULL, NULL, NULL, NULL, NULL, 3, NULL, 0, 'grammateia')`,
    sql`INSERT INTO document_traders (document_id, role, position, trader_id) VALUES
        (1, 0, 0, 1), (2, 0, 0, 2), (3, 1, 0, 1)`,
    sql`INSERT INTO protocol_counters (book_id, year, last) VALUES
        (1, ${year}, 2), (2, ${year}, 1), (3, ${year - 1}, 57)`,
    sql`INSERT INTO audit_log (company_id, entity, entity_id, action, user_id, username, changes) VALUES
        (1, 'document', '1', 'create', 3, 'grammateia', '{"subject": "Αίτηση σύνδεσης υδρόμετρου"}'),
        (1, 'user_group', '1', 'update', 1, 'admin', '{"permissions": ["water:write", "finance:read"]}')`,
  ];
  for (const statement of statements) await db.execute(statement);
  // Rows inserted with explicit ids: the sequences move past them, as the app's inserts had.
  for (const table of [
    'companies',
    'users',
    'user_groups',
    'traders',
    'protocol_books',
    'document_types',
    'documents',
  ]) {
    await db.execute(
      sql.raw(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM "${table}"))`),
    );
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-upgrade-'));
  testDb = await createTestDatabase();
  config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD,
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
    ...(testDb.url ? { DATABASE_URL: testDb.url } : {}),
  });
  database = await openDatabase(config);
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`upgrade from ${EARLIER}`, () => {
  it('keeps every row, moves old permissions onto their areas and serves the data', async () => {
    const db = database.db;
    const migrationsFolder = migrationsUpTo(EARLIER);
    if (database.kind === 'pglite') await migratePglite(db as never, { migrationsFolder });
    else await migratePg(db as never, { migrationsFolder });
    await fillAtEarlierSchema(db);

    const before = await columnsByTable(db);
    const contentBefore = new Map<string, Awaited<ReturnType<typeof tableContent>>>();
    for (const [table, columns] of before) contentBefore.set(table, await tableContent(db, table, columns));
    expect(contentBefore.get('documents')?.rows).toBe(5);

    await database.migrate();

    const after = await columnsByTable(db);
    for (const [table, columns] of before) {
      expect(after.get(table), `table ${table}`).toEqual(expect.arrayContaining(columns));
      // The permission areas (0010) rewrite the group permissions: checked below.
      if (table === 'user_group_permissions') continue;
      expect(await tableContent(db, table, columns), `table ${table}`).toEqual(contentBefore.get(table));
    }
    const permissions = await rows<{ group: number; permissions: string[] }>(
      db,
      sql`SELECT group_id AS "group", array_agg(permission ORDER BY permission) AS permissions
          FROM user_group_permissions GROUP BY group_id ORDER BY group_id`,
    );
    expect(permissions).toEqual([
      {
        group: 1,
        permissions: [
          'billing:write',
          'consumers:write',
          'finance:read',
          'mydata:read',
          'payments:write',
          'protocol:read',
          'readouts:write',
        ],
      },
      { group: 2, permissions: ['protocol:write', 'traders:write'] },
      { group: 3, permissions: ['protocol:admin'] },
    ]);

    // The app starts on the upgraded database and serves it; the books' numbering goes on.
    await bootstrap(db, config, appModules);
    app = await buildApp(config, database);
    const login = async (username: string, password: string) => {
      const response = await app?.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: { username, password },
      });
      expect(response?.statusCode, response?.body).toBe(200);
      return { authorization: `Bearer ${response?.json().jwttoken}` };
    };
    const server = app;
    const clerk = await login('tameias', CLERK_PASSWORD);
    const me = (
      await server.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: clerk })
    ).json();
    expect(me.scope).toEqual(
      expect.arrayContaining(['consumers:write', 'billing:write', 'finance:read', 'mydata:read']),
    );
    expect(me.scope).not.toContain('water:write');

    const admin = await login('admin', ADMIN_PASSWORD);
    for (const [id, protocolNumber, protocolYear] of [
      [1, 1, year],
      [2, 2, year],
      [3, 1, year],
      [4, 57, year - 1],
      [5, null, null],
    ] as const) {
      const response = await server.inject({ method: 'GET', url: `/api/document/${id}`, headers: admin });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json(), `document ${id}`).toMatchObject({ protocolNumber, protocolYear });
    }
    const listed = async (list: string) => {
      const response = await server.inject({
        method: 'GET',
        url: `/api/${list}/search?companyid=1&size=-1&sort=id,ASC`,
        headers: admin,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().content.map((d: { id: number }) => d.id);
    };
    expect(await listed('document')).toEqual([1, 2, 3, 5]);
    expect(await listed('document/archived')).toEqual([4]);
    const traders = await server.inject({
      method: 'GET',
      url: '/api/traders/search?companyid=1&search=παπαδοπουλος',
      headers: admin,
    });
    expect(traders.json().content.map((t: { id: number }) => t.id)).toEqual([1]);

    const next = await server.inject({
      method: 'POST',
      url: '/api/document?companyid=1',
      headers: admin,
      payload: {
        kind: 0,
        subject: 'Μετά την αναβάθμιση',
        documentTypeId: 1,
        protocolBookId: 1,
        senders: [1],
      },
    });
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json()).toMatchObject({ id: 6, protocolNumber: 3, protocolYear: year });
  });
});
