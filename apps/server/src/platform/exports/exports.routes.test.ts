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

describe('issue 29 item 10: what getForEntity offers, POST /api/export exports', () => {
  const catalogue = 'Κατάλογος ηλεκτρονικών αιτήσεων';
  const getForEntity = (query: string, headers = admin) =>
    t.app.inject({ method: 'GET', url: `/api/export/getForEntity?${query}`, headers });
  const post = (uri: string, headers = admin) =>
    t.app.inject({ method: 'POST', url: '/api/export', headers, payload: { uri, params: null } });

  it('issue 29 item 10: every entry of getForEntity (standard and the company’s own) posts as the spec says and yields its file', async () => {
    const offered = await getForEntity('entityName=FRM&aa_deya=1');
    expect(offered.statusCode, offered.body).toBe(200);
    const { standard, custom } = offered.json();
    expect(standard).toContainEqual({ uri: '/api/onlineForms/search?format=csv', label: 'CSV' });
    // The demo company's own export (a general setting export.*), of the company numbered 1.
    expect(custom).toEqual([{ label: catalogue, uri: expect.stringContaining('/api/onlineForms/search?') }]);

    const extensions: Record<string, string> = { pdf: 'pdf', excel: 'xlsx', csv: 'csv', word: 'docx' };
    for (const entry of standard) {
      const response = await post(entry.uri);
      expect(response.statusCode, `${entry.uri}: ${response.body}`).toBe(200);
      const format = new URLSearchParams(entry.uri.split('?')[1]).get('format') ?? '';
      expect(response.json().fileName).toMatch(new RegExp(`\\.${extensions[format]}$`));
    }
    const csv = csvRows(
      Buffer.from((await post('/api/onlineForms/search?format=csv')).json().file, 'base64'),
    );
    expect(csv.flat()).toContain('Δήλωση βλάβης / διαρροής');

    const own = await post(custom[0].uri);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().fileName).toMatch(/^Κατάλογος_ηλεκτρονικών_αιτήσεων_\d{2}-\d{2}-\d{4}\.csv$/);
    const rows = csvRows(Buffer.from(own.json().file, 'base64'));
    // Its columns in its order, its rows in its sort (by title).
    expect(rows[0]).toHaveLength(2);
    const titles = rows.slice(1).map((row) => row[1]);
    expect(titles).toContain('Δήλωση βλάβης / διαρροής');
    expect(titles).toEqual([...titles].sort((a, b) => (a ?? '').localeCompare(b ?? '', 'el')));
  });

  it('issue 29 item 10: the web app names a list by its address; another list, company or number gets none', async () => {
    const byPath = await getForEntity(`entityName=${encodeURIComponent('/api/onlineForms/search')}`);
    expect(byPath.json().custom.map((e: { label: string }) => e.label)).toEqual([catalogue]);
    const users = await getForEntity('entityName=users');
    expect(users.json().custom).toEqual([]);
    expect((await getForEntity('entityName=FRM&aa_deya=77')).statusCode).toBe(404);
    expect((await getForEntity(`entityName=${encodeURIComponent('/api/nowhere/search')}`)).statusCode).toBe(
      404,
    );
  });

  it('issue 29 item 10: an export address with a bad export parameter is a 400 on uri, and params override it', async () => {
    const bad = await post('/api/onlineForms/search?format=rtf');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([{ field: 'uri', key: 'validation.invalid', params: {} }]);
    const twice = await post('/api/onlineForms/search?format=csv&format=pdf');
    expect(twice.statusCode).toBe(400);
    const overridden = await t.app.inject({
      method: 'POST',
      url: '/api/export',
      headers: admin,
      payload: { uri: '/api/onlineForms/search?format=pdf', params: { format: 'csv' } },
    });
    expect(overridden.json().fileName).toMatch(/\.csv$/);
  });

  it('issue 29 item 10: a custom export is a checked general setting, and needs the list’s permission', async () => {
    const settings = await t.app.inject({ method: 'GET', url: '/api/general_settings', headers: admin });
    const rows = settings.json().map((s: { id: number; parName: string; parValue: string }) => ({
      id: s.id,
      parName: s.parName,
      parValue: s.parValue,
    }));
    const save = (extra: { parName: string; parValue: string }) =>
      t.app.inject({
        method: 'POST',
        url: '/api/general_settings',
        headers: admin,
        payload: [...rows, { id: null, ...extra }],
      });
    const bad = await save({ parName: 'export.no_title', parValue: '/api/users/search?format=csv' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors[0]).toMatchObject({ key: 'validation.setting_export' });
    const good = await save({
      parName: 'export.admins',
      parValue: '/api/users/search?format=excel&title=Διαχειριστές&kind=eq(1)&columns=username',
    });
    expect(good.statusCode, good.body).toBe(200);
    const offered = (await getForEntity('entityName=users')).json().custom;
    expect(offered).toEqual([{ label: 'Διαχειριστές', uri: expect.stringContaining('kind=eq(1)') }]);
    const file = await post(offered[0].uri);
    expect(file.statusCode, file.body).toBe(200);
    const names = (await xlsxRows(Buffer.from(file.json().file, 'base64'))).flat();
    expect(names).toContain('admin');
    expect(names).not.toContain('gnikolaou');

    const op = await t.login('gnikolaou', 'Demo-2026!');
    const refused = await getForEntity('entityName=users', op);
    expect(refused.statusCode).toBe(403);
  });
});
