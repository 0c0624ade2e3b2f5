// `npm start`: install what is missing, build the web app when its sources changed, then run the
// server (it migrates the database and seeds an empty one itself).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(args) {
  const result = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Newest modification time of the given files and of the files under the given folders. */
function newest(...dirs) {
  let latest = 0;
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    if (!statSync(dir).isDirectory()) {
      latest = Math.max(latest, statSync(dir).mtimeMs);
      return;
    }
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else latest = Math.max(latest, statSync(full).mtimeMs);
    }
  };
  for (const dir of dirs) walk(path.join(root, dir));
  return latest;
}

const installed = path.join(root, 'node_modules', '.package-lock.json');
if (
  !existsSync(installed) ||
  statSync(path.join(root, 'package-lock.json')).mtimeMs > statSync(installed).mtimeMs
) {
  console.log('Installing dependencies…');
  // `npm install` rather than `npm ci`: it follows the lock file yet tolerates optional platform
  // binaries that a registry mirror lacks (npm ci refuses those).
  run(['install', '--no-audit', '--no-fund']);
}

const builtIndex = path.join(root, 'apps/web/dist/index.html');
const sources = newest(
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/contracts/src',
);
if (!existsSync(builtIndex) || sources > statSync(builtIndex).mtimeMs) {
  console.log('Building the web app…');
  run(['run', 'build']);
}

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
