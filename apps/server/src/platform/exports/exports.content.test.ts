import { documentsCatalog } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { csvRows, pdfText } from '../../test/files.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';

/**
 * What an export holds, cell by cell, against the list it exports (read page by page as the screen
 * reads it): more rows than a batch (1,000), every column, Greek text with commas, quotes and line
 * breaks, dates as days in Athens, enums as labels, money to the cent.
 */
let t: TestApp;
let admin: { authorization: string };
const YEAR = 2031;
const COUNT = 1234;
const list = `/api/document/search?protocolYear=eq(${YEAR})&sort=protocolNumber,ASC`;
const columns = documentsCatalog.fields.filter((field) => field.exportable);

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  const db = t.database.db;
  const [book] = rowsOf<{ id: number }>(
    await db.execute(sql`SELECT min(id) AS id FROM protocol_books WHERE company_id = 1`),
  );
  const [type] = rowsOf<{ id: number }>(
    await db.execute(sql`SELECT min(id) AS id FROM document_types WHERE company_id = 1`),
  );
  const [owner] = rowsOf<{ id: number }>(
    await db.execute(sql`SELECT id FROM users WHERE username = 'admin'`),
  );
  // Numbers 1–3 fall at the day's edges in Athens (UTC+2 in January, UTC+3 in July).
  await db.execute(sql`
    INSERT INTO documents (company_id, kind, state, subject, name, correspondents, protocol_book_id,
      protocol_number, protocol_year, protocol_date, protocol_id_sender, protocol_send_date,
      document_type_id, charged_user_id, send_status, folder)
    SELECT 1, n % 2, 0,
      CASE WHEN n = 1 THEN 'Αίτηση «σύνδεσης», "επείγον"' || chr(10) || 'β΄ όροφος'
           ELSE 'Αίτηση σύνδεσης παροχής ύδρευσης αρ. ' || n END,
      'Τίτλος ' || n, 'Παπαδοπούλου Μαρία, Οικονόμου Γιώργος', ${book?.id}, n, ${YEAR},
      CASE n WHEN 1 THEN timestamptz '2031-01-15 22:30:00Z' WHEN 2 THEN timestamptz '2031-07-15 21:30:00Z'
             WHEN 3 THEN timestamptz '2031-07-15 20:59:59Z'
             ELSE timestamptz '2031-01-01 10:00:00Z' + n * interval '97 minutes' END,
      CASE WHEN n % 3 = 0 THEN 'ΔΠ-' || n END,
      CASE WHEN n % 3 = 0 THEN date '2030-12-01' + (n % 300) END,
      ${type?.id}, CASE WHEN n % 2 = 0 THEN ${owner?.id}::int END, (ARRAY[0, 1, 2, 9])[1 + n % 4],
      CASE WHEN n % 5 = 0 THEN 'Φ.' || n END
    FROM generate_series(1, ${COUNT}) AS n`);
});
afterAll(async () => {
  await t?.close();
});

const download = async (format: string, uri = list, chosen = columns.map((c) => c.id)) => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/export/file?format=${format}&lang=el&columns=${chosen.join(',')}&uri=${encodeURIComponent(uri)}`,
    headers: admin,
  });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return response.rawPayload;
};

/** The list as the screen reads it, page by page (OFFSET pages: another path than the export's). */
async function listed(uri: string): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (let page = 0; ; page++) {
    const response = await t.app.inject({
      method: 'GET',
      url: `${uri}&size=700&page=${page}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    const { content, last } = response.json();
    rows.push(...content);
    if (last) return rows;
  }
}

const athensDay = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Athens',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const labels: Record<string, Record<string, string>> = {
  kind: { 0: 'Εισερχόμενο', 1: 'Εξερχόμενο' },
  sendStatus: { 0: 'Σε αναμονή', 1: 'Προς αποστολή', 2: 'Απεστάλη', 9: 'Ολοκληρώθηκε' },
};

/** A cell of the CSV from the list's JSON value, written here independently of the export's code. */
function expectedCell(id: string, type: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (type === 'enum') return labels[id]?.[String(value)] ?? String(value);
  if (type === 'date') {
    const text = String(value);
    const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    return day ? `${day[3]}/${day[2]}/${day[1]}` : athensDay.format(new Date(text));
  }
  return String(value);
}

describe('an export holds what its list shows', () => {
  it('CSV: every column of every row, in the list’s order, across batches', async () => {
    const from = t.queries.length;
    const rows = csvRows(await download('csv'));
    // The ids in the list's order once, then each batch of 1,000 by its ids: no OFFSET, which would
    // make PostgreSQL read every earlier row again for each batch; the batch's ids in one array parameter.
    const read = t.queries.slice(from).filter((query) => /from "documents"/.test(query));
    expect(read.filter((query) => /^select "documents"\."id" from/.test(query))).toHaveLength(1);
    expect(read.filter((query) => /"documents"\."id" = ANY\(\$\d+::integer\[\]\)/.test(query))).toHaveLength(
      Math.ceil(COUNT / 1000),
    );
    expect(rows[0]).toEqual(expect.arrayContaining(['Α/Α', 'Είδος', 'Θέμα', 'Ημ/νία πρωτοκόλλησης']));
    expect(rows[0]).toHaveLength(columns.length);
    const shown = await listed(list);
    expect(shown).toHaveLength(COUNT);
    expect(rows.slice(1)).toEqual(
      shown.map((item) => columns.map((column) => expectedCell(column.id, column.type, item[column.id]))),
    );
    // Hand-checked: Greek text with a comma, quotes and a line break; the days of instants near midnight.
    const at = (header: string) => rows[0]?.indexOf(header) ?? -1;
    expect(rows[1]?.[at('Θέμα')]).toBe('Αίτηση «σύνδεσης», "επείγον"\nβ΄ όροφος');
    expect(rows.slice(1, 4).map((row) => row[at('Ημ/νία πρωτοκόλλησης')])).toEqual([
      '16/01/2031',
      '16/07/2031',
      '15/07/2031',
    ]);
    expect(rows[3]?.[at('Ημ/νία αποστολέα')]).toBe('04/12/2030');
    expect(rows[1]?.[at('Είδος')]).toBe('Εξερχόμενο');
    expect(rows[2]?.[at('Κατάσταση αποστολής')]).toBe('Απεστάλη');
    expect(rows[2]?.[at('Χρεωμένο σε')]).not.toBe('');
  });

  it('Excel: the same rows, numbers as numbers and days as dates', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await download('excel')) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.rowCount).toBe(COUNT + 1);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const cell = (row: number, label: string) => sheet.getRow(row).getCell(header.indexOf(label) + 1);
    expect(cell(2, 'Αριθμός')?.value).toBe(1);
    expect(cell(2, 'Θέμα')?.value).toBe('Αίτηση «σύνδεσης», "επείγον"\nβ΄ όροφος');
    expect(cell(2, 'Ημ/νία πρωτοκόλλησης')?.value).toEqual(new Date(Date.UTC(2031, 0, 16)));
    expect(cell(4, 'Ημ/νία πρωτοκόλλησης')?.value).toEqual(new Date(Date.UTC(2031, 6, 15)));
    expect(cell(4, 'Ημ/νία πρωτοκόλλησης')?.numFmt).toBe('dd/mm/yyyy');
    expect(cell(COUNT + 1, 'Αριθμός')?.value).toBe(COUNT);
  });

  it('money to the cent in every format: CSV machine-readable, Excel a number, PDF in Greek', async () => {
    // numeric(5,2): -7.005 is kept as -7.01 (half away from zero), as the export itself rounds.
    await t.database.db.execute(sql`
      INSERT INTO vat_percentages (code, description, percentage)
      VALUES (901, 'Συντελεστής α', 999.5), (902, 'Συντελεστής β', -7.005), (903, 'Συντελεστής γ', 0.1)`);
    const uri = '/api/settings/vat_percentages/search?code=gte(901)&sort=code,ASC';
    const chosen = ['code', 'description', 'percentage'];
    expect(csvRows(await download('csv', uri, chosen))).toEqual([
      ['Κατηγορία myDATA', 'Περιγραφή', 'Ποσοστό %'],
      ['901', 'Συντελεστής α', '999.50'],
      ['902', 'Συντελεστής β', '-7.01'],
      ['903', 'Συντελεστής γ', '0.10'],
    ]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await download('excel', uri, chosen)) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect([2, 3, 4].map((row) => sheet?.getRow(row).getCell(3).value)).toEqual([999.5, -7.01, 0.1]);
    expect(sheet?.getRow(2).getCell(3).numFmt).toBe('#,##0.00');
    const text = await pdfText(await download('pdf', uri, chosen));
    expect(text).toMatch(/Συντελεστής α\s+999,50/);
    expect(text).toMatch(/Συντελεστής β\s+-7,01/);
    expect(text).toMatch(/Συντελεστής γ\s+0,10/);
  });
});
