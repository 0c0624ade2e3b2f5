// Protocol registration throughput: 32 clients register documents in ONE book through the API (the
// server run as one process per core, BENCH_SERVER_NODES, apart from this load generator), alternating with 32 clients doing the same work as raw SQL the fastest
// honest way: one prepared statement (take the number, store the document, its sender and its two
// audit lines) on the same PostgreSQL. Prints both rates, their ratio (target ≥ 0.3), the CPU each
// registration cost, and checks that the book's numbers are exactly 1…N afterwards. Before that it
// generates N documents (default 1,000,000) across books and years, and times the inbox list (first
// page, Greek search) and the dashboard on them.
//   npx tsx bench/documents.ts [documents=1000000] [seconds per round=5] [rounds=3]
import { availableParallelism, loadavg } from 'node:os';
import pg from 'pg';
import { cpuMeter, perOperation } from './cpu.ts';
import { generateDocuments } from './generate.ts';
import { httpClient, startServerNodes } from './nodes.ts';
import { benchPostgres, reportFigure } from './support.ts';

const documents = Number(process.argv[2] ?? 1_000_000);
const seconds = Number(process.argv[3] ?? 5);
const rounds = Number(process.argv[4] ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ADMIN_PASSWORD = 'bench-admin-password';

/** Operations per second of `operation` run back to back by `clients` workers for `seconds`. */
async function rate(clients: number, seconds: number, operation: (worker: number) => Promise<void>) {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, worker) => {
      while (performance.now() < until) {
        await operation(worker);
        done += 1;
      }
    }),
  );
  return done / seconds;
}

const server = await benchPostgres();
try {
  // The server in processes of its own (migrated and seeded at start); the load generators here.
  const nodes = await startServerNodes(
    { DATABASE_URL: server.url, ADMIN_PASSWORD, SEED_DEMO: '1', LOG_LEVEL: 'warn' },
    Math.max(10, Math.ceil(concurrency / Number(process.env.BENCH_SERVER_NODES ?? availableParallelism()))),
  );
  console.log(`generating ${documents} documents…`);
  const t0 = performance.now();
  const { companyId } = await generateDocuments(server.url, documents);
  console.log(`  in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  const pool = new pg.Pool({ connectionString: server.url, max: concurrency });
  // A book of its own for the registration runs, and a sender.
  const year = Number(
    (await pool.query(`SELECT extract(year FROM now() AT TIME ZONE 'Europe/Athens')::int AS y`)).rows[0].y,
  );
  await pool.query(`UPDATE protocol_books SET is_active = false WHERE company_id = $1 AND booktype = 1`, [
    companyId,
  ]);
  const book = (
    await pool.query<{ id: number }>(
      `INSERT INTO protocol_books (company_id, descr, year, booktype, is_active, createuser)
       VALUES ($1, 'Bench', $2 + 1000, 1, true, 'bench') RETURNING id`,
      [companyId, year],
    )
  ).rows[0]?.id;
  const trader = (
    await pool.query<{ id: number }>(
      `INSERT INTO traders (company_id, fullname, createuser) VALUES ($1, 'Παπαδόπουλος Γεώργιος', 'bench')
       RETURNING id`,
      [companyId],
    )
  ).rows[0]?.id;

  const base = nodes.bases[0];
  const http = httpClient(nodes.bases, concurrency);
  const login = await fetch(`${base}/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const { jwttoken } = (await login.json()) as { jwttoken: string };
  const headers = { authorization: `Bearer ${jwttoken}`, 'content-type': 'application/json' };

  // Lists and the dashboard (one query per card: charged to me, registrations, notifications, cases)
  // on the generated data.
  // Targets (issue 21): first page with totalElements ≤ 30 ms p50, a Greek filter ≤ 60 ms p50.
  for (const [label, query, target] of [
    ['inbox, first page', `inbox/search?page=0&size=50`, 30],
    ['inbox, Greek search', `inbox/search?search=${encodeURIComponent('διαρροης')}&page=0&size=50`, 60],
    ['inbox, protocol no.', `inbox/search?search=${encodeURIComponent('1532/2024')}&page=0&size=50`, 60],
    ['dashboard', 'dashboard?', undefined],
  ] as const) {
    const url = `${base}/${query}&companyid=${companyId}`;
    for (let i = 0; i < 3; i += 1) await (await fetch(url, { headers })).arrayBuffer();
    const times: number[] = [];
    let total = '';
    for (let i = 0; i < 21; i += 1) {
      const s = performance.now();
      const response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`${label}: ${response.status} ${await response.text()}`);
      const body = (await response.json()) as { totalElements?: number; totalEstimated?: boolean };
      times.push(performance.now() - s);
      if (body.totalElements !== undefined)
        total = `, totalElements ${body.totalElements}${body.totalEstimated ? ' (estimated)' : ''}`;
    }
    times.sort((a, b) => a - b);
    const p50 = times[10] ?? 0;
    const verdict =
      target === undefined ? '' : ` (target ≤ ${target} ms: ${p50 <= target ? 'holds' : 'MISSED'})`;
    console.log(`${label}: p50 ${p50.toFixed(1)} ms, p95 ${times[19]?.toFixed(1)} ms${total}${verdict}`);
  }

  let n = 0;
  const register = async (worker: number) => {
    n += 1;
    const response = await http.call(worker, `/document?companyid=${companyId}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        kind: 0,
        subject: `Αίτηση ${n}`,
        protocolBookId: book,
        senders: [trader],
      }),
    });
    if (response.status !== 201) throw new Error(`${response.status} ${response.text}`);
  };
  // The same work as raw SQL in one prepared statement (one round trip, the counter row locked only
  // while it runs): take the number, store the document, its sender and the same two audit lines
  // the API writes ('created', and 'registered' with the protocol id and book).
  const registerRaw = async () => {
    n += 1;
    await pool.query({
      name: 'register',
      text: `WITH numbered AS (
         INSERT INTO protocol_counters (book_id, year, last) VALUES ($1, $2, 1)
         ON CONFLICT (book_id, year) DO UPDATE SET last = protocol_counters.last + 1 RETURNING last),
       registered AS (
         INSERT INTO documents (company_id, kind, subject, state, protocol_book_id, protocol_number,
           protocol_year, protocol_date, correspondents, createuser)
         SELECT $3, 0, $4, 0, $1, last, $2, now(), 'Παπαδόπουλος Γεώργιος', 'bench' FROM numbered
         RETURNING id, protocol_number),
       sender AS (
         INSERT INTO document_traders (document_id, role, position, trader_id)
         SELECT id, 1, 0, $5 FROM registered)
       INSERT INTO audit_log (company_id, entity, entity_id, action, username, changes)
       SELECT $3, 'document', registered.id::text, a.action, 'bench',
         CASE WHEN a.action = 'registered' THEN jsonb_build_object(
           'protocolId', jsonb_build_object('before', NULL, 'after', registered.protocol_number || '/' || $2),
           'protocolBook', jsonb_build_object('before', NULL, 'after', 'Bench')) END
       FROM registered, (VALUES ('created'), ('registered')) AS a(action)`,
      values: [book, year, companyId, `Αίτηση ${n}`, trader],
    });
  };

  await rate(concurrency, 1, register);
  await rate(concurrency, 1, registerRaw);
  const meter = await cpuMeter(pool);
  const api: number[] = [];
  const raw: number[] = [];
  const apiCpu: number[] = [];
  const rawCpu: number[] = [];
  const clientCpu: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    // CPU per registration (server + PostgreSQL), which changes little with the machine's load.
    for (const [rates, cpu, operation] of [
      [api, apiCpu, register],
      [raw, rawCpu, registerRaw],
    ] as const) {
      let done = 0;
      const measured = await perOperation(
        meter,
        () => done,
        async () => {
          const perSecond = await rate(concurrency, seconds, operation);
          done = perSecond * seconds;
          return perSecond;
        },
      );
      rates.push(measured.result);
      if (measured.serverMs !== undefined && measured.databaseMs !== undefined)
        cpu.push(measured.serverMs + measured.databaseMs);
      if (measured.benchMs !== undefined) clientCpu.push(measured.benchMs);
    }
    console.log(
      `round ${round + 1}: API ${api.at(-1)?.toFixed(0)} registrations/s (CPU ${apiCpu.at(-1)?.toFixed(2)} ms each, ` +
        `client ${clientCpu.at(-2)?.toFixed(2)}), raw SQL ${raw.at(-1)?.toFixed(0)}/s (CPU ${rawCpu.at(-1)?.toFixed(2)} ms each, ` +
        `client ${clientCpu.at(-1)?.toFixed(2)}); load average ${loadavg()[0]?.toFixed(2)}`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const ratio = median(api) / median(raw);
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  console.log(
    `registration through the API (${nodes.description}): ${median(api).toFixed(0)}/s, raw SQL: ${median(raw).toFixed(0)}/s, ratio ${ratio.toFixed(2)} (target ≥ 0.3); load average ${load} on ${availableParallelism()} cores`,
  );

  // The API wrote to the current year; the raw runs to the same book and year.
  const check = (
    await pool.query<{ total: string; distinct: string; max: number; last: number }>(
      `SELECT count(*) AS total, count(DISTINCT protocol_number) AS distinct, max(protocol_number) AS max,
         (SELECT last FROM protocol_counters WHERE book_id = $1 AND year = $2) AS last
       FROM documents WHERE protocol_book_id = $1 AND protocol_year = $2`,
      [book, year],
    )
  ).rows[0];
  const total = Number(check?.total);
  const gaps = (check?.max ?? 0) - total;
  const duplicates = total - Number(check?.distinct);
  console.log(
    `book after the runs: ${total} documents, numbers 1…${check?.max}, counter ${check?.last}: ${gaps} gaps, ${duplicates} duplicates`,
  );
  reportFigure({
    figure: `registration, one book, ${concurrency} clients, ${nodes.description}, median of ${rounds} rounds (load ${load})`,
    value: median(api),
    unit: '/s',
    baseline: { label: 'raw SQL, one prepared statement per registration', value: median(raw) },
    ratio,
    target: '≥ 0.3× raw SQL',
    holds: ratio >= 0.3,
  });
  if (apiCpu.length > 0)
    reportFigure({
      figure: 'registration, CPU per registration (server + PostgreSQL)',
      value: median(apiCpu),
      unit: 'ms',
      baseline: { label: 'raw SQL (PostgreSQL)', value: median(rawCpu) },
    });
  reportFigure({
    figure: 'book after the registration runs: gaps and duplicates',
    value: gaps,
    unit: 'gaps',
    target: '0, numbers 1…N',
    holds: gaps === 0 && duplicates === 0 && check?.last === check?.max,
  });
  http.close();
  await nodes.stop();
  await pool.end();
  if (gaps !== 0 || duplicates !== 0 || check?.last !== check?.max) process.exitCode = 1;
  if (ratio < 0.3) process.exitCode = 1;
} finally {
  server.stop();
}
