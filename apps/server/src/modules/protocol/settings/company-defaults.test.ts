import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { caseTypes, documentTypes, subjectCategories } from '../protocol.schema.ts';
import { seedCompanyProtocolDefaults } from './protocol-settings.ts';

// biome-ignore lint/suspicious/noExplicitAny: API answers read loosely in tests
type Json = Record<string, any>;

let t: TestApp;
let admin: { authorization: string };

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const get = async (url: string) => {
  const response = await t.app.inject({ method: 'GET', url, headers: admin });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const countOf = async (
  table: typeof documentTypes | typeof subjectCategories | typeof caseTypes,
  id: number,
) => (await t.database.db.select({ n: count() }).from(table).where(eq(table.companyId, id)))[0]?.n;

describe('a new company gets the protocol reference data', () => {
  it('POST /api/companies creates the 7 document types, subject categories and case types', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers: admin,
      payload: { companyname: 'ΔΕΥΑ Νέα', companytitle: 'ΔΕΥΑ Νέας Πόλης', vatnumber: null },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id: number = created.json().id;

    const types: Json[] = await get(`/api/protocol/document_types?companyid=${id}`);
    expect(types.map((type) => type.seqnr)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(types.find((type) => type.seqnr === 3)?.descr).toBe('Έγγραφο');
    const reply = types.find((type) => type.seqnr === 7);
    for (const seqnr of [1, 2, 3])
      expect(types.find((type) => type.seqnr === seqnr)?.relseqid).toBe(reply?.id);
    for (const seqnr of [4, 5, 6, 7]) expect(types.find((type) => type.seqnr === seqnr)?.relseqid).toBeNull();
    expect((await get(`/api/protocol/subject_categories?companyid=${id}`)).length).toBeGreaterThan(0);
    expect((await get(`/api/protocol/case_types?companyid=${id}`)).length).toBeGreaterThan(0);

    // Running the defaults again creates nothing twice.
    const before = [await countOf(subjectCategories, id), await countOf(caseTypes, id)];
    await t.database.db.transaction((tx) => seedCompanyProtocolDefaults(tx, id, 'test'));
    expect(await countOf(documentTypes, id)).toBe(7);
    expect([await countOf(subjectCategories, id), await countOf(caseTypes, id)]).toEqual(before);
  });

  it('the demo company has them once', async () => {
    const companies: Json[] = await get('/api/companies');
    const demo = companies[0]?.id as number;
    expect(await countOf(documentTypes, demo)).toBe(7);
  });
});
