// The embedded database (PGlite, inside the server process) against PostgreSQL 15, same server code,
// same data: N operators (default 20,000) and the operators list with a Greek filter, sorted. Prints
// the throughput with 8 clients and the latency with one, on each, and their ratios. The server runs
// in its own process either way; the load generator here. On BENCH_DATABASE_URL's server the
// PostgreSQL side gets a database of its own, dropped at the end, so both hold exactly the same rows.
//   npx tsx bench/embedded.ts [operators=20000] [seconds=5]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appModules } from '@protocol/server/app';
import { loadConfig } from '@protocol/server/config';
import { openDatabase } from '@protocol/server/db';
import { bootstrap } from '@protocol/server/seed';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { benchPostgres, load, reportFigure, startServerProcess } from './support.ts';

const operators = Number(process.argv[2] ?? 20_000);
const seconds = Number(process.argv[3] ?? 5);
const ADMIN_PASSWORD = 'bench-admin-password';
const env = { ADMIN_PASSWORD, SEED_DEMO: '1', LOG_LEVEL: 'warn' };

/** Migrates, seeds and fills a database (embedded in `dataDir`, or at `url`) the same way. */
async function prepare(dataDir: string, url?: string) {
  const config = loadConfig({ ...env, DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url } : {}) });
  const database = await openDatabase(config);
  await database.migrate();
  await bootstrap(database.db, config, appModules);
  await database.db.execute(sql`
    INSERT INTO users (username, firstname, lastname, kind, createuser)
    SELECT 'op' || g, 'Όνομα ' || g,
      (ARRAY['Παπαδόπουλος','Γεωργίου','Νικολάου','Οικονόμου','Δημητρίου','Ιωάννου','Μακρής'])[1 + g % 7] || ' ' || g,
      2, 'bench'
    FROM generate_series(1, ${operators}::int) g`);
  await database.db.execute(sql`ANALYZE users`);
  await database.close();
}

async function measure(label: string, start: () => Promise<{ base: string; stop(): Promise<void> }>) {
  const node = await start();
  try {
    const login = await fetch(`${node.base}/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const headers = { authorization: `Bearer ${((await login.json()) as { jwttoken: string }).jwttoken}` };
    const url = `${node.base}/users/search?lastname=${encodeURIComponent('ci(contains(παπαδοπουλ))')}&sort=lastname,ASC&page=0&size=50`;
    await load(url, headers, 1, 8);
    const eight = await load(url, headers, seconds, 8);
    const one = await load(url, headers, seconds, 1);
    console.log(
      `${label.padEnd(12)} 8 clients ${eight.rps.toFixed(0)} req/s (p50 ${eight.p50.toFixed(1)} ms)  1 client p50 ${one.p50.toFixed(1)} ms`,
    );
    return { rps: eight.rps, p50: one.p50 };
  } finally {
    await node.stop();
  }
}

const embeddedDir = mkdtempSync(path.join(tmpdir(), 'protocol-bench-data-'));
await prepare(embeddedDir);
const embedded = await measure('PGlite', () => startServerProcess(env, embeddedDir));
const server = await benchPostgres();
const given = process.env.BENCH_DATABASE_URL !== undefined;
const admin = new pg.Client({ connectionString: server.url });
const url = new URL(server.url);
if (given) {
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS protocol_bench_embedded');
  await admin.query('CREATE DATABASE protocol_bench_embedded');
  url.pathname = '/protocol_bench_embedded';
}
try {
  const scratch = mkdtempSync(path.join(tmpdir(), 'protocol-bench-data-'));
  await prepare(scratch, url.toString());
  const native = await measure('PostgreSQL', () =>
    startServerProcess({ ...env, DATABASE_URL: url.toString() }, scratch),
  );
  console.log(
    `PGlite / PostgreSQL: throughput with 8 clients ${(embedded.rps / native.rps).toFixed(2)}×, latency with one client ${(embedded.p50 / native.p50).toFixed(2)}×`,
  );
  const list = `operators list (${operators.toLocaleString('en')}, Greek filter)`;
  reportFigure({
    figure: `${list} on the embedded PGlite, 8 clients: throughput`,
    value: embedded.rps,
    unit: 'req/s',
    baseline: { label: 'the same on PostgreSQL', value: native.rps },
    ratio: embedded.rps / native.rps,
  });
  reportFigure({
    figure: `${list} on the embedded PGlite, one client: p50`,
    value: embedded.p50,
    unit: 'ms',
    baseline: { label: 'the same on PostgreSQL', value: native.p50 },
    ratio: embedded.p50 / native.p50,
  });
} finally {
  if (given) {
    await admin.query('DROP DATABASE IF EXISTS protocol_bench_embedded WITH (FORCE)');
    await admin.end();
  }
  server.stop();
}
