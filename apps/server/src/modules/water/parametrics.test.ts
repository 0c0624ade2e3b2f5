import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  companyInUseOf,
  createOperator,
  grant,
  OPERATOR_PASSWORD,
  startTestApp,
  type TestApp,
} from '../../test/harness.ts';
import { createCompany } from '../companies/api.ts';

let t: TestApp;
let admin: { authorization: string };
let demo: number;
let other: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  demo = await companyInUseOf(t, admin);
  other = (
    await createCompany(t.database.db, { companyname: 'ΔΕΥΑ Άλλη', companytitle: 'ΔΕΥΑ Άλλη' }, 'test')
  ).id;
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers = admin) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: unknown, headers = admin) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as object });
const put = (url: string, payload: unknown, headers = admin) =>
  t.app.inject({ method: 'PUT', url, headers, payload: payload as object });

const definition = {
  levels: 3,
  level1: 2,
  level2: 3,
  level3: 4,
  level4: null,
  level5: null,
  leveltable1: 1,
  leveltable2: 2,
  leveltable3: null,
  leveltable4: null,
  leveltable5: null,
  cfieldid1: null,
  cfieldid2: null,
  cfieldid3: null,
  cfieldid4: null,
  cfieldid5: null,
  separator: '/',
};

describe('water parametric tables', () => {
  it('the demo company has a small utility’s sectors, routes, usages and meter types', async () => {
    const sectors = (await get(`/api/water/parametrics/sectors?companyid=${demo}`)).json();
    expect(sectors.map((s: { code: string }) => s.code)).toEqual(['01', '02', '03', '04']);
    const routes = (await get(`/api/water/parametrics/routes?companyid=${demo}`)).json();
    expect(routes[0]).toMatchObject({ sectorCode: '01', code: '001', readingOrder: 10 });
    const usages = (
      await get(
        `/api/water/parametrics/propertyUsages/search?companyid=${demo}&description=ci(contains(οικιακη))`,
      )
    ).json();
    expect(usages.content.map((u: { code: string }) => u.code)).toEqual(['OIK']);
    const types = (await get(`/api/water/parametrics/meterTypes?companyid=${demo}`)).json();
    expect(types.find((m: { code: string }) => m.code === 'KAM15')).toMatchObject({
      meterKind: 3,
      digits: 6,
    });
    const policies = (await get(`/api/water/invoice_policies?companyid=${demo}`)).json();
    expect(policies[0]).toMatchObject({ envtax: '0.05', resourcetax: '0.035', minConsumption: 5 });
  });

  it('saves a table as a whole, refuses a duplicate code with a translated 409 and keeps the table', async () => {
    const url = `/api/water/parametrics/sectors?companyid=${other}`;
    const saved = await post(url, [
      { id: null, code: 'A', description: 'Πάνω πόλη', active: true },
      { id: null, code: 'B', description: 'Κάτω πόλη', active: true },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    const [a, b] = saved.json();
    // Swapping two codes in one save is allowed (deferred uniqueness).
    const swapped = await post(url, [
      { ...a, code: 'B' },
      { ...b, code: 'A' },
    ]);
    expect(swapped.statusCode, swapped.body).toBe(200);
    const duplicate = await post(url, [
      ...swapped.json(),
      { id: null, code: 'A', description: 'Χ', active: true },
    ]);
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({
      key: 'error.water_code_taken',
      message: 'Ο κωδικός χρησιμοποιείται ήδη',
    });
    expect((await get(url)).json()).toHaveLength(2);
    const spaced = await post(url, [{ id: null, code: 'A 1', description: 'Χ', active: true }]);
    expect(spaced.statusCode).toBe(400);
    expect(spaced.json().fieldErrors[0]).toMatchObject({ field: '0.code', key: 'validation.water_code' });
  });

  it('refuses a route in another company’s sector and a policy with another company’s periodicity', async () => {
    const [demoSector] = (await get(`/api/water/parametrics/sectors?companyid=${demo}`)).json();
    const route = await post(`/api/water/parametrics/routes?companyid=${other}`, [
      { id: null, sectorId: demoSector.id, code: '1', description: 'Χ', readingOrder: 1, active: true },
    ]);
    expect(route.statusCode).toBe(400);
    expect(route.json().fieldErrors[0].field).toBe('0.sectorId');
    const [policy] = (await get(`/api/water/invoice_policies?companyid=${demo}`)).json();
    const foreign = await post(`/api/water/invoice_policies?companyid=${other}`, [
      { ...policy, id: null, description: 'Αντίγραφο' },
    ]);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fieldErrors[0].field).toBe('0.periodicityId');
    const dates = await post(`/api/water/invoice_policies?companyid=${demo}`, [
      { ...policy, todate: '2025-12-31' },
    ]);
    expect(dates.statusCode).toBe(400);
    expect(dates.json().fieldErrors[0]).toMatchObject({ field: '0.todate', key: 'validation.dates_order' });
  });
});

describe('encoding code definition and lookups (spec §7)', () => {
  it('answers the demo definition, and null for a company without one', async () => {
    const demoDef = (await get(`/api/protocol/parametrics/encoding_code?companyid=${demo}`)).json();
    expect(demoDef).toMatchObject({
      levels: 3,
      level1: 2,
      level2: 3,
      level3: 5,
      leveltable1: 1,
      leveltable2: 2,
      separator: '-',
    });
    const none = await get(`/api/protocol/parametrics/encoding_code?companyid=${other}`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();
  });

  it('saves a definition, clearing what lies past the levels, and checks a custom field level', async () => {
    const saved = await put(`/api/protocol/parametrics/encoding_code?companyid=${other}`, {
      ...definition,
      level5: 4,
      leveltable3: 4,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ level5: null, leveltable3: null, separator: '/' });
    const custom = await put(`/api/protocol/parametrics/encoding_code?companyid=${other}`, {
      ...definition,
      leveltable2: 7,
      cfieldid2: 999999,
    });
    expect(custom.statusCode).toBe(400);
    expect(custom.json().fieldErrors[0].field).toBe('cfieldid2');
    const missing = await put(`/api/protocol/parametrics/encoding_code?companyid=${other}`, {
      ...definition,
      level2: null,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors[0]).toMatchObject({ field: 'level2', key: 'validation.required' });
    const six = await put(`/api/protocol/parametrics/encoding_code?companyid=${other}`, {
      ...definition,
      levels: 6,
    });
    expect(six.statusCode).toBe(400);
  });

  it('lists the values of each level type of the company', async () => {
    const sectors = (await get(`/api/protocol/parametrics/sectors?companyid=${demo}`)).json();
    expect(sectors[0]).toEqual({
      id: expect.any(Number),
      code: '01',
      descr: 'Αγία Ελένη – Κέντρο',
      sectorId: null,
    });
    const routes = (
      await get(`/api/protocol/parametrics/routes?companyid=${demo}&sectorId=${sectors[1].id}`)
    ).json();
    expect(routes.map((r: { code: string }) => r.code)).toEqual(['001', '002']);
    expect(routes.every((r: { sectorId: number }) => r.sectorId === sectors[1].id)).toBe(true);
    for (const lookup of ['departments', 'areas', 'addresses', 'buildings']) {
      expect((await get(`/api/protocol/parametrics/${lookup}?companyid=${demo}`)).statusCode).toBe(200);
    }
    expect((await get(`/api/protocol/parametrics/areas?companyid=${demo}`)).json()).toHaveLength(4);
    expect((await get(`/api/protocol/parametrics/sectors?companyid=${other}`)).json()).toEqual([
      expect.objectContaining({ code: 'A' }),
      expect.objectContaining({ code: 'B' }),
    ]);
  });

  it('needs consumers:read to read and settings:write to change', async () => {
    expect(
      (await createOperator(t, admin, { username: 'reader', firstname: 'Α', lastname: 'Β' })).statusCode,
    ).toBe(201);
    const reader = await t.login('reader', OPERATOR_PASSWORD);
    expect((await get('/api/protocol/parametrics/sectors', reader)).statusCode).toBe(403);
    await grant(t, 'reader', ['consumers:read']);
    expect((await get('/api/protocol/parametrics/sectors', reader)).statusCode).toBe(200);
    expect((await put('/api/protocol/parametrics/encoding_code', definition, reader)).statusCode).toBe(403);
    expect((await post('/api/water/parametrics/areas', [], reader)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/protocol/parametrics/encoding_code' })).statusCode,
    ).toBe(401);
  });
});
