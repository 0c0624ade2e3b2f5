// One command for every figure (`npm run bench`, issue 21): one data set of a large utility on one
// PostgreSQL, every bench in its own process against it, and one table of what they measured.
//   npm run bench                 the full data set (1,000,000 documents, 150,000 consumers…)
//   npm run bench -- --small      a small one, for development: a few minutes
//   npm run bench -- --only=lists,search   some of the benches
// The data set goes into BENCH_DATABASE_URL when given, else into a PostgreSQL this command starts in
// bench/.data/<size>, kept between runs: it is generated once, stage by stage, and a killed generation
// continues. The benches run on a copy of it made for each run (`<database>_run`), since they write.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { appModules } from '@protocol/server/app';
import { loadConfig } from '@protocol/server/config';
import { openDatabase } from '@protocol/server/db';
import { bootstrap } from '@protocol/server/seed';
import pg from 'pg';
import { type DatasetSize, ensureDataset, FULL, SMALL } from './dataset.ts';
import { BENCH_ADMIN_PASSWORD, type BenchFigure, FIGURE_PREFIX, keptPostgres } from './support.ts';

// `npm run bench --small` (without `--`) reaches us as npm's config, not as an argument.
const small = process.argv.includes('--small') || process.env.npm_config_small === 'true';
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const size: DatasetSize = small ? SMALL : FULL;
const here = import.meta.dirname;

/** Every bench, in the order that keeps each one's data as it expects: readers first, then writers. */
// `ownData`: the bench builds the water data its issue describes (100,000 consumers with their periods)
// and would collide with the data set's consumers: it runs on an empty database of the same server.
const BENCHES: { name: string; file: string; args: string[]; ownData?: boolean }[] = [
  { name: 'lists', file: 'lists.ts', args: small ? ['11'] : ['21'] },
  {
    name: 'operators-list',
    file: 'users-list.ts',
    args: [String(size.operators), ...(small ? ['2', '1'] : ['5', '3'])],
  },
  // Sign-ins add only sessions.
  { name: 'sign-in', file: 'run.ts', args: small ? ['30', '300'] : ['60', '1000'] },
  { name: 'search', file: 'search.ts', args: ['0', small ? '3' : '5'] },
  { name: 'export', file: 'export.ts', args: [] },
  { name: 'embedded', file: 'embedded.ts', args: small ? ['5000', '3'] : ['20000', '5'] },
  // Written beside this one; in the table as soon as they are in the folder.
  { name: 'readouts', file: 'readouts.ts', args: [], ownData: true },
  { name: 'billing', file: 'billing.ts', args: [], ownData: true },
  { name: 'payments', file: 'payments.ts', args: [], ownData: true },
  {
    name: 'consumers',
    file: 'consumers.ts',
    args: small ? [String(size.consumers), '5000', '2', '1'] : [String(size.consumers), '100000', '5', '3'],
  },
  { name: 'forms', file: 'forms.ts', args: small ? ['100', '500'] : ['200', '2000'] },
  // Registration makes its own book the only active incoming one: after the forms.
  { name: 'documents', file: 'documents.ts', args: small ? ['0', '3', '1'] : ['0', '5', '3'] },
  // myDATA sends every finalized document of the company: before finance issues its invoices.
  { name: 'mydata', file: 'mydata.ts', args: small ? ['1000'] : ['10000'] },
  { name: 'finance', file: 'finance.ts', args: small ? ['2000'] : ['10000'] },
];

/** A bench that takes longer than this is stopped and reported as failed. */
const BENCH_TIMEOUT_MS = (small ? 10 : 30) * 60_000;

const machine = () =>
  `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

/** Runs one bench in a process of its own; answers the figures it printed and how it ended. */
function runBench(file: string, args: string[], env: Record<string, string>) {
  return new Promise<{ figures: BenchFigure[]; code: number | null; seconds: number }>((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, file), ...args], {
      cwd: here,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const figures: BenchFigure[] = [];
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith(FIGURE_PREFIX)) figures.push(JSON.parse(line.slice(FIGURE_PREFIX.length)));
        else process.stdout.write(`  │ ${line}\n`);
      }
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), BENCH_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ figures, code, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** The same server's database `name`. */
function inDatabase(url: string, name: string): string {
  const address = new URL(url);
  address.pathname = `/${name}`;
  return address.toString();
}

/**
 * Runs `statement` (CREATE/DROP DATABASE) from the server's template1, connected to neither the data
 * set nor its copy; `unlessExists` skips it when database `name` is already there.
 */
async function onServer(url: string, name: string, statement: string, unlessExists = false) {
  const admin = new pg.Client({ connectionString: inDatabase(url, 'template1') });
  await admin.connect();
  try {
    if (unlessExists) {
      const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return;
    }
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

const number = (value: number) =>
  Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);

function table(figures: BenchFigure[]): string {
  const rows = figures.map((f) => [
    f.figure,
    `${number(f.value)} ${f.unit}`,
    f.baseline ? `${number(f.baseline.value)} ${f.unit} (${f.baseline.label})` : '',
    f.ratio === undefined ? '' : number(f.ratio),
    f.target ?? '',
    f.holds === undefined ? '' : f.holds ? 'yes' : '**no**',
  ]);
  const header = ['figure', 'value', 'baseline', 'ratio', 'target', 'holds'];
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`),
  ].join('\n');
}

const startedAt = new Date();
const startMachine = machine();
console.log(`npm run bench (${size.name} data set) on ${startMachine}`);
const given = process.env.BENCH_DATABASE_URL;
const server = given
  ? { url: given, stop: () => undefined }
  : await keptPostgres(path.join(here, '.data', size.name));
try {
  const datasetUrl = given ?? inDatabase(server.url, 'protocol_dataset');
  if (!given) await onServer(server.url, 'protocol_dataset', 'CREATE DATABASE protocol_dataset', true);
  // The schema and the seed (the demo company and its parametrics) as a first start makes them.
  const scratch = mkdtempSync(path.join(tmpdir(), 'protocol-bench-'));
  try {
    const config = loadConfig({
      DATA_DIR: scratch,
      DATABASE_URL: datasetUrl,
      ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
      SEED_DEMO: '1',
      LOG_LEVEL: 'warn',
    });
    const database = await openDatabase(config);
    await database.migrate();
    await bootstrap(database.db, config, appModules);
    await database.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const generation = performance.now();
  await ensureDataset(datasetUrl, size);
  console.log(`data set ready in ${((performance.now() - generation) / 1000).toFixed(0)} s`);
  const client = new pg.Client({ connectionString: datasetUrl });
  await client.connect();
  const version = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]
    ?.v;
  await client.end();
  // The benches write (registrations, invoices, imports): they run on a copy of the data set, made
  // afresh for every run, so a second run measures the same data as the first.
  const datasetName = new URL(datasetUrl).pathname.slice(1);
  const runName = `${datasetName}_run`;
  let runUrl = inDatabase(datasetUrl, runName);
  try {
    const copying = performance.now();
    await onServer(datasetUrl, runName, `DROP DATABASE IF EXISTS ${runName} WITH (FORCE)`);
    await onServer(
      datasetUrl,
      runName,
      `CREATE DATABASE ${runName} TEMPLATE ${datasetName} STRATEGY file_copy`,
    );
    console.log(`copied the data set for this run in ${((performance.now() - copying) / 1000).toFixed(0)} s`);
  } catch (error) {
    console.warn(`cannot copy the data set (${(error as Error).message}); the benches write into it`);
    runUrl = datasetUrl;
  }

  const figures: BenchFigure[] = [];
  const failures: string[] = [];
  for (const bench of BENCHES) {
    if (only && !only.includes(bench.name)) continue;
    if (!existsSync(path.join(here, bench.file))) continue;
    console.log(`\n▶ ${bench.name} (${bench.file} ${bench.args.join(' ')}); ${machine()}`);
    const own = `protocol_bench_${bench.name}`;
    if (bench.ownData) {
      await onServer(datasetUrl, own, `DROP DATABASE IF EXISTS ${own} WITH (FORCE)`);
      await onServer(datasetUrl, own, `CREATE DATABASE ${own}`);
    }
    const result = await runBench(
      bench.file,
      bench.args,
      bench.ownData
        ? { BENCH_DATABASE_URL: inDatabase(datasetUrl, own) }
        : { BENCH_DATABASE_URL: runUrl, BENCH_DATASET: size.name },
    );
    if (bench.ownData) await onServer(datasetUrl, own, `DROP DATABASE IF EXISTS ${own} WITH (FORCE)`);
    figures.push(...result.figures);
    console.log(`  ${bench.name}: ${result.figures.length} figures in ${result.seconds.toFixed(0)} s`);
    if (result.code !== 0)
      failures.push(
        `${bench.name} exited with code ${result.code} (a target missed, or an error: see its output)`,
      );
    if (result.figures.length === 0) failures.push(`${bench.name} reported no figure`);
  }

  const text = [
    `${size.name === 'full' ? 'Full' : 'Small'} data set (${size.documents.toLocaleString('en')} documents, ` +
      `${size.consumers.toLocaleString('en')} consumers with ${size.waterYears} years of readings and bills, ` +
      `${size.traders.toLocaleString('en')} traders, ${size.operators.toLocaleString('en')} operators, ` +
      `${size.notifications.toLocaleString('en')} notifications) on PostgreSQL ${version}, ${startedAt.toISOString().slice(0, 16)}Z.`,
    `Machine: ${startMachine} at the start; ${machine()} at the end.`,
    '',
    table(figures),
    ...(failures.length > 0 ? ['', ...failures.map((f) => `- ${f}`)] : []),
  ].join('\n');
  console.log(`\n${text}`);
  mkdirSync(path.join(here, '.data'), { recursive: true });
  writeFileSync(path.join(here, '.data', `table-${size.name}.md`), `${text}\n`);
  if (failures.length > 0 || figures.some((f) => f.holds === false)) process.exitCode = 1;
} finally {
  server.stop();
}
