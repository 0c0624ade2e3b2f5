// A billing run at scale (issue 17, "Measure"). On N generated consumers (default 100,000; a smaller
// size with BENCH_CONSUMERS=10000) with the demo tariffs and one reading each in a closed period, times
// 1. ONE set-based SQL statement that computes the period's totals as the bills would hold them (bands
//    scaled to the period, fixed charges by pipe diameter, sewerage as a percent of the water value or
//    per m³, fees, resource and environmental charges, the minimum consumption, social discounts, every
//    line rounded half-up to the cent and VAT per rate on each bill), best of three;
// 2. the billing run through the real API and job (server in its own process): POST /billing/runs,
//    then polling the run until it is done; its totals are read back from the stored bills.
// Prints both, their ratio (target: run ≤ 3× SQL), and exits non-zero unless every charge, the net,
// the VAT, the total and the number of bills agree to the cent.
//   BENCH_CONSUMERS=10000 npx tsx bench/billing.ts
// BENCH_PROF=<folder> has the server write its CPU profile there (node --cpu-prof) when it stops.
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { billCharges, Decimal } from '@protocol/contracts';
import pg from 'pg';
import { generateBillingPeriod, generateConsumers } from './generate.ts';
import { benchPostgres, reportFigure, startServerProcess } from './support.ts';

const consumers = Number(process.env.BENCH_CONSUMERS ?? process.argv[2] ?? 100_000);
const ADMIN_PASSWORD = 'bench-admin-password';
const PERIOD = { year: 2026, period: 1, months: 4, from: '2026-01-01', to: '2026-04-30' };
const TARGET = 3;

/**
 * The totals of the period's bills in one statement: one row per bill (its tariff, billed consumption
 * and the factor months / base months), its lines as the computation writes them, VAT per bill and rate.
 * Tariffs are those valid for the whole period (the bench period has no tariff change inside it).
 */
const TOTALS_SQL = `
WITH rates AS (
  SELECT p.id AS tariff_id, e.key AS charge, v.percentage AS rate
  FROM billing_pricing_policies p
  CROSS JOIN LATERAL jsonb_each_text(p.vat) e
  JOIN vat_percentages v ON v.id = e.value::int
  WHERE p.company_id = $1 AND p.active),
bill AS (
  SELECT r.consumer_id AS id, t.id AS tariff_id,
    greatest(r.consumption, ip.min_consumption)::numeric AS billed,
    pe.periodicity_type::numeric / t.base_months AS factor, pe.periodicity_type AS months,
    c.pipe_diameter_id AS diameter, coalesce(c.sewerage_indicator_id = ANY (t.sewerage_indicator_ids), false) AS sewered,
    c.special_regulation_id AS regulation, c.special_from, c.special_to, rp.from_date, rp.to_date,
    ip.resourcetax, ip.envtax
  FROM readout_readings r
  JOIN readout_route_periods rp ON rp.id = r.route_period_id
  JOIN water_consumers c ON c.id = r.consumer_id
  JOIN water_invoice_policies ip ON ip.id = c.invoice_policy_id
  JOIN periodicities pe ON pe.id = ip.periodicity_id
  JOIN billing_pricing_policies t ON t.company_id = $1 AND t.active AND t.property_usage_id = c.property_usage_id
    AND t.fromdate <= rp.from_date AND (t.todate IS NULL OR t.todate >= rp.to_date)
  WHERE r.company_id = $1 AND rp.year = $2 AND rp.period = $3 AND r.superseded_at IS NULL
    AND r.consumption IS NOT NULL),
kinds AS (SELECT DISTINCT tariff_id, factor FROM bill),
bands AS (
  SELECT k.tariff_id, k.factor, (b.v->>'price')::numeric AS price,
    round((b.v->>'upTo')::numeric * k.factor, 3) AS upper,
    coalesce(round(lag((b.v->>'upTo')::numeric) OVER (PARTITION BY k.tariff_id, k.factor ORDER BY b.n) * k.factor, 3), 0) AS lower
  FROM kinds k
  JOIN billing_pricing_policies t ON t.id = k.tariff_id
  CROSS JOIN LATERAL jsonb_array_elements(t.bands) WITH ORDINALITY b(v, n)),
fixed AS (
  SELECT k.tariff_id, k.factor, f->>'charge' AS charge, (f->>'pipeDiameterId')::int AS diameter,
    round((f->>'amount')::numeric * k.factor, 2) AS amount
  FROM kinds k
  JOIN billing_pricing_policies t ON t.id = k.tariff_id
  CROSS JOIN LATERAL jsonb_array_elements(t.fixed_charges) f),
fees AS (
  SELECT k.tariff_id, k.factor, round((f->>'amount')::numeric * k.factor, 2) AS amount
  FROM kinds k
  JOIN billing_pricing_policies t ON t.id = k.tariff_id
  CROSS JOIN LATERAL jsonb_array_elements(t.special_fees) f),
water AS (
  SELECT b.id, b.tariff_id, round((least(b.billed, coalesce(x.upper, b.billed)) - x.lower) * x.price, 2) AS amount
  FROM bill b JOIN bands x ON x.tariff_id = b.tariff_id AND x.factor = b.factor AND b.billed > x.lower),
plain AS (
  SELECT id, tariff_id, 'water' AS charge, amount FROM water
  UNION ALL
  (SELECT DISTINCT ON (b.id, f.charge) b.id, b.tariff_id, f.charge, f.amount
   FROM bill b JOIN fixed f ON f.tariff_id = b.tariff_id AND f.factor = b.factor
     AND (f.diameter IS NULL OR f.diameter = b.diameter) AND (f.charge = 'waterFixed' OR b.sewered)
   ORDER BY b.id, f.charge, f.diameter IS NULL)
  UNION ALL
  SELECT b.id, b.tariff_id, 'sewerage',
    round(CASE t.sewerage_mode WHEN 'percent' THEN coalesce(w.value, 0) * t.sewerage_value / 100
      ELSE b.billed * t.sewerage_value END, 2)
  FROM bill b JOIN billing_pricing_policies t ON t.id = b.tariff_id
  LEFT JOIN (SELECT id, sum(amount) AS value FROM water GROUP BY id) w ON w.id = b.id
  WHERE b.sewered AND t.sewerage_mode <> 'none'
  UNION ALL
  SELECT b.id, b.tariff_id, 'specialFee', f.amount
  FROM bill b JOIN fees f ON f.tariff_id = b.tariff_id AND f.factor = b.factor
  UNION ALL
  SELECT id, tariff_id, 'resource', round(billed * resourcetax, 2) FROM bill WHERE resourcetax <> 0 AND billed > 0
  UNION ALL
  SELECT id, tariff_id, 'environmental', round(billed * envtax, 2) FROM bill WHERE envtax <> 0 AND billed > 0),
tariff_rates AS (SELECT tariff_id, jsonb_object_agg(charge, rate) AS rates FROM rates GROUP BY tariff_id),
priced AS (
  SELECT p.id, p.charge, p.amount, (r.rates->>p.charge)::numeric AS rate
  FROM plain p JOIN tariff_rates r ON r.tariff_id = p.tariff_id),
eligible AS (
  SELECT b.id, b.tariff_id, b.months, d.id AS policy, d.amount_type, d.calculation, d.amount, d.charges,
    d.reduction,
    (least(b.to_date, coalesce(d.todate, b.to_date), coalesce(b.special_to, b.to_date))
      - greatest(b.from_date, d.fromdate, coalesce(b.special_from, b.from_date)) + 1)::numeric
      / (b.to_date - b.from_date + 1) AS share
  FROM bill b
  JOIN billing_discount_policies d ON d.company_id = $1 AND d.active AND b.regulation = ANY (d.special_regulation_ids)
    AND cardinality(d.charges) > 0),
lines AS (
  SELECT id, charge, amount, rate FROM priced
  UNION ALL
  SELECT e.id, 'discount', round(sum(p.amount) * e.amount / 100 * e.share * -e.reduction, 2), p.rate
  FROM eligible e JOIN priced p ON p.id = e.id AND p.charge = ANY (e.charges)
  WHERE e.amount_type = 2 AND e.share > 0
  GROUP BY e.id, e.policy, p.charge, p.rate, e.amount, e.share, e.reduction
  UNION ALL
  SELECT e.id, 'discount',
    round(e.amount * CASE e.calculation WHEN 1 THEN e.months::numeric / 12 ELSE e.months END * e.share * -e.reduction, 2),
    r.rate
  FROM eligible e JOIN rates r ON r.tariff_id = e.tariff_id AND r.charge = e.charges[1]
  WHERE e.amount_type = 1 AND e.share > 0),
vat AS (SELECT round(sum(amount) * rate / 100, 2) AS vat FROM lines GROUP BY id, rate),
sums AS (
  SELECT (SELECT sum(amount) FROM lines) AS net, (SELECT sum(vat) FROM vat) AS vat,
    (SELECT count(*) FROM bill) AS bills)
SELECT charge AS name, sum(amount)::text AS amount FROM lines GROUP BY charge
UNION ALL SELECT 'net', net::text FROM sums
UNION ALL SELECT 'vat', vat::text FROM sums
UNION ALL SELECT 'total', (net + vat)::text FROM sums
UNION ALL SELECT 'bills', bills::text FROM sums`;

interface RunTotals {
  bills: number;
  charges: { charge: string; amount: string }[];
  net: string;
  vat: string;
  total: string;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** CPU seconds (user + system) of a process, with its reaped children's when `children`. */
function cpuOf(pid: number, children = false) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = fields.slice(11, children ? 15 : 13).reduce((sum, f) => sum + Number(f), 0);
  return ticks / 100;
}
/** PostgreSQL's CPU seconds: the postmaster's, its live children's and those it reaped. */
function postgresCpu(postmaster: number) {
  let total = cpuOf(postmaster, true);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      if (Number(stat[1]) === postmaster) total += cpuOf(Number(entry));
    } catch {
      // Ended meanwhile: the postmaster's reaped children count it.
    }
  }
  return total;
}

const server = await benchPostgres();
let failed = false;
try {
  const node = await startServerProcess(
    {
      DATABASE_URL: server.url,
      ADMIN_PASSWORD,
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
    },
    undefined,
    process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [],
  );
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  const companyId = Number(
    (await pool.query<{ id: number }>('SELECT min(id) AS id FROM companies')).rows[0]?.id,
  );
  console.log(`generating ${consumers} consumers with a period of readings…`);
  const t0 = performance.now();
  await generateConsumers(server.url, consumers);
  await generateBillingPeriod(server.url, companyId, PERIOD);
  await pool.query('VACUUM ANALYZE');
  console.log(`  in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  // 1. One SQL statement, best of three (the first also warms the cache the run will find warm too).
  let sqlMs = Number.POSITIVE_INFINITY;
  let sqlRows: { name: string; amount: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    sqlRows = (await pool.query(TOTALS_SQL, [companyId, PERIOD.year, PERIOD.period])).rows;
    sqlMs = Math.min(sqlMs, performance.now() - started);
  }
  console.log(`one SQL statement: ${sqlMs.toFixed(0)} ms (load ${load()})`);

  // 2. The run through the API and its job.
  const base = node.base;
  const login = await fetch(`${base}/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const { jwttoken } = (await login.json()) as { jwttoken: string };
  const headers = { authorization: `Bearer ${jwttoken}`, 'content-type': 'application/json' };
  // BENCH_STATEMENTS=1: the run's CPU (server, PostgreSQL) and its costliest statements, from
  // pg_stat_statements (the PostgreSQL must preload it: BENCH_DATABASE_URL to such a server).
  const statements = process.env.BENCH_STATEMENTS === '1';
  const backend = Number((await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
  const postmaster = Number(readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
  if (statements) {
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await pool.query('SELECT pg_stat_statements_reset()');
  }
  const cpuBefore = { server: cpuOf(node.pid), postgres: postgresCpu(postmaster) };
  const runStarted = performance.now();
  const started = await fetch(`${base}/billing/runs?companyid=${companyId}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ year: PERIOD.year, period: PERIOD.period, scope: 'all', issueDate: '2026-05-11' }),
  });
  if (started.status !== 201) throw new Error(`run: ${started.status} ${await started.text()}`);
  const { id, jobId } = (await started.json()) as { id: number; jobId: number };
  // Followed as the screen follows it: the job's progress, then the run with its totals once.
  for (;;) {
    const job = (await (await fetch(`${base}/jobs/${jobId}`, { headers })).json()) as { state: string };
    if (job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const runMs = performance.now() - runStarted;
  const run = (await (
    await fetch(`${base}/billing/runs/${id}?companyid=${companyId}`, { headers })
  ).json()) as RunTotals & { state: string; error: string | null };
  if (run.state !== 'done') throw new Error(`the run failed: ${run.error}`);
  console.log(`billing run (API + job): ${(runMs / 1000).toFixed(1)} s, ${run.bills} bills (load ${load()})`);
  console.log(
    `  CPU: server ${(cpuOf(node.pid) - cpuBefore.server).toFixed(2)} s, PostgreSQL ${(postgresCpu(postmaster) - cpuBefore.postgres).toFixed(2)} s`,
  );
  if (statements) {
    const top = await pool.query<{ ms: string; calls: string; rows: string; query: string }>(
      `SELECT round(total_exec_time)::text AS ms, calls::text, rows::text,
         left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
       FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'
       ORDER BY total_exec_time DESC LIMIT 15`,
    );
    for (const r of top.rows)
      console.log(`  ${r.ms.padStart(7)} ms ${r.calls.padStart(6)}× ${r.rows.padStart(7)} rows  ${r.query}`);
  }

  // 3. Both to the cent.
  const fromSql = new Map(sqlRows.map((r) => [r.name, r.amount]));
  const cents = (value: string | undefined) => new Decimal(value ?? '0').toFixed(2);
  const compared = [
    ...billCharges.map((charge) => ({
      name: charge,
      run: cents(run.charges.find((c) => c.charge === charge)?.amount),
      sql: cents(fromSql.get(charge)),
    })),
    { name: 'net', run: cents(run.net), sql: cents(fromSql.get('net')) },
    { name: 'vat', run: cents(run.vat), sql: cents(fromSql.get('vat')) },
    { name: 'total', run: cents(run.total), sql: cents(fromSql.get('total')) },
    { name: 'bills', run: String(run.bills), sql: String(fromSql.get('bills') ?? 0) },
  ];
  for (const row of compared) {
    const mark = row.run === row.sql ? '' : '   ← DIFFERS';
    console.log(`  ${row.name.padEnd(15)} run ${row.run.padStart(15)}   SQL ${row.sql.padStart(15)}${mark}`);
  }
  const agree = compared.every((row) => row.run === row.sql);
  const ratio = runMs / sqlMs;
  console.log(
    `run / SQL: ${ratio.toFixed(2)} (target ≤ ${TARGET}); totals ${agree ? 'agree to the cent' : 'DIFFER'}`,
  );
  reportFigure({
    figure: `billing run, ${consumers.toLocaleString('en')} consumers`,
    value: runMs / 1000,
    unit: 's',
    baseline: { label: 'one SQL statement', value: sqlMs / 1000 },
    ratio,
    target: `≤ ${TARGET}× SQL, totals to the cent`,
    holds: ratio <= TARGET && agree,
  });
  failed = !agree;
  await pool.end();
  await node.stop();
} finally {
  server.stop();
}
if (failed) process.exit(1);
