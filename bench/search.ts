// Global search latency: GET /api/search over a fixed set of Greek queries (prefixes while typing,
// inflected forms, upper case without accents, protocol numbers) on N generated documents (default
// 1,000,000), next to the same SQL statements run directly on a pg pool. Prints p50/p95 of both and
// their ratio (targets: p95 ≤ 50 ms on PostgreSQL 15, API ≤ 1.3× direct), then times the reindex.
//   npx tsx bench/search.ts [documents=1000000] [repetitions=5]
// With BENCH_DATABASE_URL and documents=0 it measures the documents already there (a second run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appModules, buildApp } from '@protocol/server/app';
import { reindexHandler } from '@protocol/server/search-reindex';
import { freePort } from '@protocol/server/testing/ports';
import pg from 'pg';
import { cpuMeter } from './cpu.ts';
import { generateDocuments } from './generate.ts';
import { benchPostgres, isSessionLookup, openRecordingDatabase, reportFigure } from './support.ts';

const documents = Number(process.argv[2] ?? 1_000_000);
const repetitions = Number(process.argv[3] ?? 5);
const ADMIN_PASSWORD = 'bench-admin-password';

/** Typed as people type them: cut short, inflected, in capitals, without accents, numbers. */
const QUERIES = [
  'αιτ',
  'αιτηση',
  'αιτησεις',
  'ΑΙΤΗΣΕΩΝ',
  'Αίτηση σύνδεσης',
  'διαρρο',
  'διαρροης',
  'δικτυα',
  'οφειλων',
  'οφειλες διακανονισμος',
  'ενστασεις',
  'λογαριασμου υδρευσης',
  'βεβαιωσ',
  'υδρομετρων',
  'προμηθεια',
  'αποφασεις διοικητικου',
  'διαβιβαστικα',
  'δημου',
  'αποσυνδεση παροχης',
  'υποχρεου',
  'παπαδοπουλ',
  'ΓΕΩΡΓΙΟΥ',
  'μαρια παπαδοπουλου',
  '1532/2024',
  '1532',
];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

const server = await benchPostgres();
const scratch = mkdtempSync(path.join(tmpdir(), 'protocol-bench-'));
try {
  // What the app sends to PostgreSQL, replayed directly below.
  const { config, database, sql } = await openRecordingDatabase({
    DATA_DIR: scratch,
    DATABASE_URL: server.url,
    ADMIN_PASSWORD,
    SEED_DEMO: '1',
    LOG_LEVEL: 'warn',
  });
  console.log(`generating ${documents} documents…`);
  const t0 = performance.now();
  const { companyId } = await generateDocuments(server.url, documents);
  console.log(`  in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  const app = await buildApp(config, database);
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${port}/api`;
  const login = await fetch(`${base}/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const { jwttoken } = (await login.json()) as { jwttoken: string };
  const headers = { authorization: `Bearer ${jwttoken}` };
  const pool = new pg.Pool({ connectionString: server.url, max: 10 });
  const total = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM documents')).rows[0]?.n;

  const apiTimes: number[] = [];
  const directTimes: number[] = [];
  // CPU time beside the wall time, which a loaded machine changes little: PostgreSQL's and this
  // process's (the app, or the raw SQL client), each side's own.
  const meter = await cpuMeter(pool);
  const cpuTotals = { api: 0, direct: 0 };
  const metered = async <T>(side: 'api' | 'direct', work: () => Promise<T>): Promise<T> => {
    const database = meter?.read().database ?? 0;
    const self = process.cpuUsage();
    const result = await work();
    const { user, system } = process.cpuUsage(self);
    cpuTotals[side] += (user + system) / 1000 + (meter?.read().database ?? 0) - database;
    return result;
  };
  for (const text of QUERIES) {
    const url = `${base}/search?companyid=${companyId}&search=${encodeURIComponent(text)}`;
    const search = async () => {
      const s = performance.now();
      const response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`${text}: ${response.status} ${await response.text()}`);
      const body = (await response.json()) as Record<string, unknown[]>;
      return { ms: performance.now() - s, found: Object.values(body).map((list) => list.length) };
    };
    sql.start();
    const { found } = await search(); // warm-up, and the statements of one search
    // The search's own statements; the session lookup of the authentication is the API's cost.
    const statements = sql.stop().filter(({ query }) => !isSessionLookup(query));
    // Directly, all at once: at least as fast as the route, which runs its sources side by side.
    const direct = async () => {
      const s = performance.now();
      await Promise.all(statements.map(({ query, params }) => pool.query(query, params)));
      return performance.now() - s;
    };
    await direct();
    const api: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < repetitions; i += 1) {
      api.push((await metered('api', search)).ms);
      raw.push(await metered('direct', direct));
    }
    apiTimes.push(...api);
    directTimes.push(...raw);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    console.log(
      `${text.padEnd(24)} API ${median(api).toFixed(1).padStart(6)} ms  direct ${median(raw).toFixed(1).padStart(6)} ms  found ${found.join('/')}`,
    );
  }
  apiTimes.sort((a, b) => a - b);
  directTimes.sort((a, b) => a - b);
  const [apiP50, apiP95, directP50, directP95] = [
    percentile(apiTimes, 50),
    percentile(apiTimes, 95),
    percentile(directTimes, 50),
    percentile(directTimes, 95),
  ];
  console.log(
    `search over ${total} documents, ${QUERIES.length} queries × ${repetitions}: ` +
      `API p50 ${apiP50.toFixed(1)} ms, p95 ${apiP95.toFixed(1)} ms; ` +
      `direct SQL p50 ${directP50.toFixed(1)} ms, p95 ${directP95.toFixed(1)} ms; ` +
      `ratio p50 ${(apiP50 / directP50).toFixed(2)}, p95 ${(apiP95 / directP95).toFixed(2)} ` +
      '(targets: API p95 ≤ 50 ms, ratio ≤ 1.3)',
  );
  const samples = QUERIES.length * repetitions;
  if (meter)
    console.log(
      `CPU per search: API ${(cpuTotals.api / samples).toFixed(1)} ms (the app and PostgreSQL), ` +
        `direct SQL ${(cpuTotals.direct / samples).toFixed(1)} ms (PostgreSQL and the client)`,
    );
  const directLabel = 'the same SQL directly, side by side';
  reportFigure({
    figure: `global search over ${total?.toLocaleString('en')} documents, ${QUERIES.length} Greek queries, p50`,
    value: apiP50,
    unit: 'ms',
    baseline: { label: directLabel, value: directP50 },
    ratio: apiP50 / directP50,
  });
  reportFigure({
    figure: 'global search, p95',
    value: apiP95,
    unit: 'ms',
    baseline: { label: directLabel, value: directP95 },
    ratio: apiP95 / directP95,
    target: '≤ 50 ms and ≤ 1.3× SQL',
    holds: apiP95 <= 50 && apiP95 / directP95 <= 1.3,
  });
  // The reindex job's handler on the same data: every indexed row compared with what its trigger
  // computes, the stale ones (none, unless the configuration changed) rewritten.
  const companies = (await pool.query<{ id: number }>('SELECT DISTINCT company_id AS id FROM documents'))
    .rows;
  const reindex = reindexHandler(appModules.flatMap((m) => m.search ?? []));
  const started = performance.now();
  let rows = 0;
  let rewritten = 0;
  for (const { id } of companies) {
    const result = (await reindex({
      payload: { companyId: id },
      db: database.db,
      job: undefined as never,
      progress: async () => undefined,
      signal: new AbortController().signal,
    })) as { rows: number; rewritten: number };
    rows += result.rows;
    rewritten += result.rewritten;
  }
  const reindexSeconds = (performance.now() - started) / 1000;
  console.log(
    `reindex of ${rows} rows (documents, cases, traders), ${rewritten} stale ones rewritten: ` +
      `${reindexSeconds.toFixed(1)} s, ${Math.round(rows / reindexSeconds)} rows/s`,
  );
  reportFigure({
    figure: `search reindex of ${rows.toLocaleString('en')} rows (documents, cases, traders), ${rewritten.toLocaleString('en')} of them stale and rewritten`,
    value: reindexSeconds,
    unit: 's',
  });
  await app.close();
  await pool.end();
  await database.close();
  if (apiP95 > 50 || apiP95 / directP95 > 1.3) process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
  server.stop();
}
