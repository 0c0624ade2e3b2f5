import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestDatabase } from '../test/harness.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';

/**
 * Several nodes, one database (issue 21): two server processes on one PostgreSQL 15, each with a
 * DATA_DIR of its own and the files in one S3-compatible store, so nothing but the database and the
 * store is shared. Through both at once: registrations into one book, a session signed in on one and
 * used and closed on the other, the login rate limit, a background job taken over when its node is
 * killed, an upload on one downloaded from the other. PGlite is one process: skipped there.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const SERVER_ROOT = path.resolve(import.meta.dirname, '../..');
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Node {
  name: string;
  url: string;
  child: ChildProcess;
  exited: Promise<void>;
  output: string[];
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe.skipIf(!onPostgres)('two server nodes on one PostgreSQL (skipped on PGlite)', () => {
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
  let s3: TestS3Server;
  let client: pg.Client;
  const dataDirs: string[] = [];
  const nodes: Node[] = [];
  let a: Node;
  let b: Node;
  let admin: Record<string, string>;
  let companyId: number;
  // The secrets every node must share (README "Several nodes"); everything else is per node.
  const shared = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    CREDENTIALS_KEY: randomBytes(32).toString('hex'),
  };

  async function startNode(name: string): Promise<Node> {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), `protocol-node-${name}-`));
    dataDirs.push(dataDir);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: SERVER_ROOT,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: testDb.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_PASSWORD,
        SEED_DEMO: '1',
        JOBS_LEASE_SECONDS: '2',
        LOG_LEVEL: 'warn',
        ...shared,
        ...s3.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const node: Node = { name, url: `http://127.0.0.1:${port}/api`, child, exited, output };
    nodes.push(node);
    let ended = false;
    void exited.then(() => {
      ended = true;
    });
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      if (ended) throw new Error(`node ${name} ended while starting:\n${output.join('')}`);
      const health = await fetch(`${node.url}/health`).catch(() => undefined);
      if (health?.ok) return node;
      await delay(100);
    }
    throw new Error(`node ${name} did not answer /api/health:\n${output.join('')}`);
  }

  const call = (node: Node, route: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(`${node.url}${route}`, {
      ...init,
      headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    });

  const login = (node: Node, username: string, password: string) =>
    call(node, '/account/login', { method: 'POST', body: JSON.stringify({ username, password }) });

  async function tokenOn(node: Node, username: string, password: string): Promise<Record<string, string>> {
    const response = await login(node, username, password);
    expect(response.status, await response.clone().text()).toBe(200);
    return { authorization: `Bearer ${(await response.json()).jwttoken}` };
  }

  beforeAll(async () => {
    testDb = await createTestDatabase();
    s3 = await startS3Server();
    client = new pg.Client({ connectionString: testDb.url });
    await client.connect();
    // The first node migrates and seeds; the second finds the database ready (and waits on the
    // migration lock if it were not).
    a = await startNode('a');
    b = await startNode('b');
    admin = await tokenOn(a, 'admin', ADMIN_PASSWORD);
    companyId = (await (await call(b, '/users/authenticatedUser', { headers: admin })).json()).companies[0]
      .id;
  }, 150_000);

  afterAll(async () => {
    for (const node of nodes) node.child.kill('SIGKILL');
    await Promise.all(nodes.map((node) => node.exited));
    await client?.end();
    await testDb?.drop();
    await s3?.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('registers documents into one book through both nodes at once: no gaps, no duplicates', async () => {
    const year = Number(
      new Intl.DateTimeFormat('en', { timeZone: 'Europe/Athens', year: 'numeric' }).format(new Date()),
    );
    const book = await client.query<{ id: number }>(
      'SELECT id FROM protocol_books WHERE company_id = $1 AND booktype = 1 AND year = $2 AND is_active',
      [companyId, year],
    );
    const bookId = book.rows[0]?.id;
    expect(bookId).toBeDefined();
    const perClient = 10;
    const numbers: number[] = [];
    await Promise.all(
      [a, b].flatMap((node) =>
        Array.from({ length: 6 }, async (_, c) => {
          for (let i = 0; i < perClient; i++) {
            const response = await call(node, `/document?companyid=${companyId}`, {
              method: 'POST',
              headers: admin,
              body: JSON.stringify({
                kind: 0,
                subject: `Κόμβος ${node.name} ${c}-${i}`,
                protocolBookId: bookId,
              }),
            });
            expect(response.status, await response.clone().text()).toBe(201);
            numbers.push((await response.json()).protocolNumber);
          }
        }),
      ),
    );
    expect(new Set(numbers).size).toBe(2 * 6 * perClient);
    // Every number of the book and year (the demo's registrations too) is there exactly once, 1…N.
    const { rows } = await client.query<{ n: number; distinct: number; max: number; last: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT protocol_number)::int AS distinct, max(protocol_number) AS max,
         (SELECT last FROM protocol_counters WHERE book_id = $1 AND year = $2) AS last
       FROM documents WHERE protocol_book_id = $1 AND protocol_year = $2`,
      [bookId, year],
    );
    expect(rows[0]).toEqual({
      n: rows[0]?.max,
      distinct: rows[0]?.max,
      max: rows[0]?.last,
      last: rows[0]?.last,
    });
  });

  it('takes a session signed in on one node on the other, and refuses it there once signed out on the first', async () => {
    const session = await tokenOn(a, 'mpapadopoulou', 'Demo-2026!');
    const onB = await call(b, '/users/authenticatedUser', { headers: session });
    expect(onB.status).toBe(200);
    expect((await onB.json()).username).toBe('mpapadopoulou');
    expect((await call(a, '/account/logout', { method: 'POST', headers: session })).status).toBe(204);
    expect((await call(b, '/users/authenticatedUser', { headers: session })).status).toBe(401);
    expect((await call(a, '/users/authenticatedUser', { headers: session })).status).toBe(401);
  });

  it('counts failed sign-ins across both nodes: past the limit even the right password waits', async () => {
    const failures = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        login(i % 2 === 0 ? a : b, 'gnikolaou', 'wrong password').then((r) => r.status),
      ),
    );
    expect(failures).toEqual(Array.from({ length: 10 }, () => 401));
    for (const node of [a, b]) {
      const refused = await login(node, 'gnikolaou', 'Demo-2026!');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('uploads a file on one node and downloads it from the other', async () => {
    const created = await call(a, `/document?companyid=${companyId}`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ kind: 0, subject: 'Συνημμένο από κόμβο α' }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const documentId = (await created.json()).id;
    const content = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    );
    const form = new FormData();
    form.append('files', new Blob([content], { type: 'application/pdf' }), 'Αίτηση.pdf');
    const uploaded = await fetch(`${a.url}/document/${documentId}/attachments`, {
      method: 'POST',
      headers: admin,
      body: form,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const attachmentId = (await uploaded.json()).uploaded[0].id;
    const downloaded = await call(b, `/document/${documentId}/attachments/${attachmentId}/content`, {
      headers: admin,
    });
    expect(downloaded.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await downloaded.arrayBuffer()), content)).toBe(0);
  });

  it('runs a reindex on whichever node takes it, and the other finishes it when that node is killed', async () => {
    // Enough rows that the rebuild (batches of 500, one commit each) outlasts the kill.
    await client.query(
      `INSERT INTO traders (company_id, fullname, individual)
       SELECT $1, 'Καταναλωτής Δοκιμής ' || n, true FROM generate_series(1, 60000) AS n`,
      [companyId],
    );
    const enqueued = await call(b, `/reindex?companyid=${companyId}`, {
      method: 'POST',
      headers: admin,
    });
    expect(enqueued.status, await enqueued.clone().text()).toBe(202);
    const jobId = (await enqueued.json()).id;
    const jobRow = async () =>
      (
        await client.query<{
          state: string;
          locked_by: string | null;
          progress_done: number;
          attempts: number;
        }>('SELECT state, locked_by, progress_done, attempts FROM jobs WHERE id = $1', [jobId])
      ).rows[0];
    let running = await jobRow();
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; running = await jobRow()) {
      if (running?.state === 'running' && (running.progress_done ?? 0) > 0) break;
      await delay(50);
    }
    expect(running?.state).toBe('running');
    // The worker's id names its process: kill the node that holds the job.
    const holder = nodes.find((node) => running?.locked_by?.includes(`-${node.child.pid}-`));
    const survivor = holder === a ? b : a;
    expect(holder).toBeDefined();
    holder?.child.kill('SIGKILL');
    await holder?.exited;
    let finished = await jobRow();
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; finished = await jobRow()) {
      if (finished?.state === 'succeeded' || finished?.state === 'failed') break;
      await delay(200);
    }
    expect(finished?.state).toBe('succeeded');
    expect(finished?.attempts).toBe(2);
    expect(finished?.locked_by ?? '').not.toContain(`-${holder?.child.pid}-`);
    // The survivor answers the job as done, and the index holds the new traders.
    const view = await call(survivor, `/jobs/${jobId}`, { headers: admin });
    expect(view.status).toBe(200);
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM traders WHERE company_id = $1 AND search_vector IS NULL',
      [companyId],
    );
    expect(rows[0]?.n).toBe(0);
  }, 120_000);
});
