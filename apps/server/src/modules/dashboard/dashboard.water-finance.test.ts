import type { Dashboard } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { billingRuns } from '../billing/billing.schema.ts';
import { addUserToCompany, createCompany } from '../companies/api.ts';
import { financeDocuments, financeSeries } from '../finance/finance.schema.ts';
import { paymentsDebts } from '../payments/payments.schema.ts';
import { readoutReadings, readoutRoutePeriods } from '../readouts/readouts.schema.ts';
import { periodicities } from '../settings/settings-tables.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { createUser } from '../users/api.ts';
import { userGroupMembers, userGroupPermissions, userGroups } from '../users/groups.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { waterMeterInstallations, waterMeters } from '../water/meters.schema.ts';
import { waterRoutes, waterSectors } from '../water/parametrics.schema.ts';

/*
 * The water and finance cards (issue 32 item 8) on hand-made data of a fresh company, at a fixed
 * instant: 2026-11-24 22:30 UTC is Wednesday 25/11 in Athens, in the third four-month period.
 */
const NOW = new Date('2026-11-24T22:30:00Z');
const PASSWORD = 'Dashboard-2026';
const WHO = {
  // The water clerk and accountant in one: every area the two cards read.
  all: ['consumers:read', 'payments:read', 'billing:read', 'readouts:read', 'finance:read'],
  consumers: ['consumers:read'],
  protocol: ['protocol:write'],
} as const;
type Who = keyof typeof WHO;

let t: TestApp;
let companyE: number;
let companyF: number;
const auth = {} as Record<Who, { authorization: string }>;

async function dashboard(who: Who, companyId = companyE): Promise<Dashboard> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/dashboard?companyid=${companyId}`,
    headers: auth[who],
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  t = await startTestApp();
  await t.database.db.transaction(async (tx) => {
    const e = await createCompany(tx, { companyname: 'ΔΕΥΑ Ε', companytitle: 'ΔΕΥΑ Ε' }, 'test');
    const f = await createCompany(tx, { companyname: 'ΔΕΥΑ Ζ', companytitle: 'ΔΕΥΑ Ζ' }, 'test');
    companyE = e.id;
    companyF = f.id;
    for (const [name, permissions] of Object.entries(WHO)) {
      const user = await createUser(
        tx,
        { username: `wf-${name}`, password: PASSWORD, firstname: name, lastname: 'Δοκιμή', kind: 2 },
        'test',
      );
      for (const companyId of [e.id, f.id]) {
        await addUserToCompany(tx, companyId, user.id);
        const [group] = await tx
          .insert(userGroups)
          .values({ companyId, name: `wf-${name}` })
          .returning();
        if (!group) throw new Error('no group');
        await tx
          .insert(userGroupPermissions)
          .values(permissions.map((permission) => ({ groupId: group.id, permission })));
        await tx.insert(userGroupMembers).values({ groupId: group.id, userId: user.id });
      }
    }

    // Four months a period since 2020; a change to two months from 2027 is not in force yet.
    await tx.insert(periodicities).values([
      { companyId: e.id, periodicityType: 4, periods: 3, startyear: 2020, startperiod: 1 },
      { companyId: e.id, periodicityType: 2, periods: 6, startyear: 2027, startperiod: 1 },
    ]);
    const companyRows = async (companyId: number) => {
      const [sector] = await tx
        .insert(waterSectors)
        .values({ companyId, code: '01', description: 'Κέντρο' })
        .returning();
      const routes = await tx
        .insert(waterRoutes)
        .values([
          { companyId, sectorId: sector?.id ?? 0, code: '001', description: 'Α' },
          { companyId, sectorId: sector?.id ?? 0, code: '002', description: 'Β' },
        ])
        .returning();
      const [owner] = await tx
        .insert(traders)
        .values({ companyId, fullname: 'Ιδιοκτήτης', individual: true })
        .returning();
      return { routes: routes.map((r) => r.id), owner: owner?.id ?? 0 };
    };
    const {
      routes: [r1 = 0, r2 = 0],
      owner,
    } = await companyRows(e.id);
    const consumer = async (
      companyId: number,
      code: string,
      routeId: number | null,
      status: number,
      meter: 'on' | 'removed' | 'none' = 'on',
    ) => {
      const [row] = await tx
        .insert(waterConsumers)
        .values({ companyId, code, routeId, status, ownerId: owner, supplyAddress: code })
        .returning();
      const id = row?.id ?? 0;
      if (meter !== 'none') {
        const [m] = await tx
          .insert(waterMeters)
          .values({ companyId, serialNumber: `M-${code}`, kind: 1, digits: 5 })
          .returning();
        await tx.insert(waterMeterInstallations).values({
          companyId,
          consumerId: id,
          meterId: m?.id ?? 0,
          installedOn: '2025-01-01',
          initialReading: 0,
          removedOn: meter === 'removed' ? '2026-10-01' : null,
        });
      }
      return id;
    };
    const c1 = await consumer(e.id, 'c1', r1, 1); // read in the current period
    const c2 = await consumer(e.id, 'c2', r1, 1); // read only in the previous period: left
    const c3 = await consumer(e.id, 'c3', r2, 1); // its current-period reading was superseded: left
    await consumer(e.id, 'c4', r2, 1, 'removed'); // no meter on: nothing to read
    await consumer(e.id, 'c5', r1, 0); // pending: neither counted nor to read
    await consumer(e.id, 'c6', null, 1); // on no route: counted, not on any sheet
    const periods = await tx
      .insert(readoutRoutePeriods)
      .values([
        {
          companyId: e.id,
          routeId: r1,
          year: 2026,
          period: 3,
          months: 4,
          fromDate: '2026-09-01',
          toDate: '2026-12-31',
        },
        {
          companyId: e.id,
          routeId: r1,
          year: 2026,
          period: 2,
          months: 4,
          fromDate: '2026-05-01',
          toDate: '2026-08-31',
        },
        {
          companyId: e.id,
          routeId: r2,
          year: 2026,
          period: 3,
          months: 4,
          fromDate: '2026-09-01',
          toDate: '2026-12-31',
        },
      ])
      .returning();
    const [p13, p12, p23] = periods.map((p) => p.id) as [number, number, number];
    await tx.insert(readoutReadings).values([
      { companyId: e.id, routePeriodId: p13, consumerId: c1, reading: 40, readOn: '2026-11-20', source: 1 },
      { companyId: e.id, routePeriodId: p12, consumerId: c2, reading: 30, readOn: '2026-08-20', source: 1 },
      {
        companyId: e.id,
        routePeriodId: p23,
        consumerId: c3,
        reading: 20,
        readOn: '2026-11-02',
        source: 1,
        supersededAt: NOW,
      },
    ]);
    const debt = (companyId: number, consumerId: number, amount: string, paid: string, status = 'open') => ({
      companyId,
      consumerId,
      source: 'charge' as const,
      description: 'οφειλή',
      issueDate: '2026-09-10',
      dueDate: '2026-10-10',
      amount,
      paid,
      status: status as 'open',
    });
    await tx.insert(paymentsDebts).values([
      debt(e.id, c1, '100.00', '30.50'), // 69.50 left
      debt(e.id, c2, '45.25', '0'), // 45.25 left
      debt(e.id, c2, '20.00', '20.00'), // paid in full
      debt(e.id, c3, '50.00', '0', 'settled'),
    ]);
    await tx.insert(billingRuns).values([
      {
        companyId: e.id,
        year: 2026,
        period: 2,
        scope: 'all',
        routeIds: [r1, r2],
        issueDate: '2026-09-10',
        state: 'done',
      },
      {
        companyId: e.id,
        year: 2026,
        period: 3,
        scope: 'routes',
        routeIds: [r1],
        issueDate: '2026-11-20',
        state: 'failed',
      },
    ]);

    const series = async (companyId: number, code: string, debitCredit: number, mydataType: string | null) =>
      (
        await tx
          .insert(financeSeries)
          .values({ companyId, code, descr: code, kind: 'x', debitCredit, mydataType })
          .returning()
      )[0]?.id ?? 0;
    const invoice = await series(e.id, 'ΤΠΥ', 1, '2.1');
    const credit = await series(e.id, 'ΠΤΕ', 2, '5.1');
    const delivery = await series(e.id, 'ΔΑ', 1, null);
    const doc = (
      seriesId: number,
      number: number | null,
      date: string,
      payable: string,
      companyId = companyE,
    ) => ({
      companyId,
      seriesId,
      number,
      year: number === null ? null : 2026,
      date,
      payable,
      entryState: number === null ? 0 : 9,
    });
    await tx.insert(financeDocuments).values([
      doc(invoice, 1, '2026-10-31', '1000.00'), // last month: unsent, not this month's
      doc(invoice, 2, '2026-11-02', '124.00'),
      doc(delivery, 1, '2026-11-03', '10.00'), // no myDATA type: never unsent
      doc(credit, 1, '2026-11-10', '24.80'), // counts against the total
      doc(invoice, 3, '2026-11-25', '62.00'),
      doc(invoice, null, '2026-11-20', '500.00'), // a draft
    ]);

    // Company F: the same kinds of rows, none of which may reach company E's cards.
    const other = await companyRows(f.id);
    const [foreign] = await tx
      .insert(waterConsumers)
      .values({
        companyId: f.id,
        code: 'f1',
        routeId: other.routes[0],
        status: 1,
        ownerId: other.owner,
        supplyAddress: 'f',
      })
      .returning();
    await tx.insert(paymentsDebts).values(debt(f.id, foreign?.id ?? 0, '999.00', '0'));
    await tx.insert(billingRuns).values({
      companyId: f.id,
      year: 2026,
      period: 3,
      scope: 'all',
      routeIds: [],
      issueDate: '2026-11-24',
      state: 'running',
    });
    const foreignSeries = await series(f.id, 'ΤΠΥ', 1, '2.1');
    await tx.insert(financeDocuments).values(doc(foreignSeries, 1, '2026-11-05', '77.00', f.id));
  });
  // Sessions are checked against the database's clock, which the fake one does not move on a real
  // PostgreSQL server: sign in on the real clock, then return to the fixed instant.
  vi.useRealTimers();
  for (const who of Object.keys(WHO) as Who[]) auth[who] = await t.login(`wf-${who}`, PASSWORD);
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
});

afterAll(async () => {
  vi.useRealTimers();
  await t?.close();
});

describe('the water and finance cards of GET /api/dashboard', () => {
  it('counts the water service of the company in use', async () => {
    const { cards } = await dashboard('all');
    expect(cards.waterSummary).toEqual({
      // c1, c2, c3, c4 and c6: the pending c5 is not yet a consumer in service.
      consumers: 5,
      // 100.00 − 30.50 + 45.25: the paid-in-full and the settled debts are not open.
      openDebts: { count: 2, total: '114.75' },
      lastRun: { id: expect.any(Number), year: 2026, period: 3, state: 'failed', issueDate: '2026-11-20' },
      // November is in the third four-month period; c2 and c3 are unread (c4 has no meter on).
      readouts: { year: 2026, period: 3, left: 2 },
    });
  });

  it("sums this month's finalized documents, a credit note against them, and counts the unsent", async () => {
    const { cards } = await dashboard('all');
    // 124.00 + 10.00 − 24.80 + 62.00; last month's invoice and the draft stay out.
    expect(cards.financeSummary).toEqual({ month: { count: 4, total: '171.20' }, unsent: 4 });
  });

  it("counts another company's data only there", async () => {
    const { cards } = await dashboard('all', companyF);
    expect(cards.waterSummary).toEqual({
      consumers: 1,
      openDebts: { count: 1, total: '999.00' },
      lastRun: expect.objectContaining({ state: 'running', issueDate: '2026-11-24' }),
      readouts: { year: 2026, period: 3, left: 0 },
    });
    expect(cards.financeSummary).toEqual({ month: { count: 1, total: '77.00' }, unsent: 1 });
  });

  it('shows of the water card only the areas the operator may see, and no card without its area', async () => {
    const consumersOnly = await dashboard('consumers');
    expect(consumersOnly.cards.waterSummary).toEqual({ consumers: 5 });
    expect(consumersOnly.cards.financeSummary).toBeUndefined();
    const protocol = await dashboard('protocol');
    expect(protocol.cards.waterSummary).toBeUndefined();
    expect(protocol.cards.financeSummary).toBeUndefined();
    expect(protocol.cards.chargedToMe).toBeDefined();
  });

  it('answers each card in one query', async () => {
    const before = t.queries.length;
    await dashboard('all');
    const cardQueries = t.queries
      .slice(before)
      .filter((q) => !/live_session|sessions|users|company_users|user_group/.test(q));
    // unreadNotifications, waterSummary and financeSummary: nothing of the protocol for this operator.
    expect(cardQueries).toHaveLength(3);
  });
});
