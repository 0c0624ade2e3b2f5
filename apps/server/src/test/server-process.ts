import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const SERVER_ROOT = path.resolve(import.meta.dirname, '../..');
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on now (the kernel's pick). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

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
