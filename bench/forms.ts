// Public online-form submissions with automatic registration under a burst (issues 14 and 31): the
// server as one process per core (BENCH_SERVER_NODES) on one PostgreSQL, sharing one storage folder,
// as behind a reverse proxy; each citizen from an address of their own (X-Forwarded-For, TRUST_PROXY).
// Every submission is registered in the form's book in the transaction that stores it, and answers
// with its reference and protocol number; its PDF (and files, e-mails) come from a job after the commit.
//   1. N citizens (default 200) submit the demo leak report at once: throughput, p50, p95, CPU per side;
//   2. the same durable work as raw SQL, one statement per submission (number, document, its audit
//      lines, submission, history, job row), N at once on a pool: the baseline of the ratio;
//   3. M submissions (default 2,000) by N clients in flight: the p95 must not grow with the count;
//   4. once the jobs have run: the book is 1…N (0 gaps, 0 duplicates), every submission's document
//      has its PDF exactly once and the file is in storage, and an address is still refused its 11th.
//   npx tsx bench/forms.ts [at once=200] [long run=2000]
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cpuMeter, perOperation } from './cpu.ts';
import { httpClient, startServerNodes } from './nodes.ts';
import { BENCH_ADMIN_PASSWORD, benchPostgres, percentile, reportFigure } from './support.ts';

const atOnce = Number(process.argv[2] ?? 200);
const longRun = Number(process.argv[3] ?? 2000);
const FORM = 'dilosi-vlavis';
const TARGET = { p95Ms: 1500, rate: 100, ratio: 0.2 };

const server = await benchPostgres();
const storageDir = mkdtempSync(path.join(tmpdir(), 'protocol-bench-files-'));
try {
  const nodes = await startServerNodes(
    {
      DATABASE_URL: server.url,
      ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '1',
      STORAGE_DIR: storageDir,
    },
    20,
  );
  const http = httpClient(nodes.bases, atOnce);
  const pool = new pg.Pool({ connectionString: server.url, max: 20 });
  const meter = await cpuMeter(pool);
  let address = 0;
  const submit = async (caller: number, from = address++) => {
    const i = from + 1;
    const response = await http.call(caller, `/public/forms/${FORM}/submissions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.${Math.floor(from / 62500)}.${Math.floor(from / 250) % 250}.${from % 250}`,
      },
      body: JSON.stringify({
        values: {
          kind: 'leak',
          location: `Οδός Ερμού ${i}`,
          description: 'Νερό τρέχει στο πεζοδρόμιο',
          fullname: `Πολίτης ${i}`,
          mobile: '6912345678',
          email: `citizen${i}@example.gr`,
        },
      }),
    });
    if (response.status !== 201) return { failure: `${response.status} ${response.text.slice(0, 200)}` };
    const answer = JSON.parse(response.text) as { reference: string | null; protocolNumber: string | null };
    return answer.reference && answer.protocolNumber
      ? {}
      : { failure: `no reference or number: ${response.text.slice(0, 200)}` };
  };

  /** Waits until no submission job is queued or running; answers the seconds waited. */
  const jobsDone = async () => {
    const t0 = performance.now();
    for (;;) {
      const { rows } = await pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM jobs WHERE kind = 'forms.submission' AND state IN ('queued', 'running')`,
      );
      if (Number(rows[0]?.n) === 0) return (performance.now() - t0) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  /** `total` submissions by `clients` callers in flight: rate, p50, p95 and CPU per submission. */
  const run = async (label: string, total: number, clients: number) => {
    const times: number[] = [];
    const failures: string[] = [];
    let next = 0;
    // What the answers cost, and what they cost with their jobs run (from the first request until no
    // job is left): the job's CPU belongs to a submission, whenever it runs.
    let jobsSeconds = 0;
    const withJobs = await perOperation(meter, total, async () => {
      const answered = await perOperation(meter, total, async () => {
        const started = performance.now();
        await Promise.all(
          Array.from({ length: clients }, async (_, caller) => {
            while (next < total) {
              next += 1;
              const t0 = performance.now();
              const { failure } = await submit(caller);
              times.push(performance.now() - t0);
              if (failure) failures.push(failure);
            }
          }),
        );
        return total / ((performance.now() - started) / 1000);
      });
      jobsSeconds = await jobsDone();
      return answered;
    });
    const measured = withJobs.result;
    if (failures.length > 0) throw new Error(`${label}: ${failures.length} failed, e.g. ${failures[0]}`);
    const p95 = percentile(times, 95);
    const ms = (n: number | undefined) => `${n?.toFixed(2)} ms`;
    console.log(
      `${label}: ${measured.result.toFixed(1)}/s, p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms; ` +
        `CPU per submission until the last answer: server ${ms(measured.serverMs)}, PostgreSQL ${ms(measured.databaseMs)} (jobs running meanwhile included); ` +
        `with every job done (${jobsSeconds.toFixed(1)} s after the last answer): server ${ms(withJobs.serverMs)}, PostgreSQL ${ms(withJobs.databaseMs)}`,
    );
    return {
      rate: measured.result,
      p95,
      cpu: (withJobs.serverMs ?? 0) + (withJobs.databaseMs ?? 0),
    };
  };

  // The code's first runs on every node (not measured), their jobs done.
  await run('warm-up', 4 * nodes.bases.length, nodes.bases.length);

  const burst = await run(`${atOnce} submissions at once`, atOnce, atOnce);

  // The baseline: the same durable work as one raw SQL statement per submission, in a book of its own.
  const { rows: formRows } = await pool.query<{
    company: number;
    form: number;
    version: number;
    year: number;
  }>(
    `SELECT f.company_id AS company, f.id AS form, max(v.id) AS version,
            extract(year FROM now() AT TIME ZONE 'Europe/Athens')::int AS year
       FROM online_forms f JOIN online_form_versions v ON v.form_id = f.id
      WHERE f.form_id = $1 GROUP BY f.id`,
    [FORM],
  );
  const form = formRows[0];
  if (!form) throw new Error(`no form ${FORM}`);
  const rawBook = (
    await pool.query<{ id: number }>(
      `INSERT INTO protocol_books (company_id, descr, year, booktype, is_active, createuser)
       VALUES ($1, 'Bench raw', $2 + 1000, 1, false, 'bench') RETURNING id`,
      [form.company, form.year],
    )
  ).rows[0]?.id;
  let raws = 0;
  const submitRaw = async () => {
    raws += 1;
    await pool.query({
      name: 'submit',
      text: `WITH numbered AS (
         INSERT INTO protocol_counters (book_id, year, last) VALUES ($1, $2, 1)
         ON CONFLICT (book_id, year) DO UPDATE SET last = protocol_counters.last + 1 RETURNING last),
       registered AS (
         INSERT INTO documents (company_id, kind, subject, name, state, protocol_book_id, protocol_number,
           protocol_year, protocol_date, createuser)
         SELECT $3, 0, $4, $5, 0, $1, last, $2, now(), 'online' FROM numbered
         RETURNING id, protocol_number),
       audited AS (
         INSERT INTO audit_log (company_id, entity, entity_id, action, username, changes)
         SELECT $3, 'document', registered.id::text, a.action, 'online',
           CASE WHEN a.action = 'registered' THEN jsonb_build_object(
             'protocolId', jsonb_build_object('before', NULL, 'after', registered.protocol_number || '/' || $2)) END
         FROM registered, (VALUES ('created'), ('registered')) AS a(action)),
       submitted AS (
         INSERT INTO form_submissions (company_id, form_id, version_id, reference, values, document_id,
           protocol_number, applicant, createuser)
         SELECT $3, $6, $7, $4, $8::jsonb, registered.id, registered.protocol_number || '/' || $2, $5, 'online'
         FROM registered RETURNING id),
       history AS (
         INSERT INTO form_submission_history (submission_id, to_status) SELECT id, 0 FROM submitted)
       INSERT INTO jobs (kind, key, company_id, payload)
       SELECT 'bench.raw', 'bench.raw:' || id, $3, jsonb_build_object('submissionId', id) FROM submitted`,
      values: [
        rawBook,
        form.year + 1000,
        form.company,
        `RAW-${raws}`,
        `Πολίτης ${raws}`,
        form.form,
        form.version,
        JSON.stringify({ kind: 'leak', location: `Οδός Ερμού ${raws}`, fullname: `Πολίτης ${raws}` }),
      ],
    });
  };
  await Promise.all(Array.from({ length: 20 }, submitRaw));
  const rawMeasured = await perOperation(meter, atOnce, async () => {
    const started = performance.now();
    await Promise.all(Array.from({ length: atOnce }, submitRaw));
    return atOnce / ((performance.now() - started) / 1000);
  });
  const rawRate = rawMeasured.result;
  const ratio = burst.rate / rawRate;
  console.log(
    `raw SQL, ${atOnce} at once on a pool of 20: ${rawRate.toFixed(0)}/s (CPU ${((rawMeasured.databaseMs ?? 0) + (rawMeasured.benchMs ?? 0)).toFixed(2)} ms each); API/raw ${ratio.toFixed(2)}`,
  );

  const long = await run(`${longRun} submissions, ${atOnce} in flight`, longRun, atOnce);

  // The public limit still holds: an address's 11th submission in 10 minutes is refused.
  const limited = [];
  for (let i = 0; i < 11; i += 1) limited.push(await submit(0, 250_000));
  const limitHolds = limited.slice(0, 10).every((r) => !r.failure) && /^429/.test(limited[10]?.failure ?? '');
  await jobsDone();
  await nodes.stop();
  http.close();

  const { rows } = await pool.query<{ n: number }>(
    `SELECT d.protocol_number AS n FROM documents d
       JOIN online_forms f ON f.book_id = d.protocol_book_id AND f.form_id = $1
      WHERE d.protocol_year = $2 ORDER BY 1`,
    [FORM, form.year],
  );
  const numbers = rows.map((r) => r.n);
  const gaps = numbers.filter((n, i) => n !== i + 1).length;
  const duplicates = numbers.length - new Set(numbers).size;
  const { rows: pdfRows } = await pool.query<{ reference: string; pdfs: string; key: string | null }>(
    `SELECT s.reference, count(a.id) AS pdfs, min(a.storage_key) AS key
       FROM form_submissions s
       LEFT JOIN document_attachments a ON a.document_id = s.document_id AND a.file_name = s.reference || '.pdf'
      WHERE s.document_id IS NOT NULL AND s.reference NOT LIKE 'RAW-%'
      GROUP BY s.id`,
  );
  const { rows: failedJobs } = await pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM jobs WHERE kind = 'forms.submission' AND state <> 'succeeded'`,
  );
  await pool.end();
  const pdfWrong = pdfRows.filter(
    (r) => Number(r.pdfs) !== 1 || !r.key || !existsSync(path.join(storageDir, r.key)),
  ).length;
  console.log(
    `book: ${numbers.length} numbers, ${gaps} gaps, ${duplicates} duplicates; ${pdfRows.length} submissions, ` +
      `${pdfWrong} without exactly one stored PDF, ${failedJobs[0]?.n} jobs not succeeded; ` +
      `11th submission from one address refused: ${limitHolds ? 'yes' : 'NO'}`,
  );

  const name = `public form submissions, ${nodes.description}`;
  reportFigure({
    figure: `${name}, ${atOnce} at once: throughput`,
    value: burst.rate,
    unit: '/s',
    baseline: { label: `raw SQL, one statement per submission, ${atOnce} at once`, value: rawRate },
    ratio,
    target: `≥ ${TARGET.rate}/s and ≥ ${TARGET.ratio}× raw SQL`,
    holds: burst.rate >= TARGET.rate && ratio >= TARGET.ratio,
  });
  reportFigure({
    figure: `public form submission, ${atOnce} at once: p95`,
    value: burst.p95,
    unit: 'ms',
    target: `≤ ${TARGET.p95Ms} ms`,
    holds: burst.p95 <= TARGET.p95Ms,
  });
  reportFigure({
    figure: `public form submission, ${longRun} with ${atOnce} in flight: p95`,
    value: long.p95,
    unit: 'ms',
    target: `≤ ${TARGET.p95Ms} ms (not growing with the count)`,
    holds: long.p95 <= TARGET.p95Ms,
  });
  reportFigure({
    figure: 'public form submission, CPU per submission (servers + PostgreSQL, their jobs included)',
    value: long.cpu,
    unit: 'ms',
  });
  reportFigure({
    figure: `book and files after ${numbers.length} submissions and their jobs: gaps, duplicates, PDFs not exactly once`,
    value: gaps + duplicates + pdfWrong,
    unit: '',
    target: '0, the 11th from one address refused',
    holds: gaps + duplicates + pdfWrong === 0 && Number(failedJobs[0]?.n) === 0 && limitHolds,
  });
  // Every answered submission was registered (the book also holds the demo's own documents).
  const answered = 4 * nodes.bases.length + atOnce + longRun + 10;
  const ok =
    gaps + duplicates + pdfWrong === 0 &&
    Number(failedJobs[0]?.n) === 0 &&
    limitHolds &&
    pdfRows.length >= answered;
  if (!ok) process.exitCode = 1;
} finally {
  server.stop();
  rmSync(storageDir, { recursive: true, force: true });
}
