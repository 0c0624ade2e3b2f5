import { Decimal, interestSettings, isValidRf, utilityDay } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overdueInterest } from '../../platform/domain/payments.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import {
  client,
  type Json,
  finalBill as makeBill,
  newConsumer as makeConsumer,
} from '../../test/water-fixtures.ts';
import { createCompany } from '../companies/api.ts';
import { putGeneralSetting } from '../settings/api.ts';
import {
  addDebtPaidHook,
  addInstalmentDebts,
  closeDebtsIntoSettlement,
  debtsOfSettlement,
  openDebts,
  reopenSettlement,
} from './api.ts';

/**
 * The account and debts core (issue 18) through the API on the demo company: two finalized bills (the
 * second carrying the first), debts and ledger, the debt search, cashier payments oldest first or as
 * chosen, receipts without gaps, billing told what is paid, prepayments and their return, bad input,
 * another company, and the settlements' calls of api.ts in one transaction.
 */
let t: TestApp;
let admin: { authorization: string };
let demo: number;
let other: number;
let consumerId: number;
let otherConsumerId: number;
let first: Json;
let second: Json;

let api: ReturnType<typeof client>;
const get = (url: string, headers: Record<string, string> = {}) => api.get(url, headers);
const post = (url: string, payload?: unknown) => api.post(url, payload);
const newConsumer = (q: string, parts: string[], owner: Json) => makeConsumer(api, q, parts, owner);
const finalBill = (
  q: string,
  consumer: number,
  from: string,
  to: string,
  consumption: string,
  issueDate: string,
) => makeBill(api, q, consumer, from, to, consumption, issueDate);
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  api = client(t, admin);
  demo = (await get('/api/users/authenticatedUser')).json().companies[0].id;
  other = (await createCompany(t.database.db, { companyname: 'ΔΕΥΑ Β', companytitle: 'ΔΕΥΑ Β' }, 'test')).id;
  const q = `?companyid=${demo}`;
  consumerId = await newConsumer(q, ['01', '001', '951'], {
    individual: true,
    lastname: 'Παπαδοπούλου',
    firstname: 'Σοφία',
    vatnumber: '094259216',
  });
  otherConsumerId = await newConsumer(q, ['01', '001', '952'], {
    individual: true,
    lastname: 'Νικολάου',
    firstname: 'Άρης',
  });
  first = await finalBill(q, consumerId, '2026-01-01', '2026-04-30', '25', '2026-05-10');
  second = await finalBill(q, consumerId, '2026-05-01', '2026-08-31', '10', '2026-09-10');
});

afterAll(async () => {
  await t?.close();
});

describe('the account', () => {
  it('holds each finalized bill as a debt of its own period, oldest first, with its RF code', async () => {
    expect(second.previousBalance).toBe(first.total);
    const account = await get(`/api/payments/accounts/${consumerId}?companyid=${demo}`);
    expect(account.statusCode, account.body).toBe(200);
    const { debts, entries, balance, due, interestEnabled, consumer } = account.json();
    expect(consumer).toMatchObject({ vatNumber: '094259216' });
    expect(consumer.code.replace(/\s/g, '')).toBe('01-001-951');
    expect(debts.map((d: Json) => [d.source, d.amount, d.remaining, d.dueDate, d.rfCode])).toEqual([
      ['bill', first.total, first.total, first.dueDate, first.rfCode],
      ['bill', second.current, second.current, second.dueDate, second.rfCode],
    ]);
    // The second bill's total (what it asks) is its own period plus the first, never counted twice.
    expect(due).toBe(second.total);
    expect(balance).toBe(second.total);
    expect(entries.map((e: Json) => [e.type, e.kind, e.debit, e.credit, e.balance])).toEqual([
      ['bill', 1, first.total, '0.00', first.total],
      ['bill', 1, second.current, '0.00', second.total],
    ]);
    expect(interestEnabled).toBe(false);
    expect(debts.every((d: Json) => d.interest === '0.00')).toBe(true);
  });

  it('shows overdue interest apart when the general settings enable it, never in what is due', async () => {
    await putGeneralSetting(t.database.db, demo, interestSettings.enabled, 'true', 'test');
    await putGeneralSetting(t.database.db, demo, interestSettings.rate, '7.3', 'test');
    await putGeneralSetting(t.database.db, demo, interestSettings.graceDays, '5', 'test');
    const account = (await get(`/api/payments/accounts/${consumerId}?companyid=${demo}`)).json();
    const today = utilityDay(new Date());
    const expected = [first, second].map((b, i) =>
      overdueInterest(
        { amount: i === 0 ? b.total : b.current, dueDate: b.dueDate, payments: [] },
        { ratePercent: '7.3', graceDays: 5 },
        today,
      ),
    );
    expect(account.interestEnabled).toBe(true);
    expect(account.debts.map((d: Json) => d.interest)).toEqual(expected);
    expect(account.interest).toBe(new Decimal(expected[0] ?? 0).plus(expected[1] ?? 0).toFixed(2));
    expect(account.due).toBe(second.total);
    await putGeneralSetting(t.database.db, demo, interestSettings.enabled, 'false', 'test');
  });

  it('finds debts by code, ΑΦΜ, name without accents and RF; none found is the spec message', async () => {
    const q = `?companyid=${demo}`;
    for (const text of ['01-001-951', '094259216', 'ΠΑΠΑΔΟΠΟΥΛΟΥ', 'παπαδοπουλου σοφια', first.rfCode]) {
      const found = await get(`/api/payments/debts${q}&q=${encodeURIComponent(text)}`);
      expect(found.statusCode, `${text}: ${found.body}`).toBe(200);
      expect(found.json().map((c: Json) => [c.consumer.id, c.due])).toEqual([[consumerId, second.total]]);
    }
    const none = await get(`/api/payments/debts${q}&q=${encodeURIComponent('Νικολάου')}`, {
      'accept-language': 'en',
    });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('No debts found for the given details');
    const foreign = await get(`/api/payments/debts?companyid=${other}&q=094259216`);
    expect(foreign.statusCode).toBe(404);
  });
});

describe('the cashier', () => {
  it('pays the oldest debts first, numbers receipts without gaps and tells billing what is paid', async () => {
    const q = `?companyid=${demo}`;
    const paid = await post(`/api/payments/payments${q}`, { consumerId, method: 'cash', amount: '40,00' });
    expect(paid.statusCode, paid.body).toBe(201);
    const rest = new Decimal(40).minus(first.total).toFixed(2);
    expect(paid.json()).toMatchObject({
      amount: '40.00',
      unallocated: '0.00',
      receiptNumber: 1,
      cashier: 'admin',
    });
    expect(paid.json().allocations.map((a: Json) => [a.rfCode, a.amount])).toEqual([
      [first.rfCode, first.total],
      [second.rfCode, rest],
    ]);
    // The next bill carries only what is still owed of the second (and, through it, of the first).
    const next = await post(`/api/billing/try${q}`, {
      consumerId,
      from: '2026-09-01',
      to: '2026-12-31',
      consumption: '5',
    });
    expect(next.json().previousBalance).toBe(new Decimal(second.total).minus(40).toFixed(2));
    const account = (await get(`/api/payments/accounts/${consumerId}${q}`)).json();
    expect(account.entries.at(-1)).toMatchObject({
      type: 'payment',
      credit: '40.00',
      description: `1/${paid.json().receiptYear}`,
    });
    expect(account.balance).toBe(new Decimal(second.total).minus(40).toFixed(2));
  });

  it('pays the debts the cashier picks and keeps the surplus as credit; a second receipt follows the first', async () => {
    const q = `?companyid=${demo}`;
    const [open] = (await get(`/api/payments/accounts/${consumerId}${q}`)).json().debts as Json[];
    const paid = await post(`/api/payments/payments${q}`, {
      consumerId,
      method: 'card',
      amount: '100.00',
      debtIds: [open?.id],
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().receiptNumber).toBe(2);
    expect(paid.json().unallocated).toBe(new Decimal(100).minus(open?.remaining).toFixed(2));
    expect((await get(`/api/payments/accounts/${consumerId}${q}`)).json().debts).toEqual([]);
  });

  it('takes prepayments (kinds 2, 3, 16) as credit and returns them (kind 17) within the credit', async () => {
    const q = `?companyid=${demo}`;
    const prepay = await post(`/api/payments/payments${q}`, {
      consumerId: otherConsumerId,
      method: 'cash',
      amount: '50.00',
      prepaymentKind: 16,
    });
    expect(prepay.statusCode, prepay.body).toBe(201);
    expect(prepay.json()).toMatchObject({ kind: 16, unallocated: '50.00', allocations: [] });
    const tooMuch = await post(`/api/payments/prepay_returns${q}`, {
      consumerId: otherConsumerId,
      method: 'cash',
      amount: '50.01',
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().key).toBe('payments.error.nothing_to_return');
    const back = await post(`/api/payments/prepay_returns${q}`, {
      consumerId: otherConsumerId,
      method: 'cash',
      amount: '20.00',
    });
    expect(back.statusCode, back.body).toBe(201);
    const account = (await get(`/api/payments/accounts/${otherConsumerId}${q}`)).json();
    expect(account.entries.map((e: Json) => [e.type, e.kind, e.debit, e.credit, e.balance])).toEqual([
      ['prepayment', 16, '0.00', '50.00', '-50.00'],
      ['prepayReturn', 17, '20.00', '0.00', '-30.00'],
    ]);
  });

  it('refuses bad input naming the field, a debt of another consumer, another company', async () => {
    const q = `?companyid=${demo}`;
    const bad = await post(`/api/payments/payments${q}`, { consumerId, method: 'cash', amount: '-5' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors[0]).toMatchObject({ field: 'amount', key: 'validation.payments_amount' });
    const method = await post(`/api/payments/payments${q}`, { consumerId, method: 'gold', amount: '5' });
    expect(method.statusCode).toBe(400);
    const [theirs] = await openDebtsOf(otherConsumerId);
    const notYours = await post(`/api/payments/payments${q}`, {
      consumerId,
      method: 'cash',
      amount: '5',
      debtIds: [theirs ?? 999999],
    });
    expect(notYours.statusCode).toBe(409);
    const foreign = await post(`/api/payments/payments?companyid=${other}`, {
      consumerId,
      method: 'cash',
      amount: '5',
    });
    expect(foreign.statusCode).toBe(404);
    expect((await get(`/api/payments/accounts/${consumerId}?companyid=${other}`)).statusCode).toBe(404);
  });
});

async function openDebtsOf(consumer: number): Promise<number[]> {
  return (await openDebts(t.database.db, demo, consumer)).map((d) => d.id);
}

describe('what a settlement may do (api.ts), in its own transaction', () => {
  it('closes debts, adds instalments with RF codes, hears of the paid down payment, reopens on cancel', async () => {
    const q = `?companyid=${demo}`;
    await finalBill(q, otherConsumerId, '2026-01-01', '2026-04-30', '40', '2026-09-11');
    await finalBill(q, otherConsumerId, '2026-05-01', '2026-08-31', '30', '2026-09-12');
    const debts = await openDebts(t.database.db, demo, otherConsumerId);
    expect(debts).toHaveLength(2);
    const heard: { debtId: number; settlementKey: string | null }[] = [];
    addDebtPaidHook('test', async (_tx, paid) => {
      heard.push(...paid.map(({ debtId, settlementKey }) => ({ debtId, settlementKey })));
    });
    const who = {
      companyId: demo,
      consumerId: otherConsumerId,
      settlementKey: 'settlement:1',
      username: 'admin',
      date: '2026-11-01',
    };
    // A failing settlement leaves nothing behind.
    await expect(
      t.database.db.transaction(async (tx) => {
        await closeDebtsIntoSettlement(tx, { ...who, debtIds: debts.map((d) => d.id) });
        throw new Error('the settlement failed');
      }),
    ).rejects.toThrow('the settlement failed');
    expect(await openDebtsOf(otherConsumerId)).toHaveLength(2);

    const instalments = await t.database.db.transaction(async (tx) => {
      const closed = await closeDebtsIntoSettlement(tx, { ...who, debtIds: debts.map((d) => d.id) });
      expect(closed.total).toBe(
        new Decimal(debts[0]?.remaining ?? 0).plus(debts[1]?.remaining ?? 0).toFixed(2),
      );
      const half = new Decimal(closed.total).div(2).toDecimalPlaces(2);
      return addInstalmentDebts(tx, {
        ...who,
        instalments: [
          { description: 'Ρύθμιση 1 – προκαταβολή', dueDate: '2026-11-10', amount: half.toFixed(2) },
          {
            description: 'Ρύθμιση 1 – δόση 1/1',
            dueDate: '2026-12-10',
            amount: new Decimal(closed.total).minus(half).toFixed(2),
          },
        ],
      });
    });
    expect(instalments.every((i) => isValidRf(i.rfCode) && i.rfCode.length === 21)).toBe(true);
    expect((await openDebts(t.database.db, demo, otherConsumerId)).map((d) => d.rfCode)).toEqual(
      instalments.map((i) => i.rfCode),
    );
    // Closing a debt twice is refused.
    await expect(
      t.database.db.transaction((tx) =>
        closeDebtsIntoSettlement(tx, { ...who, debtIds: [debts[0]?.id ?? 0] }),
      ),
    ).rejects.toMatchObject({ status: 409, key: 'payments.error.debt_not_open' });

    // The down payment, paid at the cashier, is heard in the paying transaction.
    const down = instalments[0];
    const paid = await post(`/api/payments/payments${q}`, {
      consumerId: otherConsumerId,
      method: 'cash',
      amount: down?.amount,
      debtIds: [down?.id],
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(heard).toEqual([{ debtId: down?.id, settlementKey: 'settlement:1' }]);

    const reopened = await t.database.db.transaction((tx) =>
      reopenSettlement(tx, {
        ...who,
        date: '2026-12-20',
        dueDate: '2027-01-20',
        description: 'Ρύθμιση 1 – ακύρωση',
      }),
    );
    expect(reopened.cancelled).toBe(instalments[1]?.amount);
    expect(reopened.reopened).toMatchObject({ amount: instalments[1]?.amount });
    const after = await debtsOfSettlement(t.database.db, demo, 'settlement:1');
    expect(after.map((d) => [d.source, d.status, d.remaining])).toEqual([
      ['bill', 'settled', debts[0]?.remaining],
      ['bill', 'settled', debts[1]?.remaining],
      ['instalment', 'open', '0.00'],
      ['instalment', 'cancelled', instalments[1]?.amount],
      ['charge', 'open', instalments[1]?.amount],
    ]);
    const account = (await get(`/api/payments/accounts/${otherConsumerId}${q}`)).json();
    expect(account.due).toBe(instalments[1]?.amount);
    // In date order: the bills (September), the settlement (1 November), today's cash (the prepayment's
    // credit paid the first bill when it was raised), the cancellation.
    expect(account.entries.map((e: Json) => e.type)).toEqual([
      'bill',
      'bill',
      'settled',
      'settled',
      'instalment',
      'instalment',
      'prepayment',
      'prepayReturn',
      'creditApplied',
      'payment',
      'cancelled',
      'reopened',
    ]);
  });
});

describe('printed documents', () => {
  it('prints the receipt, the cashier’s Z and the statement (PDF and Excel)', async () => {
    const q = `?companyid=${demo}`;
    const paid = await post(`/api/payments/payments${q}`, {
      consumerId,
      method: 'cheque',
      amount: '12.00',
      reference: 'ΕΠ-778',
    });
    const receipt = await get(`/api/payments/payments/${paid.json().id}/receipt${q}&lang=en`);
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const z = await get(`/api/payments/day_summary${q}`);
    expect(z.statusCode, z.body).toBe(200);
    const day = z.json();
    expect(day.cashier).toBe('admin');
    // Receipts 1… in order, a return counted off, one line per method.
    expect(day.receipts.map((r: Json) => r.receiptNumber)).toEqual(
      [...day.receipts.keys()].map((i) => i + 1),
    );
    const total = day.receipts.reduce(
      (sum: Decimal, r: Json) => (r.kind === 17 ? sum.minus(r.amount) : sum.plus(r.amount)),
      new Decimal(0),
    );
    expect(day.total).toBe(total.toFixed(2));
    expect(day.byMethod.map((m: Json) => m.method).sort()).toEqual(['card', 'cash', 'cheque']);
    const zPdf = await get(`/api/payments/day_summary/pdf${q}`);
    expect(zPdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await get(`/api/payments/day_summary${q}&cashier=someone`)).statusCode).toBe(200);
    const statement = await get(`/api/payments/accounts/${consumerId}/statement${q}&lang=el`);
    expect(statement.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const excel = await get(`/api/payments/accounts/${consumerId}/statement${q}&format=xlsx`);
    expect(excel.statusCode).toBe(200);
    expect(excel.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(
      (await get(`/api/payments/payments/${paid.json().id}/receipt?companyid=${other}`)).statusCode,
    ).toBe(404);
  });
});

describe('the public balance lookup', () => {
  const lookup = (payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/public/balance',
      payload: payload as Json,
      headers: { 'accept-language': 'en' },
    });

  it('shows open bills for code AND ΑΦΜ, nothing of the person, the same refusal for any mismatch, and a rate limit', async () => {
    // More than the consumer's credit from the earlier payments, which pays part of it when raised.
    await finalBill(`?companyid=${demo}`, consumerId, '2026-09-01', '2026-12-31', '120', '2027-01-10');
    const account = (await get(`/api/payments/accounts/${consumerId}?companyid=${demo}`)).json();
    const code = account.consumer.code.replace(/\s/g, '');
    const found = await lookup({ code, vatNumber: 'EL094259216' });
    expect(found.statusCode, found.body).toBe(200);
    expect(Object.keys(found.json()).sort()).toEqual(['bills', 'due']);
    expect(found.json().bills.map((b: Json) => Object.keys(b).sort())).toEqual([
      ['description', 'dueDate', 'remaining', 'rfCode'],
    ]);
    expect(found.json().due).toBe(account.due);
    expect(found.body).not.toContain('Παπαδοπούλου');
    // Issue 32 item 4: typed without separators (01001101), or padded as stored, it is the same code.
    const bare = await lookup({ code: code.replace(/\D/g, ''), vatNumber: '094259216' });
    expect(bare.statusCode, bare.body).toBe(200);
    expect(bare.json().due).toBe(account.due);

    const wrongVat = await lookup({ code, vatNumber: '123456789' });
    const wrongCode = await lookup({ code: '01-001-999', vatNumber: '094259216' });
    expect([wrongVat.statusCode, wrongCode.statusCode]).toEqual([404, 404]);
    const { requestId: _a, ...refusal } = wrongVat.json();
    const { requestId: _b, ...same } = wrongCode.json();
    expect(refusal).toEqual(same);
    expect(refusal.message).toBe('No debts found for the given details');
    const noVat = await lookup({ code });
    expect(noVat.statusCode).toBe(400);
    expect(noVat.json().fieldErrors[0].field).toBe('vatNumber');
    // 10 attempts per address in 10 minutes: 4 counted so far (the 400 never reached the count).
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push((await lookup({ code, vatNumber: '094259216' })).statusCode);
    expect(answers).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });

  it('issue 29 item 4: the balance (bills, amounts, RF codes) is never cached (no-store)', async () => {
    const account = (await get(`/api/payments/accounts/${consumerId}?companyid=${demo}`)).json();
    const found = await t.app.inject({
      method: 'POST',
      url: '/api/public/balance',
      payload: { code: account.consumer.code.replace(/\s/g, ''), vatNumber: '094259216' },
      remoteAddress: '10.29.4.2',
    });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().bills[0].rfCode).toBeTruthy();
    expect(found.headers['cache-control']).toBe('no-store');
  });
});
