// Every installed package supports every Node.js line the project promises (package.json
// "engines"): npm only warns about a dependency that needs a newer Node.js, and the warning is
// easy to miss; this fails `npm test` instead.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const root = path.resolve(import.meta.dirname, '..');
const promised = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
// The oldest version of each promised line, e.g. 20.19.0, 22.12.0 and 24.0.0.
const lines = promised.split('||').map((range) => semver.minVersion(range.trim()).version);

/** The package folders under a node_modules folder, scoped ones and nested ones included. */
function* packages(modules) {
  if (!existsSync(modules)) return;
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const folder = path.join(modules, name);
    if (name.startsWith('@')) {
      for (const scoped of readdirSync(folder)) yield* packageAt(path.join(folder, scoped));
    } else yield* packageAt(folder);
  }
}
function* packageAt(folder) {
  const manifest = path.join(folder, 'package.json');
  if (existsSync(manifest)) yield manifest;
  yield* packages(path.join(folder, 'node_modules'));
}

const workspaces = ['.', 'apps/server', 'apps/web', 'packages/contracts', 'e2e', 'bench'];
const problems = new Set();
for (const workspace of workspaces) {
  for (const manifest of packages(path.join(root, workspace, 'node_modules'))) {
    const { name, version, engines } = JSON.parse(readFileSync(manifest, 'utf8'));
    const needs = engines?.node;
    if (!name || typeof needs !== 'string' || !semver.validRange(needs)) continue;
    const missed = lines.filter((line) => !semver.satisfies(line, needs));
    if (missed.length > 0)
      problems.add(`${name}@${version} needs Node.js ${needs} (not ${missed.join(', ')})`);
  }
}
if (problems.size > 0) {
  console.error(`Dependencies that need more than the promised Node.js ${promised}:`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`Every dependency runs on Node.js ${promised}.`);
