// Exports through the endpoint itself (GET /api/export/file, the download the list's export button
// gives): from the database to the last byte, the server in its own process. A year of the protocol
// book (100,000 documents on the full data set) to CSV and Excel, and 10,000 of them to PDF. Beside
// each, the server's peak memory: a garbage collection is forced first (the server runs with
// --expose-gc), its peak RSS is reset, and the peak while the export streams is read from the kernel.
// Baseline of the CSV: PostgreSQL's own COPY … TO STDOUT (CSV) of the same query, through psql.
//   npx tsx bench/export.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '@protocol/server/app';
import pg from 'pg';
import { generateDocuments } from './generate.ts';
import {
  BENCH_ADMIN_PASSWORD,
  benchPostgres,
  dataset,
  openRecordingDatabase,
  reportFigure,
  signIn,
  startServerProcess,
} from './support.ts';

const year = new Date().getFullYear() - 1;
const mb = (kilobytes: number) => kilobytes / 1024;
/** A process's resident memory now and at its peak, in kB, from the kernel. */
function memoryOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

const server = await benchPostgres();
const scratch = mkdtempSync(path.join(tmpdir(), 'protocol-bench-'));
try {
  const env = { ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD, SEED_DEMO: '1', LOG_LEVEL: 'warn' };
  const { config, database, sql } = await openRecordingDatabase({
    ...env,
    DATA_DIR: scratch,
    DATABASE_URL: server.url,
  });
  if (!dataset) {
    console.log('generating 200,000 documents over two years…');
    await generateDocuments(server.url, 200_000, year);
  }
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  const companyId = (await pool.query<{ id: number }>('SELECT min(id) AS id FROM companies')).rows[0]?.id;
  const list = `/api/document/search?protocolYear=eq(${year})&companyid=${companyId}`;
  const rows = (
    await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM documents WHERE company_id = $1 AND protocol_year = $2 AND state = 0`,
      [companyId, year],
    )
  ).rows[0]?.n;

  // The export's SQL (learnt in this process, never measured here): its first batch, without the
  // batch's ids (`AND id = ANY(…)`) and LIMIT/OFFSET, is the whole query COPY runs.
  const app = await buildApp(config, database);
  const login = await app.inject({
    method: 'POST',
    url: '/api/account/login',
    payload: { username: 'admin', password: BENCH_ADMIN_PASSWORD },
  });
  sql.start();
  const first = await app.inject({
    method: 'GET',
    url: `/api/export/file?format=csv&uri=${encodeURIComponent(`${list}&size=1`)}`,
    headers: { authorization: `Bearer ${login.json().jwttoken}` },
  });
  if (first.statusCode !== 200) throw new Error(`export: ${first.statusCode} ${first.body.slice(0, 300)}`);
  const batch = sql.stop().find(({ query }) => /from "documents"/.test(query) && / limit \$\d+/.test(query));
  if (!batch) throw new Error('the export ran no batch of documents');
  const client = await pool.connect();
  const whole = batch.query
    .replace(/ limit \$\d+( offset \$\d+)?$/, '')
    .replace(/ and "documents"\."id" = ANY\(\$\d+::[a-z]+\[\]\)/, '')
    .replace(/\$(\d+)/g, (_, n: string) => client.escapeLiteral(String(batch.params[Number(n) - 1])));
  client.release();
  await app.close();
  await database.close();
  const copyFile = path.join(scratch, 'copy.sql');
  writeFileSync(copyFile, `COPY (${whole}) TO STDOUT WITH (FORMAT csv, HEADER)\n`);
  const copy = () => {
    const started = performance.now();
    const out = execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', server.url, '-f', copyFile], {
      maxBuffer: 1 << 30,
    });
    return { seconds: (performance.now() - started) / 1000, bytes: out.length };
  };
  copy();
  const copied = copy();
  console.log(
    `COPY of ${rows} documents to CSV: ${copied.seconds.toFixed(2)} s, ${(copied.bytes / 1e6).toFixed(1)} MB`,
  );

  const memoryFile = path.join(scratch, 'memory.json');
  const node = await startServerProcess(
    { ...env, DATABASE_URL: server.url, BENCH_MEMORY_FILE: memoryFile },
    undefined,
    ['--expose-gc', '--import', path.join(import.meta.dirname, 'gc-on-signal.mjs')],
  );
  const headers = await signIn(node.base);
  const exportOnce = async (format: string, uri: string) => {
    process.kill(node.pid, 'SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 500));
    writeFileSync(`/proc/${node.pid}/clear_refs`, '5'); // the peak RSS starts again from now
    const before = memoryOf(node.pid).rss;
    const started = performance.now();
    const response = await fetch(`${node.base}/export/file?format=${format}&uri=${encodeURIComponent(uri)}`, {
      headers,
    });
    if (!response.ok || !response.body)
      throw new Error(`${format}: ${response.status} ${await response.text()}`);
    let bytes = 0;
    for await (const chunk of response.body) bytes += (chunk as Uint8Array).length;
    const seconds = (performance.now() - started) / 1000;
    const { peak } = memoryOf(node.pid);
    process.kill(node.pid, 'SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const heap = JSON.parse(readFileSync(memoryFile, 'utf8')) as { base: number; peak: number };
    return {
      seconds,
      bytes,
      before: mb(before),
      peak: mb(peak),
      heap: (heap.peak - heap.base) / 1024 / 1024,
    };
  };

  for (const [format, label, uri, count] of [
    ['csv', 'CSV', list, rows],
    ['excel', 'Excel', list, rows],
    ['pdf', 'PDF', `${list}&protocolNumber=lte(5000)`, undefined],
  ] as const) {
    await exportOnce(format, `${uri}&protocolNumber=lte(2000)`); // warm-up: the code's first run compiles it
    const result = await exportOnce(format, uri);
    const n =
      count ??
      (
        await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM documents
           WHERE company_id = $1 AND protocol_year = $2 AND state = 0 AND protocol_number <= 5000`,
          [companyId, year],
        )
      ).rows[0]?.n;
    console.log(
      `${label.padEnd(5)} ${n} documents: ${result.seconds.toFixed(2)} s to the last byte, ` +
        `${(result.bytes / 1e6).toFixed(1)} MB; server RSS after a forced GC ${result.before.toFixed(0)} MB, ` +
        `peak ${result.peak.toFixed(0)} MB; JavaScript heap and buffers +${result.heap.toFixed(1)} MB at most`,
    );
    reportFigure({
      figure: `export of ${n?.toLocaleString('en')} documents to ${label}, to the last byte`,
      value: result.seconds,
      unit: 's',
      ...(format === 'csv'
        ? {
            baseline: { label: 'COPY … TO STDOUT (CSV) of the same query', value: copied.seconds },
            ratio: result.seconds / copied.seconds,
          }
        : {}),
    });
    reportFigure({
      figure: `export to ${label}: the server's peak heap and buffers above what a forced GC left`,
      value: result.heap,
      unit: 'MB',
      target: '≤ 100 MB (bounded: rows stream in batches of 1,000)',
      holds: result.heap <= 100,
    });
    reportFigure({
      figure: `export to ${label}: the server's peak RSS above its RSS after a forced GC (${result.before.toFixed(0)} MB)`,
      value: result.peak - result.before,
      unit: 'MB',
    });
  }
  await node.stop();
  await pool.end();
} finally {
  rmSync(scratch, { recursive: true, force: true });
  server.stop();
}
