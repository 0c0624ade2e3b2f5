import { LIST_EXACT_COUNT_LIMIT } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';

// The total of a large list: exact up to LIST_EXACT_COUNT_LIMIT rows, PostgreSQL's estimate above it,
// flagged. On PGlite here; the same statements run on PostgreSQL 15 (bench/users-list.ts).
let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  // 1,500 operators: 1,200 Παπαδόπουλος (above the limit), 300 Ζαχαρίου (below it).
  await t.database.db.execute(sql`
    INSERT INTO users (username, firstname, lastname, kind, createuser)
    SELECT 'op' || g, 'Όνομα ' || g, CASE WHEN g <= 300 THEN 'Ζαχαρίου' ELSE 'Παπαδόπουλος' END, 2, 'test'
    FROM generate_series(1, 1500) g`);
  await t.database.db.execute(sql`ANALYZE users`);
  headers = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

const list = async (query: string) => {
  const response = await t.app.inject({ method: 'GET', url: `/api/users/search?${query}`, headers });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    totalElements: number;
    totalEstimated?: boolean;
    content: { username: string; lastname: string }[];
  };
};

describe('the total of a large list', () => {
  it('is exact, and not flagged, up to the limit', async () => {
    const page = await list(`size=10&lastname=${encodeURIComponent('ci(contains(ζαχαριου))')}`);
    expect(page.totalElements).toBe(300);
    expect(page.totalEstimated).toBeUndefined();
  });

  it('is the planner’s estimate above it, flagged, never below the limit', async () => {
    const page = await list(`size=10&lastname=${encodeURIComponent('ci(contains(ΠΑΠΑΔΟΠΟΥΛΟΣ))')}`);
    expect(page.totalEstimated).toBe(true);
    expect(page.totalElements).toBeGreaterThan(LIST_EXACT_COUNT_LIMIT);
    // ANALYZEd statistics put it near the truth.
    expect(page.totalElements).toBeGreaterThan(600);
    expect(page.totalElements).toBeLessThan(2400);
    const all = await list('size=10');
    expect(all.totalEstimated).toBe(true);
  });

  it('is exact on the last page, whatever the list', async () => {
    const rows = await t.database.db.execute(sql`SELECT count(*)::int AS n FROM users`);
    const n = Number((rows as unknown as { rows: { n: number }[] }).rows[0]?.n);
    const page = await list(`size=100&page=${Math.floor(n / 100)}`);
    expect(page.content.length).toBe(n % 100);
    expect(page.totalElements).toBe(n);
    expect(page.totalEstimated).toBeUndefined();
  });
});

describe('a text field sorted and searched at once', () => {
  it('sorts by an expression its sort index does not have, in the same order', async () => {
    const before = t.queries.length;
    const filter = encodeURIComponent('ci(contains(όνομα 1))');
    const page = await list(`size=5&sort=firstname,DESC&firstname=${filter}`);
    const statement = t.queries
      .slice(before)
      .find((q) => q.includes('from "users"') && q.includes('order by'));
    expect(statement).toContain(`("users"."firstname_norm" || '') desc`);
    const expected = await t.database.db.execute(sql`
      SELECT username FROM users WHERE firstname_norm LIKE '%' || norm_text('όνομα 1') || '%'
      ORDER BY firstname_norm DESC, id LIMIT 5`);
    const usernames = (expected as unknown as { rows: { username: string }[] }).rows.map((r) => r.username);
    expect(usernames).toHaveLength(5);
    expect(page.content.map((u) => u.username)).toEqual(usernames);
  });
});
