// The lists people open all day, and the dashboard, one client at a time on the data set of
// `npm run bench` (or on a fresh one of N operators, documents and consumers): the API's p50/p95 with
// the server in its own process, next to the same SQL run directly on a pool — page and count side by
// side (the fastest the API could answer with totalElements) and the page alone (without it).
// Targets (issue 21, full data set): inbox and consumers first page ≤ 30 ms p50, a Greek filter on them
// ≤ 60 ms p50, the operators list with a Greek filter matching 13% of 200,000 rows ≤ 40 ms p50.
//   npx tsx bench/lists.ts [requests per list=21]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '@protocol/server/app';
import pg from 'pg';
import { generateConsumers, generateDocuments, generateOperators } from './generate.ts';
import {
  BENCH_ADMIN_PASSWORD,
  benchPostgres,
  dataset,
  isSessionLookup,
  openRecordingDatabase,
  percentile,
  reportFigure,
  signIn,
  startServerProcess,
} from './support.ts';

const requests = Number(process.argv[2] ?? 21);
const greek = (text: string) => encodeURIComponent(`ci(contains(${text}))`);

const server = await benchPostgres();
const scratch = mkdtempSync(path.join(tmpdir(), 'protocol-bench-'));
try {
  const env = { ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD, SEED_DEMO: '1', LOG_LEVEL: 'warn' };
  // In this process only to learn the SQL each request runs (the app logs it here, never measured).
  const { config, database, sql } = await openRecordingDatabase({
    ...env,
    DATA_DIR: scratch,
    DATABASE_URL: server.url,
  });
  if (!dataset) {
    console.log('generating 200,000 operators, 200,000 documents and 20,000 consumers…');
    await generateOperators(server.url, 200_000);
    await generateDocuments(server.url, 200_000);
    await generateConsumers(server.url, 20_000);
  }
  const pool = new pg.Pool({ connectionString: server.url, max: 4 });
  const companyId = (await pool.query<{ id: number }>('SELECT min(id) AS id FROM companies')).rows[0]?.id;
  const app = await buildApp(config, database);
  const login = await app.inject({
    method: 'POST',
    url: '/api/account/login',
    payload: { username: 'admin', password: BENCH_ADMIN_PASSWORD },
  });
  const injectHeaders = { authorization: `Bearer ${login.json().jwttoken}` };

  const node = await startServerProcess({ ...env, DATABASE_URL: server.url });
  const headers = await signIn(node.base);

  const c = `companyid=${companyId}`;
  const LISTS: { figure: string; url: string; target?: number }[] = [
    { figure: 'operators list, first page', url: 'users/search?sort=lastname,ASC&page=0&size=50' },
    {
      figure: 'operators list, Greek filter',
      url: `users/search?lastname=${greek('παπαδοπουλ')}&sort=lastname,ASC&page=0&size=50`,
      target: 40,
    },
    { figure: 'traders list, first page', url: `traders/search?page=0&size=50&${c}` },
    {
      figure: 'traders list, Greek filter',
      url: `traders/search?fullname=${greek('παπαδοπουλ')}&page=0&size=50&${c}`,
    },
    { figure: 'inbox (documents), first page', url: `inbox/search?page=0&size=50&${c}`, target: 30 },
    {
      figure: 'inbox (documents), Greek search',
      url: `inbox/search?search=${encodeURIComponent('διαρροης')}&page=0&size=50&${c}`,
      target: 60,
    },
    {
      figure: 'consumers list, first page',
      url: `protocol/consumers/search?sort=code,ASC&page=0&size=50&${c}`,
      target: 30,
    },
    {
      figure: 'consumers list, Greek owner filter',
      url: `protocol/consumers/search?ownerName=${greek('παπαδοπουλ')}&sort=code,ASC&page=0&size=50&${c}`,
      target: 60,
    },
  ];

  const time = async (work: () => Promise<void>) => {
    for (let i = 0; i < 3; i += 1) await work();
    const samples: number[] = [];
    for (let i = 0; i < requests; i += 1) {
      const started = performance.now();
      await work();
      samples.push(performance.now() - started);
    }
    return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
  };
  const get = async (url: string) => {
    const response = await fetch(`${node.base}/${url}`, { headers });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { totalElements?: number; totalEstimated?: boolean };
  };

  for (const list of LISTS) {
    sql.start();
    const injected = await app.inject({ method: 'GET', url: `/api/${list.url}`, headers: injectHeaders });
    if (injected.statusCode !== 200) throw new Error(`${list.url}: ${injected.statusCode} ${injected.body}`);
    const statements = sql.stop().filter(({ query }) => !isSessionLookup(query));
    // The count (or the planner's estimate) the engine runs beside the page.
    const counting = (query: string) => /^(select count\(\*\) from \(|EXPLAIN)/i.test(query);
    const page = statements.filter(({ query }) => !counting(query));
    // BENCH_EXPLAIN=1: how PostgreSQL runs each statement of the list (which index, how many rows).
    if (process.env.BENCH_EXPLAIN)
      for (const { query, params } of statements) {
        // The engine's estimate is a plain EXPLAIN (never run): analysing it would run the whole query.
        const estimate = query.startsWith('EXPLAIN (FORMAT JSON) ');
        const plan = await pool.query(
          estimate ? query.replace('(FORMAT JSON) ', '') : `EXPLAIN (ANALYZE, BUFFERS) ${query}`,
          params,
        );
        console.log(`${list.figure}:\n${query}\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}\n`);
      }
    const body = await get(list.url);
    const api = await time(async () => void (await get(list.url)));
    const direct = await time(async () => {
      await Promise.all(statements.map(({ query, params }) => pool.query(query, params)));
    });
    const alone = await time(async () => {
      for (const { query, params } of page) await pool.query(query, params);
    });
    const total = `${body.totalElements}${body.totalEstimated ? ' estimated' : ''}`;
    console.log(
      `${list.figure.padEnd(36)} API p50 ${api.p50.toFixed(1)} ms, p95 ${api.p95.toFixed(1)} ms; ` +
        `SQL page+count ${direct.p50.toFixed(1)} ms, page alone ${alone.p50.toFixed(1)} ms; totalElements ${total}`,
    );
    reportFigure({
      figure: `${list.figure}, with totalElements (${total}), p50`,
      value: api.p50,
      unit: 'ms',
      baseline: { label: 'its SQL directly, page and count side by side', value: direct.p50 },
      ratio: api.p50 / direct.p50,
      ...(list.target === undefined
        ? {}
        : { target: `≤ ${list.target} ms p50`, holds: api.p50 <= list.target }),
    });
    reportFigure({ figure: `${list.figure}, with totalElements, p95`, value: api.p95, unit: 'ms' });
    reportFigure({
      figure: `${list.figure}, without totalElements (its page SQL alone), p50`,
      value: alone.p50,
      unit: 'ms',
    });
  }

  // The dashboard: one request for every card of the signed-in operator.
  sql.start();
  await app.inject({ method: 'GET', url: `/api/dashboard?${c}`, headers: injectHeaders });
  const cards = sql.stop().filter(({ query }) => !isSessionLookup(query));
  const dashboard = await time(async () => void (await get(`dashboard?${c}`)));
  const cardsDirect = await time(async () => {
    await Promise.all(cards.map(({ query, params }) => pool.query(query, params)));
  });
  console.log(`dashboard: API p50 ${dashboard.p50.toFixed(1)} ms, its SQL ${cardsDirect.p50.toFixed(1)} ms`);
  reportFigure({
    figure: 'dashboard, p50',
    value: dashboard.p50,
    unit: 'ms',
    baseline: { label: 'its SQL directly, side by side', value: cardsDirect.p50 },
    ratio: dashboard.p50 / cardsDirect.p50,
  });

  await node.stop();
  await app.close();
  await database.close();
  await pool.end();
} finally {
  rmSync(scratch, { recursive: true, force: true });
  server.stop();
}
