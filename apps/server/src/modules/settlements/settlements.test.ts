import { Decimal, isValidRf, sum } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../platform/i18n.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { client, finalBill, type Json, newConsumer } from '../../test/water-fixtures.ts';
import { createCompany } from '../companies/api.ts';
import { cancelMissedSettlements } from './settlements.service.ts';

/**
 * Settlements through the API on the demo company (issue 18): the default categories, the plan
 * before saving and its refusals, the save in one transaction (gapless numbers, debts closed,
 * instalments with RF codes), pending → active when the down payment is paid at the cashier →
 * cancelled by the daily check when instalments are missed, the remaining debt back on the account.
 */
let t: TestApp;
let admin: { authorization: string };
let demo: number;
let other: number;
let consumerId: number;
let q: string;

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...admin, ...headers } });
const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...admin, ...headers }, payload: (payload ?? {}) as Json });
const debtsOf = async (consumer: number) =>
  (await get(`/api/settlements/consumers/${consumer}/debts${q}`)).json() as Json[];
const category = async (code: string) =>
  ((await get(`/api/settlements/categories${q}`)).json() as Json[]).find((c) => c.code === code) as Json;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  demo = (await get('/api/users/authenticatedUser')).json().companies[0].id;
  other = (await createCompany(t.database.db, { companyname: 'ΔΕΥΑ Β', companytitle: 'ΔΕΥΑ Β' }, 'test')).id;
  q = `?companyid=${demo}`;
  const api = client(t, admin);
  consumerId = await newConsumer(api, q, ['01', '001', '961'], {
    individual: true,
    lastname: 'Οικονόμου',
    firstname: 'Ελένη',
  });
  await finalBill(api, q, consumerId, '2026-01-01', '2026-02-28', '60', '2026-03-10');
  await finalBill(api, q, consumerId, '2026-03-01', '2026-04-30', '45', '2026-05-10');
  await finalBill(api, q, consumerId, '2026-05-01', '2026-06-30', '70', '2026-07-10');
});

afterAll(async () => {
  await t?.close();
});

describe('categories', () => {
  it('gives every company the usual 12, 24 and 48 instalments, edited as a row table', async () => {
    expect(
      ((await get(`/api/settlements/categories${q}`)).json() as Json[]).map((r) => [
        r.code,
        r.maxInstalments,
        r.minDownPaymentPercent,
      ]),
    ).toEqual([
      ['12', 12, '10.00'],
      ['24', 24, '20.00'],
      ['48', 48, '30.00'],
    ]);
    const rows = (await get(`/api/settlements/categories${q}`)).json() as Json[];
    const bad = await post(`/api/settlements/categories${q}`, [
      { ...rows[0], minInstalment: '50', maxInstalment: '20' },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors[0]).toEqual({
      field: '0.maxInstalment',
      key: 'validation.min_value',
      params: { value: '50' },
    });
    // Nothing half-written: the table is as it was.
    expect((await get(`/api/settlements/categories${q}`)).json()).toHaveLength(3);
  });
});

describe('the plan', () => {
  it('previews three debts in six instalments adding up to the cent, nothing written', async () => {
    const debts = await debtsOf(consumerId);
    expect(debts).toHaveLength(3);
    const twelve = await category('12');
    const total = sum(debts.map((d) => d.remaining));
    const down = total.times('0.2').toDecimalPlaces(2);
    const preview = await post(`/api/settlements/preview${q}`, {
      consumerId,
      categoryId: twelve.id,
      debtIds: debts.map((d) => d.id),
      discountPercent: '0',
      downPayment: down.toFixed(2),
      instalments: 6,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const plan = preview.json();
    expect(plan.total).toBe(total.toFixed(2));
    expect(plan.lines).toHaveLength(7);
    const each = total.minus(down).div(6).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed(2);
    expect(plan.lines.slice(1, 6).every((l: Json) => l.amount === each)).toBe(true);
    expect(sum(plan.lines.map((l: Json) => l.amount)).toFixed(2)).toBe(plan.total);
    expect(await debtsOf(consumerId)).toHaveLength(3);
  });

  it("refuses instalments outside the category's limits with the spec's message, in both languages", async () => {
    const debts = await debtsOf(consumerId);
    const body = {
      consumerId,
      categoryId: (await category('48')).id,
      debtIds: debts.map((d) => d.id),
      discountPercent: '0',
      downPayment: sum(debts.map((d) => d.remaining))
        .times('0.3')
        .toDecimalPlaces(2, Decimal.ROUND_UP)
        .toFixed(2),
      instalments: 48,
    };
    const en = await post(`/api/settlements/preview${q}`, body, { 'accept-language': 'en' });
    expect(en.statusCode).toBe(400);
    expect(en.json().fieldErrors[0]).toMatchObject({
      field: 'instalments',
      key: 'settlements.error.instalment_out_of_range',
    });
    const { key, params } = en.json().fieldErrors[0];
    expect(translate('en', key, params)).toBe(
      "Settlement installment amount outside the category's min and max (50.00 – 5000.00)",
    );
    expect(translate('el', key, params)).toMatch(/^Το ποσό της δόσης της ρύθμισης είναι εκτός/);
    const foreign = await post(`/api/settlements/preview?companyid=${other}`, body);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fieldErrors[0].field).toBe('consumerId');
  });
});

describe('the lifecycle', () => {
  let settlement: Json;

  it('saves in one transaction: a gapless number, the debts closed, instalments with RF codes, pending', async () => {
    const debts = await debtsOf(consumerId);
    const twelve = await category('12');
    const body = {
      consumerId,
      categoryId: twelve.id,
      debtIds: debts.map((d) => d.id),
      discountPercent: '0',
      downPayment: '1.00',
      instalments: 6,
      comments: null,
    };
    // Refused (down payment below 10%): nothing written, no number used.
    const refused = await post(`/api/settlements${q}`, body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fieldErrors[0].key).toBe('settlements.error.down_payment_too_low');
    expect(await debtsOf(consumerId)).toHaveLength(3);

    const total = sum(debts.map((d) => d.remaining));
    const created = await post(`/api/settlements${q}`, {
      ...body,
      downPayment: total.times('0.25').toDecimalPlaces(2).toFixed(2),
    });
    expect(created.statusCode, created.body).toBe(201);
    settlement = created.json();
    expect(settlement).toMatchObject({ nr: 1, status: 0, installments: 6, amount: total.toFixed(2) });
    expect(settlement.debts.map((d: Json) => d.id)).toEqual(debts.map((d) => d.id));
    expect(settlement.lines).toHaveLength(7);
    expect(settlement.lines.every((l: Json) => isValidRf(l.rfCode) && l.state === 'open')).toBe(true);
    expect(new Set(settlement.lines.map((l: Json) => l.rfCode)).size).toBe(7);
    // The account now owes the instalments, not the bills.
    const open = await debtsOf(consumerId);
    expect(open.map((d) => d.id)).toEqual(settlement.lines.map((l: Json) => l.debtId));
    expect(sum(open.map((d) => d.remaining)).toFixed(2)).toBe(total.toFixed(2));
    // A closed debt cannot be settled twice.
    const twice = await post(`/api/settlements${q}`, { ...body, downPayment: '100.00' });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().fieldErrors[0].field).toBe('debtIds');

    const list = await get(`/api/settlements/search${q}&size=10`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().content).toMatchObject([
      { id: settlement.id, number: `1/${settlement.year}`, status: 0 },
    ]);
    expect((await get(`/api/settlements/${settlement.id}?companyid=${other}`)).statusCode).toBe(404);
    expect((await get(`/api/settlements/consumers/${consumerId}?companyid=${other}`)).statusCode).toBe(404);
  });

  it('becomes active when the down payment is paid at the cashier', async () => {
    const down = settlement.lines[0];
    const paid = await post(`/api/payments/payments${q}`, {
      consumerId,
      method: 'cash',
      amount: down.amount,
      debtIds: [down.debtId],
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const now = (await get(`/api/settlements/${settlement.id}${q}`)).json();
    expect(now.status).toBe(1);
    expect(now.activatedAt).not.toBeNull();
    expect(now.lines[0]).toMatchObject({ state: 'paid', paid: down.amount });
  });

  it('prints the decision for the consumer to sign, in Greek and English', async () => {
    for (const lang of ['el', 'en']) {
      const pdf = await get(`/api/settlements/${settlement.id}/pdf${q}&lang=${lang}`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });

  it('is cancelled by the daily check once more instalments are missed than tolerated; the rest returns', async () => {
    const lines = settlement.lines as Json[];
    // One instalment missed (beyond 30 days) is tolerated by the 12-instalment category.
    const oneMissed = new Date(`${lines[1]?.dueDate}T12:00:00Z`);
    oneMissed.setUTCDate(oneMissed.getUTCDate() + 31);
    expect(await cancelMissedSettlements(t.database.db, oneMissed.toISOString().slice(0, 10))).toBe(0);
    expect((await get(`/api/settlements/${settlement.id}${q}`)).json().status).toBe(1);

    const twoMissed = new Date(`${lines[2]?.dueDate}T12:00:00Z`);
    twoMissed.setUTCDate(twoMissed.getUTCDate() + 31);
    expect(await cancelMissedSettlements(t.database.db, twoMissed.toISOString().slice(0, 10))).toBe(1);
    // Run again: nothing more.
    expect(await cancelMissedSettlements(t.database.db, twoMissed.toISOString().slice(0, 10))).toBe(0);

    const cancelled = (await get(`/api/settlements/${settlement.id}${q}`)).json();
    expect(cancelled.status).toBe(9);
    expect(cancelled.lines.map((l: Json) => l.state)).toEqual(['paid', ...Array(6).fill('cancelled')]);
    const rest = sum(lines.slice(1).map((l) => l.amount)).toFixed(2);
    const open = await debtsOf(consumerId);
    expect(open.map((d) => [d.source, d.remaining])).toEqual([['charge', rest]]);
    // The history stays: the ledger shows what was settled, paid, cancelled and reopened.
    const ledger = (await get(`/api/payments/accounts/${consumerId}${q}`)).json().entries as Json[];
    expect(new Set(ledger.map((e) => e.type))).toEqual(
      new Set(['bill', 'settled', 'instalment', 'payment', 'cancelled', 'reopened']),
    );
    const again = await post(`/api/settlements/${settlement.id}/cancel${q}`);
    expect(again.statusCode).toBe(409);
  });

  it('numbers the next settlement of the year right after the first', async () => {
    const open = await debtsOf(consumerId);
    const next = await post(`/api/settlements${q}`, {
      consumerId,
      categoryId: (await category('12')).id,
      debtIds: open.map((d) => d.id),
      discountPercent: '0',
      downPayment: new Decimal(open[0]?.remaining).times('0.5').toDecimalPlaces(2).toFixed(2),
      instalments: 1,
      comments: 'Νέα ρύθμιση μετά την ακύρωση',
    });
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json().nr).toBe(2);
    const mine = (await get(`/api/settlements/consumers/${consumerId}${q}`)).json() as Json[];
    expect(mine.map((s) => s.status)).toEqual([0, 9]);
  });
});
