import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobRegistryOf } from '../../platform/jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../../platform/jobs/worker.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp, waitForJob } from '../../test/harness.ts';
import { xlsxWithLargeCell } from '../../test/xlsx-bomb.ts';
import { waterImportFiles } from './import.schema.ts';
import { waterModule } from './index.ts';

/** Moving a register in (issue 15): template, dry run with every bad row, import idempotent by code. */
let t: TestApp;
let admin: { authorization: string };
let worker: JobWorker;

const HEADER = [
  'Τομέας',
  'Δρομολόγιο',
  'Αριθμός καταναλωτή',
  'ΑΦΜ ιδιοκτήτη',
  'Επώνυμο ή επωνυμία ιδιοκτήτη',
  'Όνομα ιδιοκτήτη',
  'Διεύθυνση παροχής',
  'Τ.Κ. παροχής',
  'Κωδικός χρήσης',
  'Ημερομηνία σύνδεσης',
  'Κατάσταση (0, 1, 9)',
  'Σειριακός αριθμός υδρομετρητή',
  'Ψηφία υδρομετρητή',
  'Ένδειξη υδρομετρητή',
];

/** A csv as an old system exports it: ';' separated, UTF-8 with BOM. */
const csv = (rows: string[][]) => `\uFEFF${[HEADER, ...rows].map((r) => r.join(';')).join('\r\n')}\r\n`;

function multipart(name: string, content: Buffer | string) {
  const boundary = '----water-import-test';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function runImport(name: string, content: Buffer | string, dryRun: boolean, language = 'el') {
  const { body, contentType } = multipart(name, content);
  const started = await t.app.inject({
    method: 'POST',
    url: `/api/protocol/consumers/import?dryRun=${dryRun}`,
    headers: { ...admin, 'content-type': contentType, 'accept-language': language },
    payload: body,
  });
  expect(started.statusCode, started.body).toBe(202);
  const id = started.json().jobId;
  const job = await waitForJob(t, admin, id);
  if (job.state !== 'succeeded') throw new Error(job.error ?? job.state);
  return { job, result: job.result };
}

const count = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/protocol/consumers/search?size=1', headers: admin })).json()
    .totalElements as number;

const good = (n: number): string[] => [
  '01',
  '002',
  String(n),
  n % 2 === 0 ? '094014201' : '',
  n % 2 === 0 ? 'Παπαδόπουλος' : `Γεωργίου ${n}`,
  n % 2 === 0 ? 'Γιώργος' : 'Ελένη',
  `Αγοράς ${n}`,
  '62042',
  'OIK',
  '15/01/2020',
  '1',
  `ITR-${1000 + n}`,
  '5',
  String(n * 10),
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  worker = startJobWorker(t.database.db, jobRegistryOf([waterModule]), { pollMs: 20, leaseMs: 5000 });
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

describe('consumer import', () => {
  it('offers an xlsx template with Greek headers, the code’s levels first', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/protocol/consumers/import/template',
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet).toBeDefined();
    const values = ((sheet?.getRow(1).values ?? []) as string[]).slice(1);
    expect(values).toEqual(HEADER);
  });

  it('a dry run reports every bad row (line, column, reason) in the user’s language and writes nothing', async () => {
    const before = await count();
    const rows = [good(1), good(2), good(3)];
    rows.push(['01', '002', '4x', '', 'Α', '', 'Οδός 1', '', '', '', '', '', '', '']);
    rows.push(['09', '002', '5', '123', '', '', '', '', 'ZZZ', '31/02/2020', '', '', '', '']);
    rows.push(good(1));
    const { result } = await runImport('register.csv', csv(rows), true);
    expect(result).toMatchObject({ dryRun: true, rows: 6, created: 0 });
    expect(result.errors).toEqual([
      { line: 5, column: 'Αριθμός καταναλωτή', reason: 'Μόνο ψηφία' },
      { line: 6, column: 'Τομέας', reason: 'Η τιμή δεν υπάρχει στον πίνακα του επιπέδου' },
      { line: 6, column: 'ΑΦΜ ιδιοκτήτη', reason: 'Ο ΑΦΜ δεν είναι έγκυρος' },
      { line: 6, column: 'Διεύθυνση παροχής', reason: 'Το πεδίο είναι απαραίτητο' },
      { line: 6, column: 'Κωδικός χρήσης', reason: 'Η τιμή δεν υπάρχει στον πίνακα του επιπέδου' },
      { line: 6, column: 'Ημερομηνία σύνδεσης', reason: 'Η ημερομηνία δεν είναι σωστή (ΗΗ/ΜΜ/ΕΕΕΕ)' },
      { line: 7, column: 'Αριθμός καταναλωτή', reason: 'Ο ίδιος κωδικός υπάρχει ήδη στη γραμμή 2' },
      {
        line: 7,
        column: 'Σειριακός αριθμός υδρομετρητή',
        reason: 'Ο ίδιος υδρομετρητής υπάρχει ήδη στη γραμμή 2',
      },
    ]);
    expect(await count()).toBe(before);
    const english = await runImport('register.csv', csv([rows[3] as string[]]), true, 'en');
    expect(english.result.errors).toEqual([{ line: 2, column: 'Αριθμός καταναλωτή', reason: 'Digits only' }]);
    // A file with bad rows is not imported either.
    const refused = await runImport('register.csv', csv(rows), false);
    expect(refused.result.created).toBe(0);
    expect(await count()).toBe(before);
  });

  it('imports consumers with their meters, matching traders by ΑΦΜ; a second run changes nothing twice', async () => {
    const before = await count();
    const traders = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/traders/search?size=1', headers: admin })).json()
        .totalElements;
    const tradersBefore = await traders();
    const rows = Array.from({ length: 20 }, (_, i) => good(i + 1));
    const { job, result } = await runImport('register.csv', csv(rows), false);
    // Ten owners share one ΑΦΜ: one trader; the ten without ΑΦΜ are ten traders.
    expect(result).toMatchObject({
      errors: [],
      rows: 20,
      created: 20,
      updated: 0,
      tradersCreated: 11,
      metersInstalled: 20,
    });
    expect(job).toMatchObject({ progressDone: 20, progressTotal: 20 });
    expect(await count()).toBe(before + 20);
    const [first] = (
      await t.app.inject({
        method: 'GET',
        url: `/api/protocol/consumers/search?code=eq(${encodeURIComponent('01-002-    2')})`,
        headers: admin,
      })
    ).json().content;
    expect(first).toMatchObject({
      ownerName: 'Παπαδόπουλος Γιώργος',
      ownerVatnumber: '094014201',
      usage: 'Οικιακή',
      status: 1,
    });
    const meters = (
      await t.app.inject({ method: 'GET', url: `/api/protocol/consumers/${first.id}/meters`, headers: admin })
    ).json();
    expect(meters).toEqual([
      expect.objectContaining({ serialNumber: 'ITR-1002', initialReading: 20, installedOn: '2020-01-15' }),
    ]);

    const tradersAfter = await traders();
    expect(tradersAfter).toBeGreaterThanOrEqual(tradersBefore + 10);
    const again = await runImport('register.csv', csv(rows), false);
    expect(again.result).toMatchObject({ created: 0, updated: 20, metersInstalled: 0, tradersCreated: 0 });
    expect(await count()).toBe(before + 20);
    // Owners by ΑΦΜ are found again; those without keep the consumer's owner of the same name.
    expect(await traders()).toBe(tradersAfter);
  });

  it('runs a few statements per chunk of rows, not several per row', async () => {
    // The register's own statements (the job polling and sessions aside) of an import of `n` new rows.
    const statements = async (from: number, n: number) => {
      const before = t.queries.length;
      const rows = Array.from({ length: n }, (_, i) => good(from + i));
      const { result } = await runImport('register.csv', csv(rows), false);
      expect(result).toMatchObject({ errors: [], created: n, metersInstalled: n });
      return t.queries.slice(before).filter((q) => /water_|traders|audit_log/.test(q)).length;
    };
    const few = await statements(100, 5);
    const many = await statements(200, 300);
    expect(many).toBe(few);
  });

  it('reads an xlsx as well, and refuses other files', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('x');
    sheet.addRow(HEADER);
    sheet.addRow(good(40).map((v) => v));
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const { result } = await runImport('register.xlsx', xlsx, true);
    expect(result).toMatchObject({ rows: 1, errors: [] });
    const { body, contentType } = multipart('register.pdf', '%PDF-1.4');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/protocol/consumers/import?dryRun=true',
      headers: { ...admin, 'content-type': contentType },
      payload: body,
    });
    expect(refused.statusCode).toBe(415);
    expect(refused.json().key).toBe('error.import_file_type');
  });

  it('issue 29 item 16: a meter imported at 2026-12-31T23:30Z without a connection date is installed on 2027-01-01 (Athens)', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-31T23:30:00Z'), shouldAdvanceTime: true });
    try {
      // Signed in under the fixed clock: a session of the real day would look expired to it.
      admin = await t.login('admin', ADMIN_PASSWORD);
      const row = good(500);
      row[9] = '';
      const { result } = await runImport('register.csv', csv([row]), false);
      expect(result).toMatchObject({ errors: [], created: 1, metersInstalled: 1 });
      const [consumer] = (
        await t.app.inject({
          method: 'GET',
          url: `/api/protocol/consumers/search?code=eq(${encodeURIComponent('01-002-  500')})`,
          headers: admin,
        })
      ).json().content;
      const meters = (
        await t.app.inject({
          method: 'GET',
          url: `/api/protocol/consumers/${consumer.id}/meters`,
          headers: admin,
        })
      ).json();
      expect(meters).toEqual([
        expect.objectContaining({ serialNumber: 'ITR-1500', installedOn: '2027-01-01' }),
      ]);
    } finally {
      vi.useRealTimers();
      admin = await t.login('admin', ADMIN_PASSWORD);
    }
  });

  it('issue 29 item 5: a register whose one cell unpacks to 300 MB is refused with 413; a cell too long fails the file at its line', async () => {
    const bomb = await xlsxWithLargeCell(
      [HEADER, good(600).map((v, i) => (i === 6 ? '{large}' : v))],
      300 * 1024 * 1024,
    );
    const { body, contentType } = multipart('register.xlsx', bomb);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/protocol/consumers/import?dryRun=true',
      headers: { ...admin, 'content-type': contentType },
      payload: body,
    });
    expect(refused.statusCode).toBe(413);
    expect(refused.json().key).toBe('error.import_unpacked_too_large');
    const long = await xlsxWithLargeCell(
      [HEADER, good(601).map((v, i) => (i === 6 ? '{large}' : v))],
      40_000,
    );
    const { result } = await runImport('register.xlsx', long, true, 'en');
    expect(result).toMatchObject({
      rows: 0,
      errors: [
        { line: 2, column: '', reason: 'Line 2, column 7: the cell holds more than 32767 characters.' },
      ],
    });
  });

  it('keeps no uploaded file once its job has ended', async () => {
    expect(await t.database.db.select().from(waterImportFiles)).toEqual([]);
  });
});
