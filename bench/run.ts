// Signing in and an authenticated request, one client at a time, the server in its own process on the
// data set of `npm run bench` (or on a throw-away PostgreSQL). Baselines: for the sign-in, the argon2id
// verification of the same password it cannot do without (the server's own function, in this process);
// for the request, its own SQL (session check and operator) run directly on a pool.
// Targets: a sign-in at most 1.5× its argon2id verification (the rate-limit counters, the session row
// and the token cost little beside the hash), an authenticated request at most 10 ms p50. The sign-ins
// and the verifications alone are sampled in turns, as many of each, after a warm-up of both.
//   npx tsx bench/run.ts [sign-ins=60] [requests=500]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '@protocol/server/app';
import { verifyPassword } from '@protocol/server/password';
import pg from 'pg';
import { cpuMeter } from './cpu.ts';
import {
  BENCH_ADMIN_PASSWORD,
  benchPostgres,
  openRecordingDatabase,
  percentile,
  reportFigure,
  signIn,
  startServerProcess,
} from './support.ts';

const signIns = Number(process.argv[2] ?? 60);
const requests = Number(process.argv[3] ?? 500);
const SIGN_IN_RATIO = 1.5;
const REQUEST_MS = 10;

/** p50 and p95 of `count` runs of `work`, after three to warm up. */
async function time(count: number, work: () => Promise<unknown>) {
  const [times] = await timeSideBySide(count, 3, [{ run: work }]);
  return times ?? { p50: 0, p95: 0 };
}

/**
 * p50 and p95 of each of `works`, run `count` times in turns (one sample of each, then again, the
 * first one alternating), after `warmUps` turns: every side meets the same load on a shared machine,
 * and a server just started has compiled its hot path before any sample counts.
 */
async function timeSideBySide(
  count: number,
  warmUps: number,
  works: { run: () => Promise<unknown>; cpuMs?: () => number }[],
) {
  const samples = works.map((): number[] => []);
  const cpu = works.map(() => 0);
  for (let i = 0; i < warmUps + count; i += 1) {
    const order = i % 2 === 0 ? works.keys() : [...works.keys()].reverse();
    for (const k of order) {
      const work = works[k];
      const cpuBefore = work?.cpuMs?.() ?? 0;
      const started = performance.now();
      await work?.run();
      const ms = performance.now() - started;
      if (i < warmUps) continue;
      samples[k]?.push(ms);
      cpu[k] = (cpu[k] ?? 0) + (work?.cpuMs?.() ?? 0) - cpuBefore;
    }
  }
  return samples.map((times, k) => ({
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    cpuMs: (cpu[k] ?? 0) / count,
  }));
}

const server = await benchPostgres();
const scratch = mkdtempSync(path.join(tmpdir(), 'protocol-bench-'));
try {
  const env = { ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD, SEED_DEMO: '1', LOG_LEVEL: 'warn' };
  // In this process only to learn the SQL of an authenticated request (never measured).
  const { config, database, sql } = await openRecordingDatabase({
    ...env,
    DATA_DIR: scratch,
    DATABASE_URL: server.url,
  });
  const app = await buildApp(config, database);
  const login = await app.inject({
    method: 'POST',
    url: '/api/account/login',
    payload: { username: 'admin', password: BENCH_ADMIN_PASSWORD },
  });
  sql.start();
  await app.inject({
    method: 'GET',
    url: '/api/users/authenticatedUser',
    headers: { authorization: `Bearer ${login.json().jwttoken}` },
  });
  const statements = sql.stop();
  await app.close();
  await database.close();

  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  const { rows } = await pool.query<{ hash: string }>(
    `SELECT password_hash AS hash FROM users WHERE username = 'admin'`,
  );
  const adminHash = rows[0]?.hash ?? null;
  const node = await startServerProcess({ ...env, DATABASE_URL: server.url });
  const base = node.base;

  // The sign-ins and their baseline in turns, as many of each, after 10 of each to warm up; beside
  // the wall time, the CPU time each costs (the server's and PostgreSQL's; this process's), which a
  // loaded machine changes little.
  const meter = await cpuMeter(pool);
  const [signInTimes, argon] = await timeSideBySide(signIns, 10, [
    {
      run: () => signIn(base),
      cpuMs: () => {
        const used = meter?.read();
        return used ? used.server + used.database : 0;
      },
    },
    {
      run: async () => {
        if (!(await verifyPassword(BENCH_ADMIN_PASSWORD, adminHash))) throw new Error('wrong admin hash');
      },
      cpuMs: () => {
        const { user, system } = process.cpuUsage();
        return (user + system) / 1000;
      },
    },
  ]);
  if (!signInTimes || !argon) throw new Error('no samples');
  const headers = await signIn(base);
  const request = await time(requests, async () => {
    const response = await fetch(`${base}/users/authenticatedUser`, { headers });
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  });
  const direct = await time(requests, async () => {
    for (const { query, params } of statements) await pool.query(query, params);
  });
  console.log(
    `sign in: p50 ${signInTimes.p50.toFixed(1)} ms (argon2id alone ${argon.p50.toFixed(1)} ms); ` +
      (meter
        ? `CPU per sign-in ${signInTimes.cpuMs.toFixed(1)} ms (server and PostgreSQL; argon2id alone ` +
          `${argon.cpuMs.toFixed(1)} ms); `
        : '') +
      `authenticated request: p50 ${request.p50.toFixed(2)} ms, p95 ${request.p95.toFixed(2)} ms ` +
      `(its ${statements.length} SQL statements ${direct.p50.toFixed(2)} ms)`,
  );
  const ratio = signInTimes.p50 / argon.p50;
  reportFigure({
    figure: 'sign in (argon2id, rate-limit counters, session row, token), one client, p50',
    value: signInTimes.p50,
    unit: 'ms',
    baseline: { label: 'argon2id verification of the same password alone', value: argon.p50 },
    ratio,
    target: `≤ ${SIGN_IN_RATIO}× argon2id`,
    holds: ratio <= SIGN_IN_RATIO,
  });
  reportFigure({
    figure: 'authenticated request (session check and operator), one client, p50',
    value: request.p50,
    unit: 'ms',
    baseline: { label: 'its SQL directly, one statement after the other', value: direct.p50 },
    ratio: request.p50 / direct.p50,
    target: `≤ ${REQUEST_MS} ms p50`,
    holds: request.p50 <= REQUEST_MS,
  });
  reportFigure({ figure: 'authenticated request, p95', value: request.p95, unit: 'ms' });
  await node.stop();
  await pool.end();
  if (ratio > SIGN_IN_RATIO || request.p50 > REQUEST_MS) process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
  server.stop();
}
