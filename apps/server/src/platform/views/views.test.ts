import type { TableView } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUserToCompany, createCompany } from '../../modules/companies/api.ts';
import { createUser } from '../../modules/users/api.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: { authorization: string };
let maria: { authorization: string };
let giorgos: { authorization: string };
const KEY = 'users.list';

const view = (title: string, active: 0 | 1, extra: Partial<TableView> = {}): TableView => ({
  version: 1,
  title,
  search: '',
  active,
  columns: [
    { id: 'lastname', visible: true, width: 180 },
    { id: 'firstname', visible: true },
    { id: 'email', visible: false },
  ],
  headerAvancedFilters: { lastname: [{ op: 'contains', value: 'παπ' }] },
  defaultTableOptions: { itemsPerPage: 50, page: 0, sortBy: ['lastname'], sortDesc: [false] },
  ...extra,
});

const list = async (headers: { authorization: string }, query = '') => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/users/meta?metaKey=${KEY}${query}`,
    headers,
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { id: number; global: 0 | 1; metaKey: string; metaValue: string }[]).map(
    (row) => ({
      ...row,
      value: JSON.parse(row.metaValue) as TableView,
    }),
  );
};
const save = (
  headers: { authorization: string },
  body: { id: number | null; global: 0 | 1; metaValue: TableView | string },
  query = '',
) =>
  t.app.inject({
    method: 'POST',
    url: `/api/users/meta?metaKey=${KEY}${query}`,
    headers,
    payload: {
      id: body.id,
      global: body.global,
      metaKey: KEY,
      metaValue: typeof body.metaValue === 'string' ? body.metaValue : JSON.stringify(body.metaValue),
    },
  });
const remove = (headers: { authorization: string }, id: number, query = '') =>
  t.app.inject({
    method: 'DELETE',
    url: `/api/users/meta?metaKey=${KEY}${query}`,
    headers,
    payload: { id, global: 0, metaKey: KEY, metaValue: '{}' },
  });

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  maria = await t.login('mpapadopoulou', 'Demo-2026!');
  giorgos = await t.login('gnikolaou', 'Demo-2026!');
});
afterAll(async () => {
  await t?.close();
});

describe('saved table views (spec §4)', () => {
  it('starts with no views; a saved default view comes back with the spec’s fields', async () => {
    expect(await list(maria)).toEqual([]);
    const response = await save(maria, { id: null, global: 0, metaValue: view('Προεπιλογή', 1) });
    expect(response.statusCode).toBe(200);
    const [first] = await list(maria);
    expect(first).toMatchObject({ global: 0, metaKey: KEY });
    expect(first?.value).toMatchObject({
      title: 'Προεπιλογή',
      active: 1,
      search: '',
      headerAvancedFilters: { lastname: [{ op: 'contains', value: 'παπ' }] },
      defaultTableOptions: { itemsPerPage: 50, page: 0, sortBy: ['lastname'], sortDesc: [false] },
    });
  });

  it('choosing a view flags it and clears the others', async () => {
    await save(maria, { id: null, global: 0, metaValue: view('Μόνο ενεργοί', 1, { search: 'x' }) });
    let views = await list(maria);
    expect(views.map((v) => [v.value.title, v.value.active])).toEqual([
      ['Προεπιλογή', 0],
      ['Μόνο ενεργοί', 1],
    ]);
    // The client saves all of them with the new flags.
    for (const v of views) {
      await save(maria, {
        id: v.id,
        global: 0,
        metaValue: { ...v.value, active: v.value.title === 'Προεπιλογή' ? 1 : 0 },
      });
    }
    views = await list(maria);
    expect(views.map((v) => v.value.active)).toEqual([1, 0]);
  });

  it('keeps views per operator: another operator sees none of them', async () => {
    expect(await list(giorgos)).toEqual([]);
    const [mine] = await list(maria);
    expect(
      (await save(giorgos, { id: mine?.id ?? 0, global: 0, metaValue: view('Κλοπή', 1) })).statusCode,
    ).toBe(404);
    expect((await remove(giorgos, mine?.id ?? 0)).statusCode).toBe(404);
  });

  it('global views: only admins create or delete them; every operator sees and may choose them', async () => {
    const refused = await save(maria, { id: null, global: 1, metaValue: view('Κοινή', 0) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().key).toBe('error.global_views_admin_only');
    const created = await save(admin, { id: null, global: 1, metaValue: view('Κοινή', 0) });
    expect(created.statusCode).toBe(200);
    const sharedId = created.json().id as number;
    const seen = await list(giorgos);
    expect(seen.map((v) => [v.id, v.global, v.value.title])).toEqual([[sharedId, 1, 'Κοινή']]);
    // Choosing it is allowed and personal.
    const chosen = await save(giorgos, { id: sharedId, global: 1, metaValue: { ...view('Κοινή', 1) } });
    expect(chosen.statusCode).toBe(200);
    expect((await list(giorgos))[0]?.value.active).toBe(1);
    expect((await list(maria)).find((v) => v.id === sharedId)?.value.active).toBe(0);
    // Changing or deleting it is not.
    const changed = await save(giorgos, { id: sharedId, global: 1, metaValue: view('Κοινή αλλαγμένη', 1) });
    expect(changed.statusCode).toBe(403);
    expect((await remove(giorgos, sharedId)).statusCode).toBe(403);
    expect((await remove(admin, sharedId)).statusCode).toBe(204);
    expect(await list(giorgos)).toEqual([]);
  });

  it('reset keeps the title: a saved reset view is stored as sent', async () => {
    const [first] = await list(maria);
    const reset = view(first?.value.title ?? '', 1, { headerAvancedFilters: {}, search: '' });
    expect((await save(maria, { id: first?.id ?? null, global: 0, metaValue: reset })).statusCode).toBe(200);
    const [after] = await list(maria);
    expect(after?.value).toMatchObject({ title: 'Προεπιλογή', headerAvancedFilters: {}, search: '' });
  });

  it('loads a view that names a column that no longer exists; refuses metaValue that is not a view', async () => {
    const old = view('Παλιά', 0, { columns: [{ id: 'fax', visible: true }] });
    expect((await save(maria, { id: null, global: 0, metaValue: old })).statusCode).toBe(200);
    expect((await list(maria)).some((v) => v.value.columns[0]?.id === 'fax')).toBe(true);
    const bad = await save(maria, { id: null, global: 0, metaValue: '{"title": 5}' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors[0].field).toBe('metaValue');
    const mismatch = await t.app.inject({
      method: 'POST',
      url: '/api/users/meta?metaKey=other',
      headers: maria,
      payload: { id: null, global: 0, metaKey: KEY, metaValue: JSON.stringify(view('x', 0)) },
    });
    expect(mismatch.statusCode).toBe(400);
  });

  it('deletes one’s own view', async () => {
    const views = await list(maria);
    const last = views.at(-1);
    expect((await remove(maria, last?.id ?? 0)).statusCode).toBe(204);
    expect((await list(maria)).length).toBe(views.length - 1);
  });
});

describe('shared views belong to a company', () => {
  let companyA: number;
  let companyB: number;
  let adminA: { authorization: string };
  let adminB: { authorization: string };

  beforeAll(async () => {
    const me = await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: admin });
    companyA = me.json().companies[0].id;
    await t.database.db.transaction(async (tx) => {
      const b = await createCompany(tx, { companyname: 'ΔΕΥΑ Β', companytitle: 'ΔΕΥΑ Β' }, 'test');
      companyB = b.id;
      // A company administrator of each company (kind 1, not super administrator).
      for (const [username, company] of [
        ['admina29', companyA],
        ['adminb29', companyB],
      ] as const) {
        const user = await createUser(
          tx,
          { username, password: 'Admin-2026!', firstname: 'Διαχειριστής', lastname: username, kind: 1 },
          'test',
        );
        await addUserToCompany(tx, company, user.id);
      }
    });
    adminA = await t.login('admina29', 'Admin-2026!');
    adminB = await t.login('adminb29', 'Admin-2026!');
  });

  it("issue 29 item 3: company B's shared view is not seen, changed or deleted in company A", async () => {
    const created = await save(adminB, { id: null, global: 1, metaValue: view('Της Β', 0) });
    expect(created.statusCode).toBe(200);
    const id = created.json().id as number;
    expect((await list(adminB)).map((v) => [v.id, v.global])).toContainEqual([id, 1]);
    // Company A's operators and administrator see nothing of it…
    for (const headers of [maria, giorgos, adminA]) {
      expect((await list(headers)).map((v) => v.id)).not.toContain(id);
    }
    // …and cannot change, choose or delete it by its id: to them it does not exist.
    const changed = await save(adminA, { id, global: 1, metaValue: view('Αλλαγμένη', 1) });
    expect(changed.statusCode).toBe(404);
    expect(changed.json()).toMatchObject({ status: 404, key: 'error.not_found' });
    expect((await save(maria, { id, global: 1, metaValue: view('Της Β', 1) })).statusCode).toBe(404);
    expect((await remove(adminA, id)).statusCode).toBe(404);
    // Company B's administrator cannot reach company A either.
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/users/meta?metaKey=${KEY}&companyid=${companyA}`,
      headers: adminB,
    });
    expect(refused.statusCode).toBe(404);
    // The super administrator sees it in company B (not in A), and may change and delete it.
    expect((await list(admin, `&companyid=${companyA}`)).map((v) => v.id)).not.toContain(id);
    expect((await list(admin, `&companyid=${companyB}`)).map((v) => v.id)).toContain(id);
    const bQuery = `&companyid=${companyB}`;
    expect(
      (await save(admin, { id, global: 1, metaValue: view('Της Β, διορθωμένη', 0) }, bQuery)).statusCode,
    ).toBe(200);
    expect((await list(adminB)).find((v) => v.id === id)?.value.title).toBe('Της Β, διορθωμένη');
    expect((await remove(admin, id, bQuery)).statusCode).toBe(204);
    expect((await list(adminB)).map((v) => v.id)).not.toContain(id);
  });

  it("issue 29 item 3: the super administrator's shared view is seen everywhere and changed by no company administrator", async () => {
    const created = await save(
      admin,
      { id: null, global: 1, metaValue: view('Όλων', 0) },
      `&companyid=${companyB}`,
    );
    expect(created.statusCode).toBe(200);
    const id = created.json().id as number;
    for (const headers of [adminA, adminB, maria]) {
      expect((await list(headers)).map((v) => v.id)).toContain(id);
    }
    // Choosing it is personal and allowed; changing or deleting it is not.
    expect((await save(adminB, { id, global: 1, metaValue: view('Όλων', 1) })).statusCode).toBe(200);
    const overwritten = await save(adminB, { id, global: 1, metaValue: view('Της Β τώρα', 1) });
    expect(overwritten.statusCode).toBe(403);
    expect(overwritten.json()).toMatchObject({ status: 403, key: 'error.global_views_super_admin_only' });
    const unshared = await save(adminB, { id, global: 0, metaValue: view('Όλων', 1) });
    expect(unshared.statusCode).toBe(403);
    const deleted = await remove(adminB, id);
    expect(deleted.statusCode).toBe(403);
    expect(deleted.json()).toMatchObject({ status: 403, key: 'error.global_views_super_admin_only' });
    expect((await remove(maria, id)).statusCode).toBe(403);
    expect((await list(adminA)).find((v) => v.id === id)?.value.title).toBe('Όλων');
    expect((await remove(admin, id)).statusCode).toBe(204);
  });

  it("a company administrator changes and deletes the company's own shared views", async () => {
    const created = await save(adminA, { id: null, global: 1, metaValue: view('Της Α', 0) });
    const id = created.json().id as number;
    expect((await list(maria)).map((v) => v.id)).toContain(id);
    expect((await list(adminB)).map((v) => v.id)).not.toContain(id);
    expect((await save(adminA, { id, global: 1, metaValue: view('Της Α, νέα', 0) })).statusCode).toBe(200);
    expect((await save(maria, { id, global: 1, metaValue: view('Της Μαρίας', 0) })).json().key).toBe(
      'error.global_views_admin_only',
    );
    expect((await remove(adminA, id)).statusCode).toBe(204);
  });
});
