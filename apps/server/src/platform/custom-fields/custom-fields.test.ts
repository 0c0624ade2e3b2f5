import type { CustomFieldDefinition } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '../../modules/companies/api.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { checkCustomFieldValues } from './custom-fields.ts';

const field = (
  key: string,
  type: CustomFieldDefinition['type'],
  extra: Partial<CustomFieldDefinition> = {},
): CustomFieldDefinition => ({
  key,
  labelEl: key,
  labelEn: key,
  type,
  required: false,
  choices: [],
  ...extra,
});

describe('custom field values against their definitions', () => {
  const definitions = [
    field('note', 'text'),
    field('members', 'number'),
    field('since', 'date'),
    field('owner', 'boolean'),
    field('zone', 'select', { choices: [{ id: 7, description: 'Βόρεια' }] }),
  ];

  it('keeps values of the right type, trims text and leaves blanks out', () => {
    const { values, errors } = checkCustomFieldValues(definitions, {
      note: '  σημείωση ',
      members: 4,
      since: '2020-02-29',
      owner: false,
      zone: 7,
    });
    expect(errors).toEqual([]);
    expect(values).toEqual({ note: 'σημείωση', members: 4, since: '2020-02-29', owner: false, zone: 7 });
    expect(checkCustomFieldValues(definitions, { note: '   ', members: null }).values).toEqual({});
  });

  it('names each value that does not suit its type', () => {
    const { errors } = checkCustomFieldValues(definitions, {
      note: 5,
      members: 'τρία',
      since: '2021-02-29',
      owner: 'ναι',
      zone: 8,
    });
    expect(errors).toEqual([
      { field: 'customFields.note', key: 'validation.invalid', params: {} },
      { field: 'customFields.members', key: 'validation.number', params: {} },
      { field: 'customFields.since', key: 'validation.date', params: {} },
      { field: 'customFields.owner', key: 'validation.boolean', params: {} },
      { field: 'customFields.zone', key: 'validation.invalid', params: {} },
    ]);
  });

  it('requires required fields, refuses unknown keys, and names errors under the given path', () => {
    const required = [
      field('amka', 'text', { required: true }),
      field('flag', 'boolean', { required: true }),
    ];
    expect(checkCustomFieldValues(required, { amka: ' ', other: 'x' }, 'values.customFields').errors).toEqual(
      [
        { field: 'values.customFields.other', key: 'validation.invalid', params: {} },
        { field: 'values.customFields.amka', key: 'validation.required', params: {} },
        { field: 'values.customFields.flag', key: 'validation.required', params: {} },
      ],
    );
    expect(checkCustomFieldValues(required, { amka: 'x', flag: false }).errors).toEqual([]);
  });
});

describe('custom fields of traders through the API', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let companyA: number;
  let companyB: number;
  let north: number;
  let south: number;
  let foreign: number;
  const ids: Record<string, number> = {};

  const inject = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: admin, payload: payload as Record<string, unknown> });
  // Only this test's traders, not the demo ones.
  const search = async (query: string) => {
    const mine = Object.values(ids)
      .map((id) => `id=eq(${id})`)
      .join('&');
    const response = await inject('GET', `/api/traders/search?companyid=${companyA}&${mine}&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { content: Record<string, unknown>[] };
  };
  const names = (page: { content: Record<string, unknown>[] }) => page.content.map((row) => row.fullname);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.login('admin', ADMIN_PASSWORD);
    const me = (await inject('GET', '/api/users/authenticatedUser')).json();
    companyA = me.companies[0].id;
    companyB = (
      await createCompany(t.database.db, { companyname: 'Δήμος Β', companytitle: 'Δήμος Β' }, 'test')
    ).id;
    const db = t.database.db;
    const table = async (companyId: number, values: string[]) => {
      const result = await db.execute(
        sql`INSERT INTO custom_tables (company_id, name) VALUES (${companyId}, 'Ζώνες') RETURNING id`,
      );
      const tableId = Number((result as unknown as { rows: { id: number }[] }).rows[0]?.id);
      const ids: number[] = [];
      for (const [order, description] of values.entries()) {
        const row = await db.execute(
          sql`INSERT INTO custom_table_values (custom_table_id, description, sort_order) VALUES (${tableId}, ${description}, ${order}) RETURNING id`,
        );
        ids.push(Number((row as unknown as { rows: { id: number }[] }).rows[0]?.id));
      }
      return { tableId, ids };
    };
    const zones = await table(companyA, ['Βόρεια', 'Νότια']);
    [north, south] = zones.ids as [number, number];
    [foreign] = (await table(companyB, ['Ξένη'])).ids as [number];
    await db.execute(sql`INSERT INTO custom_fields (company_id, entity, key, label_el, label_en, type, custom_table_id, sort_order)
      VALUES (${companyA}, 'traders', 'note', 'Σημείωση', 'Note', 'text', NULL, 1),
             (${companyA}, 'traders', 'members', 'Μέλη', 'Members', 'number', NULL, 2),
             (${companyA}, 'traders', 'since', 'Από', 'Since', 'date', NULL, 3),
             (${companyA}, 'traders', 'owner', 'Ιδιοκτήτης', 'Owner', 'boolean', NULL, 4),
             (${companyA}, 'traders', 'zone', 'Ζώνη', 'Zone', 'select', ${zones.tableId}, 5),
             (${companyA}, 'consumers', 'meter', 'Μετρητής', 'Meter', 'text', NULL, 1)`);
    const traders = [
      ['Άλφα', { note: 'Οδός Ερμού', members: 3, since: '2020-01-15', owner: true, zone: north }],
      ['Βήτα', { note: 'ΟΔΟΣ ΑΘΗΝΑΣ', members: 10, since: '2024-06-01', owner: false, zone: south }],
      ['Γάμμα', {}],
    ] as const;
    for (const [fullname, customFields] of traders) {
      const response = await inject('POST', `/api/traders?companyid=${companyA}`, {
        individual: false,
        fullname,
        customFields,
      });
      expect(response.statusCode, response.body).toBe(201);
      ids[fullname] = response.json().id;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /api/traders/custom_fields: the definitions of traders in order, select fields with choices', async () => {
    const response = await inject('GET', `/api/traders/custom_fields?companyid=${companyA}`);
    expect(response.statusCode).toBe(200);
    const definitions = response.json() as CustomFieldDefinition[];
    expect(definitions.map((d) => d.key)).toEqual(['note', 'members', 'since', 'owner', 'zone']);
    expect(definitions.at(-1)?.choices).toEqual([
      { id: north, description: 'Βόρεια' },
      { id: south, description: 'Νότια' },
    ]);
    const other = await inject('GET', `/api/traders/custom_fields?companyid=${companyB}`);
    expect(other.json()).toEqual([]);
  });

  it('refuses a value of another company’s custom table', async () => {
    const response = await inject('POST', `/api/traders?companyid=${companyA}`, {
      individual: false,
      fullname: 'Δέλτα',
      customFields: { zone: foreign },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual([
      { field: 'customFields.zone', key: 'validation.invalid', params: {} },
    ]);
  });

  it('lists each custom field as a column custom.<key>', async () => {
    const page = await search('sort=fullname,ASC');
    expect(page.content[0]).toMatchObject({
      fullname: 'Άλφα',
      'custom.note': 'Οδός Ερμού',
      'custom.members': 3,
      'custom.since': '2020-01-15',
      'custom.owner': true,
      'custom.zone': north,
    });
    expect(page.content[2]).toMatchObject({ fullname: 'Γάμμα', 'custom.note': null, 'custom.zone': null });
    expect(page.content[0]).not.toHaveProperty('customFields');
  });

  it('filters custom fields by type: Greek-aware text, number and date comparisons, booleans and choices', async () => {
    const contains = (value: string) => `custom.note=${encodeURIComponent(`ci(contains(${value}))`)}`;
    expect(names(await search(contains('οδοσ')))).toEqual(['Άλφα', 'Βήτα']);
    expect(names(await search(contains('ερμου')))).toEqual(['Άλφα']);
    expect(names(await search('custom.members=gt(3)'))).toEqual(['Βήτα']);
    expect(names(await search('custom.members=lte(3)'))).toEqual(['Άλφα']);
    expect(names(await search('custom.since=gte(2021-01-01)'))).toEqual(['Βήτα']);
    expect(names(await search('custom.since=eq(2020-01-15)'))).toEqual(['Άλφα']);
    expect(names(await search('custom.owner=eq(false)'))).toEqual(['Βήτα']);
    expect(names(await search(`custom.zone=eq(${north})`))).toEqual(['Άλφα']);
    expect(
      names(await search(`custom.zone=eq(${north})&custom.zone=eq(${south})&sort=fullname,ASC`)),
    ).toEqual(['Άλφα', 'Βήτα']);
  });

  it('sorts by a custom field, empty values last ascending', async () => {
    expect(names(await search('sort=custom.members,DESC'))).toEqual(['Γάμμα', 'Βήτα', 'Άλφα']);
    expect(names(await search('sort=custom.since,ASC'))).toEqual(['Άλφα', 'Βήτα', 'Γάμμα']);
  });

  it('answers 400 naming an unknown custom field, or another entity’s, or a bad value', async () => {
    for (const query of ['custom.nothing=eq(1)', 'custom.meter=eq(1)', 'sort=custom.nothing,ASC']) {
      const response = await inject('GET', `/api/traders/search?companyid=${companyA}&${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ key: 'error.unknown_field' });
      expect(response.json().params.field).toMatch(/^custom\.(nothing|meter)$/);
    }
    const bad = await inject('GET', `/api/traders/search?companyid=${companyA}&custom.members=gt(πολλά)`);
    expect(bad.json()).toMatchObject({ status: 400, params: { field: 'custom.members' } });
    // Company B has no custom fields of traders.
    const other = await inject('GET', `/api/traders/search?companyid=${companyB}&custom.note=eq(x)`);
    expect(other.statusCode).toBe(400);
  });

  it('exports custom fields with their labels in the language, choices by their descriptions', async () => {
    const uri = `/api/traders/search?companyid=${companyA}&sort=fullname,ASC&custom.members=${encodeURIComponent('gte(1)')}`;
    const exported = async (lang: 'el' | 'en') => {
      const response = await inject('POST', '/api/export', {
        uri,
        params: {
          format: 'csv',
          columns: ['fullname', 'custom.members', 'custom.zone', 'custom.owner'],
          lang,
        },
      });
      expect(response.statusCode, response.body).toBe(200);
      return Buffer.from(response.json().file, 'base64')
        .toString('utf8')
        .replace(/^\uFEFF/, '');
    };
    const greek = (await exported('el')).trim().split(/\r?\n/);
    expect(greek[0]).toBe('Επωνυμία / Ονοματεπώνυμο,Μέλη,Ζώνη,Ιδιοκτήτης');
    expect(greek.slice(1)).toEqual(['Άλφα,3,Βόρεια,Ναι', 'Βήτα,10,Νότια,Όχι']);
    const english = (await exported('en')).trim().split(/\r?\n/);
    expect(english[0]).toBe('Name,Members,Zone,Owner');
  });
});
