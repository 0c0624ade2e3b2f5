import { normalizeText } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createOperator, grant, startTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: { authorization: string };

const people = [
  ['kpapadopoulos', 'Κωνσταντίνος', 'Παπαδόπουλος'],
  ['epapadopoulou', 'Ελένη', 'ΠΑΠΑΔΟΠΟΎΛΟΥ'],
  ['ageorgiou', 'Αντώνης', 'Γεωργίου'],
  ['dnikolaidis', 'Δημήτρης', 'Νικολαΐδης'],
  ['percent', 'Test', '100% κάτι_άλλο'],
] as const;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  for (const [username, firstname, lastname] of people) {
    const response = await createOperator(t, admin, {
      username,
      firstname,
      lastname,
      active: username !== 'ageorgiou',
    });
    expect(response.statusCode, response.body).toBe(201);
  }
});
afterAll(async () => {
  await t?.close();
});

const search = async (query: string, headers = admin) => {
  const response = await t.app.inject({ method: 'GET', url: `/api/users/search?${query}`, headers });
  return { status: response.statusCode, body: response.json() };
};
const usernames = (body: { content: { username: string }[] }) => body.content.map((u) => u.username);

describe('GET /api/users/search', () => {
  it('answers the paged response of spec §3 exactly', async () => {
    const { status, body } = await search('page=0&size=3&sort=username,ASC');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual([
      'content',
      'first',
      'last',
      'number',
      'offset',
      'size',
      'totalElements',
      'totalPages',
    ]);
    expect(body).toMatchObject({
      number: 0,
      size: 3,
      offset: 0,
      first: true,
      last: false,
      totalElements: 10,
      totalPages: 4,
    });
    expect(usernames(body)).toEqual(['admin', 'ageorgiou', 'dnikolaidis']);
    const last = await search('page=3&size=3&sort=username,ASC');
    expect(last.body).toMatchObject({ number: 3, offset: 9, first: false, last: true, totalElements: 10 });
    expect(last.body.content).toHaveLength(1);
  });

  it('filters Greek text regardless of accents, case and final sigma', async () => {
    const typed = await search(`lastname=${encodeURIComponent('ci(contains(παπαδοπουλοσ))')}`);
    expect(usernames(typed.body)).toEqual(['kpapadopoulos']);
    const upper = await search(
      `lastname=${encodeURIComponent('ci(contains(ΠΑΠΑΔΟΠΟΥΛ))')}&sort=username,ASC`,
    );
    expect(usernames(upper.body)).toEqual(['epapadopoulou', 'kpapadopoulos', 'mpapadopoulou']);
    const dialytika = await search(`lastname=${encodeURIComponent('ci(contains(νικολαιδης))')}`);
    expect(usernames(dialytika.body)).toEqual(['dnikolaidis']);
  });

  it('treats % and _ in a filter as plain characters', async () => {
    expect(usernames((await search(`lastname=${encodeURIComponent('ci(contains(100%))')}`)).body)).toEqual([
      'percent',
    ]);
    expect(usernames((await search(`lastname=${encodeURIComponent('ci(contains(%))')}`)).body)).toEqual([
      'percent',
    ]);
    expect((await search(`lastname=${encodeURIComponent('ci(contains(_))')}`)).body.totalElements).toBe(1);
  });

  it('combines enum, boolean, date filters and the quick search', async () => {
    expect(usernames((await search('active=eq(false)')).body)).toEqual(['ageorgiou']);
    expect(usernames((await search('kind=eq(1)')).body)).toEqual(['admin']);
    // Date filters are days of the utility's calendar (Europe/Athens), not UTC days.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Athens' }).format(new Date());
    expect((await search(`createdate=gte(${today})&createdate=lte(${today})`)).body.totalElements).toBe(10);
    expect((await search('createdate=lte(1999-12-31)')).body.totalElements).toBe(0);
    const quick = await search(`search=${encodeURIComponent('ΓΕΩΡΓΙΟΥ')}`);
    expect(usernames(quick.body)).toEqual(['ageorgiou']);
  });

  it('sorts in both directions, with All as the page size', async () => {
    const asc = await search('sort=lastname,ASC&size=-1');
    const desc = await search('sort=lastname,DESC&size=-1');
    expect(asc.body.size).toBe(100000);
    const names = (body: { content: { lastname: string }[] }) =>
      body.content.map((u) => normalizeText(u.lastname));
    expect(names(asc.body)).toEqual([...names(asc.body)].sort());
    expect(names(desc.body)).toEqual([...names(asc.body)].reverse());
    // Accents do not change the order: Παπαδόπουλος, ΠΑΠΑΔΟΠΟΎΛΟΥ and Παπαδοπούλου sort together.
    expect(names(asc.body).slice(-4, -1)).toEqual(['παπαδοπουλοσ', 'παπαδοπουλου', 'παπαδοπουλου']);
  });

  it('answers 400 naming an unknown sort field or filter', async () => {
    const sort = await search('sort=passwordHash,ASC');
    expect(sort).toMatchObject({
      status: 400,
      body: { key: 'error.unknown_field', params: { field: 'passwordHash' } },
    });
    expect(sort.body.message).toBe('Άγνωστο πεδίο: passwordHash');
    expect((await search('nope=eq(1)')).body).toMatchObject({
      key: 'error.unknown_field',
      params: { field: 'nope' },
    });
  });

  it('runs at most three SQL queries for a list, whatever the page size', async () => {
    for (const size of [1, 2, 50, -1]) {
      const before = t.queries.length;
      await search(`size=${size}&lastname=${encodeURIComponent('ci(contains(α))')}&sort=lastname,DESC`);
      const listQueries = t.queries.slice(before).filter((q) => !q.includes('live_session('));
      // The page, the planner's estimate of the total, and a count up to the exact-count limit.
      expect(listQueries.length, listQueries.join('\n')).toBeLessThanOrEqual(3);
    }
  });

  it('shows an operator the operators of their company, without super admins', async () => {
    const op = await t.login('mpapadopoulou', 'Demo-2026!');
    expect((await search('size=-1', op)).status).toBe(403);
    await grant(t, 'mpapadopoulou', ['users:read']);
    const { body } = await search('size=-1', op);
    expect(usernames(body)).not.toContain('admin');
    expect(usernames(body)).toContain('gnikolaou');
  });
});

describe('creating and deleting operators', () => {
  it('refuses a taken user name with 409 on the field, whatever its case', async () => {
    const response = await createOperator(t, admin, {
      username: 'MPAPADOPOULOU',
      firstname: 'Α',
      lastname: 'Β',
      email: null,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      key: 'error.username_taken',
      fieldErrors: [{ field: 'username' }],
    });
  });

  it('refuses an operator creating operators', async () => {
    const op = await t.login('mpapadopoulou', 'Demo-2026!');
    const response = await createOperator(t, op, {
      username: 'newbie',
      firstname: 'Α',
      lastname: 'Β',
      email: null,
    });
    expect(response.statusCode).toBe(403);
  });

  it('never deletes operators, one or many, with the spec’s message', async () => {
    const one = await t.app.inject({ method: 'DELETE', url: '/api/users/2', headers: admin });
    expect(one.statusCode).toBe(403);
    expect(one.json()).toMatchObject({ key: 'error.delete_users_forbidden' });
    const many = await t.app.inject({
      method: 'DELETE',
      url: '/api/users',
      headers: admin,
      payload: { ids: [2, 3] },
    });
    expect(many.statusCode).toBe(403);
  });
});
