import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit.schema.ts';
import { translate } from '../../platform/i18n.ts';
import { createSecretBox } from '../../platform/secrets.ts';
import {
  FAKE_AFM,
  FAKE_REGISTRY_PASSWORD,
  FAKE_REGISTRY_USERNAME,
  type FakeRegistry,
  startFakeRegistry,
} from '../../test/fake-registry.ts';
import {
  ADMIN_PASSWORD,
  companyInUseOf,
  createOperator,
  grant,
  OPERATOR_PASSWORD,
  startTestApp,
  type TestApp,
} from '../../test/harness.ts';
import { addUserToCompany, createCompany } from '../companies/api.ts';
import { companies } from '../companies/companies.schema.ts';
import { createUser } from '../users/api.ts';
import { traderBanks } from './traders.schema.ts';

let t: TestApp;
let registry: FakeRegistry;
let admin: { authorization: string };
let companyA: number;
let companyB: number;

type Json = Record<string, unknown>;
type Headers = { authorization: string };

const setRegistryCredentials = async (
  companyId: number,
  username: string | null,
  password: string | null,
) => {
  const box = createSecretBox(t.config.credentialsKey);
  const credentials =
    username === null
      ? null
      : box.seal(JSON.stringify({ registryUsername: username, registryPassword: password }));
  await t.database.db.update(companies).set({ credentials }).where(eq(companies.id, companyId));
};

beforeAll(async () => {
  registry = await startFakeRegistry();
  t = await startTestApp({ AADE_REGISTRY_URL: registry.url });
  admin = await t.login('admin', ADMIN_PASSWORD);
  companyA = await companyInUseOf(t, admin);
  companyB = (await createCompany(t.database.db, { companyname: 'Δήμος Β', companytitle: 'Δήμος Β' }, 'test'))
    .id;
  await t.database.db.update(companies).set({ vatnumber: '090000045' }).where(eq(companies.id, companyA));
  await setRegistryCredentials(companyA, FAKE_REGISTRY_USERNAME, FAKE_REGISTRY_PASSWORD);
});
afterAll(async () => {
  await t?.close();
  await registry?.close();
});

const post = (url: string, payload: unknown, headers: Headers = admin) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as Json });
const put = (url: string, payload: unknown, headers: Headers = admin) =>
  t.app.inject({ method: 'PUT', url, headers, payload: payload as Json });
const get = (url: string, headers: Headers = admin) => t.app.inject({ method: 'GET', url, headers });
const search = async (query: string, companyId = companyA) => {
  const response = await get(`/api/traders/search?companyid=${companyId}&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { totalElements: number; content: Json[] };
};
const names = (page: { content: Json[] }) => page.content.map((row) => row.fullname);

const individual = (lastname: string, firstname: string, extra: Json = {}) => ({
  individual: true,
  lastname,
  firstname,
  ...extra,
});
const create = async (payload: Json, companyId = companyA, headers: Headers = admin) => {
  const response = await post(`/api/traders?companyid=${companyId}`, payload, headers);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
};

describe('traders: create, edit, list', () => {
  it('creates an individual with a derived fullname, normalised ΑΦΜ, banks and defaults', async () => {
    const trader = await create(
      individual('Παπαδόπουλος', 'Γιώργος', {
        tradercode: 'Τ-001',
        vatnumber: 'EL 094014201',
        birthday: '1975-04-12',
        email: 'g.papadopoulos@example.gr',
        traderbanks: [{ id: null, iban: 'GR16 0110 1250 0000 0001 2300 695', bic: null, bankId: null }],
      }),
    );
    expect(trader).toMatchObject({
      companyId: companyA,
      fullname: 'Παπαδόπουλος Γιώργος',
      vatnumber: '094014201',
      country: 'GR',
      status: 1,
      active: true,
      birthday: '1975-04-12',
      duplicates: [],
      traderbanks: [{ iban: 'GR1601101250000000012300695', bic: null, bankId: null }],
      createuser: 'admin',
    });
    const again = await get(`/api/traders/${trader.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ fullname: 'Παπαδόπουλος Γιώργος', tradercode: 'Τ-001' });
  });

  it('a legal entity keeps the name typed; a bank account takes the BIC of its bank', async () => {
    const banks = (await get('/api/settings/banks')).json();
    const nbg = banks.find((b: Json) => b.bic === 'ETHNGRAA');
    const trader = await create({
      individual: false,
      fullname: 'ΥΔΡΟΤΕΧΝΙΚΗ Α.Ε.',
      vatnumber: '094019245',
      traderbanks: [{ id: null, iban: 'GR1601101250000000012300695', bic: null, bankId: nbg.id }],
    });
    expect(trader.fullname).toBe('ΥΔΡΟΤΕΧΝΙΚΗ Α.Ε.');
    expect(trader.traderbanks).toEqual([
      expect.objectContaining({ bankId: nbg.id, bic: 'ETHNGRAA', bankName: nbg.name }),
    ]);
  });

  it('edits: names, banks kept, changed, added and removed; audit written', async () => {
    const trader = await create(
      individual('Γεωργίου', 'Ελένη', {
        traderbanks: [
          { id: null, iban: 'GR1601101250000000012300695', bic: 'ETHNGRAA', bankId: null },
          { id: null, iban: 'DE89370400440532013000', bic: null, bankId: null },
        ],
      }),
    );
    const [first] = trader.traderbanks;
    const response = await put(`/api/traders/${trader.id}`, {
      ...individual('Γεωργίου', 'Ελένη-Μαρία', { status: 9, active: false }),
      traderbanks: [
        { ...first, bic: 'PIRBGRAA' },
        { id: null, iban: 'GB82WEST12345698765432', bic: null, bankId: null },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const edited = response.json();
    expect(edited).toMatchObject({
      fullname: 'Γεωργίου Ελένη-Μαρία',
      status: 9,
      active: false,
      updateuser: 'admin',
    });
    expect(edited.traderbanks.map((b: Json) => [b.id === first.id, b.iban, b.bic])).toEqual([
      [true, 'GR1601101250000000012300695', 'PIRBGRAA'],
      [false, 'GB82WEST12345698765432', null],
    ]);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(trader.id)));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['create', 'update']));
    // A bank account of another trader cannot be taken over.
    const other = await create(individual('Άλλος', 'Κάποιος'));
    const steal = await put(`/api/traders/${other.id}`, {
      ...individual('Άλλος', 'Κάποιος'),
      traderbanks: [{ ...edited.traderbanks[0] }],
    });
    expect(steal.statusCode).toBe(400);
    expect(steal.json().fieldErrors).toEqual([
      { field: 'traderbanks.0.id', key: 'validation.invalid', params: {} },
    ]);
  });

  it('lists with Greek-aware search by name, ΑΦΜ or code, and header filters', async () => {
    await create(individual('Νικολαΐδης', 'Σωκράτης', { tradercode: 'ΚΩΔ-77', vatnumber: '123456783' }));
    // Accents, case and final sigma do not matter.
    expect(names(await search(`search=${encodeURIComponent('νικολαιδησ')}`))).toEqual([
      'Νικολαΐδης Σωκράτης',
    ]);
    expect(names(await search(`search=${encodeURIComponent('ΣΩΚΡΑΤΗΣ')}`))).toEqual(['Νικολαΐδης Σωκράτης']);
    expect(names(await search('search=23456'))).toEqual(['Νικολαΐδης Σωκράτης']);
    expect(names(await search(`search=${encodeURIComponent('κωδ-77')}`))).toEqual(['Νικολαΐδης Σωκράτης']);
    // (The demo company also has the demo traders of the protocol.)
    const filtered = await search(`fullname=${encodeURIComponent('ci(contains(παπαδοπουλοσ γ))')}`);
    expect(names(filtered)).toEqual(['Παπαδόπουλος Γιώργος']);
    const companiesOnly = await search('individual=eq(false)');
    expect(names(companiesOnly)).toContain('ΥΔΡΟΤΕΧΝΙΚΗ Α.Ε.');
    expect(companiesOnly.content.every((row: Json) => row.individual === false)).toBe(true);
    expect(names(companiesOnly)).not.toContain('Παπαδόπουλος Γιώργος');
    const sorted = await search('sort=fullname,ASC&size=2');
    expect(sorted.content).toHaveLength(2);
    expect(sorted.totalElements).toBeGreaterThanOrEqual(5);
    // Another company's list does not show them.
    expect((await search('', companyB)).totalElements).toBe(0);
  });
});

describe('traders: validation', () => {
  it('refuses a bad ΑΦΜ, IBAN, BIC, e-mail and date with field errors', async () => {
    const response = await post(`/api/traders?companyid=${companyA}`, {
      ...individual('Λάθος', 'Στοιχεία'),
      vatnumber: '094014202',
      email: 'όχι-email',
      birthday: '1975-02-30',
      traderbanks: [{ id: null, iban: 'GR1601101250000000012300696', bic: 'ETHN1RAA', bankId: null }],
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.key).toBe('error.bad_data');
    expect(body.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: 'vatnumber', key: 'validation.vatnumber', params: {} },
        { field: 'email', key: 'validation.email', params: {} },
        { field: 'birthday', key: 'validation.date', params: {} },
        { field: 'traderbanks.0.iban', key: 'validation.iban', params: {} },
        { field: 'traderbanks.0.bic', key: 'validation.bic', params: {} },
      ]),
    );
    expect(translate('el', 'validation.vatnumber')).toMatch(/ΑΦΜ/);
    expect(translate('en', 'validation.iban')).toMatch(/IBAN/);
  });

  it('requires names: last and first name for individuals, the name for legal entities', async () => {
    const person = await post(`/api/traders?companyid=${companyA}`, { individual: true, lastname: 'Μόνο' });
    expect(person.json().fieldErrors).toEqual([
      { field: 'firstname', key: 'validation.required', params: {} },
    ]);
    const entity = await post(`/api/traders?companyid=${companyA}`, { individual: false });
    expect(entity.json().fieldErrors).toEqual([
      { field: 'fullname', key: 'validation.required', params: {} },
    ]);
  });

  it('checks VAT category/status and custom fields by type and required flag', async () => {
    const db = t.database.db;
    await db.execute(sql`INSERT INTO custom_fields (company_id, entity, key, label_el, label_en, type, required)
      VALUES (${companyA}, 'traders', 'amka', 'ΑΜΚΑ', 'Social security no.', 'text', true),
             (${companyA}, 'traders', 'members', 'Μέλη', 'Members', 'number', false),
             (${companyA}, 'traders', 'since', 'Από', 'Since', 'date', false),
             (${companyA}, 'consumers', 'other', 'Άλλο', 'Other', 'number', true)`);
    const bad = await post(`/api/traders?companyid=${companyA}`, {
      ...individual('Πεδία', 'Πρόσθετα'),
      vat_category: 999_999,
      customFields: { members: 'τρία', since: '2026-13-01', unknown: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual(
      expect.arrayContaining([
        { field: 'vat_category', key: 'validation.invalid', params: {} },
        { field: 'customFields.unknown', key: 'validation.invalid', params: {} },
        { field: 'customFields.amka', key: 'validation.required', params: {} },
        { field: 'customFields.members', key: 'validation.number', params: {} },
        { field: 'customFields.since', key: 'validation.date', params: {} },
      ]),
    );
    const vatCategories = (await get('/api/settings/vat_categories')).json();
    const good = await create({
      ...individual('Πεδία', 'Πρόσθετα'),
      vat_category: vatCategories[0]?.id ?? null,
      customFields: { amka: '01017512345', members: 4, since: '2020-01-01' },
    });
    expect(good.customFields).toEqual({ amka: '01017512345', members: 4, since: '2020-01-01' });
    await db.execute(sql`DELETE FROM custom_fields WHERE company_id = ${companyA}`);
  });
});

describe('traders: duplicate ΑΦΜ warning', () => {
  it('answers the other traders of the company with the same ΑΦΜ, not an error', async () => {
    const first = await create(individual('Διπλός', 'Πρώτος', { vatnumber: '094422282' }));
    const second = await create(individual('Διπλός', 'Δεύτερος', { vatnumber: '94422282' }));
    expect(second.duplicates).toEqual([{ id: first.id, fullname: 'Διπλός Πρώτος' }]);
    const edited = await put(
      `/api/traders/${first.id}`,
      individual('Διπλός', 'Πρώτος', { vatnumber: '094422282' }),
    );
    expect(edited.json().duplicates).toEqual([{ id: second.id, fullname: 'Διπλός Δεύτερος' }]);
    // Another company's trader with the same ΑΦΜ is not a duplicate.
    const elsewhere = await create(individual('Διπλός', 'Αλλού', { vatnumber: '094422282' }), companyB);
    expect(elsewhere.duplicates).toEqual([]);
  });
});

describe('traders: permissions and companies', () => {
  let reader: Headers;

  beforeAll(async () => {
    const created = await createOperator(t, admin, {
      username: 'traderreader',
      firstname: 'Ανα',
      lastname: 'Γνώστης',
    });
    expect(created.statusCode, created.body).toBe(201);
    await grant(t, 'traderreader', ['traders:read']);
    reader = await t.login('traderreader', OPERATOR_PASSWORD);
  });

  it('a group without traders:write cannot create a trader (issue 4 check)', async () => {
    const response = await post(`/api/traders?companyid=${companyA}`, individual('Όχι', 'Δικαίωμα'), reader);
    expect(response.statusCode).toBe(403);
    expect(response.json().key).toBe('error.forbidden');
    // Reading is allowed.
    expect((await get(`/api/traders/search?companyid=${companyA}`, reader)).statusCode).toBe(200);
  });

  it('a demo operator with traders:write creates; without traders:admin cannot delete or merge', async () => {
    const clerk = await t.login('mpapadopoulou', 'Demo-2026!');
    const trader = await create(individual('Υπάλληλος', 'Δημιουργεί'), companyA, clerk);
    expect(trader.createuser).toBe('mpapadopoulou');
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/traders',
      headers: clerk,
      payload: { ids: [trader.id] },
    });
    expect(del.statusCode).toBe(403);
  });

  it("another company's trader is not found", async () => {
    const theirs = await create(individual('Ξένος', 'Φορέας'), companyB);
    const db = t.database.db;
    await db.transaction(async (tx) => {
      const outsider = await createUser(
        tx,
        { username: 'outsider', password: 'Outsider-2026', firstname: 'Έξω', lastname: 'Από', kind: 2 },
        'test',
      );
      await addUserToCompany(tx, companyA, outsider.id);
    });
    await grant(t, 'outsider', ['traders:admin']);
    const outsider = await t.login('outsider', 'Outsider-2026');
    expect((await get(`/api/traders/${theirs.id}`, outsider)).statusCode).toBe(404);
    expect((await put(`/api/traders/${theirs.id}`, individual('Ξένος', 'Φορέας'), outsider)).statusCode).toBe(
      404,
    );
    expect(
      (await post(`/api/traders?companyid=${companyB}`, individual('Ξένος', 'Φορέας'), outsider)).statusCode,
    ).toBe(404);
    expect((await get(`/api/traders/search?companyid=${companyB}`, outsider)).statusCode).toBe(404);
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/traders',
      headers: outsider,
      payload: { ids: [theirs.id] },
    });
    expect(del.statusCode).toBe(404);
    // The administrator works for both companies: the trader is found in its own company only.
    expect((await get(`/api/traders/${theirs.id}`)).statusCode).toBe(404);
    expect((await get(`/api/traders/${theirs.id}?companyid=${companyB}`)).statusCode).toBe(200);
  });
});

describe('traders: AADE registry lookup (against the local fake)', () => {
  const lookup = (afm: string, headers: Headers = admin, companyId = companyA) =>
    get(`/api/traders/lookup?vatnumber=${encodeURIComponent(afm)}&companyid=${companyId}`, headers);

  it('maps a found taxpayer to trader fields, sending the UsernameToken and both ΑΦΜ', async () => {
    const response = await lookup(`EL${FAKE_AFM.found}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      vatnumber: FAKE_AFM.found,
      fullname: 'ΥΔΡΟΤΕΧΝΙΚΗ ΕΛΛΑΔΟΣ ΑΝΩΝΥΜΗ ΕΤΑΙΡΕΙΑ',
      title: 'ΥΔΡΟΤΕΧΝΙΚΗ Α.Ε.',
      doy: '1159',
      doy_descr: 'ΦΑΕ ΑΘΗΝΩΝ',
      address: 'ΠΑΝΕΠΙΣΤΗΜΙΟΥ',
      addressNumber: '39',
      zipcode: '10564',
      area: 'ΑΘΗΝΑ',
      activity: 'ΚΑΤΑΣΚΕΥΑΣΤΙΚΕΣ ΕΡΓΑΣΙΕΣ ΓΙΑ ΑΓΩΓΟΥΣ ΥΔΡΕΥΣΗΣ',
      legalStatus: 'ΑΕ',
      active: true,
    });
    const sent = registry.requests.at(-1) ?? '';
    expect(sent).toContain(`<ns1:Username>${FAKE_REGISTRY_USERNAME}</ns1:Username>`);
    expect(sent).toContain('<ns3:afm_called_by>090000045</ns3:afm_called_by>');
    expect(sent).toContain(`<ns3:afm_called_for>${FAKE_AFM.found}</ns3:afm_called_for>`);
    const deactivated = await lookup(FAKE_AFM.deactivated);
    expect(deactivated.json()).toMatchObject({ active: false });
  });

  it.each([
    [FAKE_AFM.notFound, 404, 'error.registry_not_found'],
    [FAKE_AFM.wrongAfm, 400, 'error.registry_wrong_afm'],
    [FAKE_AFM.dailyLimit, 429, 'error.registry_daily_limit'],
    [FAKE_AFM.unavailable, 424, 'error.registry_unavailable'],
  ])('ΑΦΜ %s: %i %s with a translated message', async (afm, status, key) => {
    const response = await lookup(afm);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ key, message: translate('el', key) });
    expect(translate('en', key)).not.toBe(key);
  });

  it('refuses an ΑΦΜ with a bad check digit before asking the registry', async () => {
    const before = registry.requests.length;
    const response = await lookup('094014202');
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual([
      { field: 'vatnumber', key: 'validation.vatnumber', params: {} },
    ]);
    expect(registry.requests.length).toBe(before);
  });

  it('wrong credentials: not registered; no credentials; service down', async () => {
    await setRegistryCredentials(companyA, FAKE_REGISTRY_USERNAME, 'wrong');
    const wrong = await lookup(FAKE_AFM.found);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().key).toBe('error.registry_not_registered');
    await setRegistryCredentials(companyA, null, null);
    const none = await lookup(FAKE_AFM.found);
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({
      key: 'error.registry_no_credentials',
      message: translate('el', 'error.registry_no_credentials'),
    });
    await setRegistryCredentials(companyA, FAKE_REGISTRY_USERNAME, FAKE_REGISTRY_PASSWORD);
    const down = await startTestApp({ AADE_REGISTRY_URL: 'http://127.0.0.1:9/nothing' });
    try {
      const headers = await down.login('admin', ADMIN_PASSWORD);
      const [company] = await down.database.db.select().from(companies);
      await down.database.db
        .update(companies)
        .set({
          credentials: createSecretBox(down.config.credentialsKey).seal(
            JSON.stringify({ registryUsername: 'x', registryPassword: 'y' }),
          ),
        })
        .where(eq(companies.id, company?.id ?? -1));
      const response = await down.app.inject({
        method: 'GET',
        url: `/api/traders/lookup?vatnumber=${FAKE_AFM.found}&companyid=${company?.id}`,
        headers,
      });
      expect(response.statusCode).toBe(424);
      expect(response.json().key).toBe('error.registry_unavailable');
    } finally {
      await down.close();
    }
  });

  it('needs traders:write', async () => {
    await createOperator(t, admin, { username: 'lookupreader', firstname: 'Α', lastname: 'Β' });
    await grant(t, 'lookupreader', ['traders:read']);
    const reader = await t.login('lookupreader', OPERATOR_PASSWORD);
    expect((await lookup(FAKE_AFM.found, reader)).statusCode).toBe(403);
  });
});

describe('traders: merge and delete', () => {
  it('merges: the survivor takes the chosen values and the banks, the merged one is deleted', async () => {
    const survivor = await create(
      individual('Συγχώνευση', 'Μένει', {
        vatnumber: '094014201',
        traderbanks: [{ id: null, iban: 'GR1601101250000000012300695', bic: null, bankId: null }],
      }),
    );
    const merged = await create(
      individual('Συγχωνευση', 'Φεύγει', {
        vatnumber: '094014201',
        email: 'feugei@example.gr',
        traderbanks: [{ id: null, iban: 'DE89370400440532013000', bic: null, bankId: null }],
      }),
    );
    const response = await post('/api/traders/merge', {
      survivorId: survivor.id,
      mergedId: merged.id,
      values: { email: 'feugei@example.gr', firstname: 'Ενωμένος' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({
      id: survivor.id,
      fullname: 'Συγχώνευση Ενωμένος',
      email: 'feugei@example.gr',
      vatnumber: '094014201',
    });
    expect(result.traderbanks.map((b: Json) => b.iban).sort()).toEqual(
      ['DE89370400440532013000', 'GR1601101250000000012300695'].sort(),
    );
    expect((await get(`/api/traders/${merged.id}`)).statusCode).toBe(404);
    const moved = await t.database.db.select().from(traderBanks).where(eq(traderBanks.traderId, merged.id));
    expect(moved).toEqual([]);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'merge'));
    expect(audit.map((a) => a.entityId)).toContain(String(survivor.id));
  });

  it('refuses a merge with bad values or the same trader', async () => {
    const a = await create(individual('Α', 'Α'));
    const b = await create(individual('Β', 'Β'));
    const bad = await post('/api/traders/merge', {
      survivorId: a.id,
      mergedId: b.id,
      values: { vatnumber: '123' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toEqual([
      { field: 'values.vatnumber', key: 'validation.vatnumber', params: {} },
    ]);
    const same = await post('/api/traders/merge', { survivorId: a.id, mergedId: a.id, values: {} });
    expect(same.statusCode).toBe(400);
    expect((await get(`/api/traders/${b.id}`)).statusCode).toBe(200);
  });

  it('deletes an unreferenced trader (its banks with it); refuses one referenced elsewhere', async () => {
    const free = await create(
      individual('Διαγραφή', 'Ελεύθερος', {
        traderbanks: [{ id: null, iban: 'GR1601101250000000012300695', bic: null, bankId: null }],
      }),
    );
    const linked = await create(individual('Διαγραφή', 'Δεμένος'));
    const db = t.database.db;
    // A later module's table referencing traders (without registering it for merges).
    await db.execute(
      sql`CREATE TABLE test_documents (id serial PRIMARY KEY, trader_id integer REFERENCES traders(id))`,
    );
    await db.execute(sql`INSERT INTO test_documents (trader_id) VALUES (${linked.id})`);
    try {
      const refused = await t.app.inject({
        method: 'DELETE',
        url: '/api/traders',
        headers: admin,
        payload: { ids: [free.id, linked.id] },
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        key: 'error.linked_elsewhere',
        message: translate('el', 'error.linked_elsewhere'),
      });
      // Nothing was deleted: the whole request is one transaction.
      expect((await get(`/api/traders/${free.id}`)).statusCode).toBe(200);
      // A merge that would delete the referenced trader is refused too, and changes nothing.
      const merge = await post('/api/traders/merge', {
        survivorId: free.id,
        mergedId: linked.id,
        values: {},
      });
      expect(merge.statusCode).toBe(409);
      expect((await get(`/api/traders/${linked.id}`)).statusCode).toBe(200);

      const ok = await t.app.inject({
        method: 'DELETE',
        url: '/api/traders',
        headers: admin,
        payload: { ids: [free.id] },
      });
      expect(ok.statusCode).toBe(204);
      expect((await get(`/api/traders/${free.id}`)).statusCode).toBe(404);
      expect(await db.select().from(traderBanks).where(eq(traderBanks.traderId, free.id))).toEqual([]);
    } finally {
      await db.execute(sql`DROP TABLE test_documents`);
    }
  });
});
