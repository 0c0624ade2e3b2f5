// `npm start`: install what is missing, build the web app when its sources changed, then run the
// server (it migrates the database and seeds an empty one itself). Quiet: the build's output and the
// server's JSON logs go to DATA_DIR/protocol.log (or LOG_FILE), the console gets the server's closing
// summary; with LOG_LEVEL=debug everything is printed here as before.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const verbose = ['debug', 'trace'].includes(process.env.LOG_LEVEL ?? '');
const logFile = verbose
  ? process.env.LOG_FILE
  : path.resolve(root, process.env.LOG_FILE ?? path.join(process.env.DATA_DIR ?? 'data', 'protocol.log'));

/** Runs npm; quiet unless verbose: its output goes to the log file, and to the console if it fails. */
function run(args, { quiet = false } = {}) {
  if (!quiet || !logFile) {
    const result = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
    return;
  }
  const result = spawnSync(npm, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  mkdirSync(path.dirname(logFile), { recursive: true });
  appendFileSync(logFile, `\n$ npm ${args.join(' ')}\n${result.stdout ?? ''}${result.stderr ?? ''}`);
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    process.exit(result.status ?? 1);
  }
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
  run(['run', 'build'], { quiet: true });
}

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: logFile ? { ...process.env, LOG_FILE: logFile } : process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
