// Public online-form submissions with automatic registration (issue 14): N citizens (default 200)
// submit the demo leak report at once, each from an address of their own (X-Forwarded-For, the server
// behind a proxy: TRUST_PROXY), to the server in its own process on a real PostgreSQL. Every submission
// is registered in the form's book in the transaction that stores it. Prints the throughput and p95,
// then checks the book's numbers this year are exactly 1…N: no gaps.
//   npx tsx bench/forms.ts [submissions=200]
import pg from 'pg';
import {
  BENCH_ADMIN_PASSWORD,
  benchPostgres,
  percentile,
  reportFigure,
  startServerProcess,
} from './support.ts';

const submissions = Number(process.argv[2] ?? 200);
const FORM = 'dilosi-vlavis';

const server = await benchPostgres();
try {
  const node = await startServerProcess({
    DATABASE_URL: server.url,
    DATABASE_POOL_MAX: '20',
    ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
    SEED_DEMO: '1',
    LOG_LEVEL: 'warn',
    TRUST_PROXY: '1',
  });
  const submit = async (i: number) => {
    const response = await fetch(`${node.base}/public/forms/${FORM}/submissions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.${Math.floor(i / 62500)}.${Math.floor(i / 250) % 250}.${i % 250}`,
      },
      body: JSON.stringify({
        values: {
          kind: 'leak',
          location: `Οδός Ερμού ${i + 1}`,
          description: 'Νερό τρέχει στο πεζοδρόμιο',
          fullname: `Πολίτης ${i + 1}`,
          mobile: '6912345678',
          email: `citizen${i + 1}@example.gr`,
        },
      }),
    });
    const body = await response.text();
    return response.status === 201 ? undefined : `${response.status} ${body.slice(0, 200)}`;
  };
  // One submission first, from an address none of the measured ones uses: the code's first run.
  const warm = await submit(240_000);
  if (warm) throw new Error(`warm-up: ${warm}`);

  const times: number[] = [];
  const failures: string[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: submissions }, async (_, i) => {
      const t0 = performance.now();
      const failure = await submit(i);
      times.push(performance.now() - t0);
      if (failure) failures.push(failure);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const rate = submissions / seconds;
  console.log(`${submissions} public submissions with auto numbering in ${seconds.toFixed(1)} s`);
  console.log(
    `  throughput ${rate.toFixed(1)}/s, p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms`,
  );
  if (failures.length > 0) throw new Error(`${failures.length} failed, e.g. ${failures[0]}`);
  await node.stop();

  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  const { rows } = await pool.query(
    `SELECT d.protocol_number AS n FROM documents d
       JOIN online_forms f ON f.book_id = d.protocol_book_id AND f.form_id = $1
      WHERE d.protocol_year = extract(year FROM now() AT TIME ZONE 'Europe/Athens')::int
      ORDER BY 1`,
    [FORM],
  );
  await pool.end();
  const numbers = rows.map((r: { n: number }) => r.n);
  const gaps = numbers.filter((n: number, i: number) => n !== i + 1).length;
  console.log(`  book: ${numbers.length} numbers, ${gaps} gaps`);
  reportFigure({
    figure: `public form submissions, ${submissions} at once, each registered in the book (${gaps} gaps)`,
    value: rate,
    unit: '/s',
    holds: gaps === 0,
  });
  reportFigure({ figure: 'public form submission, p95', value: percentile(times, 95), unit: 'ms' });
  if (gaps > 0 || numbers.length < submissions) process.exitCode = 1;
} finally {
  server.stop();
}
