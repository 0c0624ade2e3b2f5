import { Decimal } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../../test/files.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { client, finalBill, type Json, newConsumer } from '../../test/water-fixtures.ts';
import { createCompany } from '../companies/api.ts';

/**
 * Credits of finalized bills (issue 17: "later corrections are credit or altered (kind 4)
 * transactions, never edits") through the API on the demo company: the credit's lines and totals,
 * its number in the water-bill series' related credit series without gaps, the refusals, the debt
 * closed (or the paid amount left as credit), the next bill's previous balance, immutability, the
 * PDF, permissions and another company.
 */
let t: TestApp;
let api: ReturnType<typeof client>;

let demo: number;
let other: number;
let q: string;

const credit = (id: number, reason: string, query = q, headers?: { authorization: string }) =>
  headers
    ? t.app.inject({
        method: 'POST',
        url: `/api/billing/bills/${id}/credit${query}`,
        headers,
        payload: { reason },
      })
    : api.post(`/api/billing/bills/${id}/credit${query}`, { reason });
const account = async (consumerId: number) =>
  (await api.get(`/api/payments/accounts/${consumerId}${q}`)).json() as Json;
const previousBalanceOf = async (consumerId: number, from: string, to: string) =>
  (await api.post(`/api/billing/try${q}`, { consumerId, from, to, consumption: '5' })).json().previousBalance;
const owner = (lastname: string) => ({ individual: true, lastname, firstname: 'Δοκιμή' });

beforeAll(async () => {
  t = await startTestApp();
  api = client(t, await t.login('admin', ADMIN_PASSWORD));
  demo = (await api.get('/api/users/authenticatedUser')).json().companies[0].id;
  other = (await createCompany(t.database.db, { companyname: 'ΔΕΥΑ Β', companytitle: 'ΔΕΥΑ Β' }, 'test')).id;
  q = `?companyid=${demo}`;
});

afterAll(async () => {
  await t?.close();
});

describe('crediting a finalized bill', () => {
  let consumerId: number;
  let bill: Json;
  let creditBill: Json;

  beforeAll(async () => {
    consumerId = await newConsumer(api, q, ['01', '001', '971'], owner('Πιστωτική'));
    bill = await finalBill(api, q, consumerId, '2026-01-01', '2026-04-30', '25', '2026-05-10');
  });

  it('issues a kind 4 credit: the lines negated, numbered 1 in ΠΛΥ, finalized, pointing at the bill', async () => {
    const created = await credit(bill.id, 'Λάθος ένδειξη υδρομέτρου');
    expect(created.statusCode, created.body).toBe(201);
    creditBill = created.json();
    expect(creditBill).toMatchObject({
      kind: 4,
      entryState: 9,
      series: 'ΠΛΥ',
      number: 1,
      year: 2026,
      defuser: 'admin',
      consumerId,
      periodFrom: '2026-01-01',
      reason: 'Λάθος ένδειξη υδρομέτρου',
      previousBalance: '0.00',
      rfCode: '',
      corrects: { id: bill.id, number: `ΛΥΔ-${bill.number}/2026`, issueDate: '2026-05-10' },
      creditedBy: null,
    });
    const own = bill.lines.filter((l: Json) => l.charge !== 'previousBalance');
    expect(creditBill.lines.map((l: Json) => [l.charge, l.amount, l.vatPercent])).toEqual(
      own.map((l: Json) => [l.charge, new Decimal(l.amount).negated().toFixed(2), l.vatPercent]),
    );
    expect(creditBill.net).toBe(new Decimal(bill.net).negated().toFixed(2));
    expect(creditBill.vatTotal).toBe(new Decimal(bill.vatTotal).negated().toFixed(2));
    expect(creditBill.total).toBe(new Decimal(bill.net).plus(bill.vatTotal).negated().toFixed(2));
    // The lines add up to the credit's net, to the cent.
    const sum = creditBill.lines.reduce((a: Decimal, l: Json) => a.plus(l.amount), new Decimal(0));
    expect(sum.toFixed(2)).toBe(creditBill.net);
    const credited = (await api.get(`/api/billing/bills/${bill.id}${q}`)).json();
    expect(credited.creditedBy).toEqual({ id: creditBill.id, number: 'ΠΛΥ-1/2026' });
    const tab = (await api.get(`/api/billing/consumers/${consumerId}/bills${q}`)).json() as Json[];
    expect(tab.map((b) => [b.kind, b.correctsId, b.creditedById])).toEqual([
      [1, null, creditBill.id],
      [4, bill.id, null],
    ]);
  });

  it('closes the unpaid debt: nothing due, a credit line on the ledger, nothing carried into the next bill', async () => {
    const acc = await account(consumerId);
    expect(acc.debts).toEqual([]);
    expect(acc.entries.map((e: Json) => [e.type, e.kind, e.debit, e.credit])).toEqual([
      ['bill', 1, bill.total, '0.00'],
      ['credit', 4, '0.00', bill.total],
    ]);
    expect(acc.entries.at(-1).description).toBe('ΠΛΥ-1/2026 · 2026-01-01 – 2026-04-30');
    expect(acc.balance).toBe('0.00');
    expect(await previousBalanceOf(consumerId, '2026-05-01', '2026-08-31')).toBe('0.00');
  });

  it('refuses a second credit, a credit of a credit, a draft and an empty reason, in Greek and English', async () => {
    const again = await credit(bill.id, 'Ξανά');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      key: 'billing.error.credit_already',
      message: 'Ο λογαριασμός έχει ήδη πιστωθεί (ΠΛΥ-1/2026).',
    });
    const ofCredit = await credit(creditBill.id, 'Πίστωση πιστωτικού');
    expect(ofCredit.json().key).toBe('billing.error.credit_of_credit');
    const draft = await api.post(`/api/billing/bills${q}`, {
      consumerId,
      from: '2026-05-01',
      to: '2026-08-31',
      periodLabel: 'Β΄ τετράμηνο 2026',
      previousReading: 1025,
      previousDate: '2026-05-01',
      currentReading: 1030,
      currentDate: '2026-08-31',
      consumption: '5',
      issueDate: '2026-09-10',
    });
    expect(draft.statusCode, draft.body).toBe(200);
    const notFinal = await t.app.inject({
      method: 'POST',
      url: `/api/billing/bills/${draft.json().id}/credit${q}`,
      headers: { ...(await t.login('admin', ADMIN_PASSWORD)), 'accept-language': 'en' },
      payload: { reason: 'x' },
    });
    expect(notFinal.statusCode).toBe(409);
    expect(notFinal.json().message).toMatch(/^Only a finalized bill can be credited/);
    const empty = await credit(bill.id, '   ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fieldErrors[0].field).toBe('reason');
  });

  it('keeps the credit immutable and another company out', async () => {
    const again = await api.post(`/api/billing/bills/${creditBill.id}/finalize${q}`);
    expect(again.statusCode).toBe(409);
    expect((await credit(bill.id, 'Άλλη εταιρεία', `?companyid=${other}`)).statusCode).toBe(404);
    expect((await api.get(`/api/billing/bills/${creditBill.id}?companyid=${other}`)).statusCode).toBe(404);
  });

  it('is for billing administrators only', async () => {
    const maria = await t.login('mpapadopoulou', 'Demo-2026!');
    const me = (await api.get('/api/users/authenticatedUser', maria)).json();
    expect(me.scope).not.toContain('billing:admin');
    expect((await credit(bill.id, 'Χωρίς δικαίωμα', q, maria)).statusCode).toBe(403);
  });

  it('prints "Πιστωτικό" with the corrected bill and the reason, and no payment slip', async () => {
    const pdf = await api.get(`/api/billing/bills/${creditBill.id}/pdf${q}`);
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain('Πιστωτικό λογαριασμού ύδρευσης ΠΛΥ-1/2026');
    expect(text).toContain(`Πιστώνει τον λογαριασμό ΛΥΔ-${bill.number}/2026 της 10/05/2026`);
    expect(text).toContain('Λάθος ένδειξη υδρομέτρου');
    expect(text).toContain('Ποσό πίστωσης');
    expect(text).not.toContain('RF');
    const en = (
      await pdfText((await api.get(`/api/billing/bills/${creditBill.id}/pdf${q}&lang=en`)).rawPayload)
    ).replace(/\s+/g, ' ');
    expect(en).toContain('Water bill credit note ΠΛΥ-1/2026');
  });
});

describe('the debt and the numbering', () => {
  it('leaves what was paid of a credited bill as the consumer’s credit, to be returned', async () => {
    const consumerId = await newConsumer(api, q, ['01', '001', '972'], owner('Πληρωμένη'));
    const bill = await finalBill(api, q, consumerId, '2026-01-01', '2026-04-30', '30', '2026-05-10');
    const paid = await api.post(`/api/payments/payments${q}`, {
      consumerId,
      method: 'cash',
      amount: bill.total,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const created = await credit(bill.id, 'Διπλή χρέωση');
    expect(created.statusCode, created.body).toBe(201);
    // Numbered next in the credit series: the refused credits above took no number.
    expect(created.json().number).toBe(2);
    const acc = await account(consumerId);
    expect(acc.balance).toBe(new Decimal(bill.total).negated().toFixed(2));
    expect(acc.debts).toEqual([]);
    const back = await api.post(`/api/payments/prepay_returns${q}`, {
      consumerId,
      method: 'cash',
      amount: bill.total,
    });
    expect(back.statusCode, back.body).toBe(201);
    expect((await account(consumerId)).balance).toBe('0.00');
  });

  it('credits a bill carried into a later one: the later bill keeps only its own charges owed', async () => {
    const consumerId = await newConsumer(api, q, ['01', '001', '973'], owner('Μεταφερόμενη'));
    const first = await finalBill(api, q, consumerId, '2026-01-01', '2026-04-30', '20', '2026-05-10');
    const second = await finalBill(api, q, consumerId, '2026-05-01', '2026-08-31', '12', '2026-09-10');
    expect(second.previousBalance).toBe(first.total);
    expect(await previousBalanceOf(consumerId, '2026-09-01', '2026-12-31')).toBe(second.total);
    const created = await credit(first.id, 'Εκτιμώμενη ένδειξη');
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().number).toBe(3);
    const own = new Decimal(second.total).minus(second.previousBalance).toFixed(2);
    expect(await previousBalanceOf(consumerId, '2026-09-01', '2026-12-31')).toBe(own);
    expect((await account(consumerId)).balance).toBe(own);
  });

  it('refuses a bill whose debt is in a settlement, writing nothing and taking no number', async () => {
    const consumerId = await newConsumer(api, q, ['01', '001', '974'], owner('Ρυθμισμένη'));
    const bill = await finalBill(api, q, consumerId, '2026-05-01', '2026-08-31', '15', '2026-09-12');
    await account(consumerId); // raises the bill's debt
    await t.database.db.execute(
      sql`UPDATE payments_debts SET status = 'settled', settlement_key = 'settlement:1' WHERE bill_id = ${bill.id}`,
    );
    const refused = await credit(bill.id, 'Σε ρύθμιση');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('payments.error.credit_in_settlement');
    const tab = (await api.get(`/api/billing/consumers/${consumerId}/bills${q}`)).json() as Json[];
    expect(tab.map((b) => [b.kind, b.creditedById])).toEqual([[1, null]]);
    expect((await account(consumerId)).entries.map((e: Json) => e.type)).toEqual(['bill']);
  });

  it('credits a bill once when two administrators credit it at the same moment', async () => {
    const consumerId = await newConsumer(api, q, ['01', '001', '975'], owner('Ταυτόχρονη'));
    const bill = await finalBill(api, q, consumerId, '2026-05-01', '2026-08-31', '9', '2026-09-12');
    const both = await Promise.all([credit(bill.id, 'Πρώτος'), credit(bill.id, 'Δεύτερος')]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(both.find((r) => r.statusCode === 409)?.json().key).toBe('billing.error.credit_already');
    expect(both.find((r) => r.statusCode === 201)?.json().number).toBe(4);
  });

  it('takes a payment and a credit of the same consumer at the same moment, in turn', async () => {
    const consumerId = await newConsumer(api, q, ['01', '001', '976'], owner('Συγχρονισμένη'));
    const bill = await finalBill(api, q, consumerId, '2026-05-01', '2026-08-31', '11', '2026-09-12');
    const [paid, credited] = await Promise.all([
      api.post(`/api/payments/payments${q}`, { consumerId, method: 'cash', amount: bill.total }),
      credit(bill.id, 'Ταυτόχρονα με πληρωμή'),
    ]);
    expect([paid.statusCode, credited.statusCode]).toEqual([201, 201]);
    // Paid then credited, or credited then paid: either way the payment is the consumer's credit.
    const acc = await account(consumerId);
    expect(acc.balance).toBe(new Decimal(bill.total).negated().toFixed(2));
    expect(acc.debts).toEqual([]);
  });

  it('numbers the credits 1 to 5 in ΠΛΥ without gaps, apart from the bills', async () => {
    const rows = await t.database.db.execute(sql`
      SELECT b.number FROM billing_bills b JOIN finance_series s ON s.id = b.series_id
       WHERE b.company_id = ${demo} AND s.code = 'ΠΛΥ' ORDER BY b.number`);
    expect((rows as unknown as { rows: { number: number }[] }).rows.map((r) => r.number)).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });
});
