import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../app.ts';
import { databaseOnPool } from '../../../db/client.ts';
import { ADMIN_PASSWORD, companyInUseOf, startTestApp, type TestApp } from '../../../test/harness.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { documents, protocolCounters } from '../protocol.schema.ts';

/**
 * Concurrency of registration on real PostgreSQL: 32 clients register 2,000 documents in one book
 * through the API while 10% of the transactions fail after their number was taken; the numbers are
 * exactly 1…N afterwards. PGlite has a single connection, so there is no concurrency to test there.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const CLIENTS = 32;
const DOCUMENTS = 2000;
const FAIL_EVERY = 10;

describe.skipIf(!onPostgres)(
  'registration under concurrency (PostgreSQL only: skipped on PGlite, which has one connection and no concurrency)',
  () => {
    let t: TestApp;
    let app: FastifyInstance;
    let pool: pg.Pool;
    let companyId: number;
    let bookId: number;

    beforeAll(async () => {
      t = await startTestApp();
      // The app's own pool has 10 connections: this one serves 32 clients at once.
      pool = new pg.Pool({ connectionString: t.config.databaseUrl, max: CLIENTS + 4 });
      app = await buildApp(t.config, databaseOnPool(pool));
      const admin = await t.login('admin', ADMIN_PASSWORD);
      companyId = await companyInUseOf(t, admin);
      const [book] = await t.database.db
        .insert(protocolBooks)
        .values({ companyId, descr: 'Βιβλίο φόρτου', year: 2099, booktype: 1 })
        .returning({ id: protocolBooks.id });
      if (!book) throw new Error('no book');
      bookId = book.id;
      // Test-only: a registration whose subject is marked fails AFTER its number was taken.
      await pool.query(`
        CREATE FUNCTION test_fail_marked_registration() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.protocol_number IS NOT NULL AND NEW.subject LIKE 'FAIL %' THEN
            RAISE EXCEPTION 'test failure after protocol number %', NEW.protocol_number;
          END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER test_fail_marked_registration AFTER INSERT OR UPDATE ON documents
          FOR EACH ROW EXECUTE FUNCTION test_fail_marked_registration();`);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await pool?.end();
      await t?.close();
    });

    it(`${CLIENTS} clients register ${DOCUMENTS} documents with ${100 / FAIL_EVERY}% failing: numbers are exactly 1…N`, async () => {
      const token = (
        await app.inject({
          method: 'POST',
          url: '/api/account/login',
          payload: { username: 'admin', password: ADMIN_PASSWORD },
        })
      ).json().jwttoken;
      const headers = { authorization: `Bearer ${token}` };
      let next = 0;
      const outcome = { ok: 0, failed: 0, other: [] as string[] };
      const client = async () => {
        for (let i = next++; i < DOCUMENTS; i = next++) {
          const fail = i % FAIL_EVERY === 0;
          const response = await app.inject({
            method: 'POST',
            url: `/api/document?companyid=${companyId}`,
            headers,
            payload: { kind: 0, subject: `${fail ? 'FAIL' : 'OK'} ${i}`, protocolBookId: bookId },
          });
          if (response.statusCode === 201 && !fail) outcome.ok++;
          else if (response.statusCode === 500 && fail) outcome.failed++;
          else outcome.other.push(`${i}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        }
      };
      const started = Date.now();
      await Promise.all(Array.from({ length: CLIENTS }, client));
      const seconds = (Date.now() - started) / 1000;
      console.info(`registered ${outcome.ok} (${outcome.failed} failed) in ${seconds.toFixed(1)} s`);

      expect(outcome.other).toEqual([]);
      expect(outcome.failed).toBe(DOCUMENTS / FAIL_EVERY);
      const n = outcome.ok;
      expect(n).toBe(DOCUMENTS - DOCUMENTS / FAIL_EVERY);
      const rows = await t.database.db
        .select({
          number: documents.protocolNumber,
          year: documents.protocolYear,
          date: documents.protocolDate,
        })
        .from(documents)
        .where(eq(documents.protocolBookId, bookId))
        .orderBy(asc(documents.protocolNumber));
      expect(rows.map((r) => r.number)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      // Dates follow the numbers: each registration reads the clock after the counter lock.
      const dates = rows.map((r) => r.date?.getTime() ?? 0);
      expect(dates.every((d, i) => i === 0 || d >= (dates[i - 1] as number))).toBe(true);
      const [counter] = await t.database.db
        .select()
        .from(protocolCounters)
        .where(and(eq(protocolCounters.bookId, bookId)));
      expect(counter?.last).toBe(n);
    }, 120_000);
  },
);
