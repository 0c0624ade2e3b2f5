import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit.schema.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { createCompany } from '../companies/api.ts';

/** Meters and the lifecycle transactions of a consumer (issue 15), on the demo company. */
let t: TestApp;
let admin: { authorization: string };
let consumer: number;
let other: number;

type Json = Record<string, unknown>;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
const post = (url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: admin, payload: payload as Json });

const meter = (serialNumber: string, initialReading = 0) => ({
  serialNumber,
  meterTypeId: null,
  kind: 1,
  direction: 1,
  diameter: 'DN15',
  digits: 5,
  initialReading,
});
const transaction = (payload: Json) => post(`/api/protocol/consumers/${consumer}/transactions`, payload);

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  const owner = await post('/api/traders', { individual: true, lastname: 'Αθανασίου', firstname: 'Μαρία' });
  const created = await post('/api/protocol/consumers', {
    parts: ['01', '001', ''],
    ownerId: owner.json().id,
    supplyAddress: 'Αγοράς 5',
    status: 1,
  });
  expect(created.statusCode).toBe(400);
  const made = await post('/api/protocol/consumers', {
    parts: ['01', '001', '10'],
    ownerId: owner.json().id,
    supplyAddress: 'Αγοράς 5',
    status: 1,
  });
  consumer = made.json().id;
  other = (await createCompany(t.database.db, { companyname: 'ΔΕΥΑ Γ', companytitle: 'ΔΕΥΑ Γ' }, 'test')).id;
});
afterAll(async () => {
  await t?.close();
});

describe('meters and lifecycle transactions', () => {
  it('installs the first meter, and refuses a second one while it is on', async () => {
    const installed = await post(`/api/protocol/consumers/${consumer}/meters`, {
      date: '2026-01-10',
      meter: meter('ZN-1001', 120),
    });
    expect(installed.statusCode, installed.body).toBe(200);
    expect(installed.json()).toEqual([
      expect.objectContaining({
        serialNumber: 'ZN-1001',
        installedOn: '2026-01-10',
        initialReading: 120,
        removedOn: null,
        lastReading: 120,
      }),
    ]);
    const again = await post(`/api/protocol/consumers/${consumer}/meters`, {
      date: '2026-01-11',
      meter: meter('ZN-1002'),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('error.meter_already_installed');
  });

  it('a misc transaction with a reading and an extra charge: the charge is a kind 5 row for billing', async () => {
    const response = await transaction({
      kind: 99,
      date: '2026-02-01',
      reading: 150,
      comments: 'Έλεγχος διαρροής',
      extraCharge: { amount: '25.50', description: 'Επίσκεψη συνεργείου' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const [charge, misc] = response.json();
    expect(misc).toMatchObject({
      kind: 99,
      reading: 150,
      serialNumber: 'ZN-1001',
      comments: 'Έλεγχος διαρροής',
    });
    expect(charge).toMatchObject({ kind: 5, parentId: misc.id, amount: '25.50', billedOn: null });
  });

  it('refuses a reading lower than the previous one without a reason, dates out of order, a foreign consumer', async () => {
    const lower = await transaction({ kind: 99, date: '2026-02-10', reading: 140 });
    expect(lower.statusCode).toBe(400);
    expect(lower.json().fieldErrors[0]).toMatchObject({
      field: 'reading',
      key: 'validation.reading_lower',
      params: { previous: 150 },
    });
    expect(lower.json().message).toBe('Τα δεδομένα που δώσατε δεν είναι σωστά.');
    const early = await transaction({ kind: 99, date: '2026-01-15', reading: 160 });
    expect(early.json().fieldErrors[0]).toMatchObject({
      field: 'date',
      key: 'validation.date_before_previous',
    });
    const money = await transaction({
      kind: 99,
      date: '2026-02-10',
      extraCharge: { amount: '1.234', description: 'Χ' },
    });
    expect(money.json().fieldErrors[0]).toMatchObject({
      field: 'extraCharge.amount',
      key: 'validation.amount',
    });
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/protocol/consumers/${consumer}/transactions?companyid=${other}`,
      headers: admin,
      payload: { kind: 99, date: '2026-02-10' },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('stops and reconnects the supply, refusing a second stop', async () => {
    expect((await transaction({ kind: 11, date: '2026-03-01', reading: 170 })).statusCode).toBe(200);
    expect((await get(`/api/protocol/consumers/${consumer}`)).json().disconnectionDate).toBe('2026-03-01');
    const twice = await transaction({ kind: 11, date: '2026-03-02' });
    expect(twice.json().fieldErrors[0]).toMatchObject({ field: 'kind', key: 'validation.already_stopped' });
    expect((await transaction({ kind: 12, date: '2026-03-20' })).statusCode).toBe(200);
    expect((await get(`/api/protocol/consumers/${consumer}`)).json().disconnectionDate).toBeNull();
  });

  it('swaps the meter: the old one’s final reading, the new one’s initial reading, consumption across the swap', async () => {
    const used = await transaction({
      kind: 15,
      date: '2026-04-01',
      reading: 190,
      newMeter: meter('ZN-1001', 0),
    });
    expect(used.json().fieldErrors[0]).toMatchObject({
      field: 'newMeter.serialNumber',
      key: 'validation.meter_serial_taken',
    });
    const swap = await transaction({
      kind: 15,
      date: '2026-04-01',
      reading: 190,
      newMeter: meter('KM-2002', 3),
      comments: 'Θολή οθόνη',
    });
    expect(swap.statusCode, swap.body).toBe(200);
    // (190 − 170) on the old meter + (3 − 3) on the new one.
    expect(swap.json()[0]).toMatchObject({
      kind: 15,
      reading: 190,
      serialNumber: 'ZN-1001',
      newSerialNumber: 'KM-2002',
      newReading: 3,
      swapConsumption: 20,
    });
    const meters = (await get(`/api/protocol/consumers/${consumer}/meters`)).json();
    expect(meters).toEqual([
      expect.objectContaining({
        serialNumber: 'KM-2002',
        installedOn: '2026-04-01',
        initialReading: 3,
        removedOn: null,
      }),
      expect.objectContaining({
        serialNumber: 'ZN-1001',
        removedOn: '2026-04-01',
        finalReading: 190,
        lastReading: 190,
      }),
    ]);
    // A later reading of the new meter counts from its initial reading, so the swap adds up.
    expect((await transaction({ kind: 99, date: '2026-05-01', reading: 11 })).statusCode).toBe(200);
    const timeline = (await get(`/api/protocol/consumers/${consumer}/transactions`)).json();
    expect(timeline.find((x: { kind: number }) => x.kind === 15).swapConsumption).toBe(28);
  });

  it('pulls the meter off with its final reading; afterwards a reading has no meter', async () => {
    const off = await transaction({ kind: 13, date: '2026-06-01', reading: 20 });
    expect(off.statusCode, off.body).toBe(200);
    const meters = (await get(`/api/protocol/consumers/${consumer}/meters`)).json();
    expect(meters[0]).toMatchObject({ serialNumber: 'KM-2002', removedOn: '2026-06-01', finalReading: 20 });
    const none = await transaction({ kind: 99, date: '2026-06-02', reading: 21 });
    expect(none.json().fieldErrors[0]).toMatchObject({ field: 'reading', key: 'validation.no_meter' });
    const swapNone = await transaction({ kind: 15, date: '2026-06-02', reading: 1, newMeter: meter('X-1') });
    expect(swapNone.json().fieldErrors[0]).toMatchObject({ field: 'kind', key: 'validation.no_meter' });
  });

  it('writes every change to the audit trail of the consumer', async () => {
    const lines = await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'consumer'), eq(auditLog.entityId, String(consumer))))
      .orderBy(auditLog.id);
    expect(lines.map((l) => l.action)).toEqual([
      'create',
      'meter_install',
      'transaction_99',
      'transaction_11',
      'transaction_12',
      'transaction_15',
      'transaction_99',
      'transaction_13',
    ]);
  });
});
