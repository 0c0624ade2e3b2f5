// A bank file at scale (issue 18, "Measure"). On N generated consumers (default 100,000; a smaller size
// with BENCH_PAYMENTS_CONSUMERS=10000), each with one open debt and its RF code, a bank CSV of
// P payments (default 50,000, at most N/2): 90% paying their debt exactly, 5% half of it, 5% an RF code
// nobody issued. Times
// 1. the set-based SQL match and payment of the same lines (one transaction: the lines by RF code to
//    their debts, the payments with receipt numbers, allocations, debts' paid parts, ledger lines and
//    the file's lines with their outcome, consumer, payer and raw text, then rolled back), and
// 2. the import through the API and its background job (server in its own process): upload, then
//    polling the job until it ends; its report gives the share matched.
// Prints both, the share matched and their ratio (target: import ≤ 3× SQL); exits non-zero when the
// import matched a different number of lines than the SQL.
//   BENCH_PAYMENTS_CONSUMERS=10000 npx tsx bench/payments.ts
import { availableParallelism, loadavg } from 'node:os';
import { debtRfReference, rfCode } from '@protocol/contracts';
import pg from 'pg';
import { generateConsumers } from './generate.ts';
import { BENCH_ADMIN_PASSWORD, benchPostgres, reportFigure, signIn, startServerProcess } from './support.ts';

const consumers = Number(process.env.BENCH_PAYMENTS_CONSUMERS ?? 100_000);
const payments = Math.min(Number(process.env.BENCH_PAYMENTS_LINES ?? 50_000), Math.floor(consumers / 2));
const TARGET = 3;

const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')} on ${availableParallelism()} cores`;

const server = await benchPostgres();
const node = await startServerProcess({
  DATABASE_URL: server.url,
  ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
  SEED_DEMO: '1',
  LOG_LEVEL: 'warn',
});
const pool = new pg.Pool({ connectionString: server.url, max: 2 });
let failed = false;
try {
  console.log(`generating ${consumers} consumers…`);
  const { companyId } = await generateConsumers(server.url, consumers);
  // One open debt per consumer (a charge, kind 99), its RF code as the module gives it, its ledger line.
  const { rows: debts } = await pool.query<{ id: number; amount: string }>(
    `INSERT INTO payments_debts (company_id, consumer_id, source, kind, description, issue_date, due_date, amount, createuser)
     SELECT $1, id, 'charge', 99, 'Χρέωση ' || id, date '2026-05-10', date '2026-06-10', 10 + (id % 90) + 0.37, 'bench'
       FROM water_consumers WHERE company_id = $1 ORDER BY id
     RETURNING id, amount::text`,
    [companyId],
  );
  const codes = debts.map((d) => rfCode(debtRfReference(companyId, d.id)));
  await pool.query(
    `UPDATE payments_debts d SET rf_code = v.rf FROM unnest($1::int[], $2::text[]) AS v(id, rf) WHERE d.id = v.id`,
    [debts.map((d) => d.id), codes],
  );
  await pool.query(
    `INSERT INTO payments_entries (company_id, consumer_id, date, type, kind, description, debit, debt_id)
     SELECT company_id, consumer_id, issue_date, 'charge', 99, description, amount, id FROM payments_debts
      WHERE company_id = $1`,
    [companyId],
  );
  await pool.query('ANALYZE payments_debts; ANALYZE payments_entries');

  // The file: every other consumer's debt, in the default CSV layout (decimal comma, DD/MM/YYYY).
  const lines = Array.from({ length: payments }, (_, i) => {
    const debt = debts[i * 2] as { id: number; amount: string };
    const kind = i % 20;
    const amount = kind === 0 ? (Number(debt.amount) / 2).toFixed(2) : debt.amount;
    const rf = kind === 1 ? rfCode(`99${String(i).padStart(13, '0')}`) : (codes[i * 2] as string);
    return { reference: `BNK${String(i + 1).padStart(9, '0')}`, rf, amount, date: '2026-11-25' };
  });
  const fileLines = lines.map(
    (l) => `${l.reference};25/11/2026;${l.rf};${l.amount.replace('.', ',')};Πληρωτής`,
  );
  const file = ['Αναφορά;Ημερομηνία;RF;Ποσό;Πληρωτής', ...fileLines].join('\r\n');
  const { rows: layouts } = await pool.query<{ id: number }>(
    `SELECT id FROM payments_bank_layouts WHERE company_id = $1 AND code = 'CSV'`,
    [companyId],
  );
  const layoutId = layouts[0]?.id;
  if (!layoutId) throw new Error('the company has no CSV layout');

  // 1. The same work in set-based SQL, in one transaction rolled back (the import then finds it all open).
  const client = await pool.connect();
  let sqlMs = 0;
  let sqlMatched = 0;
  try {
    await client.query('BEGIN');
    const sqlStart = performance.now();
    await client.query(
      'CREATE TEMP TABLE bank_file (line_no int, reference text, paid_on date, rf text, amount numeric, payer text, raw text) ON COMMIT DROP',
    );
    await client.query(
      `INSERT INTO bank_file SELECT * FROM unnest($1::int[], $2::text[], $3::date[], $4::text[], $5::numeric[], $6::text[], $7::text[])`,
      [
        lines.map((_, i) => i + 2),
        lines.map((l) => l.reference),
        lines.map((l) => l.date),
        lines.map((l) => l.rf),
        lines.map((l) => l.amount),
        lines.map(() => 'Πληρωτής'),
        fileLines,
      ],
    );
    const { rows: files } = await client.query<{ id: number }>(
      `INSERT INTO payments_bank_files (company_id, layout_id, file_name, state, createuser)
       VALUES ($1, $2, 'sql.csv', 'done', 'bench') RETURNING id`,
      [companyId, layoutId],
    );
    const { rows: result } = await client.query<{ matched: string }>(
      `WITH m AS (
         SELECT f.*, d.id AS debt_id, d.consumer_id, d.amount - d.paid AS remaining,
                row_number() OVER (ORDER BY f.line_no) AS n
           FROM bank_file f JOIN payments_debts d ON d.company_id = $1 AND d.rf_code = f.rf AND d.status = 'open'),
       c AS (
         INSERT INTO payments_receipt_counters (company_id, year, last) VALUES ($1, 2026, (SELECT count(*) FROM m))
         ON CONFLICT (company_id, year) DO UPDATE SET last = payments_receipt_counters.last + EXCLUDED.last
         RETURNING last),
       p AS (
         INSERT INTO payments_payments (company_id, consumer_id, method, amount, unallocated, date, cashier,
           receipt_year, receipt_number, reference, note, createuser)
         SELECT $1, m.consumer_id, 'bank', m.amount, greatest(m.amount - m.remaining, 0), m.paid_on, 'bank', 2026,
                (SELECT last FROM c) - (SELECT count(*) FROM m) + m.n, m.reference, m.payer, 'bench'
           FROM m
         RETURNING id, reference, receipt_number, receipt_year),
       a AS (
         INSERT INTO payments_allocations (payment_id, debt_id, amount, date)
         SELECT p.id, m.debt_id, least(m.amount, m.remaining), m.paid_on FROM p JOIN m ON m.reference = p.reference
         RETURNING debt_id, amount),
       u AS (UPDATE payments_debts d SET paid = d.paid + a.amount FROM a WHERE d.id = a.debt_id RETURNING d.id),
       e AS (
         INSERT INTO payments_entries (company_id, consumer_id, date, type, description, credit, payment_id)
         SELECT $1, m.consumer_id, m.paid_on, 'payment', p.receipt_number || '/' || p.receipt_year, m.amount, p.id
           FROM p JOIN m ON m.reference = p.reference
         RETURNING id),
       l AS (
         INSERT INTO payments_bank_lines (company_id, file_id, line_no, bank_reference, rf_code, amount, date,
           payer, raw, status, reason, consumer_id, payment_id)
         SELECT $1, $2, f.line_no, f.reference, f.rf, f.amount, f.paid_on, f.payer, f.raw,
                CASE WHEN p.id IS NULL THEN 'unmatched' WHEN m.amount = m.remaining THEN 'matched' ELSE 'partly' END,
                CASE WHEN p.id IS NULL THEN 'unknownRf' WHEN m.amount = m.remaining THEN 'paid'
                     WHEN m.amount < m.remaining THEN 'less' ELSE 'more' END,
                m.consumer_id, p.id
           FROM bank_file f LEFT JOIN m ON m.reference = f.reference LEFT JOIN p ON p.reference = f.reference
         RETURNING id)
       SELECT (SELECT count(*) FROM m) AS matched, (SELECT count(*) FROM l) AS lines,
              (SELECT count(*) FROM u) AS debts, (SELECT count(*) FROM e) AS entries`,
      [companyId, files[0]?.id],
    );
    sqlMs = performance.now() - sqlStart;
    sqlMatched = Number(result[0]?.matched ?? 0);
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
  // The rolled-back rows are dead versions under the same keys (receipt numbers, references) the import
  // writes next: vacuumed first, so each side starts from the same clean tables.
  await pool.query(
    'VACUUM ANALYZE payments_debts, payments_payments, payments_allocations, payments_entries, payments_bank_lines, payments_receipt_counters',
  );
  console.log(`set-based SQL match and payment of ${payments} lines: ${(sqlMs / 1000).toFixed(2)} s`);

  // 2. The import through the API and its job.
  const base = node.base;
  const headers = await signIn(base);
  const form = new FormData();
  form.append('file', new Blob([file]), 'bank-rf-2026-11-25.csv');
  const importStart = performance.now();
  const started = await fetch(`${base}/payments/bank/files?layoutId=${layoutId}&companyid=${companyId}`, {
    method: 'POST',
    headers,
    body: form,
  });
  if (started.status !== 202) throw new Error(`upload: ${started.status} ${await started.text()}`);
  const { jobId, fileId } = (await started.json()) as { jobId: number; fileId: number };
  let job: { state: string; error?: string };
  for (;;) {
    job = (await (await fetch(`${base}/jobs/${jobId}`, { headers })).json()) as typeof job;
    if (job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const importMs = performance.now() - importStart;
  if (job.state !== 'succeeded') throw new Error(`the import failed: ${job.error}`);
  const report = (await (
    await fetch(`${base}/payments/bank/files/${fileId}?companyid=${companyId}&status=duplicate`, { headers })
  ).json()) as { file: { summary: { lines: number; matched: number; partly: number; unmatched: number } } };
  const { summary } = report.file;
  const imported = summary.matched + summary.partly;
  const share = imported / summary.lines;
  console.log(
    `import (API + job) of ${summary.lines} lines: ${(importMs / 1000).toFixed(2)} s; matched ${summary.matched}, partly ${summary.partly}, unmatched ${summary.unmatched} (${(100 * share).toFixed(1)}% matched)`,
  );
  const ratio = importMs / sqlMs;
  const agree = imported === sqlMatched;
  console.log(
    `import / SQL: ${ratio.toFixed(2)} (target ≤ ${TARGET}); matched ${agree ? 'as the SQL did' : `${imported} ≠ SQL ${sqlMatched}`}; ${load()}`,
  );
  reportFigure({
    figure: `bank file import, ${payments.toLocaleString('en')} RF payments (API + job), ${(100 * share).toFixed(1)}% matched`,
    value: Number((importMs / 1000).toFixed(2)),
    unit: 's',
    baseline: { label: 'set-based SQL match and payment', value: Number((sqlMs / 1000).toFixed(2)) },
    ratio: Number(ratio.toFixed(2)),
    target: `≤ ${TARGET}× SQL`,
    holds: ratio <= TARGET && agree,
  });
  failed = !agree;
} finally {
  await pool.end();
  await node.stop();
  server.stop();
}
if (failed) process.exit(1);
