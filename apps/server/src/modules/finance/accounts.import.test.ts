import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRegistryOf } from '../../platform/jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../../platform/jobs/worker.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp, waitForJob } from '../../test/harness.ts';
import { xlsxWithLargeCell } from '../../test/xlsx-bomb.ts';
import { financeImportFiles } from './finance.schema.ts';
import { financeModule } from './index.ts';

/** The accounting plan's Excel import as a background job (issue 19): dry run, all or nothing, idempotent. */
let t: TestApp;
let admin: { authorization: string };
let worker: JobWorker;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  worker = startJobWorker(t.database.db, jobRegistryOf([financeModule]), { pollMs: 20, leaseMs: 5000 });
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

async function workbook(rows: (string | number)[][]) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Λογαριασμοί');
  sheet.addRow(['Κωδικός', 'Περιγραφή', 'Είδος', 'Συγκεντρωτικός']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}
const upload = (body: Buffer, dryRun: boolean, contentType = XLSX, language = 'el') =>
  t.app.inject({
    method: 'POST',
    url: `/api/finance/accounts/import?companyid=1&dryRun=${dryRun}`,
    headers: { ...admin, 'content-type': contentType, 'accept-language': language },
    payload: body,
  });

async function runImport(body: Buffer, dryRun: boolean, language = 'el') {
  const started = await upload(body, dryRun, XLSX, language);
  expect(started.statusCode, started.body).toBe(202);
  const id = started.json().jobId;
  const job = await waitForJob(t, admin, id);
  if (job.state !== 'succeeded') throw new Error(job.error ?? job.state);
  return { job, result: job.result };
}

const accounts = async () =>
  (
    await t.app.inject({ method: 'GET', url: '/api/finance/accounts?companyid=1', headers: admin })
  ).json() as {
    code: string;
    descr: string;
    parentCode: string | null;
    aggregate: number;
  }[];

describe('accounting plan import', () => {
  it('a dry run writes nothing; the import creates new codes and updates existing ones, twice the same', async () => {
    const file = await workbook([
      ['74', 'Επιχορηγήσεις', 1, 1],
      ['74.00', 'Επιχορηγήσεις από Δήμο', 1, 0],
      ['73', 'Πωλήσεις υπηρεσιών ύδρευσης', 1, 1],
    ]);
    const dry = await runImport(file, true);
    expect(dry.result).toEqual({
      dryRun: true,
      rows: 3,
      errors: [],
      created: 0,
      updated: 0,
      applied: 0,
      aborted: false,
      outcomes: [],
    });
    expect(dry.job).toMatchObject({ progressDone: 3, progressTotal: 3 });
    expect((await accounts()).some((a) => a.code === '74')).toBe(false);

    const first = await runImport(file, false);
    expect(first.result).toMatchObject({ dryRun: false, rows: 3, errors: [], created: 2, updated: 1 });
    // Each row's outcome, as the result file lists it.
    expect(first.result.outcomes).toEqual([
      [2, 3, 'imports.outcome.created'],
      [4, 4, 'imports.outcome.updated'],
    ]);
    expect(first.job).toMatchObject({ progressDone: 3, progressTotal: 3 });
    expect((await runImport(file, false)).result).toMatchObject({ created: 0, updated: 3 });
    const plan = await accounts();
    expect(plan.find((a) => a.code === '74.00')).toMatchObject({ parentCode: '74', aggregate: 0 });
    expect(plan.find((a) => a.code === '73')?.descr).toBe('Πωλήσεις υπηρεσιών ύδρευσης');
    // The uploaded files went with their jobs.
    expect(await t.database.db.select().from(financeImportFiles)).toEqual([]);
  });

  it('reports every bad row (line, column, reason in the uploader’s language) and writes none of the file', async () => {
    const file = await workbook([
      ['75', 'Καλό', 1, 1],
      ['75.1', 'Κακός κωδικός', 1, 0],
      ['76', 'Κακό είδος', 4, 0],
      ['75', 'Διπλός', 1, 1],
      ['77', '', 1, 0],
    ]);
    const dry = await runImport(file, true, 'en');
    expect(dry.result.errors).toEqual([
      { line: 3, column: 'Code', reason: expect.stringContaining('XX.XX.XX.XXXX') },
      { line: 4, column: 'Kind', reason: expect.any(String) },
      { line: 5, column: 'Code', reason: 'The code is already on line 2 of the file' },
      { line: 6, column: 'Description', reason: expect.any(String) },
    ]);
    const greek = await runImport(file, false);
    expect(greek.result).toMatchObject({ dryRun: false, rows: 5, created: 0, updated: 0 });
    expect(greek.result.errors[2]).toEqual({
      line: 5,
      column: 'Κωδικός',
      reason: 'Ο κωδικός υπάρχει ήδη στη γραμμή 2 του αρχείου',
    });
    expect((await accounts()).some((a) => a.code === '75')).toBe(false);
  });

  it('issue 29 item 5: an accounting plan whose one cell unpacks to 300 MB is refused with 413 before any job', async () => {
    const bomb = await xlsxWithLargeCell(
      [
        ['Κωδικός', 'Περιγραφή', 'Είδος', 'Συγκεντρωτικός'],
        ['70', '{large}', '1', '0'],
      ],
      300 * 1024 * 1024,
    );
    const refused = await upload(bomb, true);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ key: 'error.import_unpacked_too_large', params: { mb: 64 } });
  });

  it('an empty workbook ends with the reason; what is not an .xlsx, a broken one or too large is refused', async () => {
    // A zip that is no workbook is refused with the upload (the import limits read its parts first).
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64, 7)]);
    const refused = await upload(broken, true, XLSX, 'en');
    expect(refused.statusCode).toBe(415);
    expect(refused.json()).toMatchObject({
      key: 'error.import_unreadable',
      message: 'The file cannot be read as an .xlsx workbook.',
    });
    expect((await runImport(await workbook([]), true)).result.errors).toEqual([
      { line: 1, column: '', reason: 'Το αρχείο δεν έχει λογαριασμούς' },
    ]);
    const fake = await upload(Buffer.from('code;descr\n70;x'), true);
    expect(fake.statusCode).toBe(415);
    expect(fake.json().key).toBe('finance.error.notXlsx');
    expect((await upload(Buffer.from('{}'), true, 'application/json')).statusCode).toBe(415);
    expect((await upload(Buffer.alloc(3 * 1024 * 1024, 1), true)).statusCode).toBe(413);
  });

  it('issue 29 item 1: a workbook naming a row far past the import’s last ends with the reason, its rows unread', async () => {
    // Reading the rows walked every row number up to the last one (three seconds per 20 million).
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Λογαριασμοί');
    sheet.addRow(['Κωδικός', 'Περιγραφή', 'Είδος', 'Συγκεντρωτικός']);
    sheet.getRow(2_097_152).values = ['70', 'Έσοδα', 1, 0];
    const started = performance.now();
    expect((await runImport(Buffer.from(await book.xlsx.writeBuffer()), true, 'en')).result.errors).toEqual([
      { line: 1, column: '', reason: 'The file has more than 200000 lines. Split it into smaller files.' },
    ]);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
