import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';

/**
 * Every list the app registers (a GET taking page, size and search in the OpenAPI document: lists of
 * modules still to come included), called as the super administrator the way the screens call it.
 */
let t: TestApp;
let admin: { authorization: string };
let lists: string[];

beforeAll(async () => {
  t = await startTestApp();
  await t.app.ready();
  admin = await t.login('admin', ADMIN_PASSWORD);
  const document = t.app.swagger() as unknown as {
    paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
  };
  lists = Object.entries(document.paths)
    .filter(([, item]) => {
      const query = new Set((item.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
      return query.has('page') && query.has('size') && query.has('search');
    })
    .map(([path]) => path);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });

describe('every list', () => {
  it('issue 29 item 6: answers a quick search — a word, a Greek word with accents, a number — with 200', async () => {
    expect(lists.length).toBeGreaterThan(40);
    expect(lists).toContain('/api/settlements/categories/search');
    const problems: string[] = [];
    for (const path of lists) {
      for (const search of ['a', 'Παπαδόπουλος', '42', '12.50', '%_\\']) {
        const response = await get(`${path}?${new URLSearchParams({ search, page: '0', size: '10' })}`);
        if (response.statusCode !== 200)
          problems.push(`${path} search=${search}: ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('issue 29 item 7: refuses a page past 2^31 rows with a 400 in the error shape, on every list', async () => {
    const problems: string[] = [];
    for (const path of lists) {
      for (const page of ['99999999999999999999', '2147483648']) {
        const response = await get(`${path}?page=${page}`);
        const body = response.json() as { status?: number; key?: string; params?: { field?: string } };
        if (response.statusCode !== 400 || body.key !== 'error.bad_data' || body.params?.field !== 'page')
          problems.push(`${path} page=${page}: ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
