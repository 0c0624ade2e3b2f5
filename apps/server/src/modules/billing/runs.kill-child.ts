import { openDatabase } from '../../db/client.ts';
import type { JobRow } from '../../platform/jobs/jobs.ts';
import { billingRunJob } from './runs.service.ts';

/**
 * The child process of runs.pg.test.ts: runs a billing run's job on PostgreSQL in chunks of a few
 * consumers, printing its progress after each committed chunk and pausing a little, so the test can
 * SIGKILL it in the middle of the run. Arguments: database URL, run id, chunk size, pause (ms).
 */
const [url, runId, chunk, pause] = process.argv.slice(2);
const database = await openDatabase({ databaseUrl: url, dataDir: '/tmp' });
const result = await billingRunJob({
  payload: { runId: Number(runId), chunk: Number(chunk) },
  job: {} as JobRow,
  db: database.db,
  signal: new AbortController().signal,
  progress: async (done, total) => {
    process.stdout.write(`progress ${done}/${total}\n`);
    await new Promise((resolve) => setTimeout(resolve, Number(pause)));
  },
});
process.stdout.write(`done ${JSON.stringify(result)}\n`);
await database.close();
