import { Decimal } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRegistryOf } from '../../platform/jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../../platform/jobs/worker.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp, waitForJob } from '../../test/harness.ts';
import { client, finalBill, type Json, newConsumer } from '../../test/water-fixtures.ts';
import { paymentsModule } from './index.ts';

/**
 * The same bank file uploaded twice at the same moment, imported by two workers at once while a
 * cashier pays the same bills, on PostgreSQL 15: each bank reference pays once (the unique index
 * makes the other run's line a duplicate), no debt is paid beyond its amount, every euro is either
 * allocated or credit, and the receipts run without a gap. PGlite has one connection: nothing runs at
 * once there.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const BILLS = 6;

let t: TestApp;
const workers: JobWorker[] = [];

describe.skipIf(!onPostgres)('one bank file imported twice at once (PostgreSQL only)', () => {
  beforeAll(async () => {
    t = await startTestApp();
    for (let i = 0; i < 2; i++)
      workers.push(
        startJobWorker(t.database.db, jobRegistryOf([paymentsModule]), { pollMs: 10, concurrency: 1 }),
      );
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await t?.close();
  });

  it('pays each bank reference once, beside a cashier paying the same bills', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const api = client(t, admin);
    const bills: { consumerId: number; bill: Json }[] = [];
    for (let i = 0; i < BILLS; i++) {
      const consumerId = await newConsumer(api, '', ['01', '003', String(700 + i)], {
        individual: true,
        lastname: `Τράπεζα${i}`,
        firstname: 'Νίκος',
      });
      bills.push({
        consumerId,
        bill: await finalBill(api, '', consumerId, '2026-01-01', '2026-04-30', String(10 + i), '2026-05-10'),
      });
    }
    const file = [
      'Αναφορά;Ημερομηνία;RF;Ποσό;Πληρωτής',
      ...bills.map(({ bill }, i) => `PG-${i};25/11/2026;${bill.rfCode};${bill.total.replace('.', ',')};Χ`),
    ].join('\n');
    const layouts = (await api.get('/api/payments/bank/layouts')).json() as Json[];
    const layout = layouts.find((l) => l.code === 'CSV') as Json;
    const boundary = '----bank-pg';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="rf.csv"\r\n\r\n${file}\r\n--${boundary}--\r\n`,
    );
    const upload = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/payments/bank/files?layoutId=${layout.id}`,
        headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: body,
      });
    const started = await Promise.all([upload(), upload()]);
    expect(started.map((s) => s.statusCode)).toEqual([202, 202]);
    const cashier = await Promise.all(
      bills.map(({ consumerId, bill }) =>
        api.post('/api/payments/payments', { consumerId, method: 'cash', amount: bill.total }),
      ),
    );
    expect(cashier.map((c) => c.statusCode)).toEqual(cashier.map(() => 201));
    for (const s of started) expect((await waitForJob(t, admin, s.json().jobId)).state).toBe('succeeded');

    const statuses = await t.database.db.execute(sql`
      SELECT bank_reference AS reference, array_agg(status ORDER BY status) AS statuses
        FROM payments_bank_lines GROUP BY bank_reference ORDER BY bank_reference`);
    for (const row of (statuses as unknown as { rows: Json[] }).rows) {
      // One run paid it (matched, or partly when the cashier was first: all of it credit), the other saw a duplicate.
      expect(row.statuses).toHaveLength(2);
      expect(row.statuses).toContain('duplicate');
    }
    const totals = await t.database.db.execute(sql`
      SELECT (SELECT sum(paid) FROM payments_debts)::text AS paid,
             (SELECT sum(amount) FROM payments_allocations)::text AS allocated,
             (SELECT sum(amount) - sum(unallocated) FROM payments_payments)::text AS taken,
             (SELECT sum(amount) FROM payments_payments)::text AS received,
             (SELECT count(*) FROM payments_payments)::int AS payments,
             (SELECT max(receipt_number) FROM payments_payments)::int AS last,
             (SELECT count(*) FROM payments_debts WHERE paid > amount)::int AS over`);
    const row = (totals as unknown as { rows: Json[] }).rows[0] as Json;
    const billed = bills.reduce((sum, b) => sum.plus(b.bill.total), new Decimal(0));
    expect(row).toEqual({
      paid: billed.toFixed(2),
      allocated: billed.toFixed(2),
      taken: billed.toFixed(2),
      received: billed.times(2).toFixed(2),
      payments: BILLS * 2,
      last: BILLS * 2,
      over: 0,
    });
  });
});
