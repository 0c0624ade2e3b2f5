// The water register at scale (issue 15). Generates N consumers (default 100,000) with owners and
// meters over 10 sectors and 200 routes (or measures the data set of `npm run bench`), then
// 1. runs the consumers list (Greek owner filter, sort by code, page of 50 with totalElements), the
//    server in its own process, against a bare Fastify + node-postgres handler replaying the same SQL in
//    another, alternating the two, and prints the ratio of their throughputs (target ≥ 0.75), then the
//    list's latency one request at a time;
// 2. times loading M new register rows (default 100,000: owner with ΑΦΜ, consumer, meter) with COPY
//    into the same tables (for a second company), and the import job of the same rows as a csv upload;
//    prints import / COPY (target ≤ 5).
//   npx tsx bench/consumers.ts [consumers=100000] [import rows=consumers, 0: none] [seconds per round=5] [rounds=3]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '@protocol/server/app';
import pg from 'pg';
import { cpuMeter, processCpuMs } from './cpu.ts';
import { generateConsumers } from './generate.ts';
import {
  benchPostgres,
  dataset,
  isSessionLookup,
  load,
  openRecordingDatabase,
  reportFigure,
  signIn,
  startBareList,
  startServerProcess,
  uploadOnNewConnection,
} from './support.ts';

const consumers = Number(process.argv[2] ?? 100_000);
const importRows = Number(process.argv[3] ?? consumers);
const seconds = Number(process.argv[4] ?? 5);
const rounds = Number(process.argv[5] ?? 3);
const concurrency = 8;
const ADMIN_PASSWORD = 'bench-admin-password';
const HEADER = [
  'Τομέας',
  'Δρομολόγιο',
  'Αριθμός καταναλωτή',
  'ΑΦΜ ιδιοκτήτη',
  'Επώνυμο ή επωνυμία ιδιοκτήτη',
  'Όνομα ιδιοκτήτη',
  'Διεύθυνση παροχής',
  'Τ.Κ. παροχής',
  'Κωδικός χρήσης',
  'Ημερομηνία σύνδεσης',
  'Κατάσταση (0, 1, 9)',
  'Σειριακός αριθμός υδρομετρητή',
  'Ψηφία υδρομετρητή',
  'Ένδειξη υδρομετρητή',
];

/** A valid ΑΦΜ from 8 digits: the check digit is Σ dᵢ·2⁸⁻ⁱ mod 11 mod 10. */
function vatOf(n: number) {
  const body = String(10_000_000 + n).padStart(8, '0');
  const sum = [...body].reduce((s, d, i) => s + Number(d) * 2 ** (8 - i), 0);
  return `${body}${(sum % 11) % 10}`;
}

/**
 * Import row i: on route i % 200, numbered after the last consumer of every route (`after`); `run`
 * keeps this run's ΑΦΜ and meter serials apart from an earlier run's on the same database.
 */
function registerRow(i: number, after: number, run: number) {
  const sector = String(1 + Math.floor((i % 200) / 20)).padStart(2, '0');
  const route = String(1 + (i % 20)).padStart(3, '0');
  const number = after + 1 + Math.floor(i / 200);
  return {
    sector,
    route,
    number,
    code: `${sector}-${route}-${String(number).padStart(5, ' ')}`,
    vat: vatOf(run + i),
    lastname: ['Παπαδόπουλος', 'Οικονόμου', 'Γεωργίου', 'Νικολάου'][i % 4] ?? '',
    firstname: ['Γιώργος', 'Ελένη', 'Νίκος', 'Σοφία', 'Κώστας'][i % 5] ?? '',
    address: `Εθνικής Αντιστάσεως ${1 + (i % 300)}`,
    day: `${String(1 + (i % 28)).padStart(2, '0')}/${String(1 + (i % 12)).padStart(2, '0')}/${2000 + (i % 25)}`,
    serial: `IMP-${String(run + i).padStart(8, '0')}`,
    reading: i % 1000,
  };
}

const csvLine = (cells: (string | number | null)[]) =>
  cells.map((c) => (c === null ? '' : `"${String(c).replaceAll('"', '""')}"`)).join(',');

const server = await benchPostgres();
const scratch = mkdtempSync(path.join(tmpdir(), 'protocol-bench-'));
try {
  const env = { ADMIN_PASSWORD, SEED_DEMO: '1', LOG_LEVEL: 'warn' };
  // In this process only to learn the list's SQL (the app logs it here, never measured).
  const { config, database, sql } = await openRecordingDatabase({
    ...env,
    DATA_DIR: scratch,
    DATABASE_URL: server.url,
  });
  const pool = new pg.Pool({ connectionString: server.url, max: 10 });
  let companyId: number;
  if (dataset) {
    companyId = (await pool.query<{ id: number }>('SELECT min(id) AS id FROM companies')).rows[0]?.id ?? 0;
  } else {
    console.log(`generating ${consumers} consumers…`);
    const t0 = performance.now();
    ({ companyId } = await generateConsumers(server.url, consumers));
    console.log(`  in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }

  // 1. The list: the server in its own process, the bare handler in another, the load generator here.
  const query = `ownerName=${encodeURIComponent('ci(contains(παπαδοπουλ))')}&sort=code,ASC&page=0&size=50&companyid=${companyId}`;
  const app = await buildApp(config, database);
  const signedIn = await app.inject({
    method: 'POST',
    url: '/api/account/login',
    payload: { username: 'admin', password: ADMIN_PASSWORD },
  });
  sql.start();
  const sample = (
    await app.inject({
      method: 'GET',
      url: `/api/protocol/consumers/search?${query}`,
      headers: { authorization: `Bearer ${signedIn.json().jwttoken}` },
    })
  ).json() as { totalElements: number };
  const recorded = sql.stop();
  await app.close();
  await database.close();
  const listSql = recorded.filter((r) => !isSessionLookup(r.query));
  console.log(`list: ${sample.totalElements} matching rows; ${listSql.length} SQL queries per request`);

  const node = await startServerProcess({ ...env, DATABASE_URL: server.url, DATABASE_POOL_MAX: '10' });
  const base = node.base;
  const headers = await signIn(base);
  const appUrl = `${base}/protocol/consumers/search?${query}`;
  if (process.env.BENCH_EXPLAIN) {
    for (const r of listSql) {
      const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${r.query}`, r.params as unknown[]);
      console.log(r.query, '\n', plan.rows.map((row) => row['QUERY PLAN']).join('\n'));
    }
  }
  const bare = await startBareList(server.url, listSql);
  const bareUrl = bare.url;
  // Warmed up as long as a round: in one second (a few hundred requests) V8 has not yet optimised the
  // app's longer path (hooks, validation, the query builder), and its first round measured that.
  await load(appUrl, headers, seconds, concurrency);
  await load(bareUrl, {}, seconds, concurrency);
  const ratios: number[] = [];
  let appRate = 0;
  let bareRate = 0;
  // CPU per request of each side's process and of PostgreSQL: on a machine others load too, it
  // says where a request's time goes better than a rate does.
  const meter = await cpuMeter(pool);
  const measured = async (url: string, sent: Record<string, string>, pid: number) => {
    const before = { own: processCpuMs(pid), database: meter?.read().database ?? 0 };
    const result = await load(url, sent, seconds, concurrency);
    const per = (ms: number) => (ms / Math.max(1, result.requests)).toFixed(2);
    const cpu = `CPU ${per(processCpuMs(pid) - before.own)} ms + PostgreSQL ${per((meter?.read().database ?? 0) - before.database)} ms`;
    return { ...result, cpu };
  };
  for (let round = 1; round <= rounds; round++) {
    const a = await measured(appUrl, headers, node.pid);
    const b = await measured(bareUrl, {}, bare.pid);
    ratios.push(a.rps / b.rps);
    appRate += a.rps / rounds;
    bareRate += b.rps / rounds;
    console.log(
      `round ${round}: app ${a.rps.toFixed(0)} req/s (p50 ${a.p50.toFixed(1)} ms, ${a.cpu})  bare ${b.rps.toFixed(0)} req/s (p50 ${b.p50.toFixed(1)} ms, ${b.cpu})  ratio ${(a.rps / b.rps).toFixed(2)}; load average ${loadavg()[0]?.toFixed(2)}`,
    );
  }
  const mean = ratios.reduce((s, r) => s + r, 0) / ratios.length;
  console.log(`list throughput ratio app/bare: ${mean.toFixed(2)} (target ≥ 0.75)`);
  reportFigure({
    figure: `consumers list, Greek owner filter, ${concurrency} clients: throughput`,
    value: appRate,
    unit: 'req/s',
    baseline: { label: 'bare Fastify + node-postgres, same SQL, own process', value: bareRate },
    ratio: mean,
    target: '≥ 0.75',
    holds: mean >= 0.75,
  });
  // One request at a time: a page's own latency, where running its page and count queries side by
  // side shows (under load the other requests keep the connections busy anyway).
  const alone = await load(appUrl, headers, seconds, 1);
  console.log(`list alone: ${alone.rps.toFixed(0)} req/s, p50 ${alone.p50.toFixed(1)} ms`);
  await bare.stop();

  // 2. The import next to COPY of the same rows into the same tables (owners, consumers, meters,
  // installations, audit lines) in one transaction; none with import rows = 0 (the list alone).
  if (importRows > 0) {
    const { after, run } = (
      await pool.query<{ after: number; run: number }>(
        `SELECT coalesce(max(route_position), 0)::int AS after, (SELECT count(*)::int FROM water_consumers) AS run
         FROM water_consumers WHERE company_id = $1`,
        [companyId],
      )
    ).rows[0] ?? { after: 0, run: 0 };
    const rows = Array.from({ length: importRows }, (_, i) => registerRow(i, after, run));
    const one = async <T>(text: string, params: unknown[] = []) =>
      (await pool.query(text, params)).rows[0] as T;
    const routeIds = new Map(
      (
        await pool.query<{ key: string; sector_id: number; id: number }>(
          `SELECT s.code || '-' || r.code AS key, s.id AS sector_id, r.id FROM water_routes r
           JOIN water_sectors s ON s.id = r.sector_id WHERE r.company_id = $1`,
          [companyId],
        )
      ).rows.map((r) => [r.key, r]),
    );
    const { id: usageId } = await one<{ id: number }>(
      `SELECT id FROM water_property_usages WHERE company_id = $1 AND code = 'OIK'`,
      [companyId],
    );
    const { id: adminId } = await one<{ id: number }>(`SELECT id FROM users WHERE username = 'admin'`);
    // COPY loads into a second company (reusing the first's sectors, routes and usage), so the import
    // then meets the same tables without deleting (and vacuuming away) 100,000 rows of five tables.
    const { id: copyCompany } = await one<{ id: number }>(
      `INSERT INTO companies (companyname, companytitle, createuser) VALUES ('COPY', 'COPY', 'bench') RETURNING id`,
    );
    const dir = path.join(scratch, 'copy');
    mkdirSync(dir);
    const copyStart = performance.now();
    const reserve = async (table: string) => {
      const { seq } = await one<{ seq: string }>(`SELECT pg_get_serial_sequence($1, 'id') AS seq`, [table]);
      const { first } = await one<{ first: string }>(`SELECT nextval($1) AS first`, [seq]);
      await pool.query('SELECT setval($1, $2)', [seq, Number(first) + importRows - 1]);
      return Number(first);
    };
    const [trader0, consumer0, meter0] = [
      await reserve('traders'),
      await reserve('water_consumers'),
      await reserve('water_meters'),
    ];
    const files = {
      traders: rows.map((r, i) =>
        csvLine([
          trader0 + i,
          copyCompany,
          't',
          r.lastname,
          r.firstname,
          `${r.lastname} ${r.firstname}`,
          r.vat,
          'bench-copy',
        ]),
      ),
      consumers: rows.map((r, i) => {
        const route = routeIds.get(`${r.sector}-${r.route}`);
        const [d, m, y] = r.day.split('/');
        return csvLine([
          consumer0 + i,
          copyCompany,
          r.code,
          route?.sector_id ?? null,
          route?.id ?? null,
          trader0 + i,
          r.address,
          '62042',
          usageId,
          `${y}-${m}-${d}`,
          1,
          'bench-copy',
        ]);
      }),
      meters: rows.map((r, i) => csvLine([meter0 + i, copyCompany, r.serial, 1, 5, 'bench-copy'])),
      installations: rows.map((r, i) => {
        const [d, m, y] = r.day.split('/');
        return csvLine([copyCompany, consumer0 + i, meter0 + i, `${y}-${m}-${d}`, r.reading, 'bench-copy']);
      }),
      audit: rows.map((_, i) =>
        csvLine([copyCompany, 'consumer', consumer0 + i, 'import_create', adminId, 'bench-copy']),
      ),
    };
    for (const [name, lines] of Object.entries(files))
      writeFileSync(path.join(dir, `${name}.csv`), lines.join('\n'));
    const script = [
      `\\copy traders (id, company_id, individual, lastname, firstname, fullname, vatnumber, createuser) FROM '${dir}/traders.csv' WITH (FORMAT csv)`,
      `\\copy water_consumers (id, company_id, code, sector_id, route_id, owner_id, supply_address, supply_postal_code, property_usage_id, connection_date, status, createuser) FROM '${dir}/consumers.csv' WITH (FORMAT csv)`,
      `\\copy water_meters (id, company_id, serial_number, kind, digits, createuser) FROM '${dir}/meters.csv' WITH (FORMAT csv)`,
      `\\copy water_meter_installations (company_id, consumer_id, meter_id, installed_on, initial_reading, createuser) FROM '${dir}/installations.csv' WITH (FORMAT csv)`,
      `\\copy audit_log (company_id, entity, entity_id, action, user_id, username) FROM '${dir}/audit.csv' WITH (FORMAT csv)`,
    ].join('\n');
    writeFileSync(path.join(dir, 'copy.sql'), `${script}\n`);
    execFileSync('psql', [
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '-1',
      '-d',
      server.url,
      '-f',
      path.join(dir, 'copy.sql'),
    ]);
    const copySeconds = (performance.now() - copyStart) / 1000;
    console.log(`COPY of ${importRows} register rows (5 tables): ${copySeconds.toFixed(1)} s`);
    const csv = `\uFEFF${[
      HEADER.join(';'),
      ...rows.map((r) =>
        [
          r.sector,
          r.route,
          r.number,
          r.vat,
          r.lastname,
          r.firstname,
          r.address,
          '62042',
          'OIK',
          r.day,
          1,
          r.serial,
          5,
          r.reading,
        ].join(';'),
      ),
    ].join('\r\n')}\r\n`;
    const form = new FormData();
    form.append('file', new Blob([csv]), 'register.csv');
    const importStart = performance.now();
    const started = await uploadOnNewConnection(
      `${base}/protocol/consumers/import?dryRun=false&companyid=${companyId}`,
      headers,
      form,
    );
    if (started.status !== 202) throw new Error(`import: ${started.status} ${started.text}`);
    const { jobId } = JSON.parse(started.text) as { jobId: number };
    let job: { state: string; error?: string; result?: Record<string, unknown> };
    for (;;) {
      job = (await (await fetch(`${base}/jobs/${jobId}`, { headers })).json()) as typeof job;
      if (job.state === 'succeeded' || job.state === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const importSeconds = (performance.now() - importStart) / 1000;
    if (job.state !== 'succeeded') throw new Error(`import failed: ${job.error}`);
    const { errors, ...counts } = job.result as { errors: unknown[] };
    if (errors.length > 0) throw new Error(`import refused rows: ${JSON.stringify(errors.slice(0, 3))}`);
    console.log(
      `import job of the same ${importRows} rows: ${importSeconds.toFixed(1)} s ${JSON.stringify(counts)}`,
    );
    console.log(`import / COPY: ${(importSeconds / copySeconds).toFixed(2)} (target ≤ 5)`);
    reportFigure({
      figure: `consumers register import of ${importRows.toLocaleString('en')} rows (owner, consumer, meter)`,
      value: importSeconds,
      unit: 's',
      baseline: { label: 'COPY of the same rows into the same tables', value: copySeconds },
      ratio: importSeconds / copySeconds,
      target: '≤ 5× COPY',
      holds: importSeconds / copySeconds <= 5,
    });
  }
  await pool.end();
  await node.stop();
} finally {
  rmSync(scratch, { recursive: true, force: true });
  server.stop();
}
