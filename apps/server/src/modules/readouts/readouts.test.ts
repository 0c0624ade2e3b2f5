import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRows, pdfText, xlsxRows } from '../../test/files.ts';
import {
  ADMIN_PASSWORD,
  createOperator,
  grant,
  OPERATOR_PASSWORD,
  startTestApp,
  type TestApp,
} from '../../test/harness.ts';
import { client, installMeter, newConsumer } from '../../test/water-fixtures.ts';
import { createCompany } from '../companies/api.ts';
import { putGeneralSetting } from '../settings/api.ts';
import { periodicities } from '../settings/settings-tables.schema.ts';
import { consumptionFor, holdRoutePeriod, releaseRoutePeriod, withoutEstimate } from './api.ts';

/**
 * Readouts (issue 16) on the demo company: a route of five consumers with their meters, entered
 * through the grid's per-row save; the checks, the review, the 409 while held, the close with its
 * estimates, the correction of a finalized reading and of an estimate, and what billing reads.
 */
let t: TestApp;
let admin: { authorization: string };
let routeId: number;
let other: number;
const ids: Record<string, number> = {};

type Json = Record<string, unknown>;
const get = (url: string, headers = admin) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: unknown, headers = admin) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as Json });
const P1 = { year: 2026, period: 1 };
const P2 = { year: 2026, period: 2 };
const sheet = (p = P1) => get(`/api/readouts/sheet?routeId=${routeId}&year=${p.year}&period=${p.period}`);
const save = (consumer: string, reading: number | null, extra: Json = {}, p = P1) =>
  post('/api/readouts/readings', {
    routeId,
    ...p,
    consumerId: ids[consumer],
    reading,
    readOn: p.period === 1 ? '2026-04-20' : '2026-08-20',
    ...extra,
  });

async function consumerWithMeter(
  name: string,
  number: string,
  position: number,
  meter: Json & { serialNumber: string },
) {
  const api = client(t, admin);
  const id = await newConsumer(
    api,
    '',
    ['01', '001', number],
    { individual: true, lastname: name, firstname: 'Ελένη' },
    { supplyAddress: `Οδός ${name} ${number}`, billed: false, fields: { routePosition: position } },
  );
  await installMeter(api, '', id, meter);
  return id;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  const routes = (await get('/api/readouts/routes')).json();
  routeId = routes.find((r: { code: string }) => r.code === '001').id;
  // Inserted out of route order: the sheet walks the route positions.
  ids.c = await consumerWithMeter('Γεωργίου', '3', 3, { serialNumber: 'R-3', initialReading: 500 });
  ids.a = await consumerWithMeter('Αθανασίου', '1', 1, { serialNumber: 'R-1', initialReading: 100 });
  ids.b = await consumerWithMeter('Βασιλείου', '2', 2, { serialNumber: 'R-2', initialReading: 99_990 });
  ids.d = await consumerWithMeter('Δημητρίου', '4', 4, {
    serialNumber: 'R-4',
    initialReading: 800,
    direction: -1,
  });
  ids.e = await consumerWithMeter('Ευαγγέλου', '5', 5, { serialNumber: 'R-5', initialReading: 40 });
  other = (await createCompany(t.database.db, { companyname: 'ΔΕΥΑ Β', companytitle: 'ΔΕΥΑ Β' }, 'test')).id;
  // A start and five consumers with meters: slow on a shared machine, so more than the default hook time.
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('readouts', () => {
  it('lists the route in route order with the previous readings, under the period named by the periodicity', async () => {
    const response = await sheet();
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.period).toMatchObject({
      id: null,
      state: 0,
      name: 'Α΄ τετράμηνο 2026',
      fromDate: '2026-01-01',
      toDate: '2026-04-30',
    });
    expect(body.rows.map((r: { serialNumber: string }) => r.serialNumber)).toEqual([
      'R-1',
      'R-2',
      'R-3',
      'R-4',
      'R-5',
    ]);
    expect(body.rows[0]).toMatchObject({
      previousReading: 100,
      previousDate: '2025-12-01',
      reading: null,
      active: true,
    });
    const english = await t.app.inject({
      method: 'GET',
      url: `/api/readouts/sheet?routeId=${routeId}&year=2026&period=3`,
      headers: { ...admin, 'accept-language': 'en' },
    });
    expect(english.json().period.name).toBe('3rd four-month period 2026');
  });

  it('prints the route sheet in route order, and exports it for handheld devices', async () => {
    const url = `/api/readouts/route-sheet?routeIds=${routeId}&year=2026&period=1`;
    const pdf = await get(url);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Φύλλο καταμέτρησης 001');
    expect(text).toContain('Α΄ τετράμηνο 2026');
    const order = ['R-1', 'R-2', 'R-3', 'R-4', 'R-5'].map((serial) => text.indexOf(serial));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > (order[i - 1] ?? 0)))).toBe(true);
    const csv = csvRows((await get(`${url}&format=csv`)).rawPayload);
    expect(csv[0]).toEqual([
      'Δρομολόγιο',
      'Α/Α',
      'Κωδικός',
      'Ονοματεπώνυμο',
      'Διεύθυνση παροχής',
      'Υδρομετρητής',
      'Θέση / σημειώσεις',
      'Προηγ. ένδειξη',
      'Ημ/νία',
      'Νέα ένδειξη',
    ]);
    expect(csv.slice(1).map((r) => [r[5], r[7], r[8]])).toEqual([
      ['R-1', '100', '01/12/2025'],
      ['R-2', '99990', '01/12/2025'],
      ['R-3', '500', '01/12/2025'],
      ['R-4', '800', '01/12/2025'],
      ['R-5', '40', '01/12/2025'],
    ]);
    const xlsx = await xlsxRows((await get(`${url}&format=xlsx`)).rawPayload);
    // The code as people write it (issue 32 item 4); the readings import knows it so too.
    expect(xlsx[2]?.slice(0, 5)).toEqual(['1', '01-001-1', 'Αθανασίου Ελένη', 'Οδός Αθανασίου 1', 'R-1']);
    expect(
      (await get(`/api/readouts/route-sheet?routeIds=${routeId},abc&year=2026&period=1`)).statusCode,
    ).toBe(400);
  });

  it('saves a row, once for one idempotency key, and opens the period for editing', async () => {
    const first = await save('a', 130, { idempotencyKey: 'phone-a-0001' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().reading).toMatchObject({
      reading: 130,
      consumption: 30,
      basis: 'normal',
      source: 1,
      flags: [],
    });
    const again = await save('a', 130, { idempotencyKey: 'phone-a-0001' });
    expect(again.json().reading.id).toBe(first.json().reading.id);
    const body = (await sheet()).json();
    expect(body.period.state).toBe(1);
    expect(body.rows.filter((r: { reading: unknown }) => r.reading !== null)).toHaveLength(1);
  });

  it('refuses a lower reading no rollover explains; takes the rollover and the reverse meter', async () => {
    const lower = await save('c', 400);
    expect(lower.statusCode).toBe(400);
    expect(lower.json().fieldErrors[0]).toMatchObject({
      field: 'reading',
      key: 'readouts.reading_lower',
      params: { previous: 500 },
    });
    const rollover = await save('b', 12);
    expect(rollover.json().reading).toMatchObject({ consumption: 22, basis: 'rollover' });
    const reverse = await save('d', 770);
    expect(reverse.json().reading).toMatchObject({ consumption: 30, basis: 'reverse' });
  });

  it('issue 29 item 13: a lower reading is refused without a reason, taken with one as no consumption and flagged for review', async () => {
    const refused = await save('c', 400, { note: '   ' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fieldErrors).toEqual([
      { field: 'reading', key: 'readouts.reading_lower', params: { previous: 500 } },
      { field: 'note', key: 'readouts.reading_lower_reason', params: {} },
    ]);
    const reason = 'Ο μετρητής άλλαξε χωρίς καταχώριση';
    const taken = await save('c', 400, { note: reason });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().reading).toMatchObject({
      reading: 400,
      consumption: 0,
      basis: 'lower',
      flags: ['lower_reading'],
      review: 1,
      note: reason,
    });
    // The supervisor sees it in the review list with its reason.
    const review = (await get(`/api/readouts/review?routeId=${routeId}&year=2026&period=1`)).json();
    expect(review.filter((r: Json) => (r.flags as string[]).includes('lower_reading'))).toEqual([
      expect.objectContaining({ consumerId: ids.c, reading: 400, consumption: 0, review: 1, note: reason }),
    ]);
  });

  it('flags zero on an active consumer and an impossibly large consumption for review, accepted in one click', async () => {
    const zero = await save('c', 500);
    expect(zero.json().reading).toMatchObject({ consumption: 0, flags: ['zero_active'], review: 1 });
    const huge = await save('e', 9_000);
    expect(huge.json().reading.flags).toEqual(['too_large']);
    const review = (await get(`/api/readouts/review?routeId=${routeId}&year=2026&period=1`)).json();
    expect(review.map((r: { code: string; flags: string[] }) => r.flags)).toEqual([
      ['zero_active'],
      ['too_large'],
    ]);
    const accepted = await post(`/api/readouts/readings/${review[0].readingId}/review`, { action: 'accept' });
    expect(accepted.statusCode, accepted.body).toBe(204);
    // The 9,000 was a typing error: corrected, the original stays in the history.
    const corrected = await post(`/api/readouts/readings/${review[1].readingId}/review`, {
      action: 'correct',
      reading: 90,
    });
    expect(corrected.statusCode, corrected.body).toBe(204);
    const history = (await get(`/api/readouts/consumers/${ids.e}/history`)).json();
    expect(history.map((h: { reading: number; superseded: boolean }) => [h.reading, h.superseded])).toEqual([
      [90, false],
      [9000, true],
    ]);
  });

  it('answers 409 while an import or a billing run holds the route and period, and lets go after', async () => {
    const key = { routeId, ...P1 };
    expect(await holdRoutePeriod(t.database.db, 1, key, 'billing-run-7')).toBe(true);
    expect(await holdRoutePeriod(t.database.db, 1, key, 'import-3')).toBe(false);
    const held = await save('a', 131);
    expect(held.statusCode).toBe(409);
    expect(held.json()).toMatchObject({
      key: 'readouts.busy',
      message: 'Οι καταμετρήσεις βρίσκονται σε επεξεργασία, δοκιμάστε αργότερα',
    });
    expect((await sheet()).json().period.heldBy).toBe('billing-run-7');
    await releaseRoutePeriod(t.database.db, 1, key, 'billing-run-7');
    expect((await save('a', 131)).statusCode).toBe(200);
    // A lease that ran out holds nothing (a crashed run does not lock the route forever).
    expect(await holdRoutePeriod(t.database.db, 1, key, 'crashed', -1)).toBe(true);
    expect((await save('a', 130)).statusCode).toBe(200);
  });

  it('finalizes: estimates the missing reading, then refuses entry; a correction keeps the original', async () => {
    // One meter unread: the closed gate is noted, and the close estimates it.
    await save('d', null, { unableReason: 1, note: 'Κλειστή αυλόπορτα' });
    const finalized = await post('/api/readouts/finalize', { routeId, ...P1 });
    expect(finalized.statusCode, finalized.body).toBe(200);
    // D has no history at all: nothing to estimate from, so it is flagged, not skipped.
    expect(finalized.json()).toEqual({ estimated: 0, noEstimate: 1 });
    const body = (await sheet()).json();
    expect(body.period).toMatchObject({ state: 9, defuser: 'admin' });
    const review = (await get(`/api/readouts/review?routeId=${routeId}&year=2026&period=1`)).json();
    const flagged = review.find((i: { consumerId: number }) => i.consumerId === ids.d);
    expect(flagged).toMatchObject({ reading: null, consumption: null, flags: ['no_estimate'], review: 0 });
    expect(await withoutEstimate(t.database.db, 1, P1, { routeIds: [routeId] })).toEqual([
      { consumerId: ids.d, code: expect.any(String) },
    ]);
    // Billing has nothing to bill for it, and the other company sees none of it.
    const billing = await consumptionFor(t.database.db, 1, P1, { consumerIds: [ids.d ?? 0] });
    expect(billing).toMatchObject([{ consumption: null, currentReading: null, estimated: false }]);
    expect(await withoutEstimate(t.database.db, other, P1, { routeIds: [routeId] })).toEqual([]);
    expect((await save('a', 140)).statusCode).toBe(409);
    const row = body.rows.find((r: { consumerId: number }) => r.consumerId === ids.a);
    const corrected = await post(`/api/readouts/readings/${row.reading.id}/review`, {
      action: 'correct',
      reading: 135,
    });
    expect(corrected.statusCode, corrected.body).toBe(204);
    const history = (await get(`/api/readouts/consumers/${ids.a}/history`)).json();
    expect(history.map((h: { reading: number; superseded: boolean }) => [h.reading, h.superseded])).toEqual([
      [135, false],
      [130, true],
    ]);
    // The reader went back: the correction gives D its reading (reverse meter from 800) and clears the flag.
    const read = await post(`/api/readouts/readings/${flagged.readingId}/review`, {
      action: 'correct',
      reading: 790,
    });
    expect(read.statusCode, read.body).toBe(204);
    const after = (await get(`/api/readouts/review?routeId=${routeId}&year=2026&period=1`)).json();
    expect(after.some((i: { consumerId: number }) => i.consumerId === ids.d)).toBe(false);
    expect(await withoutEstimate(t.database.db, 1, P1, { routeIds: [routeId] })).toEqual([]);
    const d1 = await consumptionFor(t.database.db, 1, P1, { consumerIds: [ids.d ?? 0] });
    expect(d1).toMatchObject([{ consumption: 10, basis: 'reverse', currentReading: 790 }]);
  });

  it('estimates from the daily average at the close of period 2; the next actual reading corrects it', async () => {
    // Period 2: everyone read but A; A used 35 m³ in 120 days of period 1 → 35/120 × 123 days.
    for (const [c, r] of [
      ['b', 40],
      ['c', 520],
      ['d', 750],
      ['e', 110],
    ] as const)
      expect((await save(c, r, {}, P2)).statusCode).toBe(200);
    const review = (await get(`/api/readouts/review?routeId=${routeId}&year=2026&period=2`)).json();
    for (const item of review)
      await post(`/api/readouts/readings/${item.readingId}/review`, { action: 'accept' });
    const closed = await post('/api/readouts/finalize', { routeId, ...P2 });
    expect(closed.json()).toEqual({ estimated: 1, noEstimate: 0 });
    const a2 = (await sheet(P2)).json().rows[0].reading;
    expect(a2).toMatchObject({ estimated: true, consumption: 36, reading: 171 });
    // Period 3: the actual reading 160 is 11 below the estimate: billing gives it back.
    const p3 = { year: 2026, period: 3 };
    // A's average counts only what was read (35 m³ in period 1), never the estimate of period 2.
    expect((await sheet(p3)).json().rows[0]).toMatchObject({ previousReading: 171, average: 35 });
    const actual = await save('a', 160, {}, p3);
    expect(actual.statusCode, actual.body).toBe(200);
    expect(actual.json().reading).toMatchObject({ consumption: -11, basis: 'correction' });
    const billing = await consumptionFor(t.database.db, 1, p3, { routeIds: [routeId] });
    expect(billing).toEqual([
      expect.objectContaining({
        consumerId: ids.a,
        previousReading: 171,
        currentReading: 160,
        consumption: -11,
        estimated: false,
        correctionOf: { readingId: a2.id, estimatedConsumption: 36 },
        periodState: 1,
      }),
    ]);
    const p2 = await consumptionFor(t.database.db, 1, P2, { consumerIds: [ids.a ?? 0, ids.d ?? 0] });
    expect(p2.map((r) => [r.consumption, r.estimated, r.periodState])).toEqual([
      [36, true, 9],
      [40, false, 9],
    ]);
  });

  it('uses the swap’s readings when the meter was replaced since the last readout', async () => {
    const swap = await post(`/api/protocol/consumers/${ids.e}/transactions`, {
      kind: 15,
      date: '2026-09-10',
      reading: 118,
      newMeter: {
        serialNumber: 'R-5B',
        meterTypeId: null,
        kind: 1,
        direction: 1,
        diameter: 'DN15',
        digits: 5,
        initialReading: 2,
      },
    });
    expect(swap.statusCode, swap.body).toBe(200);
    // (118 − 110) on the old meter + (7 − 2) on the new one; 7 is far below 110: the swap explains it.
    const saved = await save('e', 7, {}, { year: 2026, period: 3 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ serialNumber: 'R-5B', swap: { oldPrevious: 110, oldFinal: 118 } });
    expect(saved.json().reading).toMatchObject({ consumption: 13, basis: 'swap' });
  });

  it('takes the thresholds from the general settings', async () => {
    await putGeneralSetting(t.database.db, 1, 'readouts.max_consumption', '10', 'test');
    const p3 = { year: 2026, period: 3 };
    // B read 40 in period 2: 55 more is above the company's 10 m³.
    const saved = await save('b', 95, {}, p3);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().reading).toMatchObject({ consumption: 55, flags: ['too_large'] });
    const sheetP3 = (await sheet(p3)).json();
    expect(sheetP3.thresholds).toEqual({ multiple: 3, maxConsumption: 10 });
    // A fourth four-month period does not exist.
    const none = await save('b', 96, {}, { year: 2026, period: 4 });
    expect(none.json().fieldErrors[0]).toMatchObject({
      field: 'period',
      key: 'readouts.no_such_period',
      params: { periods: 3 },
    });
    const refused = await post('/api/general_settings', [
      { id: null, parName: 'readouts.abnormal_multiple', parValue: '1' },
    ]);
    expect(refused.statusCode).toBe(400);
  });

  it('keeps to the company and the permissions', async () => {
    const foreign = await get(`/api/readouts/sheet?routeId=${routeId}&year=2026&period=1&companyid=${other}`);
    expect(foreign.statusCode).toBe(404);
    expect((await get(`/api/readouts/consumers/${ids.a}/history?companyid=${other}`)).statusCode).toBe(404);
    expect(
      (await createOperator(t, admin, { username: 'reader1', firstname: 'Νίκος', lastname: 'Μετρητής' }))
        .statusCode,
    ).toBe(201);
    await grant(t, 'reader1', ['readouts:read']);
    const reader = await t.login('reader1', OPERATOR_PASSWORD);
    expect((await get(`/api/readouts/sheet?routeId=${routeId}&year=2026&period=1`, reader)).statusCode).toBe(
      200,
    );
    const refused = await post(
      '/api/readouts/readings',
      { routeId, ...P1, consumerId: ids.a, reading: 1, readOn: '2026-04-01' },
      reader,
    );
    expect(refused.statusCode).toBe(403);
    await grant(t, 'reader1', ['readouts:write']);
    const reader2 = await t.login('reader1', OPERATOR_PASSWORD);
    expect(
      (await post('/api/readouts/finalize', { routeId, year: 2026, period: 4 }, reader2)).statusCode,
    ).toBe(403);
  });

  it('names a period by the periodicity row in force that year, when the company changed its periodicity', async () => {
    // The demo company's four-month row, and (inserted after it) two-month periods from 2027 on.
    await t.database.db
      .insert(periodicities)
      .values({ companyId: 1, periodicityType: 2, periods: 6, startyear: 2027, startperiod: 1 });
    const period = async (year: number, p: number) =>
      (await get(`/api/readouts/sheet?routeId=${routeId}&year=${year}&period=${p}`)).json().period;
    expect(await period(2027, 5)).toMatchObject({
      months: 2,
      name: 'Ε΄ δίμηνο 2027',
      fromDate: '2027-09-01',
      toDate: '2027-10-31',
    });
    expect(await period(2026, 3)).toMatchObject({ months: 4, name: 'Γ΄ τετράμηνο 2026' });
    // A period stored under the old periodicity keeps its months.
    expect(await period(2026, 1)).toMatchObject({ months: 4, state: 9 });
  });
});
