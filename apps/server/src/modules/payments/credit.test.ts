import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { client, finalBill, type Json, newConsumer } from '../../test/water-fixtures.ts';
import { raiseBillDebts } from './allocation.ts';
import { availableCredit, spendCredit } from './credit.ts';

describe('credit paying new debts (pure)', () => {
  it('takes returns off the oldest credit first', () => {
    const sources = [
      { paymentId: 1, left: '20.00' },
      { paymentId: 2, left: '30.00' },
      { paymentId: 3, left: '0.50' },
    ];
    expect(availableCredit(sources, '0')).toEqual(sources);
    expect(availableCredit(sources, '25.00')).toEqual([
      { paymentId: 2, left: '25.00' },
      { paymentId: 3, left: '0.50' },
    ]);
    expect(availableCredit(sources, '50.50')).toEqual([]);
    expect(availableCredit(sources, '60.00')).toEqual([]);
  });

  it('pays debts oldest first from the oldest credit, one allocation per payment and debt', () => {
    const sources = [
      { paymentId: 1, left: '10.00' },
      { paymentId: 2, left: '30.00' },
    ];
    expect(
      spendCredit(sources, [
        { id: 7, remaining: '37.26' },
        { id: 8, remaining: '20.82' },
      ]),
    ).toEqual([
      { paymentId: 1, debtId: 7, amount: '10.00' },
      { paymentId: 2, debtId: 7, amount: '27.26' },
      { paymentId: 2, debtId: 8, amount: '2.74' },
    ]);
    expect(spendCredit(sources, [{ id: 7, remaining: '4.01' }])).toEqual([
      { paymentId: 1, debtId: 7, amount: '4.01' },
    ]);
    expect(spendCredit([], [{ id: 7, remaining: '4.01' }])).toEqual([]);
  });
});

/**
 * Through the API on the demo tariff (household, no discount): 25 m³ of January–April 2026 is
 * water fixed 6.00 + bands 20 × 0.40 + 5 × 0.80 = 12.00 + resource 0.88 + environmental 1.25 = 20.13
 * at 13% (2.62), sewerage fixed 3.00 + 60% of 12.00 = 7.20 + meter fee 1.50 = 11.70 at 24% (2.81):
 * 37.26. 10 m³ of May–August: 6.00 + 4.00 + 0.35 + 0.50 = 10.85 at 13% (1.41), 3.00 + 2.40 + 1.50 =
 * 6.90 at 24% (1.66): 20.82.
 */
let t: TestApp;
let api: ReturnType<typeof client>;
let q: string;
let demo: number;

beforeAll(async () => {
  t = await startTestApp();
  api = client(t, await t.login('admin', ADMIN_PASSWORD));
  demo = (await api.get('/api/users/authenticatedUser')).json().companies[0].id;
  q = `?companyid=${demo}`;
});
afterAll(async () => {
  await t?.close();
});

const ledger = async (consumer: number) =>
  (await api.get(`/api/payments/accounts/${consumer}${q}`)).json() as Json;
const rows = (account: Json) =>
  account.entries.map((e: Json) => [e.type, e.description, e.debit, e.credit, e.balance]);

describe('credit applied when new debts are raised', () => {
  it('pays the new bills oldest first, in the ledger, once, leaving the receipt as issued', async () => {
    const consumer = await newConsumer(api, q, ['01', '001', '961'], {
      individual: true,
      lastname: 'Αντωνίου',
      firstname: 'Ελένη',
    });
    const prepay = await api.post(`/api/payments/payments${q}`, {
      consumerId: consumer,
      method: 'cash',
      amount: '50.00',
      prepaymentKind: 3,
    });
    expect(prepay.statusCode, prepay.body).toBe(201);
    const receipt = `${prepay.json().receiptNumber}/${prepay.json().receiptYear}`;
    const today = prepay.json().date as string;
    const back = await api.post(`/api/payments/prepay_returns${q}`, {
      consumerId: consumer,
      method: 'cash',
      amount: '5.00',
    });
    expect(back.statusCode, back.body).toBe(201);

    const first = await finalBill(api, q, consumer, '2026-01-01', '2026-04-30', '25', '2026-05-10');
    expect(first.total).toBe('37.26');
    const afterFirst = await ledger(consumer);
    expect(afterFirst.debts).toEqual([]);
    expect(afterFirst.balance).toBe('-7.74');
    const bill1 = `${first.number}/${first.year} · ${first.periodLabel}`;
    expect(rows(afterFirst)).toEqual([
      ['bill', bill1, '37.26', '0.00', '37.26'],
      ['prepayment', receipt, '0.00', '50.00', '-12.74'],
      ['prepayReturn', `${back.json().receiptNumber}/${back.json().receiptYear}`, '5.00', '0.00', '-7.74'],
      ['creditApplied', `${receipt} → ${bill1}`, '37.26', '37.26', '-7.74'],
    ]);
    expect(afterFirst.entries.at(-1).date).toBe(today);

    // The first bill is paid for billing too: the second carries nothing.
    const second = await finalBill(api, q, consumer, '2026-05-01', '2026-08-31', '10', '2026-09-10');
    expect([second.previousBalance, second.total]).toEqual(['0.00', '20.82']);
    const account = await ledger(consumer);
    expect(account.debts.map((d: Json) => [d.amount, d.paid, d.remaining])).toEqual([
      ['20.82', '7.74', '13.08'],
    ]);
    expect([account.balance, account.due]).toEqual(['13.08', '13.08']);
    const bill2 = `${second.number}/${second.year} · ${second.periodLabel}`;
    expect(rows(account).slice(-1)).toEqual([
      ['creditApplied', `${receipt} → ${bill2}`, '7.74', '7.74', '13.08'],
    ]);

    // Raising again, however asked, applies nothing twice.
    await t.database.db.transaction((tx) => raiseBillDebts(tx, demo));
    await t.database.db.transaction((tx) => raiseBillDebts(tx, demo, [consumer]));
    expect((await ledger(consumer)).entries).toHaveLength(account.entries.length);
    // The credit is spent: nothing to return; the prepayment's receipt still reads as issued.
    const none = await api.post(`/api/payments/prepay_returns${q}`, {
      consumerId: consumer,
      method: 'cash',
      amount: '0.01',
    });
    expect(none.statusCode).toBe(409);
    expect(none.json().params).toEqual({ credit: '0.00' });
    const issued = (await api.get(`/api/payments/payments/${prepay.json().id}${q}`)).json();
    expect([issued.unallocated, issued.allocations]).toEqual(['50.00', []]);
  });

  it('spends several payments’ credit in their order and keeps what is left returnable', async () => {
    const consumer = await newConsumer(api, q, ['01', '001', '962'], {
      individual: true,
      lastname: 'Γεωργίου',
      firstname: 'Πέτρος',
    });
    // A payment with nothing to pay is all credit, like a prepayment.
    const cash = await api.post(`/api/payments/payments${q}`, {
      consumerId: consumer,
      method: 'cash',
      amount: '10.00',
    });
    const card = await api.post(`/api/payments/payments${q}`, {
      consumerId: consumer,
      method: 'card',
      amount: '30.00',
      prepaymentKind: 2,
    });
    expect([cash.json().unallocated, card.json().unallocated]).toEqual(['10.00', '30.00']);
    const bill = await finalBill(api, q, consumer, '2026-01-01', '2026-04-30', '25', '2026-09-11');
    // Raised by the debt search this time (company-wide when looking up an RF code).
    const found = await api.get(`/api/payments/debts${q}&q=${bill.rfCode}`);
    expect(found.statusCode).toBe(404);
    const account = await ledger(consumer);
    expect(
      account.entries.filter((e: Json) => e.type === 'creditApplied').map((e: Json) => e.credit),
    ).toEqual(['10.00', '27.26']);
    expect(account.balance).toBe('-2.74');
    const over = await api.post(`/api/payments/prepay_returns${q}`, {
      consumerId: consumer,
      method: 'cash',
      amount: '2.75',
    });
    expect(over.statusCode).toBe(409);
    const back = await api.post(`/api/payments/prepay_returns${q}`, {
      consumerId: consumer,
      method: 'cash',
      amount: '2.74',
    });
    expect(back.statusCode, back.body).toBe(201);
    expect((await ledger(consumer)).balance).toBe('0.00');
  });
});

/**
 * What was paid of a bill since credited (kind 4) is credit like a payment's rest: the same amounts as
 * above, 37.26 for 25 m³ and 20.82 for 10 m³ of a four-month period, carried 20.82 included in a
 * later bill's total but owed on its own debt.
 */
describe('credit from a credited bill', () => {
  const credit = (billId: number) =>
    api.post(`/api/billing/bills/${billId}/credit${q}`, { reason: 'Λάθος ένδειξη υδρομέτρου' });
  const payBill = async (consumer: number, amount: string) => {
    const paid = await api.post(`/api/payments/payments${q}`, {
      consumerId: consumer,
      method: 'cash',
      amount,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().unallocated).toBe('0.00');
    return `${paid.json().receiptNumber}/${paid.json().receiptYear}`;
  };
  const label = (bill: Json) => `${bill.number}/${bill.year} · ${bill.periodLabel}`;

  it('pays the open debts at once, oldest first, and leaves the rest', async () => {
    const consumer = await newConsumer(api, q, ['01', '001', '963'], {
      individual: true,
      lastname: 'Σταύρου',
      firstname: 'Δήμητρα',
    });
    const first = await finalBill(api, q, consumer, '2026-01-01', '2026-04-30', '25', '2026-09-12');
    const receipt = await payBill(consumer, '37.26');
    const second = await finalBill(api, q, consumer, '2026-05-01', '2026-08-31', '10', '2026-09-13');
    const third = await finalBill(api, q, consumer, '2026-09-01', '2026-12-31', '10', '2026-09-14');
    // The third carries the unpaid second: 20.82 + 20.82, owed 20.82 on each debt.
    expect([first.total, second.total, third.previousBalance, third.total]).toEqual([
      '37.26',
      '20.82',
      '20.82',
      '41.64',
    ]);
    expect((await ledger(consumer)).due).toBe('41.64');

    const created = await credit(first.id);
    expect(created.statusCode, created.body).toBe(201);
    const account = await ledger(consumer);
    // 37.26 freed: the second's 20.82, then 16.44 of the third (4.38 left to pay).
    expect(account.debts.map((d: Json) => [d.description, d.amount, d.paid, d.remaining])).toEqual([
      [label(third), '20.82', '16.44', '4.38'],
    ]);
    expect([account.balance, account.due]).toEqual(['4.38', '4.38']);
    const creditLine = account.entries.find((e: Json) => e.type === 'credit');
    expect(rows(account).slice(-3)).toEqual([
      ['credit', creditLine.description, '0.00', '37.26', '4.38'],
      ['creditApplied', `${receipt} → ${label(second)}`, '20.82', '20.82', '4.38'],
      ['creditApplied', `${receipt} → ${label(third)}`, '16.44', '16.44', '4.38'],
    ]);
    // Not before the credit freed the money.
    expect(account.entries.slice(-2).map((e: Json) => e.date)).toEqual([creditLine.date, creditLine.date]);
    // Billing knows: the second is paid, the third owes 4.38 of its own and nothing carried.
    const paid = await t.database.db.execute(
      sql`SELECT id, paid::text FROM billing_bills WHERE id IN (${second.id}, ${third.id}) ORDER BY id`,
    );
    expect((paid as unknown as { rows: Json[] }).rows.map((r) => r.paid)).toEqual(['20.82', '37.26']);
    // All of it spent: nothing to return.
    const none = await api.post(`/api/payments/prepay_returns${q}`, {
      consumerId: consumer,
      method: 'cash',
      amount: '0.01',
    });
    expect(none.json().params).toEqual({ credit: '0.00' });
  });

  it('waits as credit with no debt open and pays the next bill when it comes, once', async () => {
    const consumer = await newConsumer(api, q, ['01', '001', '964'], {
      individual: true,
      lastname: 'Μανωλάκη',
      firstname: 'Ιωάννα',
    });
    const first = await finalBill(api, q, consumer, '2026-01-01', '2026-04-30', '25', '2026-09-15');
    const receipt = await payBill(consumer, '37.26');
    expect((await credit(first.id)).statusCode).toBe(201);
    const before = await ledger(consumer);
    expect([before.balance, before.debts]).toEqual(['-37.26', []]);
    expect(before.entries.filter((e: Json) => e.type === 'creditApplied')).toEqual([]);

    const second = await finalBill(api, q, consumer, '2026-05-01', '2026-08-31', '10', '2026-09-16');
    expect([second.previousBalance, second.total]).toEqual(['0.00', '20.82']);
    const account = await ledger(consumer);
    expect(account.debts).toEqual([]);
    expect(account.balance).toBe('-16.44');
    expect(rows(account).slice(-1)).toEqual([
      ['creditApplied', `${receipt} → ${label(second)}`, '20.82', '20.82', '-16.44'],
    ]);
    await t.database.db.transaction((tx) => raiseBillDebts(tx, demo, [consumer]));
    expect((await ledger(consumer)).entries).toHaveLength(account.entries.length);
    // The rest is the consumer's to take back, to the cent.
    const over = await api.post(`/api/payments/prepay_returns${q}`, {
      consumerId: consumer,
      method: 'cash',
      amount: '16.45',
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().params).toEqual({ credit: '16.44' });
    const back = await api.post(`/api/payments/prepay_returns${q}`, {
      consumerId: consumer,
      method: 'cash',
      amount: '16.44',
    });
    expect(back.statusCode, back.body).toBe(201);
    expect((await ledger(consumer)).balance).toBe('0.00');
  });
});
