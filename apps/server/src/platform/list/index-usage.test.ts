import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  // 20,000 operators, one of them with a rare surname.
  await t.database.db.execute(sql`
    INSERT INTO users (username, firstname, lastname, kind, createuser)
    SELECT 'op' || g, 'Όνομα ' || g, CASE WHEN g = 12345 THEN 'Ζαχαρίου' ELSE 'Παπαδόπουλος ' || (g % 97) END, 2, 'test'
    FROM generate_series(1, 20000) g`);
  await t.database.db.execute(sql`ANALYZE users`);
});
afterAll(async () => {
  await t?.close();
});

describe('Greek text filters are index-backed', () => {
  it('the list’s own SQL can run on the trigram index of the normalised column', async () => {
    const headers = await t.login('admin', ADMIN_PASSWORD);
    const before = t.queries.length;
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/users/search?size=-1&lastname=${encodeURIComponent('ci(contains(ΖΑΧΑΡΙΟΥ))')}`,
      headers,
    });
    expect(response.json().content.map((u: { username: string }) => u.username)).toEqual(['op12345']);
    const [page] = t.queries
      .slice(before)
      .filter((q) => q.includes('from "users"') && !q.includes('"sessions"'));
    expect(page).toBeDefined();
    // The same statement with its parameters written in: the filter value, then the page.
    const statement = String(page)
      .replace('$1', `'ΖΑΧΑΡΙΟΥ'`)
      .replace(/limit \$\d+ offset \$\d+/, 'limit 100000 offset 0');
    // On a test-sized table a sequential scan may be cheaper; what matters is that the index serves
    // the statement when scanning is not an option (bench/users-list.ts shows it chosen at 200k rows).
    const text = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const plan = await tx.execute(sql.raw(`EXPLAIN ${statement}`));
      return (plan as unknown as { rows: Record<string, string>[] }).rows
        .map((r) => Object.values(r)[0])
        .join('\n');
    });
    expect(text).toContain('users_lastname_norm_trgm');
    expect(text).not.toMatch(/Seq Scan on users/);
  });

  it('the documents’ quick search can answer from indexes alone, the protocol numbers included', async () => {
    const headers = await t.login('admin', ADMIN_PASSWORD);
    const before = t.queries.length;
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/inbox/search?search=${encodeURIComponent('1532/2024')}`,
      headers,
    });
    expect(response.statusCode).toBe(200);
    const [page] = t.queries.slice(before).filter((q) => q.includes('from "documents"'));
    // The list searches stored columns (migration 0047), each with its trigram index: a LIKE on a plain
    // column keeps its index behind the company wall too (README "The company wall").
    expect(page).toContain(`"documents"."protocol_id" LIKE`);
    expect(page).toContain(`"documents"."protocol_id_sender_norm" LIKE`);
    const columns = [
      'subject_norm',
      'correspondents_norm',
      'name_norm',
      'protocol_id',
      'protocol_id_sender_norm',
    ];
    const text = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const plan = await tx.execute(
        sql.raw(
          `EXPLAIN SELECT id FROM documents WHERE ${columns.map((c) => `${c} LIKE '%1532/2024%'`).join(' OR ')}`,
        ),
      );
      return (plan as unknown as { rows: Record<string, string>[] }).rows
        .map((r) => Object.values(r)[0])
        .join('\n');
    });
    expect(text).toContain('BitmapOr');
    expect(text).toContain('documents_protocol_id_trgm');
    expect(text).toContain('documents_protocol_id_sender_norm_trgm');
  });
});
