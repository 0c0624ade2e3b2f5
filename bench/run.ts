// Benchmarks on generated data (never part of `npm test`): `npm run bench`.
// Each prints requests per second and latency percentiles, on PGlite, or on DATABASE_URL when set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '@protocol/server/app';
import { loadConfig } from '@protocol/server/config';
import { openDatabase } from '@protocol/server/db';
import { bootstrap } from '@protocol/server/seed';

const ADMIN_PASSWORD = 'bench-admin-password';

function report(name: string, samples: number[], seconds: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]?.toFixed(2);
  console.log(
    `${name.padEnd(36)} ${String(samples.length).padStart(6)} req  ${(samples.length / seconds).toFixed(0).padStart(6)} req/s  p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  p99 ${at(0.99)} ms`,
  );
}

async function measure(name: string, count: number, request: () => Promise<void>) {
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await request();
    samples.push(performance.now() - t0);
  }
  report(name, samples, (performance.now() - started) / 1000);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'protocol-bench-'));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  ADMIN_PASSWORD,
  SEED_DEMO: '1',
  LOG_LEVEL: 'warn',
});
const database = await openDatabase(config);
await database.migrate();
await bootstrap(database.db, config, () => undefined);
const app = await buildApp(config, database);
await app.ready();
console.log(`database: ${database.kind}`);

const login = async () => {
  const response = await app.inject({
    method: 'POST',
    url: '/api/account/login',
    payload: { username: 'admin', password: ADMIN_PASSWORD },
  });
  if (response.statusCode !== 200) throw new Error(response.body);
  return response.json().jwttoken as string;
};

await measure('sign in (argon2id + session)', 50, async () => {
  await login();
});
const token = await login();
await measure('authenticated request (session check)', 2000, async () => {
  const response = await app.inject({
    method: 'GET',
    url: '/api/users/authenticatedUser',
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.statusCode !== 200) throw new Error(response.body);
});

await app.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
