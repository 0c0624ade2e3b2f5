import type { Config } from './config.ts';
import { DEMO_OPERATORS } from './db/demo-operators.ts';
import type { Bootstrapped } from './modules/installation/bootstrap.ts';

/**
 * The block `npm start` ends with: where the app is, who may sign in (the demo accounts with their
 * password, the administrator's when it was generated now), where the data and the logs are, and
 * that the demo's myDATA never reaches AADE. Its first line is the one scripts and benches wait for.
 */
export function startupSummary(config: Config, bootstrapped: Bootstrapped): string[] {
  const host = config.host === '0.0.0.0' ? 'localhost' : config.host;
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  const lines = [`Protocol is running on http://${host}:${config.port} with ${where}`];
  const admin = bootstrapped.adminPassword
    ? `${bootstrapped.adminPassword}  (generated now and shown only once: change it after signing in)`
    : config.adminPassword
      ? '(ADMIN_PASSWORD)'
      : '(the password printed at its first start)';
  const width = Math.max(config.adminUsername.length, ...DEMO_OPERATORS.map((o) => o.username.length));
  lines.push('  Sign in as:', `    ${config.adminUsername.padEnd(width)}  ${admin}`);
  if (config.seedDemo) {
    for (const operator of DEMO_OPERATORS) {
      lines.push(
        `    ${operator.username.padEnd(width)}  ${operator.password}  ${operator.firstname} ${operator.lastname}`,
      );
    }
    lines.push(
      bootstrapped.created
        ? '  Demo data created: the company ΔΕΥΑ Αγίας Ελένης and its operators' +
            (config.seedDemoWater
              ? '; its water service (consumers, bills) fills in over the next seconds.'
              : '.')
        : '  Demo data: the company ΔΕΥΑ Αγίας Ελένης (created at the first start).',
      '  myDATA: the demo company sends to a local stand-in for AADE, never to the real AADE.',
    );
  }
  if (!config.databaseUrl) {
    lines.push(`  Data: ${config.dataDir} (stop the server and delete it to start over)`);
  }
  lines.push(
    config.logFile
      ? `  Log: ${config.logFile} (LOG_LEVEL=debug prints it here, with every request)`
      : `  Log: here, at level ${config.logLevel}`,
  );
  return lines;
}
