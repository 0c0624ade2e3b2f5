import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';

/** The accounting plan's Excel import (issue 19). */
let t: TestApp;
let admin: { authorization: string };
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

async function workbook(rows: (string | number)[][]) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Λογαριασμοί');
  sheet.addRow(['Κωδικός', 'Περιγραφή', 'Είδος', 'Συγκεντρωτικός']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}
const upload = (body: Buffer, contentType = XLSX) =>
  t.app.inject({
    method: 'POST',
    url: '/api/finance/accounts/import?companyid=1',
    headers: { ...admin, 'content-type': contentType },
    payload: body,
  });

describe('accounting plan import', () => {
  it('creates new codes and updates existing ones; the same file twice changes nothing', async () => {
    const file = await workbook([
      ['74', 'Επιχορηγήσεις', 1, 1],
      ['74.00', 'Επιχορηγήσεις από Δήμο', 1, 0],
      ['73', 'Πωλήσεις υπηρεσιών ύδρευσης', 1, 1],
    ]);
    const first = await upload(file);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ created: 2, updated: 1 });
    expect((await upload(file)).json()).toEqual({ created: 0, updated: 3 });
    const accounts = (
      await t.app.inject({ method: 'GET', url: '/api/finance/accounts?companyid=1', headers: admin })
    ).json();
    expect(accounts.find((a: { code: string }) => a.code === '74.00')).toMatchObject({
      parentCode: '74',
      aggregate: 0,
    });
    expect(accounts.find((a: { code: string }) => a.code === '73').descr).toBe('Πωλήσεις υπηρεσιών ύδρευσης');
  });

  it('refuses the whole file, naming the Excel row, when a code does not fit the mask or a kind is wrong', async () => {
    const response = await upload(
      await workbook([
        ['75', 'Καλό', 1, 1],
        ['75.1', 'Κακός κωδικός', 1, 0],
        ['76', 'Κακό είδος', 4, 0],
      ]),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.map((e: { field: string; key: string }) => [e.field, e.key])).toEqual([
      ['rows.3.code', 'finance.error.codeMask'],
      ['rows.4.kind', 'validation.invalid'],
    ]);
    const accounts = (
      await t.app.inject({ method: 'GET', url: '/api/finance/accounts?companyid=1', headers: admin })
    ).json();
    expect(accounts.some((a: { code: string }) => a.code === '75')).toBe(false);
  });

  it('refuses what is not an .xlsx and what is too large', async () => {
    const fake = await upload(Buffer.from('code;descr\n70;x'));
    expect(fake.statusCode).toBe(415);
    expect(fake.json().key).toBe('finance.error.notXlsx');
    expect((await upload(Buffer.from('{}'), 'application/json')).statusCode).toBe(415);
    expect((await upload(Buffer.alloc(3 * 1024 * 1024, 1))).statusCode).toBe(413);
  });
});
