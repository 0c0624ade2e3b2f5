import { buffer } from 'node:stream/consumers';
import { Decimal, debtRfReference, rfCode } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { type JobRow, jobRegistryOf } from '../../platform/jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../../platform/jobs/worker.ts';
import { createDiskStorage } from '../../platform/storage.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp, waitForJob } from '../../test/harness.ts';
import { client, finalBill, type Json, newConsumer } from '../../test/water-fixtures.ts';
import { createCompany } from '../companies/api.ts';
import { bankImportJob } from './bank.import.ts';
import { paymentsModule } from './index.ts';

/**
 * The banks' payment files (issue 18) through the API: a CSV file with a matched, a partly paid, an
 * overpaid, an unknown-RF and a malformed line; the same file again adds nothing; an unmatched line
 * matched by hand; a fixed-width file paying a settlement's down payment activates it; bad files and
 * layouts are 4xx with translated messages; another company sees nothing.
 */
let t: TestApp;
let admin: { authorization: string };
let api: ReturnType<typeof client>;
let worker: JobWorker;
let demo: number;
let other: number;
let q: string;
let sofia: number;
let aris: number;
let eleni: number;
let bill1: Json;
let bill2: Json;
let arisBill: Json;

const comma = (amount: string | Decimal) => new Decimal(amount).toFixed(2).replace('.', ',');
const unknownRf = rfCode('0019999999999999');

function multipart(name: string, content: Buffer | string) {
  const boundary = '----bank-file-test';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(layoutCode: string, name: string, content: Buffer | string, language = 'el') {
  const layouts = (await api.get(`/api/payments/bank/layouts${q}`)).json() as Json[];
  const layout = layouts.find((l) => l.code === layoutCode) as Json;
  const { body, contentType } = multipart(name, content);
  return t.app.inject({
    method: 'POST',
    url: `/api/payments/bank/files${q}&layoutId=${layout.id}`,
    headers: { ...admin, 'content-type': contentType, 'accept-language': language },
    payload: body,
  });
}

async function importFile(layoutCode: string, name: string, content: string): Promise<Json> {
  const started = await upload(layoutCode, name, content);
  expect(started.statusCode, started.body).toBe(202);
  const job = await waitForJob(t, admin, started.json().jobId);
  expect(job.state, job.error ?? '').toBe('succeeded');
  const report = await api.get(`/api/payments/bank/files/${started.json().fileId}${q}`);
  expect(report.statusCode, report.body).toBe(200);
  return report.json();
}

const count = async (table: 'payments_payments' | 'payments_allocations') => {
  const result = await t.database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`));
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
};
const account = async (consumer: number) =>
  (await api.get(`/api/payments/accounts/${consumer}${q}`)).json() as Json;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  api = client(t, admin);
  demo = (await api.get('/api/users/authenticatedUser')).json().companies[0].id;
  other = (await createCompany(t.database.db, { companyname: 'ΔΕΥΑ Β', companytitle: 'ΔΕΥΑ Β' }, 'test')).id;
  q = `?companyid=${demo}`;
  sofia = await newConsumer(api, q, ['01', '001', '971'], {
    individual: true,
    lastname: 'Παπαδοπούλου',
    firstname: 'Σοφία',
  });
  aris = await newConsumer(api, q, ['01', '001', '972'], {
    individual: true,
    lastname: 'Νικολάου',
    firstname: 'Άρης',
  });
  eleni = await newConsumer(api, q, ['01', '001', '973'], {
    individual: true,
    lastname: 'Οικονόμου',
    firstname: 'Ελένη',
  });
  // Issued in date order: the bills' series refuses an issue date before its last.
  bill1 = await finalBill(api, q, sofia, '2026-01-01', '2026-04-30', '25', '2026-05-10');
  arisBill = await finalBill(api, q, aris, '2026-01-01', '2026-04-30', '30', '2026-05-10');
  await finalBill(api, q, eleni, '2026-01-01', '2026-02-28', '60', '2026-05-10');
  await finalBill(api, q, eleni, '2026-03-01', '2026-04-30', '45', '2026-05-11');
  await finalBill(api, q, eleni, '2026-05-01', '2026-06-30', '70', '2026-07-10');
  bill2 = await finalBill(api, q, sofia, '2026-05-01', '2026-08-31', '10', '2026-09-10');
  worker = startJobWorker(t.database.db, jobRegistryOf([paymentsModule]), {
    pollMs: 20,
    leaseMs: 5000,
  });
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

let csvFile: string;
let unmatchedId: number;

describe('layouts', () => {
  it('gives every company the CSV and the fixed-width layout, edited as data', async () => {
    const layouts = (await api.get(`/api/payments/bank/layouts${q}`)).json() as Json[];
    expect(layouts.map((l) => [l.code, l.format])).toEqual([
      ['CSV', 'csv'],
      ['FIXED', 'fixed'],
    ]);
    // Made without the module defaults, the other company has none, and never sees the demo's.
    expect((await api.get(`/api/payments/bank/layouts?companyid=${other}`)).json()).toEqual([]);
    const [csv] = (await api.get(`/api/payments/bank/layouts${q}`)).json() as Json[];
    const { id, ...body } = csv as Json;
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/payments/bank/layouts/${id}${q}`,
      headers: admin,
      payload: { ...body, descr: 'e-banking CSV' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().descr).toBe('e-banking CSV');
    // Without the amount's place: 400 naming the field, in the asker's language.
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/payments/bank/layouts${q}`,
      headers: { ...admin, 'accept-language': 'en' },
      payload: { ...body, code: 'X', fields: body.fields.filter((f: Json) => f.field !== 'amount') },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors[0]).toMatchObject({
      field: 'fields',
      key: 'validation.bank_layout_fields',
    });
    const taken = await t.app.inject({
      method: 'POST',
      url: `/api/payments/bank/layouts${q}`,
      headers: admin,
      payload: body,
    });
    expect(taken.statusCode).toBe(409);
    const foreign = await t.app.inject({
      method: 'PUT',
      url: `/api/payments/bank/layouts/${id}?companyid=${other}`,
      headers: admin,
      payload: body,
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('a CSV file', () => {
  it('matches by RF: exact, less, more (the rest as credit), unknown and malformed, each with its reason', async () => {
    const receiptsBefore = await count('payments_payments');
    const over = new Decimal(bill2.current).plus('10.00');
    csvFile = [
      'Αναφορά;Ημερομηνία;RF;Ποσό;Πληρωτής',
      `B-0001;20/11/2026;${bill1.rfCode};${comma(bill1.total)};Παπαδοπούλου Σοφία`,
      `B-0002;20/11/2026;${arisBill.rfCode};5,00;Νικολάου Άρης`,
      `B-0003;21/11/2026;${bill2.rfCode.replace(/(.{4})/g, '$1 ')};${comma(over)};Παπαδοπούλου Σοφία`,
      `B-0004;21/11/2026;${unknownRf};100,00;Άγνωστος πληρωτής`,
      `B-0005;21/11/2026;${bill1.rfCode};δέκα;Λάθος`,
    ].join('\r\n');
    const { file, lines } = await importFile('CSV', 'rf-2026-11-21.csv', csvFile);
    expect(file.state).toBe('done');
    // The bank's file is kept, as it came, on the storage adapter (not in the database).
    const [stored] = (
      (await t.database.db.execute(
        sql`SELECT storage_key, content FROM payments_bank_files WHERE id = ${file.id}`,
      )) as unknown as { rows: { storage_key: string | null; content: unknown }[] }
    ).rows;
    expect(stored?.content).toBeNull();
    const kept = await createDiskStorage(t.config.storageDir).get(stored?.storage_key ?? '');
    expect(kept && (await buffer(kept.stream)).toString('utf8')).toBe(csvFile);
    expect(file.summary).toEqual({
      lines: 5,
      matched: 1,
      partly: 2,
      unmatched: 1,
      manual: 0,
      invalid: 1,
      duplicate: 0,
      paid: new Decimal(bill1.total).plus('5.00').plus(over).toFixed(2),
    });
    expect(lines.map((l: Json) => [l.lineNo, l.bankReference, l.status, l.reason, l.credit])).toEqual([
      [2, 'B-0001', 'matched', 'paid', '0.00'],
      [3, 'B-0002', 'partly', 'less', '0.00'],
      [4, 'B-0003', 'partly', 'more', '10.00'],
      [5, 'B-0004', 'unmatched', 'unknownRf', null],
      [6, 'B-0005', 'invalid', 'badAmount', null],
    ]);
    unmatchedId = lines[3].id;
    // Three receipts of the one series, in line order, by the "bank" cashier with method bank.
    expect(await count('payments_payments')).toBe(receiptsBefore + 3);
    const receipts = lines.slice(0, 3).map((l: Json) => l.receipt.split('/').map(Number));
    expect(receipts[1][0]).toBe(receipts[0][0] + 1);
    expect(receipts[2][0]).toBe(receipts[1][0] + 1);
    const payment = (await api.get(`/api/payments/payments/${lines[2].paymentId}${q}`)).json();
    expect(payment).toMatchObject({
      method: 'bank',
      cashier: 'bank',
      kind: null,
      date: '2026-11-21',
      reference: 'B-0003',
      amount: over.toFixed(2),
      unallocated: '10.00',
    });
    expect(payment.allocations.map((a: Json) => [a.rfCode, a.amount])).toEqual([
      [bill2.rfCode, bill2.current],
    ]);
    // Sofia owes nothing and holds 10.00 credit; Aris owes his bill less 5.00.
    const sofiaAccount = await account(sofia);
    expect(sofiaAccount.debts).toEqual([]);
    expect(sofiaAccount.balance).toBe('-10.00');
    expect((await account(aris)).due).toBe(new Decimal(arisBill.total).minus(5).toFixed(2));
    // The bills know what is paid (billing's next run carries only what is owed).
    const paid = await t.database.db.execute(
      sql`SELECT paid::text FROM billing_bills WHERE id = ${bill2.id}`,
    );
    expect((paid as unknown as { rows: { paid: string }[] }).rows[0]?.paid).toBe(bill2.total);
  });

  it('issue 29 item 5: a bank file with a line longer than 32,767 characters is refused with 413, naming the line', async () => {
    const refused = await upload('CSV', 'long.csv', `RF,amount\n${'9'.repeat(70_000)}\n`, 'en');
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({
      key: 'error.import_line_too_long',
      params: { line: 2, max: 32_767 },
      message: 'Line 2 is longer than 32767 characters.',
    });
  });

  it('adds nothing when the same file comes again: its lines report they were imported before', async () => {
    const payments = await count('payments_payments');
    const allocations = await count('payments_allocations');
    const { file, lines } = await importFile('CSV', 'rf-2026-11-21 (again).csv', csvFile);
    expect(file.summary).toMatchObject({
      lines: 5,
      matched: 0,
      partly: 0,
      unmatched: 0,
      duplicate: 4,
      invalid: 1,
      paid: '0.00',
    });
    expect(lines.map((l: Json) => [l.status, l.reason])).toEqual([
      ['duplicate', 'already'],
      ['duplicate', 'already'],
      ['duplicate', 'already'],
      ['duplicate', 'already'],
      ['invalid', 'badAmount'],
    ]);
    expect(await count('payments_payments')).toBe(payments);
    expect(await count('payments_allocations')).toBe(allocations);
    const files = (await api.get(`/api/payments/bank/files${q}`)).json() as Json[];
    expect(files.map((f) => f.fileName).slice(0, 2)).toEqual([
      'rf-2026-11-21 (again).csv',
      'rf-2026-11-21.csv',
    ]);
  });
});

describe('matching by hand', () => {
  it('lists the unmatched lines of every file and pays one to the consumer staff choose', async () => {
    const waiting = (await api.get(`/api/payments/bank/unmatched${q}`)).json();
    expect(waiting.count).toBe(1);
    expect(waiting.lines[0]).toMatchObject({ id: unmatchedId, bankReference: 'B-0004', amount: '100.00' });
    const owed = new Decimal(arisBill.total).minus(5);
    const matched = await api.post(`/api/payments/bank/lines/${unmatchedId}/match${q}`, { consumerId: aris });
    expect(matched.statusCode, matched.body).toBe(200);
    expect(matched.json()).toMatchObject({ status: 'manual', reason: 'manual', consumerId: aris });
    expect(matched.json().credit).toBe(new Decimal(100).minus(owed).toFixed(2));
    expect((await account(aris)).due).toBe('0.00');
    expect((await api.get(`/api/payments/bank/unmatched${q}`)).json().count).toBe(0);
    const report = (await api.get(`/api/payments/bank/files/${matched.json().fileId}${q}`)).json();
    expect(report.file.summary).toMatchObject({ unmatched: 0, manual: 1 });
    // Twice: refused, nothing paid again.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/payments/bank/lines/${unmatchedId}/match${q}`,
      headers: { ...admin, 'accept-language': 'en' },
      payload: { consumerId: aris },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('The line no longer waits to be matched.');
  });

  it('shows another company nothing: its files, lines and matching are 404', async () => {
    const [file] = (await api.get(`/api/payments/bank/files${q}`)).json() as Json[];
    expect((await api.get(`/api/payments/bank/files/${file?.id}?companyid=${other}`)).statusCode).toBe(404);
    expect((await api.get(`/api/payments/bank/files?companyid=${other}`)).json()).toEqual([]);
    expect((await api.get(`/api/payments/bank/unmatched?companyid=${other}`)).json().count).toBe(0);
    const foreign = await api.post(`/api/payments/bank/lines/${unmatchedId}/match?companyid=${other}`, {
      consumerId: aris,
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('a fixed-width file', () => {
  it("pays a settlement's down payment by its RF and the settlement becomes active", async () => {
    const debts = (await api.get(`/api/settlements/consumers/${eleni}/debts${q}`)).json() as Json[];
    const twelve = ((await api.get(`/api/settlements/categories${q}`)).json() as Json[]).find(
      (c) => c.code === '12',
    ) as Json;
    const total = debts.reduce((s, d) => s.plus(d.remaining), new Decimal(0));
    const created = await api.post(`/api/settlements${q}`, {
      consumerId: eleni,
      categoryId: twelve.id,
      debtIds: debts.map((d) => d.id),
      discountPercent: '0',
      downPayment: total.times('0.25').toDecimalPlaces(2).toFixed(2),
      instalments: 6,
      comments: null,
    });
    expect(created.statusCode, created.body).toBe(201);
    const settlement = created.json();
    const down = settlement.lines[0];
    const cents = new Decimal(down.amount).times(100).toFixed(0);
    const record = `2${'FX00000000000000001'.padEnd(20)}20261125${down.rfCode.padEnd(25)}${cents.padStart(15, '0')}${'ΟΙΚΟΝΟΜΟΥ ΕΛΕΝΗ'.padEnd(40)}`;
    const { lines } = await importFile(
      'FIXED',
      'dias-20261125.txt',
      ['1HEADER 20261125', record, '9TRAILER 1'].join('\n'),
    );
    expect(lines.map((l: Json) => [l.status, l.reason, l.amount, l.consumerId])).toEqual([
      ['matched', 'paid', down.amount, eleni],
    ]);
    const now = (await api.get(`/api/settlements/${settlement.id}${q}`)).json();
    expect(now.status).toBe(1);
    expect(now.lines[0]).toMatchObject({ state: 'paid', paid: down.amount });
  });
});

describe('bad files', () => {
  it('refuses what is not a text file, an empty upload and a file the layout cannot read, translated', async () => {
    const pdf = await upload('CSV', 'statement.pdf', Buffer.from('%PDF-1.4\0\0binary'), 'en');
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().message).toBe("The bank's file must be a text file (.csv, .txt or .dat).");
    const empty = await upload('CSV', 'empty.csv', '', 'el');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Επιλέξτε το αρχείο πληρωμών της τράπεζας.');
    // The fixed-width layout reads nothing of a CSV: the wrong layout, said before any job runs.
    const wrong = await upload('FIXED', 'rf.csv', csvFile, 'en');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toContain('No line of the file reads with the layout FIXED');
  });
});

describe('in batches', () => {
  /** Charges of the consumers with their RF codes, straight into the table (as the bench makes them). */
  async function charges(n: number): Promise<{ rf: string; amount: string }[]> {
    const made: { rf: string; amount: string }[] = [];
    for (let i = 0; i < n; i++) {
      const consumer = [sofia, aris, eleni][i % 3] as number;
      const amount = `${10 + i}.25`;
      const result = await t.database.db.execute(sql`
        INSERT INTO payments_debts (company_id, consumer_id, source, kind, description, issue_date, due_date, amount)
        VALUES (${demo}, ${consumer}, 'charge', 99, ${`Χρέωση ${i}`}, '2026-10-01', '2026-10-31', ${amount})
        RETURNING id`);
      const id = (result as unknown as { rows: { id: number }[] }).rows[0]?.id as number;
      const rf = rfCode(debtRfReference(demo, id));
      await t.database.db.execute(sql`UPDATE payments_debts SET rf_code = ${rf} WHERE id = ${id}`);
      made.push({ rf, amount });
    }
    return made;
  }
  const statementsOf = async (name: string, debts: { rf: string; amount: string }[]) => {
    const file = [
      'Αναφορά;Ημερομηνία;RF;Ποσό;Πληρωτής',
      ...debts.map((d, i) => `${name}-${i};26/11/2026;${d.rf};${comma(d.amount)};Χ`),
    ].join('\n');
    const from = t.queries.length;
    const { lines } = await importFile('CSV', `${name}.csv`, file);
    expect(lines.every((l: Json) => l.status === 'matched')).toBe(true);
    // The import's own statements (the job polling and the report's reads aside).
    return t.queries
      .slice(from)
      .filter((q) =>
        /payments_(debts|payments|allocations|entries|bank_lines|receipt_counters)|billing_bills/i.test(q),
      )
      .filter((q) => !/^select .* from "payments_bank_lines" .* limit/i.test(q)).length;
  };

  it('looks RF codes up and pays a chunk in the same statements whatever its number of lines', async () => {
    const few = await statementsOf('few', await charges(3));
    const many = await statementsOf('many', await charges(30));
    expect(few).toBeGreaterThan(5);
    expect(many).toBe(few);
  });

  it('goes on after the last committed chunk when run again after a stop, paying nothing twice', async () => {
    const debts = await charges(7);
    const content = [
      'Αναφορά;Ημερομηνία;RF;Ποσό;Πληρωτής',
      ...debts.map((d, i) => `stop-${i};26/11/2026;${d.rf};${comma(d.amount)};Χ`),
    ].join('\n');
    const [layout] = (await api.get(`/api/payments/bank/layouts${q}`)).json() as Json[];
    const [file] = (
      (await t.database.db.execute(sql`
        INSERT INTO payments_bank_files (company_id, layout_id, file_name, content, createuser)
        VALUES (${demo}, ${layout?.id}, 'stop.csv', ${Buffer.from(content)}, 'test') RETURNING id`)) as unknown as {
        rows: { id: number }[];
      }
    ).rows;
    const payload = { fileId: file?.id as number, companyId: demo, username: 'test' };
    const payments = await count('payments_payments');
    // The first run stops after its first chunk of 3 lines (a server stopping, a lease lost).
    const stop = new AbortController();
    const seen: number[] = [];
    const run = (signal: AbortSignal, progress: (done: number) => void) =>
      bankImportJob(
        {
          db: t.database.db,
          payload,
          signal,
          job: {} as JobRow,
          progress: async (done) => progress(done),
        },
        3,
      );
    await expect(
      run(stop.signal, (done) => {
        seen.push(done);
        if (done > 0) stop.abort();
      }),
    ).rejects.toThrow('aborted');
    expect(seen).toEqual([0, 3]);
    expect(await count('payments_payments')).toBe(payments + 3);
    // Run again: it starts after line 4 (the header is line 1) and pays the four others once.
    seen.length = 0;
    const summary = await run(new AbortController().signal, (done) => seen.push(done));
    expect(seen).toEqual([3, 6, 7]);
    expect(summary).toMatchObject({ lines: 7, matched: 7, duplicate: 0, unmatched: 0 });
    expect(await count('payments_payments')).toBe(payments + 7);
    const receipts = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`
        SELECT p.receipt_number AS n FROM payments_bank_lines l JOIN payments_payments p ON p.id = l.payment_id
         WHERE l.file_id = ${file?.id} ORDER BY l.line_no`),
    ).map((r) => Number(r.n));
    expect(receipts).toEqual(receipts.map((_, i) => (receipts[0] as number) + i));
  });
});
