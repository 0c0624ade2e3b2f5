import { appModules, buildApp } from './app.ts';
import { ConfigError, loadConfig, requireSharedSecrets } from './config.ts';
import { openDatabase } from './db/client.ts';
import { injectInto, seedDemoWaterService } from './db/demo-water.ts';
import { bootstrap } from './modules/installation/bootstrap.ts';
import { shutDown } from './platform/readiness.ts';
import { startupSummary } from './startup-summary.ts';

/** Reads the settings, migrates, seeds an empty database and serves the app. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
    requireSharedSecrets();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Protocol cannot start. ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const database = await openDatabase(config);
  await database.migrate();
  const app = await buildApp(config, database);
  if (config.companyWall && !database.wall.on) {
    app.log.warn(
      'COMPANY_WALL=on, but the database user may not take the role protocol_app: the wall is off',
    );
  }
  const bootstrapped = await bootstrap(database.db, config, appModules);
  // Not-ready first, then the requests in flight and the jobs' current chunk end (README
  // "Readiness and shutdown"); a second signal ends the process at once (Node's default).
  const shutdown = async () => {
    await shutDown(app, config.shutdownDelayMs);
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
  console.log(`\n${startupSummary(config, bootstrapped).join('\n')}\n`);
  if (config.seedDemoWater) {
    // In the background: the server answers meanwhile.
    seedDemoWaterService(injectInto(app)).catch((error: unknown) => {
      app.log.error({ err: error }, 'the demo water service was not completed');
      // The log may be a file: the console says so too.
      console.error(`The demo water service was not completed: ${(error as Error).message}`);
    });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
