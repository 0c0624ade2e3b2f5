import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { client, finalBill, type Json, newConsumer } from '../../test/water-fixtures.ts';

/**
 * Credit applied while everything else happens at once, on PostgreSQL 15: consumers with a prepayment
 * of 50.00 and a new bill of 37.26 (25 m³, see credit.test.ts), then at the same moment two payments
 * of 10.00 each, two views of the account and company-wide RF look-ups, all of which raise the bill's
 * debt. The credit pays it exactly once, nobody deadlocks, and every euro is where it should be.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const CONSUMERS = 6;

let t: TestApp;

describe.skipIf(!onPostgres)('credit applied under concurrent raising (PostgreSQL only)', () => {
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('pays each new bill once from the credit, whoever raises it first', async () => {
    const api = client(t, await t.login('admin', ADMIN_PASSWORD));
    const consumers: { id: number; bill: Json }[] = [];
    for (let i = 0; i < CONSUMERS; i++) {
      const id = await newConsumer(api, '', ['01', '003', String(800 + i)], {
        individual: true,
        lastname: `Πιστωτική${i}`,
        firstname: 'Άννα',
      });
      const prepay = await api.post('/api/payments/payments', {
        consumerId: id,
        method: 'cash',
        amount: '50.00',
        prepaymentKind: 3,
      });
      expect(prepay.statusCode, prepay.body).toBe(201);
      consumers.push({
        id,
        bill: await finalBill(api, '', id, '2026-01-01', '2026-04-30', '25', '2026-05-10'),
      });
    }
    const answers = await Promise.all(
      consumers.flatMap(({ id, bill }) => [
        api.post('/api/payments/payments', { consumerId: id, method: 'cash', amount: '10.00' }),
        api.post('/api/payments/payments', { consumerId: id, method: 'card', amount: '10.00' }),
        api.get(`/api/payments/accounts/${id}`),
        api.get(`/api/payments/accounts/${id}`),
        api.get(`/api/payments/debts?q=${bill.rfCode}`),
      ]),
    );
    // 201 payments, 200 accounts, 404 look-ups (the credit paid the bill): no 500, no deadlock.
    expect(answers.map((a) => a.statusCode)).toEqual(consumers.flatMap(() => [201, 201, 200, 200, 404]));
    for (const { id, bill } of consumers) {
      expect(bill.total).toBe('37.26');
      const account = (await api.get(`/api/payments/accounts/${id}`)).json();
      expect(account.debts).toEqual([]);
      expect(account.balance).toBe('-32.74');
      expect(
        account.entries.filter((e: Json) => e.type === 'creditApplied').map((e: Json) => e.credit),
      ).toEqual(['37.26']);
    }
    // Every allocation is either what a payment took at once or credit applied later.
    const totals = await t.database.db.execute(sql`
      SELECT (SELECT sum(paid) FROM payments_debts)::text AS paid,
             (SELECT sum(amount) FROM payments_allocations)::text AS allocated,
             ((SELECT sum(amount) - sum(unallocated) FROM payments_payments)
               + (SELECT sum(credit) FROM payments_entries WHERE type = 'creditApplied'))::text AS taken`);
    const row = (totals as unknown as { rows: Json[] }).rows[0] as Json;
    const billed = (37.26 * CONSUMERS).toFixed(2);
    expect(row).toEqual({ paid: billed, allocated: billed, taken: billed });
  });
});
