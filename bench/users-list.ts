// The operators list endpoint (Greek filter, sort, page of 50 with totalElements), the server in its
// own process, against a bare Fastify + node-postgres handler running the same SQL in another,
// alternating the two; prints the ratio of their throughputs (target ≥ 0.75). On N generated operators,
// or on the data set of `npm run bench`.
//   npx tsx bench/users-list.ts [operators=200000] [seconds per round=5] [rounds=3]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '@protocol/server/app';
import pg from 'pg';
import { generateOperators } from './generate.ts';
import {
  BENCH_ADMIN_PASSWORD,
  benchPostgres,
  dataset,
  isSessionLookup,
  load,
  openRecordingDatabase,
  reportFigure,
  signIn,
  startBareList,
  startServerProcess,
} from './support.ts';

const operators = Number(process.argv[2] ?? 200_000);
const seconds = Number(process.argv[3] ?? 5);
const rounds = Number(process.argv[4] ?? 3);
const concurrency = 8;

const server = await benchPostgres();
const scratch = mkdtempSync(path.join(tmpdir(), 'protocol-bench-'));
try {
  const env = { ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD, SEED_DEMO: '1', LOG_LEVEL: 'warn' };
  // In this process only to learn the list's SQL (the app logs it here, never measured).
  const { config, database, sql } = await openRecordingDatabase({
    ...env,
    DATA_DIR: scratch,
    DATABASE_URL: server.url,
  });
  if (!dataset) {
    console.log(`generating ${operators} operators…`);
    await generateOperators(server.url, operators);
  }
  const query = `lastname=${encodeURIComponent('ci(contains(παπαδοπουλ))')}&sort=lastname,ASC&page=0&size=50`;
  const app = await buildApp(config, database);
  const signedIn = await app.inject({
    method: 'POST',
    url: '/api/account/login',
    payload: { username: 'admin', password: BENCH_ADMIN_PASSWORD },
  });
  sql.start();
  const sample = (
    await app.inject({
      method: 'GET',
      url: `/api/users/search?${query}`,
      headers: { authorization: `Bearer ${signedIn.json().jwttoken}` },
    })
  ).json() as { totalElements: number };
  const recorded = sql.stop();
  await app.close();
  await database.close();
  const listSql = recorded.filter((r) => !isSessionLookup(r.query));
  console.log(`list: ${sample.totalElements} matching rows; ${listSql.length} SQL queries per request`);

  if (process.env.BENCH_EXPLAIN) {
    const pool = new pg.Pool({ connectionString: server.url, max: 1 });
    for (const r of listSql) {
      const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${r.query}`, r.params as unknown[]);
      console.log(r.query, '\n', plan.rows.map((row) => row['QUERY PLAN']).join('\n'));
    }
    await pool.end();
  }
  const node = await startServerProcess({ ...env, DATABASE_URL: server.url, DATABASE_POOL_MAX: '10' });
  const headers = await signIn(node.base);
  const appUrl = `${node.base}/users/search?${query}`;
  const bare = await startBareList(server.url, listSql);

  await load(appUrl, headers, 1, concurrency);
  await load(bare.url, {}, 1, concurrency);
  const ratios: number[] = [];
  let appRate = 0;
  let bareRate = 0;
  for (let round = 1; round <= rounds; round++) {
    const a = await load(appUrl, headers, seconds, concurrency);
    const b = await load(bare.url, {}, seconds, concurrency);
    ratios.push(a.rps / b.rps);
    appRate += a.rps / rounds;
    bareRate += b.rps / rounds;
    console.log(
      `round ${round}: app ${a.rps.toFixed(0)} req/s (p50 ${a.p50.toFixed(1)} ms)  bare ${b.rps.toFixed(0)} req/s (p50 ${b.p50.toFixed(1)} ms)  ratio ${(a.rps / b.rps).toFixed(2)}`,
    );
  }
  const mean = ratios.reduce((s, r) => s + r, 0) / ratios.length;
  console.log(`throughput ratio app/bare: ${mean.toFixed(2)} (target ≥ 0.75)`);
  reportFigure({
    figure: `operators list, Greek filter, ${concurrency} clients: throughput`,
    value: appRate,
    unit: 'req/s',
    baseline: { label: 'bare Fastify + node-postgres, same SQL, own process', value: bareRate },
    ratio: mean,
    target: '≥ 0.75',
    holds: mean >= 0.75,
  });
  await bare.stop();
  await node.stop();
} finally {
  rmSync(scratch, { recursive: true, force: true });
  server.stop();
}
