import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../platform/jobs/jobs.schema.ts';
import { jobFailure, jobRegistryOf } from '../../platform/jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../../platform/jobs/worker.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp, waitForJob } from '../../test/harness.ts';
import { client, installMeter, newConsumer } from '../../test/water-fixtures.ts';
import { xlsxWithLargeCell } from '../../test/xlsx-bomb.ts';
import { holdRoutePeriod, releaseRoutePeriod } from './api.ts';
import type { ImportLine } from './import.file.ts';
import { importReadingLines } from './import.service.ts';
import { readoutsModule } from './index.ts';

/** Imports of readings (issue 16): a handheld file (source 4) and a drive-by AMR file (source 3). */
let t: TestApp;
let admin: { authorization: string };
let worker: JobWorker;
let routeId: number;
const MB = 1024 * 1024;

function multipart(name: string, content: string | Buffer) {
  const boundary = '----readouts-import-test';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function runImport(name: string, content: string | Buffer, source: 3 | 4, dryRun = false) {
  const { body, contentType } = multipart(name, content);
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/readouts/import?source=${source}&year=2026&period=1${dryRun ? '&dryRun=true' : ''}`,
    headers: { ...admin, 'content-type': contentType },
    payload: body,
  });
  expect(started.statusCode, started.body).toBe(202);
  const id = started.json().jobId;
  const job = await waitForJob(t, admin, id);
  if (job.state !== 'succeeded') throw new Error(job.error ?? job.state);
  return { ...job.result, id };
}

/** The lines of a report that are not a plain success, as [line, level]. */
const levels = (result: { lines: { line: number; level: string }[] }) =>
  result.lines.map((l) => [l.line, l.level]);

async function consumerWithMeter(number: string, serialNumber: string, initialReading: number) {
  const api = client(t, admin);
  const id = await newConsumer(
    api,
    '',
    ['01', '001', number],
    { individual: true, lastname: `Καταναλωτής ${number}`, firstname: 'Άννα' },
    { supplyAddress: `Αγοράς ${number}`, billed: false, fields: { routePosition: Number(number) } },
  );
  await installMeter(api, '', id, { serialNumber, kind: 3, initialReading });
}

const sheet = async () =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/readouts/sheet?routeId=${routeId}&year=2026&period=1`,
      headers: admin,
    })
  ).json();

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  worker = startJobWorker(t.database.db, jobRegistryOf([readoutsModule]), { pollMs: 20, leaseMs: 5000 });
  routeId = (await t.app.inject({ method: 'GET', url: '/api/readouts/routes', headers: admin }))
    .json()
    .find((r: { code: string }) => r.code === '001').id;
  await consumerWithMeter('1', 'AMR-1', 100);
  await consumerWithMeter('2', 'AMR-2', 200);
  await consumerWithMeter('3', 'AMR-3', 300);
  await consumerWithMeter('4', 'AMR-4', 400);
}, 180_000);
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

// The route sheet as exported, filled in on a handheld: two lines are bad.
const handheld = [
  'Δρομολόγιο;Α/Α;Κωδικός;Ονοματεπώνυμο;Διεύθυνση παροχής;Υδρομετρητής;Θέση / σημειώσεις;Προηγ. ένδειξη;Ημ/νία;Νέα ένδειξη',
  '001;1;01-001-    1;Καταναλωτής 1;Αγοράς 1;AMR-1;;100;01/12/2025;130',
  '001;2;01-001-    2;Καταναλωτής 2;Αγοράς 2;AMR-2;;200;01/12/2025;1x0',
  '001;3;01-001-    3;Καταναλωτής 3;Αγοράς 3;AMR-3;;300;01/12/2025;250',
  '001;9;01-001-   99;Άγνωστος;;;;;;10',
  '001;4;01-001-    4;Καταναλωτής 4;Αγοράς 4;AMR-4;;400;01/12/2025;400',
].join('\r\n');

describe('readings imports', () => {
  it('a dry run reports the lines it cannot save and saves nothing', async () => {
    const result = await runImport('route-001.csv', `\uFEFF${handheld}\r\n`, 4, true);
    expect(result).toMatchObject({ dryRun: true, rows: 5, applied: 0, success: 0, failed: 2 });
    expect(levels(result)).toEqual([
      [3, 'failed'],
      [5, 'failed'],
    ]);
    expect((await sheet()).rows.filter((r: { reading: unknown }) => r.reading !== null)).toEqual([]);
  });

  it('imports a handheld file and reports every line: success, warning, failed with the reason', async () => {
    const result = await runImport('route-001.csv', `\uFEFF${handheld}\r\n`, 4);
    expect(result).toMatchObject({ success: 1, warnings: 1, failed: 3 });
    expect(levels(result)).toEqual([
      [3, 'failed'],
      [4, 'failed'],
      [5, 'failed'],
      [6, 'warning'],
    ]);
    expect(result.lines[0].message).toBe('Η ένδειξη «1x0» δεν είναι ακέραιος αριθμός');
    expect(result.lines[1].message).toContain('μικρότερη από την προηγούμενη (300)');
    expect(result.lines[2].message).toBe('Άγνωστος κωδικός καταναλωτή');
    expect(result.lines[3].message).toContain('Μηδενική κατανάλωση');
    // The result file lists every line, the saved one with its consumption.
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/imports/${result.id}/result`,
      headers: { ...admin, 'accept-language': 'el' },
    });
    expect(file.statusCode).toBe(200);
    expect(
      file.body
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .slice(1, 3),
    ).toEqual([
      '2,"Αποθηκεύτηκε, κατανάλωση 30 m³",,',
      '3,Σφάλμα,,Η ένδειξη «1x0» δεν είναι ακέραιος αριθμός',
    ]);
    const rows = (await sheet()).rows;
    expect(rows[0].reading).toMatchObject({ reading: 130, consumption: 30, source: 4 });
    expect(rows[3].reading).toMatchObject({ consumption: 0, flags: ['zero_active'], review: 1 });
    // Nothing is left holding the route.
    expect((await sheet()).period.heldBy).toBeNull();
  });

  it('is idempotent: the same file twice adds nothing', async () => {
    const again = await runImport('route-001.csv', `\uFEFF${handheld}\r\n`, 4);
    expect(again).toMatchObject({ success: 0, warnings: 2, failed: 3 });
    expect(again.lines[0]).toMatchObject({
      line: 2,
      level: 'warning',
      message: 'Έχει ήδη εισαχθεί από το ίδιο αρχείο',
    });
    const rows = (await sheet()).rows;
    expect(rows.filter((r: { reading: unknown }) => r.reading !== null)).toHaveLength(2);
  });

  it('finds a handheld code typed without its padding spaces, or with more', async () => {
    // The same readings as before for 4 (zero, to review) and a first one for 3: the later tests' history stays.
    const typed = ['Κωδικός;Νέα ένδειξη', '01-001-4;400', ' 01 - 001 -  3 ;330', '01-001-99;5'].join('\r\n');
    const result = await runImport('typed.csv', typed, 4);
    expect(result).toMatchObject({ success: 1, warnings: 1, failed: 1 });
    expect(result.lines[1]).toMatchObject({
      line: 4,
      level: 'failed',
      message: 'Άγνωστος κωδικός καταναλωτή',
    });
    const rows = (await sheet()).rows;
    expect(rows[2].reading).toMatchObject({ reading: 330, consumption: 30, source: 4 });
    expect(rows[3].reading).toMatchObject({ reading: 400, consumption: 0, source: 4 });
  });

  it('imports a drive-by AMR file by meter serial and timestamp', async () => {
    const amr = [
      'AMR-2,2026-04-28T09:15:00Z,260',
      'AMR-3,2026-04-28T09:16:00Z,340',
      'XX-9,2026-04-28T09:17:00Z,5',
    ].join('\n');
    const result = await runImport('driveby.csv', amr, 3);
    expect(result).toMatchObject({ success: 2, warnings: 0, failed: 1 });
    expect(result.lines).toMatchObject([{ line: 3, level: 'failed' }]);
    const rows = (await sheet()).rows;
    expect(rows[1].reading).toMatchObject({ reading: 260, consumption: 60, source: 3, readOn: '2026-04-28' });
  });

  it('fails the lines of a route a billing run holds, waiting for nothing', async () => {
    const key = { routeId, year: 2026, period: 1 };
    expect(await holdRoutePeriod(t.database.db, 1, key, 'billing-run-1')).toBe(true);
    const result = await runImport('late.csv', 'AMR-1,2026-04-29T08:00:00Z,131', 3);
    expect(result.lines[0]).toMatchObject({
      level: 'failed',
      message: 'Οι καταμετρήσεις βρίσκονται σε επεξεργασία, δοκιμάστε αργότερα',
    });
    await releaseRoutePeriod(t.database.db, 1, key, 'billing-run-1');
  });

  it("fails a period past the year's last with the reason's key", async () => {
    const run = importDirect(driveBy([1], 0), 4);
    expect((await run).result).toEqual({
      stopped: { key: 'readouts.no_such_period', params: { periods: 3 } },
    });
  });

  it('refuses what is no readings file', async () => {
    const { body, contentType } = multipart('readings.pdf', '%PDF-1.4');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/readouts/import?source=4&year=2026&period=1',
      headers: { ...admin, 'content-type': contentType },
      payload: body,
    });
    expect(refused.statusCode).toBe(415);
    expect(refused.json().key).toBe('readouts.import.file_type');
  });

  it('issue 29 item 5: an xlsx whose one cell unpacks to 300 MB is refused with 413 before any job, the server growing by less than 64 MB', async () => {
    const bomb = await xlsxWithLargeCell(
      [
        ['Κωδικός', 'Νέα ένδειξη'],
        ['01-001-    1', '{large}'],
      ],
      300 * MB,
    );
    expect(bomb.length).toBeLessThan(MB);
    const { body, contentType } = multipart('readings.xlsx', bomb);
    const jobsBefore = await t.database.db.$count(jobs);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/readouts/import?source=4&year=2026&period=1',
      headers: { ...admin, 'content-type': contentType, 'accept-language': 'en' },
      payload: body,
    });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(refused.statusCode, refused.body).toBe(413);
    expect(refused.json()).toMatchObject({
      key: 'error.import_unpacked_too_large',
      params: { mb: 64 },
      message: 'Unpacked, the file is larger than 64 MB. Split it into smaller files.',
    });
    expect(await t.database.db.$count(jobs)).toBe(jobsBefore);
    expect(peak - before).toBeLessThan(64 * MB);
  });

  it('issue 29 item 5: a cell longer than 32,767 characters fails the file, naming its line and column, in the uploader’s language', async () => {
    const xlsx = await xlsxWithLargeCell(
      [
        ['Κωδικός', 'Νέα ένδειξη'],
        ['01-001-    1', '130'],
        ['01-001-    2', '{large}'],
      ],
      40_000,
    );
    const result = await runImport('readings.xlsx', xlsx, 4);
    expect(result).toMatchObject({
      rows: 0,
      applied: 0,
      lines: [
        {
          line: 3,
          level: 'failed',
          message: 'Γραμμή 3, στήλη 2: το κελί έχει περισσότερους από 32767 χαρακτήρες.',
        },
      ],
      success: 0,
      warnings: 0,
      failed: 1,
    });
  });
});

/** Drive-by lines of meters AMR-<n> (installed at 100·n): reading 100·n + 100 + `step`. */
const driveBy = (numbers: number[], step: number, day = '2026-05-10') =>
  numbers.map(
    (n, i): ImportLine => ({
      line: i + 1,
      code: '',
      serial: `AMR-${n}`,
      reading: String(n * 100 + 100 + step),
      readOn: day,
      note: '',
    }),
  );
const meters = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

/** The import's own lines saved straight through the service, with the queries it ran counted. */
async function importDirect(
  lines: ImportLine[],
  period: number,
  options: { chunkSize?: number; stopAfter?: number; key?: string } = {},
) {
  const stop = new AbortController();
  let chunks = 0;
  const before = t.queries.length;
  const run = importReadingLines(
    {
      db: t.database.db,
      progress: async (done) => {
        if (done > 0 && ++chunks === options.stopAfter) stop.abort();
      },
      signal: stop.signal,
    },
    { companyId: 1, source: 3, year: 2026, period, username: 'admin', language: 'en' },
    `import-direct-${period}`,
    lines,
    (line) => `${options.key ?? 'direct'}:${period}:${line.serial}:${line.reading}`,
    'readouts.import.already',
    options.chunkSize,
  );
  const result = await run.catch((error: unknown) => ({ stopped: jobFailure(error) }));
  // The job worker polls the same database meanwhile: its queries are not the import's, and
  // transaction control is no query (PostgreSQL's driver logs it, PGlite's does not).
  const queries = t.queries
    .slice(before)
    .filter((q) => !q.includes('"jobs"') && !/^(begin|commit|rollback)$/i.test(q.trim()));
  return { result, queries: queries.length };
}

const sheetOf = async (period: number) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/readouts/sheet?routeId=${routeId}&year=2026&period=${period}`,
      headers: admin,
    })
  ).json();
const currentReadings = async (period: number) =>
  (await sheetOf(period)).rows.filter((r: { reading: unknown }) => r.reading !== null);

/**
 * An import's queries: the periodicity, the thresholds and the release once; per chunk who its
 * lines are (with the keys seen), the hold, the five of the meters' rows, the insert, the update
 * and the period's state.
 */
const FIXED = 3;
const PER_CHUNK = 10;

describe('readings imports by chunks', () => {
  beforeAll(async () => {
    for (let n = 5; n <= 20; n++) await consumerWithMeter(String(n), `AMR-${n}`, n * 100);
  }, 180_000);

  it('runs a few set queries per chunk, not per line', async () => {
    const few = await importDirect(driveBy([1, 2, 3], 10), 2, { key: 'few' });
    const many = await importDirect(driveBy(meters(20).slice(3), 10), 2, { key: 'many' });
    expect(few.result).toMatchObject({ success: 3, failed: 0 });
    expect(many.result).toMatchObject({ success: 17, failed: 0 });
    // One chunk of 17 lines costs what one of 3 lines does (less: the period is open by then).
    expect(many.queries).toBeLessThanOrEqual(few.queries);
    expect(few.queries).toBeLessThanOrEqual(FIXED + PER_CHUNK);
    // Four chunks of five: the fixed part once, the chunk's part four times.
    const chunked = await importDirect(driveBy(meters(20), 20), 2, { key: 'chunked', chunkSize: 5 });
    expect(chunked.result).toMatchObject({ success: 20, failed: 0 });
    expect(chunked.queries).toBeLessThanOrEqual(FIXED + 4 * PER_CHUNK);
    // The readings the grid or an earlier import saved are replaced, one reading per meter.
    const rows = await currentReadings(2);
    expect(rows).toHaveLength(20);
    expect(rows[4].reading).toMatchObject({ reading: 620, consumption: 120, source: 3, review: 0 });
  });

  it('keeps the later line of a meter read twice, and applies the same checks and flags', async () => {
    // Read in period 2 at 720, 820 and 920.
    const twice = driveBy([6, 6, 7, 8], 0, '2026-09-10');
    twice[0] = { ...twice[0], reading: '750' } as ImportLine;
    twice[1] = { ...twice[1], reading: '760' } as ImportLine;
    twice[2] = { ...twice[2], reading: '820' } as ImportLine;
    twice[3] = { ...twice[3], reading: '900' } as ImportLine;
    const { result } = await importDirect(twice, 3);
    expect(result).toMatchObject({ success: 2, warnings: 1, failed: 1 });
    const lines = (result as { lines: { result: number; message: string }[] }).lines;
    expect(lines[2]).toMatchObject({ result: 0, message: expect.stringContaining('Zero consumption') });
    expect(lines[3]).toMatchObject({ result: -1, message: expect.stringContaining('(920)') });
    const rows = await currentReadings(3);
    expect(rows.map((r: { reading: { reading: number } }) => r.reading.reading)).toEqual([760, 820]);
    expect(rows[0].reading).toMatchObject({ consumption: 40 });
  });

  it('leaves whole chunks when it stops, and a rerun adds nothing twice', async () => {
    const lines = driveBy(meters(20), 30, '2026-09-11');
    const stopped = await importDirect(lines, 3, { key: 'crash', chunkSize: 8, stopAfter: 1 });
    expect(stopped.result).toEqual({ stopped: { key: 'error.job_aborted', params: {} } });
    // The first chunk of eight (meters 6 and 7 were read before and are replaced).
    expect(await currentReadings(3)).toHaveLength(8);
    const rerun = await importDirect(lines, 3, { key: 'crash', chunkSize: 8 });
    expect(rerun.result).toMatchObject({ success: 12, warnings: 8, failed: 0 });
    expect((rerun.result as { lines: { message: string }[] }).lines[0]?.message).toBe(
      'Already imported from the same file',
    );
    expect(await currentReadings(3)).toHaveLength(20);
    expect((await sheetOf(3)).period.heldBy).toBeNull();
  });
});
