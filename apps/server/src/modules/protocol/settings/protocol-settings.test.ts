import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../platform/audit.schema.ts';
import {
  ADMIN_PASSWORD,
  companyInUseOf,
  createOperator,
  grant,
  OPERATOR_PASSWORD,
  startTestApp,
  type TestApp,
} from '../../../test/harness.ts';
import { createCompany } from '../../companies/api.ts';
import { caseTypes, documents, documentTypes } from '../protocol.schema.ts';
import { DEMO_CASE_TYPES, DEMO_SUBJECT_CATEGORIES } from './protocol-settings.ts';

let t: TestApp;
let admin: { authorization: string };
let companyA: number;
let companyB: number;

type Json = Record<string, unknown>;
type Auth = { authorization: string };

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  companyA = await companyInUseOf(t, admin);
  companyB = (await createCompany(t.database.db, { companyname: 'Δήμος Β', companytitle: 'Δήμος Β' }, 'test'))
    .id;
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Auth = admin) => t.app.inject({ method: 'GET', url, headers });
const ok = async (url: string, headers: Auth = admin) => {
  const response = await get(url, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const post = (url: string, payload: unknown, headers: Auth = admin) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as Json[] });
const TYPES = '/api/protocol/document_types';
const CATEGORIES = '/api/protocol/subject_categories';
const CASE_TYPES = '/api/protocol/case_types';
/** A saved item as the row that saves it unchanged. */
const asRow = ({ relseqDescr: _d, ...row }: Json) => row;

describe('document types and their sequence settings', () => {
  it('come seeded for the demo utility: codes 1–7, 3 the default, 1–3 answered with 7', async () => {
    const types = await ok(`${TYPES}?companyid=${companyA}`);
    expect(types.map((type: Json) => [type.seqnr, type.descr])).toEqual([
      [1, 'Αίτηση'],
      [2, 'Αναφορά / Καταγγελία'],
      [3, 'Έγγραφο'],
      [4, 'Απόφαση'],
      [5, 'Σύμβαση'],
      [6, 'Τιμολόγιο / Παραστατικό'],
      [7, 'Απάντηση'],
    ]);
    const reply = types.find((type: Json) => type.seqnr === 7);
    for (const type of types) {
      const answered = [1, 2, 3].includes(type.seqnr);
      expect(type.relseqid).toBe(answered ? reply.id : null);
      expect(type.relseqDescr).toBe(answered ? 'Απάντηση' : null);
      expect(type.copies).toBe(1);
      expect([0, 1, 2, 3]).toContain(type.printype);
    }
    // Another company starts with none.
    expect(await ok(`${TYPES}?companyid=${companyB}`)).toEqual([]);
  });

  it('saves the whole table: add, edit, delete, with the audit trail', async () => {
    const before = await ok(TYPES);
    const decision = before.find((type: Json) => type.seqnr === 4);
    const response = await post(TYPES, [
      ...before.filter((type: Json) => type.id !== decision.id).map(asRow),
      {
        id: null,
        seqnr: 8,
        descr: 'Πρόσκληση',
        autonr: false,
        printype: 3,
        copies: 2,
        checkdates: false,
        relseqid: before.find((type: Json) => type.seqnr === 7).id,
        active: true,
      },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const after = response.json();
    expect(after.map((type: Json) => type.seqnr)).toEqual([1, 2, 3, 5, 6, 7, 8]);
    expect(after.at(-1)).toMatchObject({
      descr: 'Πρόσκληση',
      autonr: false,
      printype: 3,
      copies: 2,
      checkdates: false,
      relseqDescr: 'Απάντηση',
    });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'documentType'));
    expect(audit.map((row) => row.action).sort()).toEqual(['create', 'delete']);
    // Edit in place: the description and the print mode.
    const edited = await post(
      TYPES,
      after.map((type: Json) =>
        asRow(type.seqnr === 8 ? { ...type, descr: 'Πρόσκληση σε συνεδρίαση', printype: 1 } : type),
      ),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().at(-1)).toMatchObject({
      id: after.at(-1).id,
      descr: 'Πρόσκληση σε συνεδρίαση',
      printype: 1,
    });
  });

  it('refuses a code used twice (409 names_not_unique, naming the field) and keeps the table', async () => {
    const before = await ok(TYPES);
    const response = await post(TYPES, [
      ...before.map(asRow),
      {
        id: null,
        seqnr: 3,
        descr: 'Άλλο',
        autonr: true,
        printype: 0,
        copies: 1,
        checkdates: true,
        relseqid: null,
        active: true,
      },
    ]);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      key: 'error.names_not_unique',
      params: { field: 'seqnr', value: 3 },
      message: 'Οι ονομασίες πρέπει να είναι μοναδικές',
    });
    expect(await ok(TYPES)).toEqual(before);
    // Swapping two codes in one save is fine: the table is checked as a whole.
    const one = before.find((type: Json) => type.seqnr === 1);
    const two = before.find((type: Json) => type.seqnr === 2);
    const swapped = await post(
      TYPES,
      before.map((type: Json) =>
        asRow(type.id === one.id ? { ...type, seqnr: 2 } : type.id === two.id ? { ...type, seqnr: 1 } : type),
      ),
    );
    expect(swapped.statusCode, swapped.body).toBe(200);
    const back = await post(TYPES, before.map(asRow));
    expect(back.statusCode).toBe(200);
  });

  it('checks copies 1–9, print mode 0–3, code and description, each on its cell', async () => {
    const before = await ok(TYPES);
    const n = before.length;
    const base = { id: null, autonr: true, checkdates: true, relseqid: null, active: true };
    const response = await post(TYPES, [
      ...before.map(asRow),
      { ...base, seqnr: 20, descr: 'Α', printype: 0, copies: 0 },
      { ...base, seqnr: 21, descr: 'Β', printype: 0, copies: 10 },
      { ...base, seqnr: 22, descr: 'Γ', printype: 4, copies: 1 },
      { ...base, seqnr: 23, descr: '  ', printype: 0, copies: 1 },
      { ...base, seqnr: 0, descr: 'Δ', printype: 0, copies: 1 },
    ]);
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json()
        .fieldErrors.map((e: Json) => e.field)
        .sort(),
    ).toEqual(
      [`${n}.copies`, `${n + 1}.copies`, `${n + 2}.printype`, `${n + 3}.descr`, `${n + 4}.seqnr`].sort(),
    );
  });

  it('takes a reply type only among the kept types of the same company', async () => {
    const before = await ok(TYPES);
    const [foreign] = await t.database.db
      .insert(documentTypes)
      .values({ companyId: companyB, seqnr: 1, descr: 'Ξένος', createuser: 'test' })
      .returning();
    const first = before[0];
    const other = await post(
      TYPES,
      before.map((type: Json) => asRow(type.id === first.id ? { ...type, relseqid: foreign?.id } : type)),
    );
    expect(other.statusCode).toBe(404);
    // The reply type removed in the same save.
    const reply = before.find((type: Json) => type.seqnr === 7);
    const index = before.findIndex((type: Json) => type.seqnr === 1);
    const removed = await post(TYPES, before.filter((type: Json) => type.id !== reply.id).map(asRow));
    expect(removed.statusCode).toBe(400);
    expect(removed.json().fieldErrors).toContainEqual({
      field: `${index}.relseqid`,
      key: 'validation.invalid',
      params: {},
    });
    expect(await ok(TYPES)).toEqual(before);
  });

  it('refuses to delete a type a document uses (409 linked_elsewhere)', async () => {
    const before = await ok(TYPES);
    const decision = before.find((type: Json) => type.seqnr === 5);
    await t.database.db.insert(documents).values({
      companyId: companyA,
      kind: 0,
      subject: 'Σύμβαση προμήθειας υδρομέτρων',
      documentTypeId: decision.id,
    });
    const response = await post(TYPES, before.filter((type: Json) => type.id !== decision.id).map(asRow));
    expect(response.statusCode).toBe(409);
    expect(response.json().key).toBe('error.linked_elsewhere');
    expect(await ok(TYPES)).toEqual(before);
  });

  it('has a list on the list engine (Greek-aware search) and exports it with translated labels', async () => {
    const page = await ok(`${TYPES}/search?search=ΑΠΑΝΤΗΣΗ&companyid=${companyA}`);
    expect(page.content).toEqual([expect.objectContaining({ seqnr: 7, descr: 'Απάντηση' })]);
    const sorted = await ok(`${TYPES}/search?sort=seqnr,DESC&size=2`);
    expect(sorted.content.map((type: Json) => type.seqnr)).toEqual([8, 7]);
    const exported = await post('/api/export', {
      uri: `${TYPES}/search?sort=seqnr,ASC&companyid=${companyA}`,
      params: { format: 'csv', lang: 'en' },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const csv = Buffer.from(exported.json().file, 'base64').toString('utf8');
    expect(csv).toContain('Reply type');
    expect(csv).toContain('Ask');
    expect(csv).toContain('Απάντηση');
  });
});

describe('subject categories and case types', () => {
  it('come seeded and save as row tables', async () => {
    const categories = await ok(CATEGORIES);
    expect(categories.map((c: Json) => c.descr).sort()).toEqual(
      DEMO_SUBJECT_CATEGORIES.map(([, d]) => d).sort(),
    );
    // Categories may be in use by the demo documents: keep them all, deactivate one, add one.
    const saved = await post(CATEGORIES, [
      ...categories.map((c: Json, i: number) => (i === 0 ? { ...c, active: false } : c)),
      { id: null, code: '', descr: 'Περιβάλλον', active: true },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toHaveLength(categories.length + 1);
    expect(saved.json().find((c: Json) => c.id === categories[0].id).active).toBe(false);
    expect(saved.json().find((c: Json) => c.descr === 'Περιβάλλον')).toMatchObject({
      code: null,
      active: true,
    });

    const caseTypes = await ok(CASE_TYPES);
    expect(caseTypes.map((c: Json) => c.descr).sort()).toEqual([...DEMO_CASE_TYPES].sort());
    const renamed = await post(CASE_TYPES, [
      ...caseTypes.map((c: Json, i: number) => (i === 0 ? { ...c, active: false } : c)),
      { id: null, descr: 'Αποζημίωση', active: true },
    ]);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toHaveLength(caseTypes.length + 1);
    const empty = await post(CASE_TYPES, [{ id: null, descr: '', active: true }]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fieldErrors[0].field).toBe('0.descr');
  });

  it('issue 29 item 14: a case type name given twice is refused (409 naming the row), a swap of two names is not', async () => {
    const before = await ok(CASE_TYPES);
    const [a, b] = before as Json[];
    const twice = await post(CASE_TYPES, [...before, { id: null, descr: (a as Json).descr, active: true }], {
      ...admin,
      'accept-language': 'en',
    } as Auth);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      status: 409,
      key: 'error.names_not_unique',
      params: { field: 'descr', value: (a as Json).descr },
      message: 'Names must be unique',
    });
    expect(twice.json().fieldErrors).toEqual([
      {
        field: `${before.length}.descr`,
        key: 'error.names_not_unique',
        params: { value: (a as Json).descr },
      },
    ]);
    // Nothing was saved.
    expect(await ok(CASE_TYPES)).toEqual(before);
    // Two rows trading names in one save pass: the constraint is checked at the commit.
    const swapped = await post(
      CASE_TYPES,
      before.map((row: Json) =>
        row.id === a?.id ? { ...row, descr: b?.descr } : row.id === b?.id ? { ...row, descr: a?.descr } : row,
      ),
    );
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(swapped.json().find((row: Json) => row.id === a?.id).descr).toBe(b?.descr);
    // Another company may use the same name.
    const other = await post(`${CASE_TYPES}?companyid=${companyB}`, [
      { id: null, descr: a?.descr, active: true },
    ]);
    expect(other.statusCode, other.body).toBe(200);
  });

  it('issue 29 item 14: the database keeps a case type name unique per company; the migration renames old duplicates', async () => {
    const db = t.database.db;
    const [kept] = await db.select().from(caseTypes).where(eq(caseTypes.companyId, companyA)).limit(1);
    const copy = { companyId: companyA, descr: kept?.descr as string };
    // A writer that skips the save's check is refused at its commit.
    await expect(
      db.transaction(async (tx) => void (await tx.insert(caseTypes).values(copy))),
    ).rejects.toThrow();
    // Duplicates from before the constraint: the migration's statements keep the first, rename the rest.
    const migration = readFileSync(
      path.resolve(import.meta.dirname, '../../../db/migrations/0042_case_types_unique.sql'),
      'utf8',
    ).split('--> statement-breakpoint');
    await db.execute(sql`ALTER TABLE case_types DROP CONSTRAINT case_types_company_descr_unique`);
    const [first, second] = await db.insert(caseTypes).values([copy, copy]).returning();
    for (const statement of migration) await db.execute(sql.raw(statement));
    const rows = await db.select().from(caseTypes).where(eq(caseTypes.descr, copy.descr));
    expect(rows.filter((r) => r.companyId === companyA).map((r) => r.id)).toEqual([kept?.id]);
    const renamed = await db
      .select()
      .from(caseTypes)
      .where(inArray(caseTypes.id, [first?.id ?? 0, second?.id ?? 0]));
    expect(renamed.map((r) => r.descr).sort()).toEqual(
      [`${copy.descr} (${first?.id})`, `${copy.descr} (${second?.id})`].sort(),
    );
    await expect(db.insert(caseTypes).values(copy)).rejects.toThrow();
  });

  it('lists with Greek-aware filters (accents and final sigma)', async () => {
    const page = await ok(`${CATEGORIES}/search?descr=ci(contains(υδρευσης))`);
    expect(page.content.map((c: Json) => c.descr)).toEqual(['Λογαριασμοί ύδρευσης']);
    const types = await ok(`${CASE_TYPES}/search?search=ΒΛΑΒΗ`);
    expect(types.content.map((c: Json) => c.descr)).toEqual(['Βλάβη δικτύου']);
  });
});

describe('who may read and write them', () => {
  let nobody: Auth;
  let reader: Auth;
  let settingsReader: Auth;
  let settingsWriter: Auth;
  let outsider: Auth;

  beforeAll(async () => {
    for (const username of ['ps_nobody', 'ps_reader', 'ps_settings', 'ps_writer']) {
      const created = await createOperator(t, admin, {
        username,
        firstname: 'Χειριστής',
        lastname: username,
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    await grant(t, 'ps_reader', ['protocol:read']);
    await grant(t, 'ps_settings', ['settings:read']);
    await grant(t, 'ps_writer', ['settings:write']);
    nobody = await t.login('ps_nobody', OPERATOR_PASSWORD);
    reader = await t.login('ps_reader', OPERATOR_PASSWORD);
    settingsReader = await t.login('ps_settings', OPERATOR_PASSWORD);
    settingsWriter = await t.login('ps_writer', OPERATOR_PASSWORD);
    outsider = admin;
  });

  it('reads the /search lists with protocol:read or settings:read, nothing else', async () => {
    for (const path of [TYPES, CATEGORIES, CASE_TYPES]) {
      expect((await get(`${path}/search`, nobody)).statusCode).toBe(403);
      expect((await get(`${path}/search`, reader)).statusCode).toBe(200);
      expect((await get(`${path}/search`, settingsReader)).statusCode).toBe(200);
      expect((await get(`${path}/search`)).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: `${path}/search` })).statusCode).toBe(401);
    }
    const list = await ok(`${TYPES}/search?size=-1`, reader);
    expect(list.totalElements).toBeGreaterThanOrEqual(7);
  });

  it('reads the row table with settings:read and saves it with settings:write', async () => {
    expect((await get(TYPES, reader)).statusCode).toBe(403);
    const rows = await ok(TYPES, settingsReader);
    expect((await post(TYPES, rows.map(asRow), settingsReader)).statusCode).toBe(403);
    expect((await post(TYPES, rows.map(asRow), reader)).statusCode).toBe(403);
    const saved = await post(TYPES, rows.map(asRow), settingsWriter);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(rows);
  });

  it('hides another company: its rows are not found', async () => {
    // The operators above work only for company A.
    for (const path of [TYPES, `${TYPES}/search`, CASE_TYPES]) {
      expect((await get(`${path}?companyid=${companyB}`, settingsWriter)).statusCode).toBe(404);
    }
    expect((await post(`${TYPES}?companyid=${companyB}`, [], settingsWriter)).statusCode).toBe(404);
    // A super admin works for both; company B's table is its own.
    const b = await post(
      `${CASE_TYPES}?companyid=${companyB}`,
      [{ id: null, descr: 'Υπόθεση Β', active: true }],
      outsider,
    );
    expect(b.statusCode, b.body).toBe(200);
    expect((await ok(`${CASE_TYPES}?companyid=${companyA}`)).map((c: Json) => c.descr)).not.toContain(
      'Υπόθεση Β',
    );
  });
});
