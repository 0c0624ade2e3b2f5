import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_OPERATORS } from '../../db/demo-operators.ts';
import { translate } from '../../platform/i18n.ts';
import {
  ADMIN_PASSWORD,
  createOperator,
  OPERATOR_PASSWORD,
  startTestApp,
  type TestApp,
} from '../../test/harness.ts';
import { createCompany } from '../companies/api.ts';

let t: TestApp;
let admin: { authorization: string };
let otherCompany: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  otherCompany = (
    await createCompany(t.database.db, { companyname: 'Δήμος Β', companytitle: 'Δήμος Β' }, 'test')
  ).id;
});
afterAll(async () => {
  await t?.close();
});

type Json = Record<string, unknown>;
const get = async (url: string, headers = admin) => {
  const response = await t.app.inject({ method: 'GET', url, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const post = (url: string, payload: unknown, headers = admin) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as Json[] });
const withoutId = <T extends Json>(rows: T[]) => rows.map(({ id: _id, ...rest }) => rest);

describe('banks (global reference data)', () => {
  it('comes seeded with the main Greek banks', async () => {
    const banks = await get('/api/settings/banks');
    expect(banks.map((b: Json) => b.bic).sort()).toEqual(
      ['ATTIGRAA', 'CRBAGRAA', 'ERBKGRAA', 'ETHNGRAA', 'OPTIGRAA', 'PCBCGRAA', 'PIRBGRAA'].sort(),
    );
    expect(banks.every((b: Json) => b.active === true)).toBe(true);
  });

  it('saves the whole table and reloads it: add (BIC upper-cased), edit, delete', async () => {
    const banks = await get('/api/settings/banks');
    const [first, ...rest] = banks;
    const response = await post('/api/settings/banks', [
      ...rest,
      { ...first, name: `${first.name} (νέα επωνυμία)`, active: false },
      { id: null, name: 'Τράπεζα Χανίων', bic: 'chnbgraa123', active: true },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const after = await get('/api/settings/banks');
    expect(after).toHaveLength(banks.length + 1);
    expect(after.find((b: Json) => b.id === first.id)).toMatchObject({ active: false });
    expect(after.find((b: Json) => b.name === 'Τράπεζα Χανίων')).toMatchObject({ bic: 'CHNBGRAA123' });
    const removed = await post(
      '/api/settings/banks',
      after.filter((b: Json) => b.name !== 'Τράπεζα Χανίων'),
    );
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toHaveLength(banks.length);
  });

  it('refuses a bad BIC with a field error', async () => {
    const banks = await get('/api/settings/banks');
    for (const bic of ['ETHNGRA', 'ETHN1RAA', 'ETHNGRAA12', 'ETHNG-AA']) {
      const response = await post('/api/settings/banks', [
        ...banks,
        { id: null, name: 'Χ', bic, active: true },
      ]);
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors).toEqual([
        { field: `${banks.length}.bic`, key: 'validation.bic', params: {} },
      ]);
    }
    expect(translate('el', 'validation.bic')).toMatch(/BIC/);
    expect(translate('en', 'validation.bic')).toMatch(/BIC/);
  });

  it('refuses two banks with the same BIC or name (409) and keeps the table', async () => {
    const before = await get('/api/settings/banks');
    const response = await post('/api/settings/banks', [
      ...before,
      { id: null, name: 'Άλλη', bic: before[0].bic, active: true },
    ]);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      key: 'error.names_not_unique',
      message: 'Οι ονομασίες πρέπει να είναι μοναδικές',
    });
    expect(await get('/api/settings/banks')).toEqual(before);
  });

  it('has a list with filters, and exports it', async () => {
    const page = await get('/api/settings/banks/search?bic=ci(contains(grbk))&sort=name,ASC');
    expect(page.totalElements).toBe(0);
    const eurobank = await get('/api/settings/banks/search?search=eurob');
    expect(eurobank.content).toEqual([expect.objectContaining({ bic: 'ERBKGRAA' })]);
    const exported = await post('/api/export', {
      uri: '/api/settings/banks/search?sort=name,ASC',
      params: { format: 'csv', lang: 'en' },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const csv = Buffer.from(exported.json().file, 'base64').toString('utf8');
    expect(csv).toContain('Name');
    expect(csv).toContain('PIRBGRAA');
  });
});

describe('VAT tables (global)', () => {
  it('has the myDATA VAT categories with their rates as decimal strings', async () => {
    const rates = await get('/api/settings/vat_percentages');
    expect(rates.map((r: Json) => [r.code, r.percentage])).toEqual([
      [1, '24'],
      [2, '13'],
      [3, '6'],
      [4, '17'],
      [5, '9'],
      [6, '4'],
      [7, '0'],
      [8, '0'],
    ]);
  });

  it('saves a decimal rate and refuses a rate out of range or a category outside myDATA', async () => {
    const rates = await get('/api/settings/vat_percentages');
    const saved = await post('/api/settings/vat_percentages', [
      ...rates,
      { id: null, code: 9, description: 'ΦΠΑ 3%', percentage: '3.50', active: true },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().at(-1)).toMatchObject({ code: 9, percentage: '3.5' });
    const bad = await post('/api/settings/vat_percentages', [
      { id: null, code: 11, description: 'Χ', percentage: '101', active: true },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .fieldErrors.map((e: Json) => e.key)
        .sort(),
    ).toEqual(['validation.percentage', 'validation.vat_category']);
    const duplicate = await post('/api/settings/vat_percentages', [
      ...saved.json(),
      { id: null, code: 9, description: 'ξανά', percentage: '3', active: true },
    ]);
    expect(duplicate.statusCode).toBe(409);
  });

  it('has VAT categories and VAT status seeded and editable', async () => {
    const categories = await get('/api/settings/vat_categories');
    expect(categories.map((c: Json) => c.description)).toContain('Ενδοκοινοτικό');
    const statuses = await get('/api/settings/vat_statuses');
    expect(statuses.map((s: Json) => s.description)).toEqual(['Υπόχρεος', 'Μη υπόχρεος', 'Απαλλασσόμενος']);
    const saved = await post('/api/settings/vat_statuses', [
      ...statuses.slice(1),
      { id: statuses[0].id, code: '9', description: 'Υπόχρεος ΦΠΑ', active: true },
    ]);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().at(-1)).toMatchObject({ code: '9', description: 'Υπόχρεος ΦΠΑ' });
  });
});

describe('periodicity rows (spec §3, §5, §7)', () => {
  const url = '/api/water_service/parametrics/periodicity';

  it('saves and reloads rows at the path of spec §7', async () => {
    // The demo's rows stay: its invoice policy points to one (a row in use cannot go).
    const demo = await get(`${url}?companyid=1`);
    const response = await post(`${url}?companyid=1`, [
      ...demo,
      { id: null, periodicityType: { id: 4 }, periods: 3, startyear: 2026, startperiod: 2 },
      { id: null, periodicityType: { id: 12 }, periods: 1, startyear: 2020, startperiod: 1 },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const rows = await get(`${url}?companyid=1`);
    expect(withoutId(rows)).toEqual([
      ...withoutId(demo),
      { periodicityType: { id: 4 }, periods: 3, startyear: 2026, startperiod: 2 },
      { periodicityType: { id: 12 }, periods: 1, startyear: 2020, startperiod: 1 },
    ]);
    const list = await get('/api/settings/periodicity/search?periodicityType=eq(4)&startperiod=eq(2)');
    expect(list.content).toEqual([expect.objectContaining({ periodicityType: 4, periods: 3 })]);
  });

  it('checks each rule with its own message and params, in Greek and English', async () => {
    const rows = await get(url);
    const response = await post(url, [
      ...rows,
      { id: null, periodicityType: { id: 2 }, periods: 6, startyear: 2026, startperiod: 7 },
      { id: null, periodicityType: { id: 3 }, periods: 4, startyear: 1899, startperiod: 1 },
      { id: null, periodicityType: { id: 5 }, periods: 2, startyear: 2026, startperiod: 1 },
      { id: null, periodicityType: { id: 6 }, periods: 3, startyear: 3000, startperiod: 0 },
    ]);
    expect(response.statusCode).toBe(400);
    const errors = response.json().fieldErrors;
    expect(errors).toEqual(
      expect.arrayContaining([
        {
          field: `${rows.length}.startperiod`,
          key: 'validation.periodicity_startperiod',
          params: { max: 6 },
        },
        {
          field: `${rows.length + 1}.startyear`,
          key: 'validation.periodicity_startyear',
          params: { min: 1900, max: 2999 },
        },
        {
          field: `${rows.length + 2}.periodicityType.id`,
          key: 'validation.periodicity_type',
          params: { values: '1, 2, 3, 4, 6, 12' },
        },
        {
          field: `${rows.length + 3}.periods`,
          key: 'validation.periodicity_periods',
          params: { months: 6, periods: 2 },
        },
        {
          field: `${rows.length + 3}.startyear`,
          key: 'validation.periodicity_startyear',
          params: { min: 1900, max: 2999 },
        },
        {
          field: `${rows.length + 3}.startperiod`,
          key: 'validation.periodicity_startperiod',
          params: { max: 2 },
        },
      ]),
    );
    expect(translate('el', 'validation.periodicity_startperiod', { max: 6 })).toBe(
      'Η περίοδος έναρξης πρέπει να είναι από 1 έως 6',
    );
    expect(translate('en', 'validation.periodicity_startperiod', { max: 6 })).toBe(
      'The start period must be from 1 to 6',
    );
    expect(translate('en', 'validation.periodicity_startyear', { min: 1900, max: 2999 })).toBe(
      'The start year must be from 1900 to 2999',
    );
    expect(await get(url)).toEqual(rows);
  });
});

describe('company tables: departments, addresses', () => {
  it('saves departments with a parent; a parent still in use cannot go (409)', async () => {
    const first = await post('/api/settings/departments', [
      { id: null, code: '01', description: 'Διοικητική Υπηρεσία', parentId: null, active: true },
    ]);
    expect(first.statusCode, first.body).toBe(200);
    const [admin1] = first.json();
    const second = await post('/api/settings/departments', [
      admin1,
      { id: null, code: '01.1', description: 'Πρωτόκολλο', parentId: admin1.id, active: true },
    ]);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()[1]).toMatchObject({ parentId: admin1.id, parentDescription: 'Διοικητική Υπηρεσία' });
    const orphan = await post('/api/settings/departments', [second.json()[1]]);
    expect(orphan.statusCode).toBe(409);
    expect(orphan.json().key).toBe('error.linked_elsewhere');
    const duplicate = await post('/api/settings/departments', [
      ...second.json(),
      { id: null, code: '01', description: 'Άλλο', parentId: null, active: true },
    ]);
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().key).toBe('error.names_not_unique');
    const cycle = await post('/api/settings/departments', [
      { ...second.json()[0], parentId: second.json()[1].id },
      second.json()[1],
    ]);
    expect(cycle.statusCode).toBe(400);
  });

  it("keeps companies apart: another company's list is empty, its ids are 404", async () => {
    expect(await get(`/api/settings/departments?companyid=${otherCompany}`)).toEqual([]);
    const search = await get(`/api/settings/departments/search?companyid=${otherCompany}`);
    expect(search.totalElements).toBe(0);
    const saved = await post(`/api/settings/departments?companyid=${otherCompany}`, [
      { id: null, code: '01', description: 'Τμήμα Β', parentId: null, active: true },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    const theirs = saved.json()[0];
    const mine = await get('/api/settings/departments?companyid=1');
    expect(mine.map((d: Json) => d.description)).not.toContain('Τμήμα Β');
    // Their row sent to my company, or as a parent of mine: not found.
    expect((await post('/api/settings/departments?companyid=1', [...mine, theirs])).statusCode).toBe(404);
    expect(
      (
        await post('/api/settings/departments?companyid=1', [
          ...mine,
          { id: null, code: '99', description: 'Χ', parentId: theirs.id, active: true },
        ])
      ).statusCode,
    ).toBe(404);
    const exported = await post('/api/export', {
      uri: `/api/settings/departments/search?companyid=${otherCompany}`,
      params: { format: 'csv', lang: 'el' },
    });
    const csv = Buffer.from(exported.json().file, 'base64').toString('utf8');
    expect(csv).toContain('Τμήμα Β');
    expect(csv).not.toContain('Πρωτόκολλο');
  });

  it('saves addresses and checks the postal code', async () => {
    const bad = await post('/api/settings/addresses', [
      { id: null, street: 'Ερμού', number: '12', area: null, postalCode: '1234', municipality: null },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([
      { field: '0.postalCode', key: 'validation.postal_code', params: {} },
    ]);
    const saved = await post('/api/settings/addresses', [
      { id: null, street: 'Ερμού', number: '12', area: '', postalCode: '10563', municipality: 'Αθηναίων' },
    ]);
    expect(saved.statusCode).toBe(200);
    expect(withoutId(saved.json())).toEqual([
      { street: 'Ερμού', number: '12', area: null, postalCode: '10563', municipality: 'Αθηναίων' },
    ]);
    const found = await get('/api/settings/addresses/search?street=ci(contains(ΕΡΜΟΥ))');
    expect(found.totalElements).toBe(1);
  });
});

describe('custom tables, values and fields', () => {
  it('saves a table with its values, and a select field that uses it', async () => {
    const tables = await post('/api/settings/custom_tables', [{ id: null, name: 'Χρήση ακινήτου' }]);
    expect(tables.statusCode, tables.body).toBe(200);
    const [usage] = tables.json();
    const values = await post(`/api/settings/custom_tables/${usage.id}/values`, [
      { id: null, description: 'Κατοικία', order: 1 },
      { id: null, description: 'Επαγγελματική', order: 2 },
    ]);
    expect(values.statusCode, values.body).toBe(200);
    expect(values.json().map((v: Json) => v.description)).toEqual(['Κατοικία', 'Επαγγελματική']);
    expect((await get('/api/settings/custom_tables'))[0]).toMatchObject({ valueCount: 2 });
    const list = await get(`/api/settings/custom_table_values/search?customTableId=eq(${usage.id})`);
    expect(list.content[0]).toMatchObject({ customTableName: 'Χρήση ακινήτου', description: 'Κατοικία' });

    const missingTable = await post('/api/settings/custom_fields', [
      {
        id: null,
        entity: 'consumers',
        key: 'usage',
        labelEl: 'Χρήση',
        labelEn: 'Usage',
        type: 'select',
        customTableId: null,
        required: true,
        order: 1,
      },
    ]);
    expect(missingTable.statusCode).toBe(400);
    expect(missingTable.json().fieldErrors).toEqual([
      { field: '0.customTableId', key: 'validation.custom_table_required', params: {} },
    ]);
    const field = await post('/api/settings/custom_fields', [
      {
        id: null,
        entity: 'consumers',
        key: 'usage',
        labelEl: 'Χρήση',
        labelEn: 'Usage',
        type: 'select',
        customTableId: usage.id,
        required: true,
        order: 1,
      },
      {
        id: null,
        entity: 'traders',
        key: 'notes_2',
        labelEl: 'Σημειώσεις',
        labelEn: 'Notes',
        type: 'text',
        customTableId: usage.id,
        required: false,
        order: 2,
      },
    ]);
    expect(field.statusCode, field.body).toBe(200);
    expect(field.json()[0]).toMatchObject({ customTableName: 'Χρήση ακινήτου' });
    expect(field.json()[1]).toMatchObject({ customTableId: null });

    const inUse = await post('/api/settings/custom_tables', []);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toMatchObject({ key: 'error.linked_elsewhere' });
    const badKey = await post('/api/settings/custom_fields', [
      {
        id: null,
        entity: 'traders',
        key: 'Bad Key',
        labelEl: 'Χ',
        labelEn: 'X',
        type: 'text',
        customTableId: null,
        required: false,
        order: 1,
      },
    ]);
    expect(badKey.json().fieldErrors[0]).toMatchObject({ key: 'validation.custom_field_key' });
  });

  it("does not reach another company's custom table", async () => {
    const [usage] = await get('/api/settings/custom_tables');
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/settings/custom_tables/${usage.id}/values?companyid=${otherCompany}`,
      headers: admin,
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('general settings', () => {
  it('saves the settings as a row table and checks known settings by type', async () => {
    // The demo company also has the attachment settings (doc.*); this test works on the gen.* ones.
    const settings = (await get('/api/general_settings')).filter((s: Json) =>
      String(s.parName).startsWith('gen.'),
    );
    expect(settings).toEqual([expect.objectContaining({ parName: 'gen.deya_aa', parValue: '1' })]);
    const bad = await post('/api/general_settings', [{ ...settings[0], parValue: 'δύο' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([
      { field: '0.parValue', key: 'validation.setting_integer', params: { min: 1, max: 99_999 } },
    ]);
    const saved = await post('/api/general_settings', [
      { id: settings[0].id, parName: 'gen.deya_aa', parValue: '42' },
      { id: null, parName: 'gen.mydata_enabled', parValue: 'true' },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().map((s: Json) => [s.parName, s.parValue])).toEqual([
      ['gen.deya_aa', '42'],
      ['gen.mydata_enabled', 'true'],
    ]);
    const duplicate = await post('/api/general_settings', [
      ...saved.json(),
      { id: null, parName: 'gen.deya_aa', parValue: '3' },
    ]);
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().key).toBe('error.names_not_unique');
    const list = await get('/api/settings/general_settings/search?parName=ci(contains(mydata))');
    expect(list.content).toEqual([
      { id: expect.any(Number), parName: 'gen.mydata_enabled', parValue: 'true' },
    ]);
  });
});

describe('permissions', () => {
  it('refuses operators without settings permissions (403), and anonymous callers (401)', async () => {
    const [demo] = DEMO_OPERATORS;
    const operator = await t.login(demo.username, demo.password);
    const urls = [
      '/api/settings/departments',
      '/api/water_service/parametrics/periodicity',
      '/api/general_settings',
    ];
    for (const url of urls) {
      const read = await t.app.inject({ method: 'GET', url, headers: operator });
      expect(read.statusCode, url).toBe(403);
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    expect((await post('/api/settings/banks', [], operator)).statusCode).toBe(403);
    expect((await post('/api/water_service/parametrics/periodicity', [], operator)).statusCode).toBe(403);
  });

  it('issue 32 item 3: every signed-in operator reads the national reference tables (banks, VAT), only the super administrator saves them', async () => {
    const water = DEMO_OPERATORS[1];
    const operator = await t.login(water.username, water.password);
    for (const table of ['banks', 'vat_percentages', 'vat_categories', 'vat_statuses']) {
      const url = `/api/settings/${table}`;
      const rows = await get(url, operator);
      expect(rows.length, url).toBeGreaterThan(0);
      expect((await get(`${url}/search`, operator)).totalElements, url).toBe(rows.length);
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      expect((await post(url, rows, operator)).statusCode, url).toBe(403);
    }
    const exported = await post(
      '/api/export',
      { uri: '/api/settings/banks/search', params: { format: 'csv' } },
      operator,
    );
    expect(exported.statusCode, exported.body).toBe(200);
    // A company's administrator (settings:admin) still may not replace what every company shares.
    const companyAdmin = await createOperator(t, admin, {
      username: 'vat.admin',
      firstname: 'Άννα',
      lastname: 'Κοινών',
      kind: 1,
    });
    expect(companyAdmin.statusCode, companyAdmin.body).toBe(201);
    const refused = await post(
      '/api/settings/vat_statuses',
      await get('/api/settings/vat_statuses'),
      await t.login('vat.admin', OPERATOR_PASSWORD),
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().key).toBe('error.shared_table');
  });

  it('issue 32 item 2: the water department reads the periodicities its invoice policies name, and saves none', async () => {
    const water = DEMO_OPERATORS[1];
    const operator = await t.login(water.username, water.password);
    const url = '/api/water_service/parametrics/periodicity';
    expect(await get(url, operator)).toEqual(await get(url));
    expect((await get('/api/settings/periodicity/search', operator)).totalElements).toBeGreaterThan(0);
    expect((await post(url, [], operator)).statusCode).toBe(403);
    // Another company's periodicities stay out of reach.
    const theirs = await t.app.inject({
      method: 'GET',
      url: `${url}?companyid=${otherCompany}`,
      headers: operator,
    });
    expect(theirs.statusCode).toBe(404);
  });

  it("lets an admin of one company edit its settings, never another company's", async () => {
    const created = await createOperator(t, admin, {
      username: 'settings.admin',
      firstname: 'Ελένη',
      lastname: 'Ρυθμίσεων',
      kind: 1,
    });
    expect(created.statusCode, created.body).toBe(201);
    const companyAdmin = await t.login('settings.admin', OPERATOR_PASSWORD);
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/settings/departments',
      headers: companyAdmin,
    });
    expect(mine.statusCode).toBe(200);
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/api/settings/departments?companyid=${otherCompany}`,
      headers: companyAdmin,
    });
    expect(theirs.statusCode).toBe(404);
  });
});
