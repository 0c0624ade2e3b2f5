// The operators list endpoint against a bare Fastify + node-postgres handler running the same SQL on
// the same PostgreSQL, alternating the two; prints the ratio of their throughputs (target ≥ 0.75).
//   npx tsx bench/users-list.ts [operators=200000] [seconds per round=5] [rounds=3]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '@protocol/server/app';
import { loadConfig } from '@protocol/server/config';
import { openDatabase } from '@protocol/server/db';
import { bootstrap } from '@protocol/server/seed';
import Fastify from 'fastify';
import pg from 'pg';
import { generateOperators } from './generate.ts';
import { benchPostgres, freePort, load } from './support.ts';

const operators = Number(process.argv[2] ?? 200_000);
const seconds = Number(process.argv[3] ?? 5);
const rounds = Number(process.argv[4] ?? 3);
const concurrency = 8;
const ADMIN_PASSWORD = 'bench-admin-password';

const server = await benchPostgres();
try {
  const recorded: { query: string; params: unknown[] }[] = [];
  let recording = false;
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'protocol-bench-')),
    DATABASE_URL: server.url,
    ADMIN_PASSWORD,
    SEED_DEMO: '1',
    LOG_LEVEL: 'warn',
  });
  const database = await openDatabase({
    ...config,
    logQuery: (query, params) => {
      if (recording) recorded.push({ query, params });
    },
  });
  await database.migrate();
  await bootstrap(database.db, config, () => undefined);
  console.log(`generating ${operators} operators…`);
  await generateOperators(server.url, operators);

  const app = await buildApp(config, database);
  const appPort = await freePort();
  await app.listen({ port: appPort, host: '127.0.0.1' });
  const login = await fetch(`http://127.0.0.1:${appPort}/api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const { jwttoken } = (await login.json()) as { jwttoken: string };
  const headers = { authorization: `Bearer ${jwttoken}` };
  const query = `lastname=${encodeURIComponent('ci(contains(παπαδοπουλ))')}&sort=lastname,ASC&page=0&size=50`;
  const appUrl = `http://127.0.0.1:${appPort}/api/users/search?${query}`;

  // Record the SQL the app runs for this request, to replay it in the bare handler.
  recording = true;
  const sample = (await (await fetch(appUrl, { headers })).json()) as { totalElements: number };
  recording = false;
  const listSql = recorded.filter((r) => !r.query.includes('from "sessions"'));
  console.log(`list: ${sample.totalElements} matching rows; ${listSql.length} SQL queries per request`);

  const pool = new pg.Pool({ connectionString: server.url, max: 10 });
  if (process.env.BENCH_EXPLAIN) {
    for (const r of listSql) {
      const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${r.query}`, r.params as unknown[]);
      console.log(r.query, '\n', plan.rows.map((row) => row['QUERY PLAN']).join('\n'));
    }
  }
  const bare = Fastify({ logger: false });
  bare.get('/list', async () => {
    const [page, total] = await Promise.all(listSql.map((r) => pool.query(r.query, r.params as unknown[])));
    return { content: page?.rows, totalElements: total?.rows[0] };
  });
  const barePort = await freePort();
  await bare.listen({ port: barePort, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${barePort}/list`;

  await load(appUrl, headers, 1, concurrency);
  await load(bareUrl, {}, 1, concurrency);
  const ratios: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const a = await load(appUrl, headers, seconds, concurrency);
    const b = await load(bareUrl, {}, seconds, concurrency);
    ratios.push(a.rps / b.rps);
    console.log(
      `round ${round}: app ${a.rps.toFixed(0)} req/s (p50 ${a.p50.toFixed(1)} ms)  bare ${b.rps.toFixed(0)} req/s (p50 ${b.p50.toFixed(1)} ms)  ratio ${(a.rps / b.rps).toFixed(2)}`,
    );
  }
  const mean = ratios.reduce((s, r) => s + r, 0) / ratios.length;
  console.log(`throughput ratio app/bare: ${mean.toFixed(2)} (target ≥ 0.75)`);
  await bare.close();
  await pool.end();
  await app.close();
  await database.close();
} finally {
  server.stop();
}
