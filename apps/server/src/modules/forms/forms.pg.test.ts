import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { databaseOnPool } from '../../db/client.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { protocolBooks } from '../parametrics/parametrics.schema.ts';
import { documents, protocolCounters } from '../protocol/protocol.schema.ts';
import { formSubmissions } from './forms.schema.ts';

/**
 * Citizens submit an auto-numbered form concurrently on real PostgreSQL, 10% of the submissions
 * failing after their protocol number was taken: the book's numbers are exactly 1…N, each stored
 * submission has its document, and no failed one left a document or a submission. Prints throughput
 * and p95. PGlite has one connection, so there is no concurrency to test there.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const CLIENTS = 20;
const SUBMISSIONS = 200;
const FAIL_EVERY = 10;

describe.skipIf(!onPostgres)(
  'public submissions with auto numbering under concurrency (PostgreSQL only)',
  () => {
    let t: TestApp;
    let app: FastifyInstance;
    let pool: pg.Pool;
    let bookId: number;
    let formId: string;

    beforeAll(async () => {
      t = await startTestApp();
      pool = new pg.Pool({ connectionString: t.config.databaseUrl, max: CLIENTS + 4 });
      app = await buildApp(t.config, databaseOnPool(pool));
      const admin = await t.login('admin', ADMIN_PASSWORD);
      const me = (
        await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: admin })
      ).json();
      const companyId: number = me.companies[0].id;
      const [book] = await t.database.db
        .insert(protocolBooks)
        .values({ companyId, descr: 'Βιβλίο αιτήσεων', year: 2099, booktype: 1 })
        .returning({ id: protocolBooks.id });
      bookId = book?.id ?? 0;
      formId = 'fortos-aitiseon';
      const api = JSON.stringify([
        {
          type: 'inputLayout',
          name: '',
          showTitle: false,
          theme: 'Plain',
          grid: 1,
          conditionals: [],
          elements1: [
            {
              type: 'text',
              options: { field: 'fullname' },
              items: [],
              validation: 'required',
              conditionals: [],
            },
            {
              type: 'email',
              options: { field: 'email' },
              items: [],
              validation: 'required',
              conditionals: [],
            },
          ],
        },
      ]);
      const saved = await t.app.inject({
        method: 'PUT',
        url: `/api/onlineForms?companyid=${companyId}`,
        headers: admin,
        payload: {
          id: null,
          form_id: formId,
          title: 'Φόρτος',
          status: 1,
          is_online: true,
          auto_nr: true,
          book: bookId,
          api,
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      // Test-only: a submission of a marked applicant fails AFTER its document took a number, in the
      // registration statement itself, when it links the submission to its document.
      await pool.query(`
      CREATE FUNCTION test_fail_marked_submission() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.applicant LIKE 'FAIL %' THEN RAISE EXCEPTION 'test failure after number'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_fail_marked_submission BEFORE UPDATE ON form_submissions
        FOR EACH ROW EXECUTE FUNCTION test_fail_marked_submission();`);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await pool?.end();
      await t?.close();
    });

    it(`${CLIENTS} clients submit ${SUBMISSIONS} forms, ${100 / FAIL_EVERY}% failing: the book has no gaps`, async () => {
      let next = 0;
      const times: number[] = [];
      const outcome = { ok: 0, failed: 0, other: [] as string[] };
      const client = async () => {
        for (let i = next++; i < SUBMISSIONS; i = next++) {
          const fail = i % FAIL_EVERY === 0;
          const started = performance.now();
          const response = await app.inject({
            method: 'POST',
            url: `/api/public/forms/${formId}/submissions`,
            // Each citizen from an address of their own: the per-address limit is not what is measured.
            remoteAddress: `10.9.${Math.floor(i / 250)}.${i % 250}`,
            payload: {
              values: { fullname: `${fail ? 'FAIL' : 'OK'} ${i}`, email: `citizen${i}@example.gr` },
            },
          });
          times.push(performance.now() - started);
          if (response.statusCode === 201 && !fail) outcome.ok++;
          else if (response.statusCode === 500 && fail) outcome.failed++;
          else outcome.other.push(`${i}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        }
      };
      const started = Date.now();
      await Promise.all(Array.from({ length: CLIENTS }, client));
      const seconds = (Date.now() - started) / 1000;
      const p95 = [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)] ?? 0;
      console.info(
        `${SUBMISSIONS} submissions in ${seconds.toFixed(1)} s: ${(SUBMISSIONS / seconds).toFixed(0)}/s, p95 ${p95.toFixed(0)} ms`,
      );

      expect(outcome.other).toEqual([]);
      const n = SUBMISSIONS - SUBMISSIONS / FAIL_EVERY;
      expect(outcome.ok).toBe(n);
      const rows = await t.database.db
        .select({ number: documents.protocolNumber })
        .from(documents)
        .where(eq(documents.protocolBookId, bookId))
        .orderBy(asc(documents.protocolNumber));
      expect(rows.map((r) => r.number)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      const [counter] = await t.database.db
        .select()
        .from(protocolCounters)
        .where(eq(protocolCounters.bookId, bookId));
      expect(counter?.last).toBe(n);
      const stored = await t.database.db
        .select({
          documentId: formSubmissions.documentId,
          protocolNumber: formSubmissions.protocolNumber,
          applicant: formSubmissions.applicant,
        })
        .from(formSubmissions);
      const ours = stored.filter((s) => s.applicant?.startsWith('OK '));
      expect(ours).toHaveLength(n);
      expect(new Set(ours.map((s) => s.documentId)).size).toBe(n);
      expect(new Set(ours.map((s) => s.protocolNumber?.split('/')[0])).size).toBe(n);
      expect(ours.every((s) => s.documentId !== null && /^\d+\/\d{4}$/.test(s.protocolNumber ?? ''))).toBe(
        true,
      );
      expect(stored.some((s) => s.applicant?.startsWith('FAIL '))).toBe(false);
    }, 180_000);

    it('30 parallel submissions from one address: exactly the limit of 10 is accepted', async () => {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          app.inject({
            method: 'POST',
            url: `/api/public/forms/${formId}/submissions`,
            remoteAddress: '10.8.0.1',
            payload: { values: { fullname: `OK burst ${i}`, email: `burst${i}@example.gr` } },
          }),
        ),
      );
      const codes = answers.map((a) => a.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(10);
      expect(codes.filter((c) => c === 429)).toHaveLength(20);
    }, 60_000);
  },
);
