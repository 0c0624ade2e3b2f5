// Several server processes on one PostgreSQL, as a deployment runs them behind a reverse proxy (one
// Node.js process per core: a Node.js process runs its JavaScript on one core), and the load
// generator's HTTP client. The client is node:http with keep-alive sockets rather than fetch, whose
// streams cost the load generator several times more CPU per request on a machine the server shares.
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { availableParallelism } from 'node:os';
import { startServerProcess } from './support.ts';

export interface ServerNodes {
  /** The API's base URL on each node (http://127.0.0.1:port/api). */
  bases: string[];
  /** What the bench prints about them, e.g. "2 server processes (one per core)". */
  description: string;
  stop(): Promise<void>;
}

/**
 * BENCH_SERVER_NODES server processes (default: one per core) on `env`'s database, each with a pool
 * of `poolPerNode` connections. The first migrates and seeds; the others start on the ready database.
 */
export async function startServerNodes(
  env: Record<string, string>,
  poolPerNode: number,
): Promise<ServerNodes> {
  const count = Math.max(1, Number(process.env.BENCH_SERVER_NODES ?? availableParallelism()));
  // The secrets every node must share (as a deployment's nodes do): a token signed by one is read by all.
  const nodeEnv = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    CREDENTIALS_KEY: randomBytes(32).toString('hex'),
    ...env,
    DATABASE_POOL_MAX: String(poolPerNode),
  };
  const first = await startServerProcess(nodeEnv);
  const others = await Promise.all(Array.from({ length: count - 1 }, () => startServerProcess(nodeEnv)));
  const nodes = [first, ...others];
  return {
    bases: nodes.map((node) => node.base),
    description:
      count === 1
        ? '1 server process'
        : `${count} server processes on one PostgreSQL (one per core, as behind a reverse proxy)`,
    stop: async () => {
      await Promise.all(nodes.map((node) => node.stop()));
    },
  };
}

export interface Answer {
  status: number;
  text: string;
}

/**
 * An HTTP client for `clients` concurrent callers spread over `bases` (caller i always calls node
 * i mod n, on a kept-alive socket of its own).
 */
export function httpClient(bases: string[], clients: number) {
  const agents = bases.map(() => new Agent({ keepAlive: true, maxSockets: clients }));
  const call = (
    caller: number,
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> => {
    const node = caller % bases.length;
    const url = new URL(`${bases[node]}${path}`);
    return new Promise((resolve, reject) => {
      const sent = request(
        url,
        {
          method: options.method ?? 'GET',
          agent: agents[node],
          headers: {
            ...options.headers,
            ...(options.body === undefined ? {} : { 'content-length': Buffer.byteLength(options.body) }),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      sent.on('error', reject);
      sent.end(options.body);
    });
  };
  return {
    call,
    close: () => {
      for (const agent of agents) agent.destroy();
    },
  };
}
