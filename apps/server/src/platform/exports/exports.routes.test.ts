import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRows, docxTableRows, pdfText, xlsxRows } from '../../test/files.ts';
import { ADMIN_PASSWORD, createOperator, grant, startTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: { authorization: string };
const filtered = `/api/users/search?lastname=${encodeURIComponent('ci(contains(ΠΑΠΑΔΟΠΟΥΛΟΥ))')}&sort=firstname,DESC`;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  await createOperator(t, admin, {
    username: 'epapadopoulou',
    firstname: 'Ελένη',
    lastname: 'Παπαδοπούλου',
    kind: 1,
  });
  await createOperator(t, admin, {
    username: 'kakovoulos',
    firstname: '=HYPERLINK("x")',
    lastname: '+Κακόβουλος',
  });
});
afterAll(async () => {
  await t?.close();
});

const exportFile = async (format: string, uri = filtered, extra: Record<string, unknown> = {}) => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/export',
    headers: admin,
    payload: {
      uri,
      params: { format, columns: ['lastname', 'firstname', 'kind', 'active'], lang: 'el', ...extra },
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  const { file, fileName } = response.json();
  return { bytes: Buffer.from(file, 'base64'), fileName: fileName as string };
};

const expected = [
  ['Επώνυμο', 'Όνομα', 'Τύπος', 'Ενεργός'],
  ['Παπαδοπούλου', 'Μαρία', 'Χρήστης', 'Ναι'],
  ['Παπαδοπούλου', 'Ελένη', 'Διαχειριστής', 'Ναι'],
];

describe('POST /api/export (spec §7): the list’s query as a file', () => {
  it('Excel: Greek headers in the view’s column order, the filtered rows in their sort, enum labels', async () => {
    const { bytes, fileName } = await exportFile('excel');
    expect(fileName).toMatch(/^Χειριστές_\d{2}-\d{2}-\d{4}\.xlsx$/);
    expect(await xlsxRows(bytes)).toEqual(expected);
  });

  it('CSV: UTF-8 with a BOM, and formula-looking cells neutralised', async () => {
    const { bytes } = await exportFile('csv');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csvRows(bytes)).toEqual(expected);
    const hostile = await exportFile('csv', `/api/users/search?search=${encodeURIComponent('κακοβουλοσ')}`, {
      columns: ['username', 'firstname', 'lastname'],
    });
    expect(csvRows(hostile.bytes)).toEqual([
      ['Όνομα χρήστη', 'Όνομα', 'Επώνυμο'],
      ['kakovoulos', `'=HYPERLINK("x")`, "'+Κακόβουλος"],
    ]);
  });

  it('Word: a table with the same headers and rows', async () => {
    const { bytes, fileName } = await exportFile('word');
    expect(fileName.endsWith('.docx')).toBe(true);
    expect(docxTableRows(bytes)).toEqual(expected);
  });

  it('PDF: the title, the headers and the rows as text, in an embedded Greek font', async () => {
    const { bytes } = await exportFile('pdf');
    const text = await pdfText(bytes);
    expect(text).toContain('Χειριστές');
    expect(text).toMatch(/Επώνυμο\s+Όνομα\s+Τύπος\s+Ενεργός/);
    expect(text.indexOf('Μαρία')).toBeLessThan(text.indexOf('Ελένη'));
    expect(text).not.toContain('Νικολάου');
  });

  it('writes English headers and labels when asked', async () => {
    const { bytes, fileName } = await exportFile('excel', filtered, { lang: 'en' });
    expect(fileName).toMatch(/^Operators_/);
    expect((await xlsxRows(bytes))[0]).toEqual(['Last name', 'First name', 'Type', 'Active']);
  });

  it('streams the same file as a download with a Greek file name', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/export/file?format=csv&columns=lastname,firstname&uri=${encodeURIComponent(filtered)}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(String(response.headers['content-disposition'])).toContain(
      "filename*=UTF-8''%CE%A7%CE%B5%CE%B9%CF%81",
    );
    expect(csvRows(response.rawPayload).slice(1)).toEqual([
      ['Παπαδοπούλου', 'Μαρία'],
      ['Παπαδοπούλου', 'Ελένη'],
    ]);
  });

  it('refuses an address that is no list, an unknown column, and anonymous callers', async () => {
    const uri = await t.app.inject({
      method: 'POST',
      url: '/api/export',
      headers: admin,
      payload: { uri: '/api/account/login', params: { format: 'csv' } },
    });
    expect(uri.statusCode).toBe(400);
    const column = await t.app.inject({
      method: 'POST',
      url: '/api/export',
      headers: admin,
      payload: { uri: filtered, params: { format: 'csv', columns: ['passwordHash'] } },
    });
    expect(column.json()).toMatchObject({
      status: 400,
      key: 'error.unknown_field',
      params: { field: 'passwordHash' },
    });
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/export',
      payload: { uri: filtered, params: null },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('an operator’s export needs the list’s permission, and holds only what their list shows', async () => {
    const op = await t.login('mpapadopoulou', 'Demo-2026!');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/export',
      headers: op,
      payload: { uri: '/api/users/search', params: { format: 'csv' } },
    });
    expect(refused.statusCode).toBe(403);
    await grant(t, 'mpapadopoulou', ['users:read']);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/export',
      headers: op,
      payload: { uri: '/api/users/search?size=-1', params: { format: 'csv', columns: ['username'] } },
    });
    const names = csvRows(Buffer.from(response.json().file, 'base64')).flat();
    expect(names).not.toContain('admin');
    expect(names).toContain('gnikolaou');
  });

  it('lists the standard exports of an entity', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/export/getForEntity?entityName=users&aa_deya=1',
      headers: admin,
    });
    expect(response.json()).toEqual({
      standard: [
        { uri: '/api/users/search?format=pdf', label: 'PDF' },
        { uri: '/api/users/search?format=excel', label: 'Excel' },
        { uri: '/api/users/search?format=csv', label: 'CSV' },
        { uri: '/api/users/search?format=word', label: 'Word' },
      ],
      custom: [],
    });
  });
});
