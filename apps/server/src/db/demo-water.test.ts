import { loadavg } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp, waitForJob } from '../test/harness.ts';
import { DEMO_BALANCE_LOOKUP, injectInto, seedDemoWaterService } from './demo-water.ts';

/**
 * The demo company's water service as `npm start` fills it in (main.ts, SEED_DEMO_WATER): through the
 * API on a listening server (the billing runs are jobs), what the cashier, the account, the public
 * lookup and the settlements find, and a second fill changing nothing.
 */
let t: TestApp;
let admin: { authorization: string };
// biome-ignore lint/suspicious/noExplicitAny: answers read field by field
type Json = any;
const get = async (url: string) => {
  const response = await t.app.inject({ method: 'GET', url, headers: admin });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json() as Json;
};

let seconds = 0;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const started = performance.now();
  await seedDemoWaterService(injectInto(t.app));
  seconds = (performance.now() - started) / 1000;
  console.log(
    `demo water service filled in ${seconds.toFixed(1)} s (load ${loadavg().map((l) => l.toFixed(2))})`,
  );
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const consumers = async () =>
  ((await get('/api/protocol/consumers/search?size=-1&sort=code,ASC')).content as Json[]).map((c) => ({
    id: c.id as number,
    code: (c.code as string).replace(/\s/g, ''),
  }));
const idOf = async (code: string) => (await consumers()).find((c) => c.code === code)?.id;
/** Everything the fill writes, to compare after a second one. */
const snapshot = async () => {
  const all = await consumers();
  const accounts = [];
  for (const c of all) accounts.push((await get(`/api/payments/accounts/${c.id}`)).entries);
  return {
    consumers: all,
    accounts,
    runs: (await get('/api/billing/runs')).map((r: Json) => [r.period, r.bills, r.open]),
    settlements: (await get('/api/settlements/search?size=-1')).content.map((s: Json) => s.number),
  };
};

describe('the demo water service', () => {
  it('bills six consumers in two finalized runs', async () => {
    expect((await consumers()).map((c) => c.code)).toEqual([
      '01-001-101',
      '01-001-102',
      '01-001-103',
      '01-002-104',
      '01-002-105',
      '02-001-106',
    ]);
    const runs = await get('/api/billing/runs');
    expect(runs.map((r: Json) => [r.year, r.period, r.state, r.bills, r.open])).toEqual([
      [2026, 2, 'done', 6, 0],
      [2026, 1, 'done', 6, 0],
    ]);
  });

  it('gives the cashier and the accounts paid, partly paid and prepaid consumers', async () => {
    const paid = await get(`/api/payments/accounts/${await idOf('01-001-102')}`);
    expect([paid.due, paid.balance]).toEqual(['0.00', '0.00']);
    expect(paid.entries.map((e: Json) => e.type)).toEqual(['bill', 'bill', 'payment']);
    const part = await get(`/api/payments/accounts/${await idOf('01-001-103')}`);
    expect(part.debts[0].paid).toBe('20.00');
    const prepaid = await get(`/api/payments/accounts/${await idOf('02-001-106')}`);
    const applied = prepaid.entries.filter((e: Json) => e.type === 'creditApplied');
    expect(applied.map((e: Json) => e.credit)).toEqual(['30.00']);
    expect(prepaid.debts[0].paid).toBe('30.00');
    const found = await get(`/api/payments/debts?q=${encodeURIComponent('Παπαδάκης')}`);
    expect(found.map((c: Json) => [c.consumer.code.replace(/\s/g, ''), c.debts.length])).toEqual([
      ['01-001-101', 2],
    ]);
  });

  it('answers the public balance lookup for the README’s consumer', async () => {
    const found = await t.app.inject({
      method: 'POST',
      url: '/api/public/balance',
      payload: DEMO_BALANCE_LOOKUP,
    });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().bills).toHaveLength(2);
  });

  it('has a pending settlement of the business consumer’s two bills in six instalments', async () => {
    const consumerId = await idOf('01-002-105');
    const [listed] = await get(`/api/settlements/consumers/${consumerId}`);
    const settlement = await get(`/api/settlements/${listed.id}`);
    expect(settlement.status).toBe(0);
    expect(settlement.lines.filter((l: Json) => l.number > 0)).toHaveLength(6);
    expect((await get(`/api/payments/accounts/${consumerId}`)).debts.length).toBe(7);
  });

  it('issue 29 item 18: the accountant sends a demo bill to myDATA; the local stand-in for AADE gives it a MARK', async () => {
    const accountant = await t.login('eantoniou', 'Demo-2026!');
    const as = async (method: 'GET' | 'POST', url: string, payload?: Json) =>
      t.app.inject({
        method,
        url: `${url}${url.includes('?') ? '&' : '?'}companyid=${companyId}`,
        headers: accountant,
        payload,
      });
    const companyId = (await get('/api/companies'))[0].id;
    const listed = (await as('GET', '/api/mydata/documents/search?size=-1')).json().content as Json[];
    const bill = listed.find((d) => d.source === 'bill' && d.state === 'notSent');
    expect(bill, JSON.stringify(listed.slice(0, 2))).toBeDefined();
    const queued = await as('POST', '/api/mydata/transmissions', { billId: bill.id });
    expect(queued.statusCode, queued.body).toBe(202);
    const job = await waitForJob(t, accountant, queued.json().jobId);
    expect(job.state, JSON.stringify(job)).toBe('succeeded');
    const sent = (await as('GET', `/api/mydata/bills/${bill.id}`)).json();
    expect(sent.errors).toEqual([]);
    expect(sent.state).toBe('sent');
    expect(sent.mark).toMatch(/^\d+$/);
    // AADE's QR address is the local stand-in's own, on loopback: the bill never left the machine.
    expect(sent.qrUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });

  it('changes nothing when filled in again (a restart)', async () => {
    const before = await snapshot();
    await seedDemoWaterService(injectInto(t.app));
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});
