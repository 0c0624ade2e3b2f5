import { isValidRf, utilityDay } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { jobRegistryOf } from '../../platform/jobs/jobs.ts';
import { type JobWorker, startJobWorker } from '../../platform/jobs/worker.ts';
import { pdfText } from '../../test/files.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp, waitForJob } from '../../test/harness.ts';
import { client, installMeter, newConsumer } from '../../test/water-fixtures.ts';
import { createCompany } from '../companies/api.ts';
import { finalizedBills } from './api.ts';
import { billingModule } from './index.ts';

/**
 * The corrected bill after a credit (issue 17: "later corrections are credit or altered (kind 4)
 * transactions, never edits"): a bill billed by a run on a wrong reading is credited, the reading is
 * corrected in readouts and the corrected bill is issued in its place: computed by the run's
 * computation with the period's readings of today and the credited bill's extra charge, numbered next
 * in the water-bill series, its debt and RF code raised as any bill's, the consumer's credit applied;
 * every refusal a translated 409; a rerun of the period changes nothing; two administrators at once
 * issue one. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL 15.
 */
// biome-ignore lint/suspicious/noExplicitAny: answers read field by field
type Json = Record<string, any>;

let t: TestApp;
let admin: { authorization: string };
let worker: JobWorker;
let route: number;
const consumer: Record<string, number> = {};

const get = (url: string, headers = admin) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload?: unknown, headers = admin) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload: payload as Json } : {}) });
const idOf = (rows: Json[], code: string) => rows.find((r) => r.code === code)?.id as number;
const billsOf = async (id: number) => (await get(`/api/billing/consumers/${id}/bills`)).json() as Json[];
const read = (consumerId: number, reading: number) =>
  post('/api/readouts/readings', {
    routeId: route,
    year: 2026,
    period: 1,
    consumerId,
    reading,
    readOn: '2026-04-20',
  });
const credit = (id: number, reason = 'Λάθος ένδειξη υδρομέτρου') =>
  post(`/api/billing/bills/${id}/credit`, { reason });
const preview = (id: number, headers = admin) => get(`/api/billing/bills/${id}/correction`, headers);
const correct = (id: number, headers = admin) =>
  post(`/api/billing/bills/${id}/correction`, undefined, headers);
const account = async (id: number) => (await get(`/api/payments/accounts/${id}`)).json() as Json;

async function runPeriod() {
  const started = await post('/api/billing/runs', {
    year: 2026,
    period: 1,
    scope: 'routes',
    ids: [route],
    issueDate: '2026-05-10',
  });
  expect(started.statusCode, started.body).toBe(201);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const run = (await get(`/api/billing/runs/${started.json().id}`)).json();
    if (run.state === 'done' || run.state === 'failed') return run as Json;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the run did not end');
}

/** A household supply on route 001 with a meter from 1 December 2025 at 100 and a reading of period 1. */
async function newSupply(number: string, reading: number) {
  const api = client(t, admin);
  const id = await newConsumer(
    api,
    '',
    ['01', '001', number],
    { individual: true, lastname: `Διόρθωση${number}`, firstname: 'Άννα' },
    { supplyAddress: `Οδός ${number}` },
  );
  consumer[number] = id;
  await installMeter(api, '', id, { serialNumber: `COR-${number}`, initialReading: 100 });
  expect((await read(id, reading)).statusCode).toBe(200);
  return id;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  worker = startJobWorker(t.database.db, jobRegistryOf([billingModule]), { pollMs: 20, leaseMs: 5000 });
  route = idOf((await get('/api/readouts/routes')).json(), '001');
  // 25 m³ read where 15 were used (901 with a 20.00 € extra charge, 904 pays it), 902 read right,
  // 903 for two administrators at once.
  const plan: [number: string, reading: number][] = [
    ['901', 125],
    ['902', 110],
    ['903', 125],
    ['904', 125],
  ];
  for (const [number, reading] of plan) await newSupply(number, reading);
  const extra = await post(`/api/protocol/consumers/${consumer['901']}/transactions`, {
    kind: 99,
    date: '2026-03-01',
    extraCharge: { amount: '20.00', description: 'Επανασύνδεση' },
  });
  expect(extra.statusCode, extra.body).toBe(200);
  const run = await runPeriod();
  expect(run).toMatchObject({ state: 'done', bills: 4 });
  const finalizing = await post(`/api/billing/runs/${run.id}/finalize`, {});
  expect(finalizing.statusCode, finalizing.body).toBe(202);
  expect((await waitForJob(t, admin, finalizing.json().jobId)).state).toBe('succeeded');
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

// OIK 2026, four months on a four-month base, no diameter, sewerage connected:
// 13%: water fixed 6.00, bands 20 × 0.40 (+ 5 × 0.80 on 25 m³), resource 0.035/m³, environmental 0.05/m³;
// 24%: sewerage fixed 3.00, sewerage 60% of the bands' water, meter maintenance 1.50, extra charges.
const wrong = {
  // 6.00 + 8.00 + 4.00 + 0.875→0.88 + 1.25 = 20.13 → VAT 2.6169 → 2.62;
  // 3.00 + 7.20 + 1.50 + 20.00 = 31.70 → VAT 7.608 → 7.61.
  net: '51.83',
  vatTotal: '10.23',
  total: '62.06',
};
const right = {
  // 6.00 + 6.00 + 0.525→0.53 + 0.75 = 13.28 → VAT 1.7264 → 1.73;
  // 3.00 + 3.60 + 1.50 + 20.00 = 28.10 → VAT 6.744 → 6.74.
  lines: [
    ['waterFixed', '6.00', '13.00'],
    ['sewerageFixed', '3.00', '24.00'],
    ['water', '6.00', '13.00'],
    ['sewerage', '3.60', '24.00'],
    ['specialFee', '1.50', '24.00'],
    ['resource', '0.53', '13.00'],
    ['environmental', '0.75', '13.00'],
    ['extra', '20.00', '24.00'],
  ],
  vat: [
    { vatPercent: '24.00', net: '28.10', vat: '6.74' },
    { vatPercent: '13.00', net: '13.28', vat: '1.73' },
  ],
  net: '41.38',
  vatTotal: '8.47',
  total: '49.85',
};

describe('issuing the corrected bill of a credited bill', () => {
  let original: Json;
  let creditNote: Json;
  let corrected: Json;

  it('refuses a bill not credited yet, in Greek', async () => {
    const [bill] = await billsOf(consumer['901'] as number);
    original = (await get(`/api/billing/bills/${bill?.id}`)).json();
    expect(original).toMatchObject({ ...wrong, consumption: '25.000', entryState: 9, series: 'ΛΥΔ' });
    const refused = await preview(original.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      key: 'billing.error.correction_not_credited',
      message: 'Ο λογαριασμός δεν έχει πιστωθεί· πιστώστε τον πρώτα και μετά εκδώστε τον διορθωμένο.',
    });
    expect((await correct(original.id)).statusCode).toBe(409);
  });

  it('previews the bill of the corrected reading with the extra charge, to the cent, storing nothing', async () => {
    expect((await read(consumer['901'] as number, 115)).statusCode).toBe(200);
    const credited = await credit(original.id);
    expect(credited.statusCode, credited.body).toBe(201);
    creditNote = credited.json();
    const shown = await preview(original.id);
    expect(shown.statusCode, shown.body).toBe(200);
    const body = shown.json();
    expect(body.lines.map((l: Json) => [l.charge, l.amount, l.vatPercent])).toEqual(right.lines);
    expect(body).toMatchObject({
      vat: right.vat,
      net: right.net,
      vatTotal: right.vatTotal,
      previousBalance: '0.00',
      total: right.total,
      consumption: '15.000',
      previousReading: 100,
      currentReading: 115,
      currentDate: '2026-04-20',
      replaces: { id: original.id, number: `ΛΥΔ-${original.number}/2026`, current: wrong.total },
    });
    expect((await billsOf(consumer['901'] as number)).map((b) => b.kind)).toEqual([1, 4]);
  });

  it('issues it: kind 1 of the period, numbered next in ΛΥΔ, finalized, with its own RF code', async () => {
    const issued = await correct(original.id);
    expect(issued.statusCode, issued.body).toBe(201);
    corrected = issued.json();
    // The run numbered four bills; the corrected one takes the fifth number of the series.
    const numbers = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`
        SELECT b.number AS n FROM billing_bills b JOIN finance_series s ON s.id = b.series_id
         WHERE s.code = 'ΛΥΔ' AND b.year = 2026 ORDER BY b.number`),
    ).map((r) => r.n);
    expect(numbers).toEqual([1, 2, 3, 4, 5]);
    expect(corrected).toMatchObject({
      kind: 1,
      entryState: 9,
      series: 'ΛΥΔ',
      number: 5,
      year: 2026,
      consumerId: consumer['901'],
      periodFrom: original.periodFrom,
      periodTo: original.periodTo,
      net: right.net,
      vatTotal: right.vatTotal,
      total: right.total,
      corrects: null,
      replaces: {
        id: original.id,
        number: `ΛΥΔ-${original.number}/2026`,
        issueDate: '2026-05-10',
        credit: `${creditNote.series}-${creditNote.number}/${creditNote.year}`,
      },
      replacedBy: null,
    });
    expect(corrected.lines.map((l: Json) => [l.charge, l.amount, l.vatPercent])).toEqual(right.lines);
    expect(isValidRf(corrected.rfCode)).toBe(true);
    expect(corrected.rfCode).not.toBe(original.rfCode);
    expect((await get(`/api/billing/bills/${original.id}`)).json().replacedBy).toEqual({
      id: corrected.id,
      number: 'ΛΥΔ-5/2026',
    });
    const tab = await billsOf(consumer['901'] as number);
    expect(tab.map((b) => [b.kind, b.replacesId, b.replacedById])).toEqual([
      [1, null, corrected.id],
      [4, null, null],
      [1, original.id, null],
    ]);
  });

  it('raises its debt with its RF code on the consumer’s account: the wrong bill closed, the right one owed', async () => {
    const acc = await account(consumer['901'] as number);
    expect(acc.debts.map((d: Json) => [d.amount, d.rfCode, d.status])).toEqual([
      [right.total, corrected.rfCode, 'open'],
    ]);
    expect(acc.entries.map((e: Json) => [e.type, e.debit, e.credit])).toEqual([
      ['bill', wrong.total, '0.00'],
      ['credit', '0.00', wrong.total],
      ['bill', right.total, '0.00'],
    ]);
    expect(acc.balance).toBe(right.total);
  });

  it('is handed to myDATA as a bill of its own (11.2, its own amounts), not as a credit', async () => {
    const companyId = (await get('/api/users/authenticatedUser')).json().companies[0].id;
    const handed = await finalizedBills(t.database.db, companyId, [corrected.id, creditNote.id]);
    expect(handed.map((b) => [b.invoiceType, b.correctsId, b.net, b.vatTotal])).toEqual([
      ['11.2', null, right.net, right.vatTotal],
      ['11.4', original.id, `-${wrong.net}`, `-${wrong.vatTotal}`],
    ]);
  });

  it('refuses a second corrected bill, a credit and a consumer of another company', async () => {
    const again = await correct(original.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      key: 'billing.error.correction_already',
      message: 'Έχει ήδη εκδοθεί διορθωμένος λογαριασμός στη θέση του (ΛΥΔ-5/2026).',
    });
    expect((await preview(original.id)).json().key).toBe('billing.error.correction_already');
    const ofCredit = await correct(creditNote.id);
    expect(ofCredit.json().key).toBe('billing.error.correction_not_period_bill');
    const other = (
      await createCompany(t.database.db, { companyname: 'ΔΕΥΑ Γ', companytitle: 'ΔΕΥΑ Γ' }, 'test')
    ).id;
    expect((await get(`/api/billing/bills/${original.id}/correction?companyid=${other}`)).statusCode).toBe(
      404,
    );
    expect((await post(`/api/billing/bills/${original.id}/correction?companyid=${other}`)).statusCode).toBe(
      404,
    );
  });

  it('refuses a period without a reading of the consumer, in English', async () => {
    const manual = await post('/api/billing/bills', {
      consumerId: consumer['902'],
      from: '2026-05-01',
      to: '2026-08-31',
      periodLabel: 'Β΄ τετράμηνο 2026',
      previousReading: 110,
      previousDate: '2026-04-20',
      currentReading: 118,
      currentDate: '2026-08-31',
      consumption: '8',
      // Not before the series' last date (the corrected bill above is dated today).
      issueDate: utilityDay(new Date()),
    });
    expect(manual.statusCode, manual.body).toBe(200);
    expect((await post(`/api/billing/bills/${manual.json().id}/finalize`)).statusCode).toBe(200);
    expect((await credit(manual.json().id, 'Χωρίς καταμέτρηση')).statusCode).toBe(201);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/billing/bills/${manual.json().id}/correction`,
      headers: { ...admin, 'accept-language': 'en' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'The supply has no reading for the bill’s period (Β΄ τετράμηνο 2026); enter it in readouts first.',
    );
  });

  it('is for billing administrators only', async () => {
    const maria = await t.login('mpapadopoulou', 'Demo-2026!');
    expect((await preview(original.id, maria)).statusCode).toBe(403);
    expect((await correct(original.id, maria)).statusCode).toBe(403);
  });

  it('prints that it replaces the credited bill, with its total and RF code, in Greek and English', async () => {
    const el = (await pdfText((await get(`/api/billing/bills/${corrected.id}/pdf`)).rawPayload)).replace(
      /\s+/g,
      ' ',
    );
    expect(el).toContain('Διορθωμένος λογαριασμός ύδρευσης – αποχέτευσης ΛΥΔ-5/2026');
    expect(el).toContain(
      `Αντικαθιστά ΛΥΔ-${original.number}/2026 της 10/05/2026 (πιστωτικό ${corrected.replaces.credit})`,
    );
    expect(el).toContain('49,85');
    expect(el).toContain('RF');
    const en = (
      await pdfText((await get(`/api/billing/bills/${corrected.id}/pdf?lang=en`)).rawPayload)
    ).replace(/\s+/g, ' ');
    expect(en).toContain('Corrected water and sewerage bill ΛΥΔ-5/2026');
    expect(en).toContain(`Replaces ΛΥΔ-${original.number}/2026 of 10/05/2026`);
  });

  it('leaves the corrected and the carried bills alone when the period is billed again', async () => {
    const before = await billsOf(consumer['901'] as number);
    // 902's bill of the period was carried into its manual bill of May–August above (−2).
    const carried = (await billsOf(consumer['902'] as number)).find((b) => b.periodFrom === '2026-01-01');
    expect(carried?.entryState).toBe(-2);
    const rerun = await runPeriod();
    // Every bill of the period is final (9, −2, or corrected): the rerun bills and duplicates nothing.
    expect(rerun).toMatchObject({ state: 'done', bills: 0 });
    expect(await billsOf(consumer['901'] as number)).toEqual(before);
    expect((await billsOf(consumer['902'] as number)).find((b) => b.id === carried?.id)).toEqual(carried);
    expect((await get(`/api/billing/bills/${corrected.id}`)).json()).toEqual(corrected);
  });
});

describe('the credit and two administrators', () => {
  it('pays the corrected bill with what was paid of the credited one; the rest stays the consumer’s credit', async () => {
    const id = consumer['904'] as number;
    const [bill] = await billsOf(id);
    // 25 m³ without extras: 20.13 + 2.62 at 13%, 4.50 + 7.20 + 1.08 at 24% → 37.26.
    expect(bill?.total).toBe('37.26');
    const paid = await post('/api/payments/payments', { consumerId: id, method: 'cash', amount: '37.26' });
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await read(id, 115)).statusCode).toBe(200);
    expect((await credit(bill?.id)).statusCode).toBe(201);
    const issued = await correct(bill?.id);
    expect(issued.statusCode, issued.body).toBe(201);
    // 15 m³: 13.28 + 1.73 at 13%, 8.10 + 1.94 at 24% → 25.05; 37.26 − 25.05 = 12.21 left as credit.
    expect(issued.json().total).toBe('25.05');
    const acc = await account(id);
    expect(acc.debts).toEqual([]);
    expect(acc.balance).toBe('-12.21');
    expect(acc.entries.map((e: Json) => e.type)).toEqual([
      'bill',
      'payment',
      'credit',
      'bill',
      'creditApplied',
    ]);
  });

  it('issues one corrected bill when two administrators issue it at the same moment', async () => {
    const id = consumer['903'] as number;
    const [bill] = await billsOf(id);
    expect((await read(id, 115)).statusCode).toBe(200);
    expect((await credit(bill?.id)).statusCode).toBe(201);
    const both = await Promise.all([correct(bill?.id), correct(bill?.id)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const winner = both.find((r) => r.statusCode === 201)?.json();
    expect(both.find((r) => r.statusCode === 409)?.json()).toMatchObject({
      key: 'billing.error.correction_already',
      params: { number: `ΛΥΔ-${winner.number}/2026` },
    });
    expect((await billsOf(id)).filter((b) => b.kind === 1)).toHaveLength(2);
  });
});

describe('an open bill of a later period', () => {
  it('carries the credited bill no more, then its corrected bill, without a rerun', async () => {
    const id = await newSupply('905', 125);
    const manual = (from: string, to: string, consumption: string, issueDate: string) =>
      post('/api/billing/bills', {
        consumerId: id,
        from,
        to,
        periodLabel: `${from} – ${to}`,
        previousReading: 100,
        previousDate: from,
        currentReading: 100 + Number(consumption),
        currentDate: to,
        consumption,
        issueDate,
      });
    // Issued today: the series' date check refuses a date before the corrected bills issued above.
    const today = utilityDay(new Date());
    // January–April on the wrong reading: 25 m³ → 37.26 (as 904's), finalized and unpaid.
    const first = await manual('2026-01-01', '2026-04-30', '25', today);
    expect((await post(`/api/billing/bills/${first.json().id}/finalize`)).statusCode).toBe(200);
    // May–August, 10 m³, left open: 13%: 6.00 + 4.00 + 0.35 + 0.50 = 10.85 → VAT 1.41;
    // 24%: 3.00 + 2.40 + 1.50 = 6.90 → VAT 1.66; its own 20.82, plus the 37.26 it carries.
    const draft = await manual('2026-05-01', '2026-08-31', '10', today);
    expect(draft.statusCode, draft.body).toBe(200);
    const open = async () => (await get(`/api/billing/bills/${draft.json().id}`)).json() as Json;
    const carried = (bill: Json) =>
      bill.lines.filter((l: Json) => l.charge === 'previousBalance').map((l: Json) => [l.sourceId, l.amount]);
    expect(await open()).toMatchObject({ previousBalance: '37.26', total: '58.08' });
    expect(carried(await open())).toEqual([[first.json().id, '37.26']]);
    // Credited: the open bill no longer charges it.
    expect((await read(id, 115)).statusCode).toBe(200);
    expect((await credit(first.json().id)).statusCode).toBe(201);
    expect(await open()).toMatchObject({ previousBalance: '0.00', total: '20.82', net: '17.75' });
    expect(carried(await open())).toEqual([]);
    // The corrected bill (15 m³ → 25.05) is owed instead, as a rerun would carry it.
    const corrected = await correct(first.json().id);
    expect(corrected.statusCode, corrected.body).toBe(201);
    expect(corrected.json().total).toBe('25.05');
    const after = await open();
    expect(after).toMatchObject({ previousBalance: '25.05', total: '45.87', net: '17.75', entryState: 0 });
    expect(carried(after)).toEqual([[corrected.json().id, '25.05']]);
    // The lines still add up to the total, and finalizing marks the corrected bill carried.
    const sum = after.lines.reduce((a: number, l: Json) => a + Math.round(Number(l.amount) * 100), 0);
    expect(sum + Math.round(Number(after.vatTotal) * 100)).toBe(4587);
    expect((await post(`/api/billing/bills/${draft.json().id}/finalize`)).statusCode).toBe(200);
    expect((await get(`/api/billing/bills/${corrected.json().id}`)).json().entryState).toBe(-2);
  });
});
