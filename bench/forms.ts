// Public online-form submissions with automatic registration (issue 14): N citizens (default 200)
// submit the demo leak report at once, each from an address of their own, on a real PostgreSQL.
// Every submission is registered in the form's book in the transaction that stores it. Prints the
// throughput and p95, then checks the book's numbers this year are exactly 1…N: no gaps.
//   npx tsx bench/forms.ts [submissions=200]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '@protocol/server/app';
import { loadConfig } from '@protocol/server/config';
import { openDatabase } from '@protocol/server/db';
import { bootstrap } from '@protocol/server/seed';
import pg from 'pg';
import { benchPostgres } from './support.ts';

const submissions = Number(process.argv[2] ?? 200);
const FORM = 'dilosi-vlavis';

const server = await benchPostgres();
try {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'protocol-bench-')),
    DATABASE_URL: server.url,
    DATABASE_POOL_MAX: '20',
    ADMIN_PASSWORD: 'bench-admin-password',
    SEED_DEMO: '1',
    LOG_LEVEL: 'warn',
  });
  const database = await openDatabase(config);
  await database.migrate();
  await bootstrap(database.db, config, () => undefined);
  const app = await buildApp(config, database);

  const times: number[] = [];
  const failures: string[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: submissions }, async (_, i) => {
      const t0 = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: `/api/public/forms/${FORM}/submissions`,
        remoteAddress: `10.${Math.floor(i / 62500)}.${Math.floor(i / 250) % 250}.${i % 250}`,
        payload: {
          values: {
            kind: 'leak',
            location: `Οδός Ερμού ${i + 1}`,
            description: 'Νερό τρέχει στο πεζοδρόμιο',
            fullname: `Πολίτης ${i + 1}`,
            mobile: '6912345678',
            email: `citizen${i + 1}@example.gr`,
          },
        },
      });
      times.push(performance.now() - t0);
      if (response.statusCode !== 201) failures.push(`${response.statusCode} ${response.body.slice(0, 200)}`);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(times.length * q))] ?? 0;
  console.log(`${submissions} public submissions with auto numbering in ${seconds.toFixed(1)} s`);
  console.log(
    `  throughput ${(submissions / seconds).toFixed(1)}/s, p50 ${p(0.5).toFixed(0)} ms, p95 ${p(0.95).toFixed(0)} ms`,
  );
  if (failures.length > 0) throw new Error(`${failures.length} failed, e.g. ${failures[0]}`);

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
  await app.close();
  await database.close();
  if (gaps > 0 || numbers.length < submissions) process.exitCode = 1;
} finally {
  server.stop();
}
