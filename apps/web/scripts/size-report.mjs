#!/usr/bin/env node
// Prints the gzipped size of all the JavaScript the sign-in page loads: the entry chunk, its static
// imports, and the /login route's lazy chunk with its static imports (from dist/.vite/manifest.json).
// Exits non-zero above the budget, so the sign-in page stays fast on slow municipal networks.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 200 * 1000;
const LOGIN_SOURCE = 'src/features/auth/LoginPage.tsx';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
if (entries.length !== 1) {
  console.error(`size-report: expected one entry chunk in the manifest, found ${entries.length}`);
  process.exit(2);
}
if (!manifest[LOGIN_SOURCE]) {
  console.error(`size-report: ${LOGIN_SOURCE} is not a chunk of its own; keep the /login route lazy`);
  process.exit(2);
}

/** The chunk and everything it imports statically (what the browser must load before running it). */
function collect(key, seen) {
  if (seen.has(key)) return;
  const chunk = manifest[key];
  if (!chunk) return;
  seen.add(key);
  for (const imported of chunk.imports ?? []) collect(imported, seen);
}

const keys = new Set();
collect(entries[0][0], keys);
collect(LOGIN_SOURCE, keys);

const rows = [...keys]
  .map((key) => manifest[key].file)
  .filter((file) => file.endsWith('.js'))
  .map((file) => {
    const content = readFileSync(join(dist, file));
    return { file, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const total = rows.reduce((sum, row) => sum + row.gzip, 0);
const totalRaw = rows.reduce((sum, row) => sum + row.raw, 0);
const width = Math.max(...rows.map((row) => row.file.length), 10);

console.log('\nJavaScript loaded by the sign-in page (/login):');
for (const row of rows) {
  console.log(`  ${row.file.padEnd(width)}  ${kb(row.raw).padStart(10)}  ${kb(row.gzip).padStart(9)} gzip`);
}
console.log(`  ${'total'.padEnd(width)}  ${kb(totalRaw).padStart(10)}  ${kb(total).padStart(9)} gzip`);
console.log(`  budget ${kb(BUDGET_BYTES)} gzip: ${total <= BUDGET_BYTES ? 'ok' : 'EXCEEDED'}\n`);

if (total > BUDGET_BYTES) process.exit(1);
