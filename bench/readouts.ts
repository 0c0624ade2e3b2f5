// Readouts at scale (issue 16, "Measure"). Generates N consumers (default 100,000; BENCH_READOUTS_CONSUMERS
// for a smaller run) with owners and meters over 200 routes, one route made of 1,000 of them, and a
// finalized period of readings before, then
// 1. loads N readings with COPY into readout_readings (one period), and imports a drive-by file of
//    N lines for another period through the API and its background job (the server in its own
//    process); prints import / COPY (target ≤ 5);
// 2. saves a reading for each meter of the 1,000-meter route one after the other through the API
//    the entry grid uses (POST /api/readouts/readings) and prints the saves' p50 and p95.
//   npx tsx bench/readouts.ts        BENCH_READOUTS_CONSUMERS=5000 npx tsx bench/readouts.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { generateConsumers } from './generate.ts';
import { benchPostgres, reportFigure, startServerProcess } from './support.ts';

const consumers = Number(process.env.BENCH_READOUTS_CONSUMERS ?? 100_000);
const GRID_METERS = Math.min(1000, consumers);
const ADMIN_PASSWORD = 'bench-admin-password';
const YEAR = 2026;
/** The periods: history (last year's), COPY's, the import's and the grid's. */
const HISTORY = { year: YEAR - 1, period: 3 };
const [COPY_PERIOD, IMPORT_PERIOD, GRID_PERIOD] = [2, 1, 3];

const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')} on ${availableParallelism()} cores`;

const server = await benchPostgres();
const node = await startServerProcess({
  DATABASE_URL: server.url,
  ADMIN_PASSWORD,
  SEED_DEMO: '1',
  LOG_LEVEL: 'warn',
});
const pool = new pg.Pool({ connectionString: server.url, max: 4 });
const query = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) =>
  (await pool.query<T>(text, params)).rows;
const dir = mkdtempSync(path.join(tmpdir(), 'protocol-bench-readouts-'));
try {
  console.log(`generating ${consumers} consumers…`);
  const { companyId } = await generateConsumers(server.url, consumers);
  const months =
    (
      await query<{ months: number }>(
        'SELECT periodicity_type AS months FROM periodicities WHERE company_id = $1 ORDER BY id LIMIT 1',
        [companyId],
      )
    )[0]?.months ?? 4;
  // The grid's route: the first 1,000 consumers moved onto one route, in that order.
  const gridRoute = (
    await query<{ id: number }>(
      `SELECT r.id FROM water_routes r JOIN water_sectors s ON s.id = r.sector_id
       WHERE r.company_id = $1 AND s.code = '01' AND r.code = '001'`,
      [companyId],
    )
  )[0]?.id;
  // Its own consumers go to the next route, so it holds exactly the 1,000.
  await query(
    `UPDATE water_consumers SET route_id = (SELECT r.id FROM water_routes r WHERE r.company_id = $1
       AND r.sector_id = (SELECT sector_id FROM water_routes WHERE id = $2) AND r.code = '002')
     WHERE company_id = $1 AND route_id = $2`,
    [companyId, gridRoute],
  );
  await query(
    `UPDATE water_consumers c SET route_id = $2, route_position = m.position
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS position FROM water_consumers
           WHERE company_id = $1 ORDER BY id LIMIT $3) m
     WHERE c.id = m.id`,
    [companyId, gridRoute, GRID_METERS],
  );
  // Every route's periods (made before timing: 200 rows), and last year's readings: a history the
  // import's checks read (previous reading, seasonal average).
  const periods = async (year: number, period: number, state: number) => {
    const from = `${year}-${String((period - 1) * months + 1).padStart(2, '0')}-01`;
    await query(
      `INSERT INTO readout_route_periods (company_id, route_id, year, period, months, from_date, to_date, state, createuser)
       SELECT $1, r.id, $2, $3, $4::int, $5::date, (($5::date + make_interval(months => $4::int))::date - 1), $6::int, 'bench'
       FROM water_routes r WHERE r.company_id = $1 ON CONFLICT DO NOTHING`,
      [companyId, year, period, months, from, state],
    );
  };
  await periods(HISTORY.year, HISTORY.period, 9);
  await query(
    `INSERT INTO readout_readings (company_id, route_period_id, consumer_id, meter_id, reading, read_on, source,
       previous_reading, consumption, basis, createuser)
     SELECT $1, p.id, c.id, i.meter_id, 20 + c.id % 40, p.to_date - 3, 1, 0, 20 + c.id % 40, 'normal', 'bench'
     FROM water_consumers c
     JOIN water_meter_installations i ON i.consumer_id = c.id AND i.removed_on IS NULL
     JOIN readout_route_periods p ON p.route_id = c.route_id AND p.year = $2 AND p.period = $3
     WHERE c.company_id = $1`,
    [companyId, HISTORY.year, HISTORY.period],
  );
  await periods(YEAR, COPY_PERIOD, 1);
  await query('ANALYZE readout_readings; ANALYZE readout_route_periods');

  // The file's rows: each meter read once, 1 to 40 m³ above its previous reading.
  const meters = await query<{
    consumer_id: number;
    meter_id: number;
    serial: string;
    previous: number;
    copy_period: number;
  }>(
    `SELECT c.id AS consumer_id, m.id AS meter_id, m.serial_number AS serial, h.reading AS previous,
       p.id AS copy_period
     FROM water_consumers c
     JOIN water_meter_installations i ON i.consumer_id = c.id AND i.removed_on IS NULL
     JOIN water_meters m ON m.id = i.meter_id
     JOIN readout_readings h ON h.consumer_id = c.id
     JOIN readout_route_periods p ON p.route_id = c.route_id AND p.year = $2 AND p.period = $3
     WHERE c.company_id = $1 ORDER BY c.id`,
    [companyId, YEAR, COPY_PERIOD],
  );
  const rows = meters.map((m, i) => ({ ...m, reading: m.previous + 1 + (i % 40) }));

  // 1a. COPY of the same rows (as the import computes them) into the same table, another period.
  const copyFile = path.join(dir, 'readings.csv');
  writeFileSync(
    copyFile,
    rows
      .map((r) =>
        [
          companyId,
          r.copy_period,
          r.consumer_id,
          r.meter_id,
          r.reading,
          `${YEAR}-04-28`,
          3,
          r.previous,
          r.reading - r.previous,
          'normal',
          '{}',
          0,
          `copy:${r.consumer_id}`,
          'bench',
        ].join(','),
      )
      .join('\n'),
  );
  const copyStart = performance.now();
  execFileSync('psql', [
    '-q',
    '-v',
    'ON_ERROR_STOP=1',
    '-d',
    server.url,
    '-c',
    `\\copy readout_readings (company_id, route_period_id, consumer_id, meter_id, reading, read_on, source, previous_reading, consumption, basis, flags, review, idempotency_key, createuser) FROM '${copyFile}' WITH (FORMAT csv)`,
  ]);
  const copySeconds = (performance.now() - copyStart) / 1000;
  console.log(`COPY of ${rows.length} readings: ${copySeconds.toFixed(2)} s`);

  // 1b. The import of a drive-by file of the same readings, through the API and the job.
  const base = node.base;
  const login = await fetch(`${base}/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const { jwttoken } = (await login.json()) as { jwttoken: string };
  const headers = { authorization: `Bearer ${jwttoken}` };
  const file = rows.map(
    (r, i) => `${r.serial},${YEAR}-04-28T08:${String(i % 60).padStart(2, '0')}:00Z,${r.reading}`,
  );
  const form = new FormData();
  form.append('file', new Blob([`${file.join('\r\n')}\r\n`]), 'driveby.csv');
  const importStart = performance.now();
  const started = await fetch(
    `${base}/readouts/import?source=3&year=${YEAR}&period=${IMPORT_PERIOD}&companyid=${companyId}`,
    { method: 'POST', headers, body: form },
  );
  if (started.status !== 202) throw new Error(`import: ${started.status} ${await started.text()}`);
  const { jobId } = (await started.json()) as { jobId: number };
  let job: { state: string; error?: string; result?: { success: number; warnings: number; failed: number } };
  for (;;) {
    job = (await (await fetch(`${base}/jobs/${jobId}`, { headers })).json()) as typeof job;
    if (job.state === 'succeeded' || job.state === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const importSeconds = (performance.now() - importStart) / 1000;
  if (job.state !== 'succeeded' || !job.result) throw new Error(`import failed: ${job.error}`);
  const { success, warnings, failed } = job.result;
  console.log(
    `import job of the same ${rows.length} lines: ${importSeconds.toFixed(2)} s (${success} saved, ${warnings} warnings, ${failed} failed)`,
  );
  const imported = Number(
    (
      await query<{ n: string }>(
        `SELECT count(*) AS n FROM readout_readings r JOIN readout_route_periods p ON p.id = r.route_period_id
         WHERE p.company_id = $1 AND p.year = $2 AND p.period = $3`,
        [companyId, YEAR, IMPORT_PERIOD],
      )
    )[0]?.n,
  );
  if (failed > 0 || imported !== rows.length)
    throw new Error(`the import saved ${imported} of ${rows.length} readings (${failed} lines failed)`);
  const ratio = importSeconds / copySeconds;
  console.log(`import / COPY: ${ratio.toFixed(2)} (target ≤ 5); ${load()}`);
  reportFigure({
    figure: `readings import, ${rows.length.toLocaleString('en')} lines (API + job)`,
    value: Number(importSeconds.toFixed(2)),
    unit: 's',
    baseline: { label: 'COPY into the same table', value: Number(copySeconds.toFixed(2)) },
    ratio: Number(ratio.toFixed(2)),
    target: '≤ 5× COPY',
    holds: ratio <= 5,
  });

  // 2. The entry grid: its sheet, then one save per meter, one after the other.
  const sheetUrl = `${base}/readouts/sheet?routeId=${gridRoute}&year=${YEAR}&period=${GRID_PERIOD}&companyid=${companyId}`;
  const sheet = (await (await fetch(sheetUrl, { headers })).json()) as {
    rows: { consumerId: number; previousReading: number }[];
  };
  const latencies: number[] = [];
  for (const [i, row] of sheet.rows.entries()) {
    const t0 = performance.now();
    const saved = await fetch(`${base}/readouts/readings?companyid=${companyId}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        routeId: gridRoute,
        year: YEAR,
        period: GRID_PERIOD,
        consumerId: row.consumerId,
        reading: row.previousReading + 5 + (i % 30),
        readOn: `${YEAR}-09-15`,
        idempotencyKey: `grid-bench-${row.consumerId}`,
      }),
    });
    if (saved.status !== 200) throw new Error(`save: ${saved.status} ${await saved.text()}`);
    await saved.arrayBuffer();
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
  console.log(
    `entry grid: ${latencies.length} saves one after the other on a ${sheet.rows.length}-meter route: p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms; ${load()}`,
  );
  reportFigure({
    figure: `entry grid save p95, ${sheet.rows.length.toLocaleString('en')}-meter route`,
    value: Number(at(0.95).toFixed(1)),
    unit: 'ms',
  });
} finally {
  await pool.end();
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
  server.stop();
}
