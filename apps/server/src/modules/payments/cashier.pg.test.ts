import { Decimal } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  createOperator,
  grant,
  OPERATOR_PASSWORD,
  startTestApp,
  type TestApp,
} from '../../test/harness.ts';
import { client, finalBill, type Json, newConsumer } from '../../test/water-fixtures.ts';

/**
 * Two cashiers paying the same bills at the same moment on PostgreSQL 15 (issue 18): for each bill
 * both send its full amount at once. One payment pays it, the other waits on the debt's row lock and
 * then finds it paid (its money stays as the consumer's credit): never lost, never counted twice, and
 * the receipts run 1…2n without a gap. PGlite has one connection: nothing runs at once there.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const BILLS = 8;

let t: TestApp;

describe.skipIf(!onPostgres)('two cashiers paying the same bill at once (PostgreSQL only)', () => {
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('allocates each bill once, keeps every euro and numbers receipts without gaps', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD);
    const api = client(t, admin);
    for (const username of ['cashier1', 'cashier2']) {
      expect(
        (await createOperator(t, admin, { username, firstname: 'Ταμίας', lastname: username })).statusCode,
      ).toBe(201);
      await grant(t, username, ['payments:write']);
    }
    const cashiers = await Promise.all(['cashier1', 'cashier2'].map((u) => t.login(u, OPERATOR_PASSWORD)));
    const bills: { consumerId: number; bill: Json }[] = [];
    for (let i = 0; i < BILLS; i++) {
      const consumerId = await newConsumer(api, '', ['01', '002', String(700 + i)], {
        individual: true,
        lastname: `Ταυτόχρονη${i}`,
        firstname: 'Ελένη',
      });
      bills.push({
        consumerId,
        bill: await finalBill(api, '', consumerId, '2026-01-01', '2026-04-30', String(10 + i), '2026-05-10'),
      });
    }
    const answers = await Promise.all(
      bills.flatMap(({ consumerId, bill }) =>
        cashiers.map((headers) =>
          client(t, headers).post('/api/payments/payments', {
            consumerId,
            method: 'cash',
            amount: bill.total,
          }),
        ),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 201));
    const payments = answers.map((a) => a.json());
    for (const { consumerId, bill } of bills) {
      const both = payments.filter((p) => p.consumerId === consumerId);
      expect(both).toHaveLength(2);
      // Exactly one paid the bill; the other's money is all credit.
      expect(both.map((p) => p.allocations.map((a: Json) => a.amount)).sort()).toEqual([[], [bill.total]]);
      expect(both.map((p) => p.unallocated).sort()).toEqual(['0.00', bill.total].sort());
      const account = (await api.get(`/api/payments/accounts/${consumerId}`)).json();
      expect(account.debts).toEqual([]);
      expect(account.balance).toBe(new Decimal(bill.total).neg().toFixed(2));
    }
    const numbers = payments.map((p) => p.receiptNumber).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: BILLS * 2 }, (_, i) => i + 1));
    const totals = await t.database.db.execute(sql`
      SELECT (SELECT sum(paid) FROM payments_debts)::text AS paid,
             (SELECT sum(amount) FROM payments_allocations)::text AS allocated,
             (SELECT sum(amount) - sum(unallocated) FROM payments_payments)::text AS taken,
             (SELECT count(*) FROM payments_debts WHERE paid > amount)::int AS over`);
    const row = (totals as unknown as { rows: Json[] }).rows[0] as Json;
    const billed = bills.reduce((sum, b) => sum.plus(b.bill.total), new Decimal(0)).toFixed(2);
    expect(row).toEqual({ paid: billed, allocated: billed, taken: billed, over: 0 });
  });
});
