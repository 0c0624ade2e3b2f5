// `npm run backup` / `npm run restore`: the database (PGlite's data-dir dump, or pg_dump of
// DATABASE_URL) and the storage folder in one .tar.gz. See README 'Backup and restore'.
import { spawn } from 'node:child_process';
import { existsSync, openAsBlob, readdirSync, readFileSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import pg from 'pg';
import * as tar from 'tar';
import type { Config } from '../config.ts';
import { embeddedDatabaseDir } from './client.ts';

/** What a backup holds, as `manifest.json`, the archive's first entry. */
export interface BackupManifest {
  format: 'protocol-backup';
  version: 1;
  createdAt: string;
  database: 'pglite' | 'postgres';
  /** The newest migration applied to the database backed up (its tag in meta/_journal.json). */
  migration: string | null;
  /** Stored files (attachments) in the archive. */
  files: number;
}

/** A backup or restore that must not go on; the message tells the operator what to do. */
export class BackupError extends Error {
  constructor(
    message: string,
    /** The process exit code: 3 when refused because the database is in use or the archive does not fit. */
    readonly exitCode: 1 | 3 = 1,
  ) {
    super(message);
  }
}

const MANIFEST = 'manifest.json';
/** PGlite's own dump of its data folder (a tar, uncompressed: the archive around it is gzipped). */
const PGLITE_DUMP = 'database.pglite.tar';
/** pg_dump's custom format, restored by pg_restore. */
const PG_DUMP = 'database.pgdump';
const FILES = 'files';

interface Journal {
  entries: { idx: number; when: number; tag: string }[];
}
const journal = (): Journal =>
  JSON.parse(readFileSync(path.join(import.meta.dirname, 'migrations/meta/_journal.json'), 'utf8'));

/** `protocol-backup-2026-11-25T10-00-05.tar.gz`: sorts by time, no characters a shell or Windows mind. */
export function backupFileName(now: Date = new Date()): string {
  return `protocol-backup-${now.toISOString().slice(0, 19).replaceAll(':', '-')}.tar.gz`;
}

const pgliteDir = (config: Config) => embeddedDatabaseDir(config.dataDir);

/**
 * PGlite runs inside the server process, so a second process opening its folder would corrupt it.
 * PGlite keeps `postmaster.pid` there while open and removes it on close: its presence means a
 * server is running (or was killed; starting and stopping it once cleans up).
 */
function refuseOpenPglite(config: Config, force: boolean): void {
  if (force || !existsSync(path.join(pgliteDir(config), 'postmaster.pid'))) return;
  throw new BackupError(
    `The embedded database in ${pgliteDir(config)} is in use: stop the Protocol server first. ` +
      'If no server is running (it was killed), start and stop it once, or pass --force.',
    3,
  );
}

/** Writes one archive into `outDir` and returns its path. */
export async function backup(
  config: Config,
  options: { outDir: string; force?: boolean; now?: Date },
): Promise<{ file: string; manifest: BackupManifest }> {
  const outDir = path.resolve(options.outDir);
  await mkdir(outDir, { recursive: true });
  const now = options.now ?? new Date();
  const file = path.join(outDir, backupFileName(now));
  const partial = `${file}.part`;
  if (existsSync(file)) throw new BackupError(`${file} already exists.`);
  // Staged beside the archive (not in a possibly small /tmp); the archive is written under a
  // temporary name and renamed, so a file with the final name is always complete.
  const staging = await mkdtemp(path.join(outDir, '.protocol-backup-'));
  try {
    let migration: string | null;
    let database: BackupManifest['database'];
    if (config.databaseUrl) {
      database = 'postgres';
      migration = await postgresMigration(config.databaseUrl);
      await run('pg_dump', ['--format=custom', `--file=${path.join(staging, PG_DUMP)}`], config.databaseUrl);
    } else {
      database = 'pglite';
      refuseOpenPglite(config, options.force ?? false);
      if (!existsSync(path.join(pgliteDir(config), 'PG_VERSION')))
        throw new BackupError(`There is no database in ${pgliteDir(config)} (DATA_DIR) to back up.`);
      const client = await PGlite.create(pgliteDir(config), { extensions: { unaccent, pg_trgm } });
      try {
        migration = tagOf(await newestMigration((q) => client.query<{ when: string | null }>(q)));
        const dump = await client.dumpDataDir('none');
        await writeFile(path.join(staging, PGLITE_DUMP), new Uint8Array(await dump.arrayBuffer()));
      } finally {
        await client.close();
      }
    }
    // After the database: stored objects are never rewritten, so every file the dump references
    // is there; a file uploaded meanwhile is an orphan the storage sweep removes.
    const files = await storageFiles(config.storageDir);
    const manifest: BackupManifest = {
      format: 'protocol-backup',
      version: 1,
      createdAt: now.toISOString(),
      database,
      migration,
      files: files.length,
    };
    await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    // node-tar packs from one folder: the storage folder joins the staging one through a link.
    if (files.length > 0) await symlink(path.resolve(config.storageDir), path.join(staging, FILES), 'dir');
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, [
      MANIFEST,
      database === 'pglite' ? PGLITE_DUMP : PG_DUMP,
      ...files.map((f) => `${FILES}/${f}`),
    ]);
    await syncFile(partial);
    await rename(partial, file);
    return { file, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

/** Replaces the database and the storage folder with an archive's. */
export async function restore(
  config: Config,
  options: { file: string; force?: boolean },
): Promise<BackupManifest> {
  const file = path.resolve(options.file);
  if (!existsSync(file)) throw new BackupError(`There is no backup ${file}.`);
  await mkdir(config.dataDir, { recursive: true });
  const staging = await mkdtemp(path.join(config.dataDir, '.protocol-restore-'));
  try {
    // First pass: the manifest and the dump only; it reads the whole archive, so a damaged or
    // truncated one is refused before anything changes.
    await tar
      .extract({ file, cwd: staging, strict: true, filter: (entry) => !entry.startsWith(`${FILES}/`) })
      .catch((error: Error) => {
        throw new BackupError(`${file} is not a readable Protocol backup: ${error.message}`, 3);
      });
    const manifest = await readManifest(path.join(staging, MANIFEST), file);
    const kind = config.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.database !== kind)
      throw new BackupError(
        manifest.database === 'pglite'
          ? 'This backup is of the embedded database (PGlite): restore it without DATABASE_URL.'
          : 'This backup is of a PostgreSQL server (DATABASE_URL): restore it with DATABASE_URL set.',
        3,
      );
    if (manifest.migration && !journal().entries.some((e) => e.tag === manifest.migration))
      throw new BackupError(
        `This backup was made by a newer Protocol (migration ${manifest.migration}): update Protocol first.`,
        3,
      );

    if (config.databaseUrl) {
      await refuseNewerPostgres(config.databaseUrl, manifest.migration);
      await refuseBusyPostgres(config.databaseUrl, options.force ?? false);
      // One transaction: a failing restore leaves the database as it was.
      await run(
        'pg_restore',
        [
          '--clean',
          '--if-exists',
          '--single-transaction',
          '--exit-on-error',
          '--no-owner',
          '--no-acl',
          path.join(staging, PG_DUMP),
        ],
        config.databaseUrl,
      );
    } else {
      refuseOpenPglite(config, options.force ?? false);
      await restorePglite(config, path.join(staging, PGLITE_DUMP));
    }
    await restoreStorage(file, config.storageDir);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * PGlite loads a dump only into an empty folder: it is loaded beside the current one, which is
 * then swapped out and removed, so a dump that fails to load leaves the database untouched.
 */
async function restorePglite(config: Config, dump: string): Promise<void> {
  const target = pgliteDir(config);
  const fresh = `${target}.restoring`;
  await rm(fresh, { recursive: true, force: true });
  const client = await PGlite.create(fresh, {
    extensions: { unaccent, pg_trgm },
    loadDataDir: await openAsBlob(dump),
  });
  await client.close();
  const old = `${target}.replaced`;
  await rm(old, { recursive: true, force: true });
  if (existsSync(target)) await rename(target, old);
  await rename(fresh, target);
  await rm(old, { recursive: true, force: true });
}

/**
 * Extracts the archive's files into the storage folder, then removes those it does not hold.
 * In place rather than swapping folders: STORAGE_DIR may be a mount point.
 */
async function restoreStorage(file: string, storageDir: string): Promise<void> {
  await mkdir(storageDir, { recursive: true });
  const kept = new Set<string>();
  await tar.extract({
    file,
    cwd: storageDir,
    strip: 1,
    filter: (entry) => entry.startsWith(`${FILES}/`),
    onReadEntry: (entry) => {
      if (entry.type === 'File') kept.add(entry.path.slice(FILES.length + 1));
    },
  });
  for (const stored of await storageFiles(storageDir, true)) {
    if (!kept.has(stored)) await rm(path.join(storageDir, stored), { force: true });
  }
}

/** The storage folder's files, relative and with `/`; without `tmp/` (uploads in progress) unless asked. */
async function storageFiles(storageDir: string, withTmp = false): Promise<string[]> {
  if (!existsSync(storageDir)) return [];
  const entries = await readdir(storageDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(storageDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((f) => withTmp || !f.startsWith('tmp/'))
    .sort();
}

async function readManifest(manifestFile: string, archive: string): Promise<BackupManifest> {
  let manifest: Partial<BackupManifest> | undefined;
  try {
    manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  } catch {
    manifest = undefined;
  }
  if (manifest?.format !== 'protocol-backup' || manifest.version !== 1)
    throw new BackupError(`${archive} is not a Protocol backup (no ${MANIFEST} of version 1).`, 3);
  return manifest as BackupManifest;
}

async function newestMigration(
  query: (sql: string) => Promise<{ rows: { when: string | null }[] }>,
): Promise<number | null> {
  try {
    const { rows } = await query('SELECT max(created_at)::text AS "when" FROM drizzle.__drizzle_migrations');
    return rows[0]?.when ? Number(rows[0].when) : null;
  } catch {
    return null; // never migrated
  }
}

const tagOf = (when: number | null): string | null =>
  when === null ? null : (journal().entries.find((e) => e.when === when)?.tag ?? `unknown (${when})`);

async function postgresMigration(databaseUrl: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return tagOf(await newestMigration((q) => client.query(q)));
  } finally {
    await client.end();
  }
}

/**
 * Refuses while other clients (a running server) are connected to the database: pg_restore would
 * wait on their locks or change data under them. A server that has just stopped may take a moment
 * to close its connections, so this waits a few seconds first.
 */
async function refuseBusyPostgres(databaseUrl: string, force: boolean): Promise<void> {
  if (force) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
      const others = rows[0]?.n ?? 0;
      if (others === 0) return;
      if (attempt >= 30)
        throw new BackupError(
          `${others} other connection(s) use this database: stop every Protocol server first (or pass --force).`,
          3,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}

/**
 * pg_restore --clean drops only what the dump holds: tables that later migrations added would stay
 * and make those migrations fail at the next start. Such a database is refused.
 */
async function refuseNewerPostgres(databaseUrl: string, backupMigration: string | null): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const current = tagOf(await newestMigration((q) => client.query(q)));
    const order = journal().entries.map((e) => e.tag);
    const at = current === null ? -1 : order.indexOf(current);
    // Not in this version's journal: made by a newer Protocol.
    if (current === null || (at !== -1 && at <= order.indexOf(backupMigration ?? ''))) return;
    throw new BackupError(
      `The database is at migration ${current}, newer than the backup's ${backupMigration ?? '(none)'}: ` +
        'restore into an empty database (dropdb and createdb) instead.',
      3,
    );
  } finally {
    await client.end();
  }
}

/** Debian's server binaries (newest first), else the PATH: pg_dump must be as new as the server. */
function pgBinary(name: 'pg_dump' | 'pg_restore'): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const candidate = path.join(root, version, 'bin', name);
    if (existsSync(candidate)) return candidate;
  }
  return name;
}

/** Runs pg_dump / pg_restore on the URL; the password goes in PGPASSWORD, not on a command line others can read. */
async function run(name: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const binary = pgBinary(name);
  const stderr: Buffer[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(binary, [`--dbname=${url.href}`, ...args], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${name} was not found: install PostgreSQL's client programs (Debian: postgresql-client).`,
            )
          : error,
      ),
    );
    child.on('close', resolve);
  });
  if (code !== 0)
    throw new BackupError(`${name} failed (exit ${code}): ${Buffer.concat(stderr).toString('utf8').trim()}`);
}

/** For the command's summary line. */
export async function sizeOf(file: string): Promise<string> {
  const bytes = (await stat(file)).size;
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** On disk before the archive gets its final name. */
async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  await handle.sync();
  await handle.close();
}
