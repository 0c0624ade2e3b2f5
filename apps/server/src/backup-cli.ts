// `npm run backup [-- --out DIR]` and `npm run restore -- FILE`, with the server's own settings.
// Exit codes: 0 done, 1 failed, 2 usage or a bad setting, 3 refused (database in use, wrong backup).
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { BackupError, backup, restore, sizeOf } from './db/backup.ts';

const usage = `Usage:
  npm run backup [-- --out DIR]   write DIR/protocol-backup-<time>.tar.gz (DIR: ./backups)
  npm run restore -- FILE         replace the database and the stored files with FILE's
Options: --force  go on although the database seems in use (only when no server runs)`;

async function main(): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse();
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  const [command, file, ...extra] = args.positionals;
  if (
    extra.length > 0 ||
    (command === 'backup' && file !== undefined) ||
    (command === 'restore' && file === undefined) ||
    (command !== 'backup' && command !== 'restore')
  ) {
    console.error(usage);
    return 2;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 2;
  }
  const where = config.databaseUrl
    ? 'PostgreSQL (DATABASE_URL)'
    : `the embedded database in ${config.dataDir}`;
  try {
    if (command === 'backup') {
      console.log(`Backing up ${where} and the files in ${config.storageDir}…`);
      const { file: written, manifest } = await backup(config, {
        outDir: args.values.out,
        force: args.values.force,
      });
      console.log(`Backup written: ${written} (${await sizeOf(written)}, ${manifest.files} stored files).`);
    } else {
      console.log(`Restoring ${file} into ${where} and ${config.storageDir}…`);
      const manifest = await restore(config, { file: file as string, force: args.values.force });
      console.log(
        `Restored the backup of ${manifest.createdAt} (${manifest.files} stored files). ` +
          'Start the server: it applies any newer migrations.',
      );
    }
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(`${command === 'backup' ? 'Backup' : 'Restore'} failed. ${error.message}`);
    return error.exitCode;
  }
}

function parse() {
  return parseArgs({
    allowPositionals: true,
    options: { out: { type: 'string', default: 'backups' }, force: { type: 'boolean', default: false } },
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
