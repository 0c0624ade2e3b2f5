import type { TableView } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const list = async (headers: { authorization: string }) => {
  const response = await t.app.inject({ method: 'GET', url: `/api/users/meta?metaKey=${KEY}`, headers });
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
) =>
  t.app.inject({
    method: 'POST',
    url: `/api/users/meta?metaKey=${KEY}`,
    headers,
    payload: {
      id: body.id,
      global: body.global,
      metaKey: KEY,
      metaValue: typeof body.metaValue === 'string' ? body.metaValue : JSON.stringify(body.metaValue),
    },
  });
const remove = (headers: { authorization: string }, id: number) =>
  t.app.inject({
    method: 'DELETE',
    url: `/api/users/meta?metaKey=${KEY}`,
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
