import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './ports.ts';
import { createTestDatabase } from './template.ts';

const SERVER_ROOT = path.resolve(import.meta.dirname, '../..');
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ServerProcess {
  /** `http://127.0.0.1:<port>/api` */
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code and signal once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it wrote, stdout and stderr. */
  output: string[];
}

/**
 * `src/main.ts` in a child process on 127.0.0.1 with exactly `env` (plus PATH and PORT), once it
 * answers /api/health.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_ROOT,
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  let ended = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = true;
      resolve({ code, signal });
    }),
  );
  const server: ServerProcess = { url: `http://127.0.0.1:${port}/api`, child, exited, output };
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
    if (ended) throw new Error(`the server ended while starting:\n${output.join('')}`);
    const health = await fetch(`${server.url}/health`).catch(() => undefined);
    if (health?.ok) return server;
    await delay(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer /api/health:\n${output.join('')}`);
}

/** Server processes ("nodes") on one fresh PostgreSQL database, as README's "Several nodes" runs them. */
export interface Nodes {
  /** A connection to the nodes' database, for what a test checks there. */
  client: pg.Client;
  /** One more node: its own DATA_DIR, the shared secrets, `base` and then `env`. */
  start(env?: Record<string, string>): Promise<ServerProcess>;
  /** Kills every node and drops the database and the folders. */
  close(): Promise<void>;
}

/** Nodes on a new database of TEST_DATABASE_URL's server, each started with `base` (after the database's URL). */
export async function startNodes(base: Record<string, string>): Promise<Nodes> {
  const testDb = await createTestDatabase();
  const client = new pg.Client({ connectionString: testDb.url });
  await client.connect();
  // The secrets every node must share; everything else is per node.
  const shared = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    CREDENTIALS_KEY: randomBytes(32).toString('hex'),
  };
  const dataDirs: string[] = [];
  const servers: ServerProcess[] = [];
  return {
    client,
    async start(env = {}) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-node-'));
      dataDirs.push(dataDir);
      const server = await startServerProcess({
        DATABASE_URL: testDb.url as string,
        DATA_DIR: dataDir,
        ...shared,
        ...base,
        ...env,
      });
      servers.push(server);
      return server;
    },
    async close() {
      for (const server of servers) server.child.kill('SIGKILL');
      await Promise.all(servers.map((server) => server.exited));
      await client.end();
      await testDb.drop();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
