import ExcelJS from 'exceljs';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from '../test/harness.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import { type Nodes, type ServerProcess, startNodes } from '../test/server-process.ts';
import { insertReadRoute } from '../test/water-fixtures.ts';

/**
 * Several nodes, one database (issue 21): two server processes on one PostgreSQL 15, each with a
 * DATA_DIR of its own and the files in one S3-compatible store, so nothing but the database and the
 * store is shared. Through both at once: registrations into one book, a session signed in on one and
 * used and closed on the other, the login rate limit, background jobs (a reindex, a billing run)
 * taken over when their node is killed, an upload on one downloaded from the other. PGlite is one
 * process: skipped there.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Node extends ServerProcess {
  name: string;
}

describe.skipIf(!onPostgres)('two server nodes on one PostgreSQL (skipped on PGlite)', () => {
  let cluster: Nodes;
  let s3: TestS3Server;
  let client: pg.Client;
  let a: Node;
  let b: Node;
  let admin: Record<string, string>;
  let companyId: number;

  const nodes: Node[] = [];
  async function startNode(name: string, env: Record<string, string> = {}): Promise<Node> {
    const node = { name, ...(await cluster.start(env)) };
    nodes.push(node);
    return node;
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
    s3 = await startS3Server();
    cluster = await startNodes({
      ADMIN_PASSWORD,
      SEED_DEMO: '1',
      JOBS_LEASE_SECONDS: '2',
      LOG_LEVEL: 'warn',
      ...s3.env,
    });
    client = cluster.client;
    // The first node migrates and seeds; the second finds the database ready (and waits on the
    // migration lock if it were not).
    a = await startNode('a');
    b = await startNode('b');
    admin = await tokenOn(a, 'admin', ADMIN_PASSWORD);
    companyId = (await (await call(b, '/users/authenticatedUser', { headers: admin })).json()).companies[0]
      .id;
  }, 150_000);

  afterAll(async () => {
    await cluster?.close();
    await s3?.close();
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

  it('refuses a registration on the node that remembers a session signed out on the other, writing nothing', async () => {
    const session = await tokenOn(a, 'admin', ADMIN_PASSWORD);
    const register = (node: Node) =>
      call(node, `/document?companyid=${companyId}`, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({ kind: 0, subject: 'Μνήμη κόμβου' }),
      });
    // The second registration on b runs on the session b remembers from the first.
    expect((await register(b)).status).toBe(201);
    expect((await register(b)).status).toBe(201);
    expect((await call(a, '/account/logout', { method: 'POST', headers: session })).status).toBe(204);
    expect((await register(b)).status).toBe(401);
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM documents WHERE subject = 'Μνήμη κόμβου'`,
    );
    expect(rows[0]?.n).toBe(2);
  });

  it('refuses a list page on the node that remembers a session signed out on the other', async () => {
    const session = await tokenOn(a, 'admin', ADMIN_PASSWORD);
    const page = (node: Node) => call(node, `/traders/search?companyid=${companyId}`, { headers: session });
    // The second page on b runs on the session b remembers from the first: its statement checks it.
    expect((await page(b)).status).toBe(200);
    expect((await page(b)).status).toBe(200);
    expect((await call(a, '/account/logout', { method: 'POST', headers: session })).status).toBe(204);
    expect((await page(b)).status).toBe(401);
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

  it('imports a file uploaded on one node, its job reading it from the shared store', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Λογαριασμοί');
    sheet.addRow(['Κωδικός', 'Περιγραφή', 'Είδος', 'Συγκεντρωτικός']);
    sheet.addRow(['74', 'Επιχορηγήσεις', 1, 1]);
    sheet.addRow(['74.00', 'Επιχορηγήσεις από Δήμο', 1, 0]);
    const uploaded = await fetch(`${a.url}/finance/accounts/import?companyid=${companyId}&dryRun=true`, {
      method: 'POST',
      headers: {
        ...admin,
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
      body: Buffer.from(await book.xlsx.writeBuffer()),
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(202);
    const { jobId } = await uploaded.json();
    // Only the key is in the database: the bytes are in the store both nodes share.
    const { rows: files } = await client.query<{ key: string | null; content: Buffer | null }>(
      'SELECT storage_key AS key, content FROM finance_import_files',
    );
    for (const file of files) expect(file).toMatchObject({ key: expect.any(String), content: null });
    let job: { state: string; result: unknown } | undefined;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await delay(100)) {
      job = await (await call(b, `/jobs/${jobId}`, { headers: admin })).json();
      if (job?.state === 'succeeded' || job?.state === 'failed') break;
    }
    expect(job).toMatchObject({ state: 'succeeded', result: { dryRun: true, rows: 2, errors: [] } });
  });

  it('runs a reindex on whichever node takes it, and the other finishes it when that node is killed', async () => {
    // Enough rows without their vector (as a changed configuration leaves them stale) that the rebuild
    // (batches of 5,000, one commit each) outlasts the kill.
    await client.query('ALTER TABLE traders DISABLE TRIGGER traders_search_vector');
    await client.query(
      `INSERT INTO traders (company_id, fullname, individual)
       SELECT $1, 'Καταναλωτής Δοκιμής ' || n, true FROM generate_series(1, 60000) AS n`,
      [companyId],
    );
    await client.query('ALTER TABLE traders ENABLE TRIGGER traders_search_vector');
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
      `SELECT count(*)::int AS n FROM traders t
       WHERE company_id = $1 AND search_vector IS DISTINCT FROM search_vector_of(t)`,
      [companyId],
    );
    expect(rows[0]?.n).toBe(0);
    // The survivor rewrote only what the killed node had not: its batches had committed.
    const { rows: ended } = await client.query<{ result: { rewritten: number } }>(
      'SELECT result FROM jobs WHERE id = $1',
      [jobId],
    );
    expect(ended[0]?.result.rewritten).toBeGreaterThan(0);
    expect(ended[0]?.result.rewritten).toBeLessThan(60_000);
  }, 120_000);

  it('runs a billing run on whichever node takes it, and the other finishes it when that node is killed', async () => {
    // Two fresh nodes in place of the others, on a 10-second lease: a chunk of 500 bills is one
    // transaction of CPU-bound computing, and on a loaded machine a 2-second lease can lapse while it
    // runs (the worker then gives the job up, as it must), which would test the machine, not the nodes.
    for (const node of nodes) node.child.kill('SIGKILL');
    await Promise.all(nodes.map((node) => node.exited));
    const live = [
      await startNode('c', { JOBS_LEASE_SECONDS: '10' }),
      await startNode('d', { JOBS_LEASE_SECONDS: '10' }),
    ];
    const [first, second] = live as [Node, Node];
    // Its own route of 3,000 read consumers: six chunks of 500, one transaction each, so the run
    // outlasts the kill. The demo's usage, sewerage and invoice policy make them billable.
    const routeId = await insertReadRoute(client, companyId, { code: '921', surname: 'Κόμβου', count: 3000 });
    const request = { year: 2026, period: 1, scope: 'routes', ids: [routeId], issueDate: '2026-05-10' };
    const dry = await call(first, `/billing/runs/dry?companyid=${companyId}`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify(request),
    });
    // The dry run is a job of its own: its result is what the run must come to.
    expect(dry.status, await dry.clone().text()).toBe(202);
    const dryJob = (await dry.json()).jobId as number;
    let expected: Record<string, unknown> | undefined;
    for (const deadline = Date.now() + 90_000; Date.now() < deadline && !expected; await delay(100)) {
      const { rows } = await client.query<{ state: string; result: Record<string, unknown> | null }>(
        'SELECT state, result FROM jobs WHERE id = $1',
        [dryJob],
      );
      if (rows[0]?.state === 'failed') throw new Error(`the dry run failed: ${JSON.stringify(rows[0])}`);
      if (rows[0]?.state === 'succeeded') expected = rows[0].result ?? {};
    }
    if (!expected) throw new Error('the dry run did not end');
    expect(expected.bills).toBe(3000);

    const started = await call(second, `/billing/runs?companyid=${companyId}`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify(request),
    });
    expect(started.status, await started.clone().text()).toBe(201);
    const run = await started.json();
    const jobRow = async () =>
      (
        await client.query<{
          state: string;
          locked_by: string | null;
          progress_done: number;
          attempts: number;
        }>('SELECT state, locked_by, progress_done, attempts FROM jobs WHERE id = $1', [run.jobId])
      ).rows[0];
    let running = await jobRow();
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; running = await jobRow()) {
      if (running?.state === 'running' && (running.progress_done ?? 0) > 0) break;
      await delay(20);
    }
    expect(running?.state).toBe('running');
    expect(running?.progress_done).toBeLessThan(3000);
    const holder = live.find((node) => running?.locked_by?.includes(`-${node.child.pid}-`));
    const survivor = holder === first ? second : first;
    expect(holder).toBeDefined();
    holder?.child.kill('SIGKILL');
    await holder?.exited;
    let finished = await jobRow();
    for (const deadline = Date.now() + 90_000; Date.now() < deadline; finished = await jobRow()) {
      if (finished?.state === 'succeeded' || finished?.state === 'failed') break;
      await delay(200);
    }
    expect(finished?.state, JSON.stringify(finished)).toBe('succeeded');
    expect(finished?.attempts).toBe(2);
    expect(finished?.locked_by ?? '').not.toContain(`-${holder?.child.pid}-`);
    // Every consumer billed once, each bill whole, and the run's totals those of the dry run.
    const { rows } = await client.query<{ bills: number; consumers: number; without_lines: number }>(
      `SELECT count(*)::int AS bills, count(DISTINCT consumer_id)::int AS consumers,
         count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM billing_bill_lines l WHERE l.bill_id = b.id))::int
           AS without_lines
       FROM billing_bills b WHERE run_id = $1`,
      [run.id],
    );
    expect(rows[0]).toEqual({ bills: 3000, consumers: 3000, without_lines: 0 });
    const done = await (
      await call(survivor, `/billing/runs/${run.id}?companyid=${companyId}`, { headers: admin })
    ).json();
    expect(done.state).toBe('done');
    for (const key of ['bills', 'charges', 'net', 'vat', 'total']) expect(done[key]).toEqual(expected[key]);
  }, 240_000);
});
