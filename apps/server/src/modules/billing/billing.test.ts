import { isValidRf, utilityDay } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRows } from '../../test/files.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { client, newConsumer } from '../../test/water-fixtures.ts';
import { createCompany } from '../companies/api.ts';

/**
 * Billing (issue 17) through the API on the demo company and its demo tariffs: the policies, the
 * "try it" computation, stored bills (recompute, finalize with gapless numbers of the water-bill
 * series, immutability, the previous balance and extra charges carried into the next bill), the
 * bills list, the PDF, bad input and another company's bills.
 */
let t: TestApp;
let admin: { authorization: string };
let demo: number;
let other: number;
let consumerId: number;

type Json = Record<string, unknown>;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
const post = (url: string, payload?: unknown) =>
  t.app.inject({ method: 'POST', url, headers: admin, ...(payload ? { payload: payload as Json } : {}) });
const put = (url: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, headers: admin, payload: payload as Json });
const idOf = (rows: Json[], code: string) => rows.find((r) => r.code === code)?.id as number;

const period1 = { from: '2026-01-01', to: '2026-04-30', periodLabel: 'Α΄ τετράμηνο 2026' };
const period2 = { from: '2026-05-01', to: '2026-08-31', periodLabel: 'Β΄ τετράμηνο 2026' };
const readings = (consumption: string, issueDate: string) => ({
  previousReading: 1200,
  previousDate: '2026-01-03',
  currentReading: 1200 + Number(consumption),
  currentDate: '2026-05-02',
  consumption,
  issueDate,
});

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  demo = (await get('/api/users/authenticatedUser')).json().companies[0].id;
  other = (await createCompany(t.database.db, { companyname: 'ΔΕΥΑ Β', companytitle: 'ΔΕΥΑ Β' }, 'test')).id;
  const q = `?companyid=${demo}`;
  const regulations = (await get(`/api/water/parametrics/specialRegulations${q}`)).json();
  consumerId = await newConsumer(
    client(t, admin),
    q,
    ['01', '001', '901'],
    { individual: true, lastname: 'Καραγιάννη', firstname: 'Ελένη' },
    {
      fields: {
        specialRegulationId: idOf(regulations, 'POLY'),
        specialFrom: '2025-09-01',
        specialTo: '2026-08-31',
      },
    },
  );
});

afterAll(async () => {
  await t?.close();
});

describe('policies', () => {
  it('gives the demo utility its tariffs and the social tariffs as data', async () => {
    const pricing = (await get(`/api/billing/pricing_policies?companyid=${demo}`)).json();
    expect(pricing.map((p: Json) => p.description)).toContain('Οικιακό τιμολόγιο 2026');
    const household = pricing.find((p: Json) => p.description === 'Οικιακό τιμολόγιο 2026');
    expect(household.bands.map((b: Json) => b.upTo)).toEqual(['20.000', '40.000', '60.000', null]);
    const discounts = (await get(`/api/billing/discount_policies?companyid=${demo}`)).json();
    expect(discounts.map((d: Json) => [d.amountType, d.amount, d.charges])).toContainEqual([
      2,
      '50.00',
      ['water'],
    ]);
    expect(discounts.map((d: Json) => d.amount)).toContain('25.00');
  });

  it('refuses bands that do not increase, naming the field, and a usage of another company', async () => {
    const [household] = (await get(`/api/billing/pricing_policies?companyid=${demo}`)).json() as Json[];
    const { id, propertyUsage, ...body } = household as Json;
    const bad = await put(`/api/billing/pricing_policies/${id}?companyid=${demo}`, {
      ...body,
      bands: [
        { upTo: '20', price: '0.4' },
        { upTo: '10', price: '0.8' },
        { upTo: null, price: '1' },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'bands.1.upTo', key: 'validation.billing_bands_ascending' }),
    );
    const foreign = await post(`/api/billing/pricing_policies?companyid=${other}`, body);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fieldErrors[0].field).toBe('propertyUsageId');
  });

  it('saves a new tariff and a discount policy and reads them back', async () => {
    const [household] = (await get(`/api/billing/pricing_policies?companyid=${demo}`)).json() as Json[];
    const { id: householdId, propertyUsage: _u, ...body } = household as Json;
    // Two tariffs of one usage valid on the same day are refused, naming the field and the other one.
    const overlapping = await post(`/api/billing/pricing_policies?companyid=${demo}`, {
      ...body,
      description: 'Οικιακό 2027',
      fromdate: '2027-01-01',
    });
    expect(overlapping.statusCode).toBe(400);
    expect(overlapping.json().fieldErrors[0]).toMatchObject({
      field: 'fromdate',
      key: 'validation.billing_pricing_overlap',
      params: { policy: body.description },
    });
    // The tariff change: the old one closed at the end of 2026, the new one from 2027.
    const closed = await put(`/api/billing/pricing_policies/${householdId}?companyid=${demo}`, {
      ...body,
      todate: '2026-12-31',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const created = await post(`/api/billing/pricing_policies?companyid=${demo}`, {
      ...body,
      description: 'Οικιακό 2027',
      fromdate: '2027-01-01',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(
      (await get(`/api/billing/pricing_policies/${created.json().id}?companyid=${demo}`)).json().fromdate,
    ).toBe('2027-01-01');
    const discount = await post(`/api/billing/discount_policies?companyid=${demo}`, {
      description: 'Προσαύξηση εκτός σχεδίου',
      fromdate: '2027-01-01',
      todate: null,
      reduction: -1,
      amountType: 2,
      calculation: 2,
      amount: '150',
      charges: ['water'],
      specialRegulationIds: [1],
      active: true,
    });
    expect(discount.statusCode).toBe(400);
    expect(discount.json().fieldErrors[0].field).toBe('amount');
  });
});

describe('bills', () => {
  // 25 m³, household, large family (50% of the consumption): by hand, with the demo tariff
  // water fixed 6.00, sewerage fixed 3.00, bands 20 × 0.40 = 8.00 and 5 × 0.80 = 4.00, sewerage 60% of
  // 12.00 = 7.20, meter fee 1.50, resource 25 × 0.035 = 0.875 → 0.88, environmental 1.25, discount −6.00;
  // 13%: 14.13 → 1.84, 24%: 11.70 → 2.81; total 30.48.
  it('tries a consumption without storing anything', async () => {
    const tried = await post(`/api/billing/try?companyid=${demo}`, {
      consumerId,
      from: period1.from,
      to: period1.to,
      consumption: '25',
    });
    expect(tried.statusCode, tried.body).toBe(200);
    const bill = tried.json();
    expect(bill.lines.map((l: Json) => [l.charge, l.amount])).toEqual([
      ['waterFixed', '6.00'],
      ['sewerageFixed', '3.00'],
      ['water', '8.00'],
      ['water', '4.00'],
      ['sewerage', '7.20'],
      ['specialFee', '1.50'],
      ['resource', '0.88'],
      ['environmental', '1.25'],
      ['discount', '-6.00'],
    ]);
    expect(bill.vat).toEqual([
      { vatPercent: '24.00', net: '11.70', vat: '2.81' },
      { vatPercent: '13.00', net: '14.13', vat: '1.84' },
    ]);
    expect(bill.total).toBe('30.48');
    expect((await get(`/api/billing/consumers/${consumerId}/bills?companyid=${demo}`)).json()).toEqual([]);
  });

  it('tells a period without a tariff', async () => {
    const tried = await post(`/api/billing/try?companyid=${demo}`, {
      consumerId,
      from: '2025-12-01',
      to: '2026-03-31',
      consumption: '10',
    });
    expect(tried.statusCode).toBe(409);
    expect(tried.json()).toMatchObject({ key: 'billing.error.no_tariff', params: { date: '2025-12-01' } });
  });

  it('stores, recomputes, finalizes with gapless numbers and never edits a finalized bill', async () => {
    const q = `?companyid=${demo}`;
    const first = await post(`/api/billing/bills${q}`, {
      consumerId,
      ...period1,
      ...readings('30', '2026-05-10'),
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ entryState: 0, number: null, dueDate: '2026-06-09' });
    expect(isValidRf(first.json().rfCode)).toBe(true);
    // Recomputed in place: same bill, same RF code, new amounts.
    const again = await post(`/api/billing/bills${q}`, {
      consumerId,
      ...period1,
      ...readings('25', '2026-05-10'),
    });
    expect(again.json()).toMatchObject({ id: first.json().id, rfCode: first.json().rfCode, entryState: 1 });
    expect(again.json().total).toBe('30.48');

    const done = await post(`/api/billing/bills/${first.json().id}/finalize${q}`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      entryState: 9,
      series: 'ΛΥΔ',
      number: 1,
      year: 2026,
      defuser: 'admin',
    });
    expect((await post(`/api/billing/bills/${first.json().id}/finalize${q}`)).statusCode).toBe(409);
    const edit = await post(`/api/billing/bills${q}`, {
      consumerId,
      ...period1,
      ...readings('99', '2026-05-10'),
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().key).toBe('billing.error.finalized');
    expect((await get(`/api/billing/bills/${first.json().id}${q}`)).json().total).toBe('30.48');

    // An extra charge (reconnection) and the unpaid first bill go on the next one.
    const tx = await post(`/api/protocol/consumers/${consumerId}/transactions${q}`, {
      kind: 99,
      date: '2026-06-15',
      extraCharge: { amount: '25.00', description: 'Επανασύνδεση' },
    });
    expect(tx.statusCode, tx.body).toBe(200);
    const second = await post(`/api/billing/bills${q}`, {
      consumerId,
      ...period2,
      ...readings('10', '2026-09-10'),
    });
    expect(second.statusCode, second.body).toBe(200);
    const lines = second.json().lines as Json[];
    expect(
      lines.filter((l) => l.charge === 'extra').map((l) => [l.description, l.amount, l.vatPercent]),
    ).toEqual([['Επανασύνδεση', '25.00', '24.00']]);
    expect(lines.at(-1)).toMatchObject({
      charge: 'previousBalance',
      amount: '30.48',
      sourceId: first.json().id,
    });
    expect(second.json().previousBalance).toBe('30.48');
    const finalized = await post(`/api/billing/bills/${second.json().id}/finalize${q}`);
    expect(finalized.json().number).toBe(2);
    // The first bill's balance now lives in the second; the extra charge is billed.
    expect((await get(`/api/billing/bills/${first.json().id}${q}`)).json().entryState).toBe(-2);
    // The next period carries the second bill (which holds the first's balance), never the first again.
    const third = await post(`/api/billing/try${q}`, {
      consumerId,
      from: '2026-09-01',
      to: '2026-12-31',
      consumption: '5',
    });
    const carried = (third.json().lines as Json[]).filter(
      (l) => l.charge === 'extra' || l.charge === 'previousBalance',
    );
    expect(carried).toEqual([
      expect.objectContaining({
        charge: 'previousBalance',
        sourceId: second.json().id,
        amount: finalized.json().total,
      }),
    ]);

    const list = await get(
      `/api/billing/bills/search${q}&ownerName=ci(contains(καραγιαννη))&sort=periodFrom,ASC`,
    );
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().content.map((b: Json) => [b.periodLabel, b.number, b.entryState])).toEqual([
      ['Α΄ τετράμηνο 2026', 1, -2],
      ['Β΄ τετράμηνο 2026', 2, 9],
    ]);
    const tab = (await get(`/api/billing/consumers/${consumerId}/bills${q}`)).json();
    expect(tab.map((b: Json) => b.periodFrom)).toEqual(['2026-05-01', '2026-01-01']);
  });

  it('issue 29 item 17: a finalized bill says when it was finalized: the bill, the card tab, the list and its export', async () => {
    const q = `?companyid=${demo}`;
    const tab = (await get(`/api/billing/consumers/${consumerId}/bills${q}`)).json() as Json[];
    expect(tab).toHaveLength(2);
    for (const bill of tab) {
      expect(bill.defuser).toBe('admin');
      // An instant, finalized during this test.
      expect(Date.now() - Date.parse(String(bill.defdate))).toBeLessThan(5 * 60_000);
    }
    const detail = (await get(`/api/billing/bills/${tab[0]?.id}${q}`)).json();
    expect(detail).toMatchObject({ defuser: 'admin', defdate: tab[0]?.defdate });
    // The list filters by the day of finalizing in the utility's calendar and shows who and when.
    const today = utilityDay(new Date());
    const uri = `/api/billing/bills/search${q}&ownerName=ci(contains(καραγιαννη))&defdate=eq(${today})&sort=periodFrom,ASC`;
    const list = await get(uri);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().content.map((b: Json) => [b.number, b.defuser, b.defdate])).toEqual([
      [1, 'admin', tab[1]?.defdate],
      [2, 'admin', tab[0]?.defdate],
    ]);
    const before = await get(uri.replace(`eq(${today})`, 'lte(2025-12-31)'));
    expect(before.json().content, before.body).toEqual([]);
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/export/file?format=csv&lang=en&columns=number,defuser,defdate&uri=${encodeURIComponent(uri)}`,
      headers: admin,
    });
    expect(file.statusCode, file.body).toBe(200);
    const [dd, mm, yyyy] = [today.slice(8), today.slice(5, 7), today.slice(0, 4)];
    expect(csvRows(file.rawPayload)).toEqual([
      ['Number', 'Finalized by', 'Finalized on'],
      ['1', 'admin', expect.stringMatching(new RegExp(`^(${yyyy}-${mm}-${dd}|${dd}/${mm}/${yyyy})$`))],
      ['2', 'admin', expect.stringMatching(new RegExp(`^(${yyyy}-${mm}-${dd}|${dd}/${mm}/${yyyy})$`))],
    ]);
  });

  it('prints a stored bill as a PDF', async () => {
    const [bill] = (
      await get(`/api/billing/consumers/${consumerId}/bills?companyid=${demo}`)
    ).json() as Json[];
    const pdf = await get(`/api/billing/bills/${bill?.id}/pdf?companyid=${demo}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.length).toBeGreaterThan(10_000);
  });

  it("keeps one company's bills from another", async () => {
    const [bill] = (
      await get(`/api/billing/consumers/${consumerId}/bills?companyid=${demo}`)
    ).json() as Json[];
    expect((await get(`/api/billing/bills/${bill?.id}?companyid=${other}`)).statusCode).toBe(404);
    expect((await get(`/api/billing/bills/${bill?.id}/pdf?companyid=${other}`)).statusCode).toBe(404);
    expect((await get(`/api/billing/consumers/${consumerId}/bills?companyid=${other}`)).statusCode).toBe(404);
    const foreign = await post(`/api/billing/try?companyid=${other}`, {
      consumerId,
      from: period1.from,
      to: period1.to,
      consumption: '1',
    });
    expect(foreign.statusCode).toBe(404);
  });
});
