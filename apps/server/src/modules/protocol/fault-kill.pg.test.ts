import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appModules } from '../../app.ts';
import type { Db } from '../../db/client.ts';
import { createDiskStorage } from '../../platform/storage.ts';
import { sweepStorage } from '../../platform/storage-sweep.ts';
import { ADMIN_PASSWORD } from '../../test/harness.ts';
import { freePort } from '../../test/ports.ts';
import { createTestDatabase } from '../../test/template.ts';
import { addUserToCompany } from '../companies/api.ts';
import { createUser } from '../users/api.ts';
import { protocolYearOf } from './documents/documents.common.ts';

/**
 * Fault tests (issue 12): the real server, as a child process on PostgreSQL 15, killed with SIGKILL
 * during a burst of registrations and during an upload, then restarted on the same database and
 * storage. Afterwards the numbers are 1…N with the counter at N, every document is whole, nothing
 * acknowledged is lost, no row or file is orphaned and the sweep removes the half-written file.
 * PGlite is one process with the app: there is no separate server to kill, so it is skipped there.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const SERVER_ROOT = path.resolve(import.meta.dirname, '../../..');
/** Fixed, so that a token issued before the kill is still valid after the restart. */
const JWT_SECRET = 'fault-kill-test-secret-0123456789abcdef';
const CREDENTIALS_KEY = 'fault-kill-test-credentials-0123456789abcdef';
const CLIENTS = 12;
/** The kill lands once this many registrations were answered, with the other clients' requests in flight. */
const KILL_AFTER = 60;

interface Server {
  url: string;
  child: ChildProcess;
  /** Resolves when the process has ended. */
  exited: Promise<void>;
  /** What it printed, for the failure message of a server that does not start. */
  output: string[];
}

/** Files under `dir`, as paths relative to it with `/` (storage keys look so). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(path.join(dir, name)).isFile())
    .map((name) => name.split(path.sep).join('/'))
    .sort();
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!onPostgres)(
  'SIGKILL of the server (PostgreSQL only: skipped on PGlite, which runs inside the app and has no server to kill)',
  () => {
    let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
    let dataDir: string;
    let storageDir: string;
    let server: Server | undefined;
    /** The test's own connection: one client, so its backend is told apart from the server's. */
    let client: pg.Client;
    let db: Db;
    let headers: Record<string, string>;
    let companyId: number;
    let bookId: number;
    let traderId: number;
    let chargeeId: number;
    const year = protocolYearOf(new Date());

    async function startServer(): Promise<Server> {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: SERVER_ROOT,
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: testDb.url,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          STORAGE_DIR: storageDir,
          ADMIN_PASSWORD,
          SEED_DEMO: '1',
          JWT_SECRET,
          CREDENTIALS_KEY,
          // A dead server's job is taken up soon after the restart.
          JOBS_LEASE_SECONDS: '3',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output: string[] = [];
      child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const started: Server = { url: `http://127.0.0.1:${port}`, child, exited, output };
      server = started;
      let ended = false;
      void exited.then(() => {
        ended = true;
      });
      for (const deadline = Date.now() + 45_000; Date.now() < deadline; ) {
        if (ended) throw new Error(`the server ended while starting:\n${output.join('')}`);
        const health = await fetch(`${started.url}/api/health`).catch(() => undefined);
        if (health?.ok) return started;
        await delay(100);
      }
      throw new Error(`the server did not answer /api/health:\n${output.join('')}`);
    }

    /**
     * SIGKILL, then waits until PostgreSQL has ended the dead server's backends: one busy with a
     * statement finishes (and commits) it first, so only then is the database's state final.
     */
    async function killServer(): Promise<void> {
      if (!server) return;
      const killedAt = new Date();
      server.child.kill('SIGKILL');
      await server.exited;
      server = undefined;
      for (;;) {
        const { rows } = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND backend_type = 'client backend'
             AND pid <> pg_backend_pid() AND backend_start < $1`,
          [killedAt],
        );
        if (rows[0]?.n === 0) return;
        await delay(50);
      }
    }

    const api = (route: string, init: RequestInit = {}) => {
      if (!server) throw new Error('no server');
      return fetch(`${server.url}/api${route}`, {
        ...init,
        headers: { ...headers, 'content-type': 'application/json', ...init.headers },
      });
    };

    beforeAll(async () => {
      testDb = await createTestDatabase();
      dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-fault-'));
      storageDir = path.join(dataDir, 'files');
      client = new pg.Client({ connectionString: testDb.url });
      await client.connect();
      db = drizzle(client) as unknown as Db;
      await startServer();
      const login = await api('/account/login', {
        method: 'POST',
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      });
      expect(login.status).toBe(200);
      headers = { authorization: `Bearer ${(await login.json()).jwttoken}` };
      const me = await (await api('/users/authenticatedUser')).json();
      companyId = me.companies[0].id;
      // This year's incoming book of the demo data, with its demo registrations: every number of
      // the book and year counts. A sender and a chargee, so that each registration writes every
      // part the one statement writes.
      const book = await client.query<{ id: number }>(
        'SELECT id FROM protocol_books WHERE company_id = $1 AND booktype = 1 AND year = $2 AND is_active',
        [companyId, year],
      );
      bookId = book.rows[0]?.id ?? 0;
      const trader = await client.query<{ id: number }>(
        `INSERT INTO traders (company_id, fullname, individual) VALUES ($1, 'Παπαδόπουλος Νικόλαος', true)
         RETURNING id`,
        [companyId],
      );
      traderId = trader.rows[0]?.id ?? 0;
      const chargee = await createUser(
        db,
        {
          username: 'chargee',
          password: 'Operator-2026',
          firstname: 'Υπάλληλος',
          lastname: 'Χρέωσης',
          kind: 2,
        },
        'test',
      );
      chargeeId = chargee.id;
      await addUserToCompany(db, companyId, chargeeId);
    }, 90_000);

    afterAll(async () => {
      await killServer();
      await client?.end();
      await testDb?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('killed during a burst of registrations: numbers 1…N, counter N, every document whole, nothing acknowledged lost', async () => {
      const acknowledged: { subject: string; number: number }[] = [];
      const unexpected: string[] = [];
      let inFlight = 0;
      let inFlightAtKill = 0;
      const killing = server;
      const registerUntilKilled = async (c: number) => {
        for (let i = 0; ; i++) {
          const subject = `Φόρτος ${c}-${i}`;
          inFlight++;
          try {
            const response = await api(`/document?companyid=${companyId}`, {
              method: 'POST',
              body: JSON.stringify({
                kind: 0,
                subject,
                protocolBookId: bookId,
                senders: [traderId],
                chargedUserId: chargeeId,
              }),
            });
            if (response.status !== 201) {
              unexpected.push(`${subject}: ${response.status} ${await response.text()}`);
              return;
            }
            acknowledged.push({ subject, number: (await response.json()).protocolNumber });
          } catch {
            // The server died before answering: this registration may or may not have happened.
            return;
          } finally {
            inFlight--;
          }
          if (acknowledged.length === KILL_AFTER) {
            inFlightAtKill = inFlight;
            killing?.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, (_, c) => registerUntilKilled(c)));
      await killServer();
      expect(unexpected).toEqual([]);
      expect(inFlightAtKill).toBeGreaterThan(0);

      await startServer();
      const { rows } = await client.query<{
        subject: string;
        number: number;
        created: number;
        registered: number;
        senders: number;
        charges: number;
        notifications: number;
      }>(
        `SELECT d.subject, d.protocol_number AS number,
           (SELECT count(*) FROM audit_log a WHERE a.entity = 'document' AND a.entity_id = d.id::text
              AND a.action = 'created')::int AS created,
           (SELECT count(*) FROM audit_log a WHERE a.entity = 'document' AND a.entity_id = d.id::text
              AND a.action = 'registered'
              AND a.changes->'protocolId'->>'after' = d.protocol_number || '/' || d.protocol_year)::int AS registered,
           (SELECT count(*) FROM document_traders t WHERE t.document_id = d.id AND t.trader_id = $2)::int AS senders,
           (SELECT count(*) FROM document_assignments s WHERE s.document_id = d.id AND s.user_id = $3
              AND s.ended_at IS NULL)::int AS charges,
           (SELECT count(*) FROM notifications n WHERE n.entity = 'document' AND n.entity_id = d.id
              AND n.user_id = $3)::int AS notifications
         FROM documents d WHERE d.protocol_book_id = $1 AND d.protocol_year = $4
         ORDER BY d.protocol_number`,
        [bookId, traderId, chargeeId, year],
      );
      const n = rows.length;
      expect(rows.map((r) => r.number)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      const counter = await client.query<{ year: number; last: number }>(
        'SELECT last FROM protocol_counters WHERE book_id = $1 AND year = $2',
        [bookId, year],
      );
      expect(counter.rows).toEqual([{ last: n }]);
      const whole = { created: 1, registered: 1, senders: 1, charges: 1, notifications: 1 };
      const burst = rows.filter((r) => r.subject.startsWith('Φόρτος '));
      console.info(
        `killed after ${acknowledged.length} answered registrations; ${burst.length} were committed`,
      );
      expect(burst.length).toBeGreaterThanOrEqual(KILL_AFTER);
      expect(
        burst.filter((r) => Object.entries(whole).some(([key, count]) => r[key as keyof typeof r] !== count)),
      ).toEqual([]);
      const numberOf = new Map(rows.map((r) => [r.subject, r.number]));
      expect(acknowledged.filter((a) => numberOf.get(a.subject) !== a.number)).toEqual([]);
      const orphans = await client.query<{ audit: number; notifications: number }>(
        `SELECT
           (SELECT count(*) FROM audit_log a WHERE a.entity = 'document'
              AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.id::text = a.entity_id))::int AS audit,
           (SELECT count(*) FROM notifications x WHERE x.entity = 'document'
              AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = x.entity_id))::int AS notifications`,
      );
      expect(orphans.rows).toEqual([{ audit: 0, notifications: 0 }]);

      // The restarted server goes on from N, and the token issued before the kill still works.
      const next = await api(`/document?companyid=${companyId}`, {
        method: 'POST',
        body: JSON.stringify({ kind: 0, subject: 'Μετά την επανεκκίνηση', protocolBookId: bookId }),
      });
      expect(next.status).toBe(201);
      expect((await next.json()).protocolNumber).toBe(n + 1);
    }, 60_000);
    it('killed during an upload: no attachment row, the half-written file is swept, the next upload works', async () => {
      const created = await api(`/document?companyid=${companyId}`, {
        method: 'POST',
        body: JSON.stringify({ kind: 0, subject: 'Με μεγάλο συνημμένο' }),
      });
      expect(created.status).toBe(201);
      const documentId: number = (await created.json()).id;
      const tmpDir = path.join(storageDir, 'tmp');
      const partFiles = () =>
        existsSync(tmpDir) ? readdirSync(tmpDir).filter((name) => name.endsWith('.part')) : [];
      expect(partFiles()).toEqual([]);

      // A raw request announcing a 16 MiB text file and sending it slowly, never all of it.
      const declared = 16 * 1024 * 1024;
      const boundary = `----fault${randomBytes(8).toString('hex')}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const chunk = Buffer.from('Γραμμή ενός μεγάλου κειμένου που ανεβαίνει αργά.\n'.repeat(300));
      if (!server) throw new Error('no server');
      const request = http.request(`${server.url}/api/document/${documentId}/attachments`, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + declared + tail.length),
        },
      });
      const outcome = new Promise<string>((resolve) => {
        request.once('response', (response) => resolve(`answered ${response.statusCode}`));
        request.on('error', () => resolve('no answer'));
      });
      request.write(head);
      let sending = true;
      const sender = (async () => {
        for (let sent = 0; sending && sent < declared / 2; sent += chunk.length) {
          request.write(chunk);
          await delay(10);
        }
      })();
      // Kill once the server is writing the file: its temporary file has grown past 256 KiB.
      let part: string | undefined;
      for (const deadline = Date.now() + 20_000; !part && Date.now() < deadline; await delay(20)) {
        part = partFiles().find((name) => statSync(path.join(tmpDir, name)).size >= 256 * 1024);
      }
      expect(part, 'the upload never reached the storage').toBeDefined();
      await killServer();
      sending = false;
      await sender;
      expect(await outcome).toBe('no answer');
      expect(partFiles()).toEqual([part]);

      await startServer();
      const rows = await client.query<{ attachments: number; history: number }>(
        `SELECT
           (SELECT count(*) FROM document_attachments WHERE document_id = $1)::int AS attachments,
           (SELECT count(*) FROM audit_log WHERE entity = 'document' AND entity_id = $1::text
              AND action LIKE 'attachment%')::int AS history`,
        [documentId],
      );
      expect(rows.rows).toEqual([{ attachments: 0, history: 0 }]);
      // The server sweeps files over a day old (the grace period spares uploads in flight); the
      // test sweeps as that day later would, with the columns the app declares.
      const storageColumns = appModules.flatMap((m) => m.storageColumns ?? []);
      const sweep = () => sweepStorage(db, createDiskStorage(storageDir), storageColumns, new Date());
      await sweep();
      const referenced = async () =>
        (await client.query<{ key: string }>('SELECT storage_key AS key FROM document_attachments')).rows
          .map((r) => r.key)
          .sort();
      expect(partFiles()).toEqual([]);
      expect(filesUnder(storageDir)).toEqual(await referenced());

      // A normal upload afterwards is stored whole and read back.
      const content = Buffer.concat([chunk, chunk, chunk]);
      const form = new FormData();
      form.append('files', new Blob([content], { type: 'text/plain' }), 'after.txt');
      const uploaded = await fetch(`${server?.url}/api/document/${documentId}/attachments`, {
        method: 'POST',
        headers,
        body: form,
      });
      expect(uploaded.status).toBe(201);
      const [attachment] = (await uploaded.json()).uploaded;
      expect(attachment).toMatchObject({
        fileName: 'after.txt',
        size: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
      });
      const download = await api(`/document/${documentId}/attachments/${attachment.id}/content`);
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);
      expect(await sweep()).toBe(0);
      expect(filesUnder(storageDir)).toEqual(await referenced());
      expect((await referenced()).length).toBeGreaterThan(0);
    }, 60_000);

    it('killed during a background job: after the restart the job is taken up again and completes', async () => {
      // Enough rows that the reindex runs for a while in batches of 500.
      await client.query(
        `INSERT INTO traders (company_id, fullname, individual)
         SELECT $1, 'Συναλλασσόμενος δοκιμής ' || g, false FROM generate_series(1, 40000) g`,
        [companyId],
      );
      const queued = await api(`/reindex?companyid=${companyId}`, { method: 'POST', body: '{}' });
      expect(queued.status).toBe(202);
      const jobId = (await queued.json()).id as number;
      const jobRow = async () =>
        (
          await client.query<{ state: string; attempts: number; done: number; total: number | null }>(
            `SELECT state, attempts, progress_done AS done, progress_total AS total FROM jobs WHERE id = $1`,
            [jobId],
          )
        ).rows[0];
      // Kill once the job is under way, before it ends.
      for (const deadline = Date.now() + 30_000; ; ) {
        const row = await jobRow();
        if (row?.state === 'running' && row.done > 0) break;
        if (row?.state === 'succeeded' || Date.now() > deadline)
          throw new Error(`not killed mid-job: ${JSON.stringify(row)}`);
        await delay(20);
      }
      await killServer();
      const killed = await jobRow();
      expect(killed?.state).toBe('running');
      expect(killed?.done).toBeLessThan(killed?.total ?? 0);

      await startServer();
      let finished = await jobRow();
      for (const deadline = Date.now() + 45_000; finished?.state !== 'succeeded' && Date.now() < deadline; ) {
        await delay(200);
        finished = await jobRow();
      }
      expect(finished).toMatchObject({ state: 'succeeded', attempts: 2 });
      // Every row counted at the start was read; the demo water service, which a restarted server goes
      // on seeding in the background (SEED_DEMO), may add a consumer meanwhile, read too.
      expect(finished?.done).toBeGreaterThanOrEqual(finished?.total ?? Number.POSITIVE_INFINITY);
      const stale = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM traders WHERE company_id = $1 AND search_vector IS NULL',
        [companyId],
      );
      expect(stale.rows[0]?.n).toBe(0);
    }, 120_000);
  },
);
