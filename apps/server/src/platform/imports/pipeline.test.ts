import { sql } from 'drizzle-orm';
import { customType, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appModules } from '../../app.ts';
import { rowsOf } from '../../db/client.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp, waitForJob } from '../../test/harness.ts';
import { jobRegistryOf } from '../jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../jobs/worker.ts';
import { defineModule, type ModuleOptions } from '../module.ts';
import { ImportRefused, type ImportSpec, importFileDropper, importJobOf, startImport } from './pipeline.ts';
import { sheetRows } from './sheet.ts';
import { acceptOneFile } from './upload.ts';

/**
 * The import pipeline through a fixture module declared as a module folder would: a csv of
 * `code,value` rows upserted by code, two rows a chunk. Runs on PGlite, and on PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });
const files = pgTable('fixture_import_files', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id').notNull(),
  storageKey: text('storage_key'),
  content: bytea('content'),
});
const KIND = 'fixture.import';

interface Row {
  line: number;
  code: string;
  value: string;
}
/** The progress each chunk saw when it began (done, total), as its job row had it. */
const seen: [number, number][] = [];

const spec: ImportSpec<{ abortAt: string | null }, null, Row, Row, { created: number; updated: number }> = {
  kind: KIND,
  files,
  upload: {
    maxBytes: 1024 * 1024,
    csvName: /\.csv$/,
    noFile: 'error.import_no_file',
    fileType: 'error.import_file_type',
  },
  chunkSize: 2,
  counts: () => ({ created: 0, updated: 0 }),
  prepare: async () => null,
  read: async (file) => {
    const rows = (await sheetRows(file))
      .slice(1)
      .flatMap((cells, at) =>
        cells.length > 0 ? [{ line: at + 2, code: cells[0] ?? '', value: cells[1] ?? '' }] : [],
      );
    if (rows.length === 0) throw new ImportRefused('finance.error.emptyImport');
    return rows;
  },
  check: async (rows) => ({
    problems: rows.flatMap((row) =>
      row.value === '' ? [{ line: row.line, column: 'value', key: 'validation.required' }] : [],
    ),
    checked: rows,
  }),
  apply: async (tx, rows, { payload }, counts) => {
    const [job] = rowsOf<{ done: number; total: number }>(
      await tx.execute(
        sql`SELECT progress_done AS done, progress_total AS total FROM jobs WHERE payload->>'fileId' = ${String(payload.fileId)}`,
      ),
    );
    seen.push([job?.done ?? -1, job?.total ?? -1]);
    // The owner's abort arriving while this chunk is written: it commits with the chunk.
    if (rows.some((r) => r.code === payload.options.abortAt))
      await tx.execute(
        sql`UPDATE jobs SET payload = payload || '{"abort": true}'::jsonb WHERE payload->>'fileId' = ${String(payload.fileId)}`,
      );
    const written = rowsOf<{ created: boolean }>(
      await tx.execute(sql`
        INSERT INTO fixture_import_rows (code, value)
        SELECT * FROM unnest(${sql.param(rows.map((r) => r.code))}::text[], ${sql.param(rows.map((r) => r.value))}::text[])
        ON CONFLICT (code) DO UPDATE SET value = excluded.value
        RETURNING (xmax = 0) AS created`),
    );
    return written.map((w) => {
      if (w.created) counts.created++;
      else counts.updated++;
      return w.created ? 'imports.outcome.created' : 'imports.outcome.updated';
    });
  },
};

/**
 * The same import, per line: a bad row is a failed line and the others are written; a value `x` is
 * refused by `apply` (a failed line with params), `w` is written with a warning. `released` counts
 * the runs whose `release` ran.
 */
const PER_LINE_KIND = 'fixture.import.perLine';
let released = 0;
const perLineSpec: typeof spec = {
  ...spec,
  kind: PER_LINE_KIND,
  perLine: true,
  apply: async (tx, rows, run, counts) => {
    const written = await spec.apply(
      tx,
      rows.filter((r) => r.value !== 'x'),
      run,
      counts,
    );
    let at = 0;
    return rows.map((row) => {
      if (row.value === 'x')
        return { key: 'error.import_line_too_long', level: 'failed', params: { line: row.line, max: 9 } };
      const outcome = written[at++] ?? '';
      return row.value === 'w' ? { key: String(outcome), level: 'warning' } : outcome;
    });
  },
  release: async () => {
    released++;
  },
};

const plugin: FastifyPluginAsyncZod<ModuleOptions> = async (app, { db, jobs, storage }) => {
  await acceptOneFile(app);
  app.post(
    '/fixture_imports',
    {
      config: { signedIn: true },
      schema: {
        querystring: z.object({
          dryRun: z.enum(['true', 'false']),
          abortAt: z.string().optional(),
          perLine: z.literal('true').optional(),
        }),
      },
    },
    async (request) => ({
      jobId: await startImport({ db, jobs, storage }, request.query.perLine ? perLineSpec : spec, request, {
        companyId: 1,
        dryRun: request.query.dryRun === 'true',
        options: { abortAt: request.query.abortAt ?? null },
      }),
    }),
  );
};

const fixtureModule = defineModule({
  name: 'fixtureImports',
  plugin,
  jobs: { [KIND]: importJobOf(spec) as never, [PER_LINE_KIND]: importJobOf(perLineSpec) as never },
  onJobSettled: async (tx, job) => {
    await importFileDropper(spec)(tx, job);
    await importFileDropper(perLineSpec)(tx, job);
  },
  storageColumns: [{ table: 'fixture_import_files', column: 'storage_key' }],
});
const modules = [...appModules, fixtureModule];

let t: TestApp;
let admin: { authorization: string };
let worker: JobWorker | null = null;

beforeAll(async () => {
  t = await startTestApp({}, modules);
  admin = await t.login('admin', ADMIN_PASSWORD);
  await t.database.db.execute(sql`CREATE TABLE fixture_import_files (
    id serial PRIMARY KEY, company_id int NOT NULL, storage_key text, content bytea)`);
  await t.database.db.execute(
    sql`CREATE TABLE fixture_import_rows (code text PRIMARY KEY, value text NOT NULL)`,
  );
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

const startWorker = () => {
  worker ??= startJobWorker(t.database.db, jobRegistryOf([fixtureModule]), { pollMs: 20, leaseMs: 5000 });
};
const csv = (rows: string[][]) => Buffer.from(['code,value', ...rows.map((r) => r.join(','))].join('\n'));
const upload = (content: Buffer, query: string, name = 'rows.csv', language = 'en') => {
  const boundary = 'fixture-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/fixture_imports?${query}`,
    headers: {
      ...admin,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'accept-language': language,
    },
    payload: body,
  });
};
const run = async (content: Buffer, query: string) => {
  const started = await upload(content, query);
  expect(started.statusCode, started.body).toBe(200);
  return waitForJob(t, admin, started.json().jobId as number);
};
const stored = async () =>
  rowsOf<{ code: string; value: string }>(
    await t.database.db.execute(sql`SELECT code, value FROM fixture_import_rows ORDER BY code`),
  );
const five = [
  ['a', '1'],
  ['b', '2'],
  ['c', '3'],
  ['d', '4'],
  ['e', '5'],
];

describe('import pipeline', () => {
  it('refuses a file beyond the limits, or of another type, before any job, with a translated 4xx', async () => {
    const long = await upload(Buffer.from(`code,value\na,${'x'.repeat(70_000)}\n`), 'dryRun=true');
    expect(long.statusCode).toBe(413);
    expect(long.json()).toMatchObject({
      key: 'error.import_line_too_long',
      message: 'Line 2 is longer than 32767 characters.',
    });
    const type = await upload(Buffer.from('code,value\na,1'), 'dryRun=true', 'rows.pdf');
    expect(type.statusCode).toBe(415);
    expect(type.json().key).toBe('error.import_file_type');
    const big = await upload(Buffer.alloc(1024 * 1024 + 1, 0x61), 'dryRun=true');
    expect(big.statusCode).toBe(413);
    expect(big.json().key).toBe('error.payload_too_large');
    expect(await t.database.db.select().from(files)).toEqual([]);
  });

  it('an import aborted before it starts writes nothing and ends cancelled', async () => {
    const started = await upload(csv(five), 'dryRun=false');
    const jobId = started.json().jobId as number;
    const abort = await t.app.inject({ method: 'POST', url: `/api/imports/${jobId}/abort`, headers: admin });
    expect(abort.statusCode, abort.body).toBe(200);
    startWorker();
    const job = await waitForJob(t, admin, jobId);
    expect(job).toMatchObject({ state: 'cancelled', result: { aborted: true, applied: 0 } });
    expect(await stored()).toEqual([]);
    const again = await t.app.inject({ method: 'POST', url: `/api/imports/${jobId}/abort`, headers: admin });
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('error.import_ended');
  });

  it('a dry run reports every bad row with its line and writes nothing', async () => {
    const job = await run(csv([...five, ['f', '']]), 'dryRun=true');
    expect(job.result).toMatchObject({
      dryRun: true,
      rows: 6,
      applied: 0,
      errors: [{ line: 7, column: 'value', reason: 'The field is required' }],
    });
    expect((await run(csv(five), 'dryRun=true')).result).toMatchObject({ rows: 5, errors: [], applied: 0 });
    expect(await stored()).toEqual([]);
    // A file with a bad row is not written either.
    expect((await run(csv([...five, ['f', '']]), 'dryRun=false')).result).toMatchObject({ applied: 0 });
    expect(await stored()).toEqual([]);
  });

  it('applies in chunks with progress; a rerun changes nothing twice; the result file lists every row', async () => {
    seen.length = 0;
    const job = await run(csv(five), 'dryRun=false');
    expect(job).toMatchObject({ state: 'succeeded', progressDone: 5, progressTotal: 5 });
    expect(job.result).toMatchObject({ applied: 5, created: 5, updated: 0, aborted: false });
    // The rows' outcomes kept as runs of lines: five new rows are one.
    expect(job.result.outcomes).toEqual([[2, 6, 'imports.outcome.created']]);
    // Three chunks of two rows, each begun after the progress of the ones before.
    expect(seen).toEqual([
      [0, 5],
      [2, 5],
      [4, 5],
    ]);
    const again = await run(csv(five), 'dryRun=false');
    expect(again.result).toMatchObject({ applied: 5, created: 0, updated: 5 });
    expect(await stored()).toHaveLength(5);
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/imports/${again.id}/result`,
      headers: { ...admin, 'accept-language': 'el' },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(
      file.body
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .slice(0, 3),
    ).toEqual(['Γραμμή,Αποτέλεσμα,Στήλη,Αιτία', '2,Ενημερώθηκε,,', '3,Ενημερώθηκε,,']);
    // The uploads went with their jobs.
    expect(await t.database.db.select().from(files)).toEqual([]);
  });

  it('an abort between chunks leaves whole chunks written and none after', async () => {
    await t.database.db.execute(sql`DELETE FROM fixture_import_rows`);
    // The abort comes while the second chunk (c, d) is written: the third (e) is never begun.
    const job = await run(csv(five), 'dryRun=false&abortAt=c');
    expect(job).toMatchObject({ state: 'cancelled', result: { aborted: true, applied: 4, created: 4 } });
    expect((await stored()).map((r) => r.code)).toEqual(['a', 'b', 'c', 'd']);
    // Run again, it writes what is missing and changes nothing twice.
    const rerun = await run(csv(five), 'dryRun=false');
    expect(rerun.result).toMatchObject({ applied: 5, created: 1, updated: 4 });
    const other = await t.app.inject({ method: 'POST', url: '/api/imports/999999/abort', headers: admin });
    expect(other.statusCode).toBe(404);
  });

  it('per line: a bad row is a failed line, the others are written, each with its level; release runs', async () => {
    await t.database.db.execute(sql`DELETE FROM fixture_import_rows`);
    // A bad row between good ones: the runs of outcomes do not span it.
    const rows = [...five.slice(0, 3), ['f', ''], ...five.slice(3), ['g', 'x'], ['h', 'w']];
    const dry = await run(csv(rows), 'dryRun=true&perLine=true');
    expect(dry.result).toMatchObject({
      dryRun: true,
      rows: 8,
      applied: 0,
      failed: 1,
      lines: [{ line: 5, level: 'failed', message: 'The field is required' }],
    });
    expect(await stored()).toEqual([]);
    released = 0;
    const job = await run(csv(rows), 'dryRun=false&perLine=true');
    expect(job).toMatchObject({ state: 'succeeded' });
    expect(job.result).toMatchObject({
      applied: 7,
      created: 6,
      success: 5,
      warnings: 1,
      failed: 2,
      lines: [
        { line: 5, level: 'failed', message: 'The field is required' },
        { line: 8, level: 'failed', message: 'Line 8 is longer than 9 characters.' },
        { line: 9, level: 'warning', message: 'Created' },
      ],
    });
    expect(job.result.outcomes).toEqual([
      [2, 4, 'imports.outcome.created'],
      [6, 7, 'imports.outcome.created'],
      [8, 8, 'error.import_line_too_long', 'failed', { line: 8, max: 9 }],
      [9, 9, 'imports.outcome.created', 'warning', {}],
    ]);
    expect((await stored()).map((r) => r.code)).toEqual(['a', 'b', 'c', 'd', 'e', 'h']);
    expect(released).toBe(1);
    // Aborted between chunks, it lets go all the same.
    const stopped = await run(csv(rows), 'dryRun=false&perLine=true&abortAt=c');
    expect(stopped).toMatchObject({ state: 'cancelled', result: { aborted: true, applied: 4 } });
    expect(released).toBe(2);
  });
});
