// What the benchmarks share: a throw-away PostgreSQL server and simple HTTP load.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appModules } from '@protocol/server/app';
import { loadConfig } from '@protocol/server/config';
import { openDatabase } from '@protocol/server/db';
import { bootstrap } from '@protocol/server/seed';
import { freePort } from '@protocol/server/testing/ports';
import pg from 'pg';

// A server on PostgreSQL refuses to start without the keys every node shares (README "Several nodes"):
// the servers a bench starts inherit these.
process.env.JWT_SECRET ||= randomBytes(32).toString('hex');
process.env.CREDENTIALS_KEY ||= randomBytes(32).toString('hex');

/**
 * What a bench started and must not leave behind however it ends (an error, Ctrl-C, a closed pipe):
 * run at exit, synchronously, each once.
 */
const cleanups = new Set<() => void>();
function atExit(cleanup: () => void): () => void {
  if (cleanups.size === 0) {
    process.once('exit', () => {
      for (const run of cleanups) run();
    });
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
      process.once(signal, () => process.exit(130));
  }
  const once = () => {
    if (cleanups.delete(once)) cleanup();
  };
  cleanups.add(once);
  return once;
}

/**
 * A database given with BENCH_DATABASE_URL gets generated rows only when it holds no Protocol data yet,
 * or when BENCH_ADD_ROWS=1 says to add them anyway: a bench never fills someone's database by mistake.
 */
async function refuseDatabaseWithData(url: string): Promise<void> {
  if (process.env.BENCH_ADD_ROWS === '1') return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ companies: string | null }>(
      `SELECT to_regclass('public.companies')::text AS companies`,
    );
    if (rows[0]?.companies)
      throw new Error(
        `BENCH_DATABASE_URL already holds Protocol data; the bench would add its generated rows to it. ` +
          'Use an empty database, or set BENCH_ADD_ROWS=1 to add them anyway.',
      );
  } finally {
    await client.end();
  }
}

/**
 * The data set `npm run bench` generated and hands to each bench ('full' or 'small'; BENCH_DATASET),
 * on BENCH_DATABASE_URL: a bench then measures the rows already there instead of generating its own.
 */
export const dataset = process.env.BENCH_DATASET as 'full' | 'small' | undefined;

/**
 * BENCH_DATABASE_URL when given (holding the runner's data set, or empty), else a PostgreSQL server of
 * Debian's packages in a temp folder.
 */
export async function benchPostgres(): Promise<{ url: string; stop(): void }> {
  const given = process.env.BENCH_DATABASE_URL;
  if (given) {
    if (!dataset) await refuseDatabaseWithData(given);
    return { url: given, stop: () => undefined };
  }
  const { run, dir } = postgresCommands(mkdtempSync(path.join(tmpdir(), 'protocol-bench-pg-')));
  const port = await freePort();
  run('initdb', ['-D', `${dir}/data`, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  run('pg_ctl', pgStart(dir, port));
  const stop = atExit(() => {
    run('pg_ctl', ['-D', `${dir}/data`, '-m', 'immediate', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  });
  return { url: localUrl(dir, port), stop };
}

/**
 * The bench's own server through its Unix socket in `dir`, as a server on the same machine is reached
 * (every client of a bench, the API's and the raw SQL baseline's alike, goes through it).
 */
const localUrl = (dir: string, port: number) =>
  `postgres://postgres@localhost:${port}/postgres?host=${encodeURIComponent(dir)}`;

const pgStart = (dir: string, port: number) => [
  '-D',
  `${dir}/data`,
  '-l',
  `${dir}/server.log`,
  '-w',
  '-t',
  '600',
  '-o',
  `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c shared_buffers=256MB -c max_connections=100 -c random_page_cost=1.1 -c max_wal_size=4GB`,
  'start',
];

/**
 * A PostgreSQL server kept in `dir` between runs (the data set of `npm run bench` outlives a run, so a
 * killed generation continues), started for this run and stopped at its end.
 */
export async function keptPostgres(folder: string): Promise<{ url: string; stop(): void }> {
  mkdirSync(folder, { recursive: true });
  const { run, dir } = postgresCommands(folder);
  if (!existsSync(`${dir}/data/PG_VERSION`)) {
    rmSync(`${dir}/data`, { recursive: true, force: true });
    run('initdb', ['-D', `${dir}/data`, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  }
  // A server left running by a run that was killed.
  try {
    run('pg_ctl', ['-D', `${dir}/data`, 'status']);
    run('pg_ctl', ['-D', `${dir}/data`, '-m', 'fast', 'stop']);
  } catch {
    // not running
  }
  const port = await freePort();
  run('pg_ctl', pgStart(dir, port));
  const stop = atExit(() => {
    run('pg_ctl', ['-D', `${dir}/data`, '-m', 'fast', 'stop']);
  });
  return { url: localUrl(dir, port), stop };
}

/** Debian's PostgreSQL commands, run as the postgres user when we are root, on the folder `dir`. */
function postgresCommands(dir: string) {
  const bin = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'].find(
    (dir) => {
      try {
        execFileSync(path.join(dir, 'pg_ctl'), ['--version']);
        return true;
      } catch {
        return false;
      }
    },
  );
  if (!bin)
    throw new Error(
      'PostgreSQL server binaries not found: apt-get install postgresql, or set BENCH_DATABASE_URL',
    );
  const root = process.getuid?.() === 0;
  if (root) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  const run = (cmd: string, args: string[]) =>
    root
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });
  return { run, dir };
}

/** Requests per second of `url` over `seconds` with `concurrency` clients. */
export async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  concurrency: number,
) {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const response = await fetch(url, { headers });
        if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
        await response.arrayBuffer();
        latencies.push(performance.now() - t0);
        done += 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rps: done / seconds, requests: done, p50: latencies[Math.floor(latencies.length / 2)] ?? 0 };
}

/**
 * The server as its own process (`apps/server/src/main.ts`), so the load generator never shares its
 * CPU with the server it measures. Its temporary data folder is deleted by `stop`.
 */
export async function startServerProcess(
  env: Record<string, string>,
  /** A data folder prepared beforehand (an embedded database with data in it); deleted by `stop` too. */
  prepared?: string,
  /** Node's own flags for the server, e.g. `--expose-gc`. */
  nodeArgs: string[] = [],
): Promise<{ base: string; pid: number; stop(): Promise<void> }> {
  const dataDir = prepared ?? mkdtempSync(path.join(tmpdir(), 'protocol-bench-data-'));
  const port = await freePort();
  const root = path.resolve(import.meta.dirname, '..');
  // BENCH_SERVER_NODE_ARGS adds Node flags to every server a bench starts, e.g. to profile it:
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
  const extra = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(
    process.execPath,
    [...nodeArgs, ...extra, '--import', 'tsx', 'apps/server/src/main.ts'],
    {
      cwd: root,
      // The demo water service (consumer 01-001-101…) would collide with the consumers a bench generates.
      env: {
        ...process.env,
        SEED_DEMO_WATER: '0',
        ...env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = atExit(() => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Protocol is running')) resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`the server exited (${code}) before listening:\n${output}`)),
    );
  });
  return {
    base: `http://127.0.0.1:${port}/api`,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      kill();
    },
  };
}

/**
 * The baseline of a list: its recorded SQL statements served by a bare Fastify + node-postgres handler
 * in a process of its own (bare-list.ts), so neither side shares its CPU with the load generator.
 */
export async function startBareList(
  databaseUrl: string,
  statements: { query: string; params: unknown[] }[],
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'protocol-bench-bare-'));
  const file = path.join(dir, 'statements.json');
  writeFileSync(file, JSON.stringify(statements));
  const port = await freePort();
  // The same Node flags as the servers a bench starts (BENCH_SERVER_NODE_ARGS), to profile both sides.
  const extra = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(
    process.execPath,
    [
      ...extra,
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'bare-list.ts'),
      databaseUrl,
      file,
      String(port),
    ],
    { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = atExit(() => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the bare list exited (${code}) before listening`)));
  });
  return {
    url: `http://127.0.0.1:${port}/list`,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      kill();
    },
  };
}

/**
 * One figure of the benchmark table. A bench prints each of its figures with `reportFigure`; the
 * one command (`npm run bench`) runs every bench in its own process and collects these lines into
 * the table, so a bench stays runnable on its own and the table needs no imports from it.
 */
export interface BenchFigure {
  /** What was measured, e.g. "billing run, 100,000 consumers". */
  figure: string;
  value: number;
  /** "ms", "s", "/s", "MB"… */
  unit: string;
  /** The same work done the fastest honest way, e.g. { label: 'one SQL statement', value: 12.4 }. */
  baseline?: { label: string; value: number };
  /** As the target states it, e.g. value / baseline. */
  ratio?: number;
  /** The target, e.g. "≤ 3× SQL", "≤ 30 ms p50". */
  target?: string;
  holds?: boolean;
}

export const FIGURE_PREFIX = 'BENCH_FIGURE ';

export function reportFigure(figure: BenchFigure): void {
  console.log(`${FIGURE_PREFIX}${JSON.stringify(figure)}`);
}

/** The value at percentile `p` (0–100) of `samples`. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** The administrator's bearer header on a server started by a bench (the password every bench seeds). */
export async function signIn(base: string): Promise<Record<string, string>> {
  const response = await fetch(`${base}/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign in: ${response.status} ${await response.text()}`);
  return { authorization: `Bearer ${((await response.json()) as { jwttoken: string }).jwttoken}` };
}

export const BENCH_ADMIN_PASSWORD = 'bench-admin-password';

/**
 * A multipart upload on a connection of its own. After a long step of the bench (a COPY of 100,000
 * rows takes about as long as the server's 72-second keep-alive), fetch would reuse a pooled socket
 * the server is closing at that moment, and a POST is not retried: the bench died with EPIPE.
 */
export async function uploadOnNewConnection(url: string, headers: Record<string, string>, form: FormData) {
  const request = new Request(url, { method: 'POST', body: form });
  const body = Buffer.from(await request.arrayBuffer());
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const sent = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          ...headers,
          'content-type': request.headers.get('content-type') ?? 'multipart/form-data',
          'content-length': body.length,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/**
 * The session lookup of a request (users' `resolveSession`): a bare baseline, which authenticates no
 * one, replays a request's statements without it. A page on a remembered session checks it in its own
 * statement (`session_held`), which stays.
 */
export const isSessionLookup = (query: string) => query.includes('live_session(');

/** A statement the app sent to PostgreSQL, as its query logger saw it. */
export interface SentStatement {
  query: string;
  params: unknown[];
}

/**
 * The app's database opened in this process (migrated, seeded by `env`) with its SQL recorded between
 * `sql.start()` and `sql.stop()`: only to learn what a request runs, to replay or explain it; never
 * measured.
 */
export async function openRecordingDatabase(env: Record<string, string | undefined>) {
  let recorded: SentStatement[] | null = null;
  const config = loadConfig(env);
  const database = await openDatabase({
    ...config,
    logQuery: (query, params) => recorded?.push({ query, params }),
  });
  await database.migrate();
  await bootstrap(database.db, config, appModules);
  const sql = {
    start() {
      recorded = [];
    },
    stop(): SentStatement[] {
      const statements = recorded ?? [];
      recorded = null;
      return statements;
    },
  };
  return { config, database, sql };
}
