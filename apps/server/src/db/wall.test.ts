import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { rowsOf } from './client.ts';
import { behindCompanyWall, outsideCompanyWall, wallCrossings } from './wall.ts';

describe('the company wall (row-level security)', () => {
  let t: TestApp;
  let mine: number;
  let theirs: number;
  const bookOf = async (companyId: number, descr: string) => {
    const [row] = rowsOf<{ id: number }>(
      await t.database.db.execute(
        sql`INSERT INTO protocol_books (company_id, descr, year, booktype) VALUES (${companyId}, ${descr}, 2031, 1) RETURNING id`,
      ),
    );
    return row?.id as number;
  };
  const descrs = async () =>
    rowsOf<{ descr: string }>(
      await t.database.db.execute(sql`SELECT descr FROM protocol_books WHERE year = 2031 ORDER BY descr`),
    ).map((r) => r.descr);

  beforeAll(async () => {
    t = await startTestApp({ COMPANY_WALL: 'on' });
    const [a, b] = rowsOf<{ id: number }>(
      await t.database.db.execute(
        sql`INSERT INTO companies (companyname, companytitle) VALUES ('Α', 'Α'), ('Β', 'Β') RETURNING id`,
      ),
    );
    mine = a?.id as number;
    theirs = b?.id as number;
    await bookOf(mine, 'mine');
    await bookOf(theirs, 'theirs');
  });
  afterAll(() => t?.close());

  it('stands on every company-owned table, once migrated and switched on', async () => {
    expect(t.database.wall.on).toBe(true);
    const unwalled = rowsOf<{ table: string }>(
      await t.database.db.execute(sql`
        SELECT c.relname AS "table" FROM pg_class c
          JOIN pg_namespace n ON n.oid = c.relnamespace
          JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped
         WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> 'company_users'
           AND NOT (c.relrowsecurity AND EXISTS (
             SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid AND p.polname = 'company_wall'))`),
    );
    expect(unwalled.map((r) => r.table)).toEqual([]);
  });

  it('lets a statement with no company condition read and change only its company’s rows', async () => {
    expect(await behindCompanyWall(mine, descrs)).toEqual(['mine']);
    expect(await behindCompanyWall(theirs, descrs)).toEqual(['theirs']);
    await behindCompanyWall(mine, () =>
      t.database.db.execute(sql`UPDATE protocol_books SET descr = descr || ' changed' WHERE year = 2031`),
    );
    // In a transaction too (the wall is set for it), and a delete with no condition at all.
    await behindCompanyWall(mine, () =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE protocol_books SET descr = descr || ' twice' WHERE year = 2031`);
      }),
    );
    expect(await descrs()).toEqual(['mine changed twice', 'theirs']);
  });

  it('refuses to write a row of another company', async () => {
    await expect(behindCompanyWall(mine, () => bookOf(theirs, 'planted'))).rejects.toThrow();
    await expect(
      behindCompanyWall(mine, () =>
        t.database.db.execute(sql`UPDATE protocol_books SET company_id = ${theirs} WHERE year = 2031`),
      ),
    ).rejects.toThrow();
    expect(await descrs()).toEqual(['mine changed twice', 'theirs']);
  });

  it('keeps each piece of work behind its own company while they run side by side', async () => {
    const seen = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const company = i % 2 === 0 ? mine : theirs;
        return behindCompanyWall(company, async () => ({ company, descrs: await descrs() }));
      }),
    );
    for (const { company, descrs } of seen) {
      expect(descrs).toEqual(company === mine ? ['mine changed twice'] : ['theirs']);
    }
    // Outside any company (start-up, the jobs' queue) nothing is walled.
    expect(await descrs()).toEqual(['mine changed twice', 'theirs']);
  });

  it('is crossed only by name, and counted', async () => {
    const before = wallCrossings.get('test') ?? 0;
    const all = await behindCompanyWall(mine, () => outsideCompanyWall('test', descrs));
    expect(all).toEqual(['mine changed twice', 'theirs']);
    expect(wallCrossings.get('test')).toBe(before + 1);
  });

  it('stays down unless switched on (COMPANY_WALL)', async () => {
    const plain = await startTestApp({ COMPANY_WALL: 'off' });
    try {
      expect(plain.database.wall.on).toBe(false);
      expect(
        await behindCompanyWall(mine, async () =>
          rowsOf(await plain.database.db.execute(sql`SELECT current_user AS "user"`)),
        ),
      ).toEqual([{ user: 'postgres' }]);
    } finally {
      await plain.close();
    }
  });
});
