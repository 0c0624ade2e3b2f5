import { moneyString, sum } from '@protocol/contracts';
import type { FastifyInstance } from 'fastify';
import { seedDemoOffice } from './demo-office.ts';
import { DEMO_OPERATORS } from './demo-operators.ts';

/**
 * The demo company's water service in use (SEED_DEMO_WATER): consumers with meters and the readings of
 * the first two four-month periods of 2026, billed by two billing runs and finalized, a few payments at
 * the cashier (one of them a prepayment, which pays the consumer's bills when they are raised) and one
 * settlement in six instalments. All of it goes through the HTTP API as the demo water clerk would do
 * it, once the server listens (main.ts; the runs are background jobs), so the server is up meanwhile.
 * The same every time (the payments carry the date of the first start); each step first looks whether
 * it is done, so a restart finishes what a stop interrupted and otherwise changes nothing. The
 * office's demo (demo-office.ts: cases, leak reports, finance documents) follows it.
 */

/** The consumer of the README's demo section: the public balance lookup answers for it. */
export const DEMO_BALANCE_LOOKUP = { code: '01-001-101', vatNumber: '800123456' } as const;

interface DemoConsumer {
  route: [sector: string, route: string];
  /** The route's name in the water demo's parametrics (route codes repeat across sectors). */
  routeName: string;
  number: string;
  owner: { lastname: string; firstname: string; vatnumber?: string };
  address: string;
  usage: 'OIK' | 'EPA';
  /** The meter's reading at the end of each period (installed at 1000 on 1 December 2025). */
  readings: [number, number];
}

const CONSUMERS: DemoConsumer[] = [
  {
    route: ['01', '001'],
    routeName: 'Πλατεία – Ελευθερίου Βενιζέλου',
    number: '101',
    owner: { lastname: 'Παπαδάκης', firstname: 'Νικόλαος', vatnumber: DEMO_BALANCE_LOOKUP.vatNumber },
    address: 'Ελευθερίου Βενιζέλου 14, Αγία Ελένη',
    usage: 'OIK',
    readings: [1032, 1061],
  },
  {
    route: ['01', '001'],
    routeName: 'Πλατεία – Ελευθερίου Βενιζέλου',
    number: '102',
    owner: { lastname: 'Κωνσταντίνου', firstname: 'Αικατερίνη', vatnumber: '123456783' },
    address: 'Πλατεία Ηρώων 3, Αγία Ελένη',
    usage: 'OIK',
    readings: [1024, 1052],
  },
  {
    route: ['01', '001'],
    routeName: 'Πλατεία – Ελευθερίου Βενιζέλου',
    number: '103',
    owner: { lastname: 'Δημητρίου', firstname: 'Ευάγγελος' },
    address: 'Ελευθερίου Βενιζέλου 27, Αγία Ελένη',
    usage: 'OIK',
    readings: [1018, 1041],
  },
  {
    route: ['01', '002'],
    routeName: 'Αγοράς – Εθνικής Αντιστάσεως',
    number: '104',
    owner: { lastname: 'Αθανασίου', firstname: 'Σταυρούλα' },
    address: 'Αγοράς 8, Αγία Ελένη',
    usage: 'OIK',
    readings: [1045, 1083],
  },
  {
    route: ['01', '002'],
    routeName: 'Αγοράς – Εθνικής Αντιστάσεως',
    number: '105',
    owner: { lastname: 'Ιωάννου', firstname: 'Θεόδωρος', vatnumber: '055501239' },
    address: 'Εθνικής Αντιστάσεως 41, Αγία Ελένη',
    usage: 'EPA',
    readings: [1160, 1350],
  },
  {
    route: ['02', '001'],
    routeName: 'Νεάπολη',
    number: '106',
    owner: { lastname: 'Μιχαηλίδου', firstname: 'Ελένη' },
    address: 'Νεάπολη, οδός Ειρήνης 5',
    usage: 'OIK',
    readings: [1027, 1050],
  },
];

/** What the cashier takes, by consumer number: a payment of all that is due, a part, a prepayment. */
interface DemoPayment {
  number: string;
  method: 'cash' | 'card' | 'cheque';
  amount: 'due' | string;
  kind?: 3;
}
const PAYMENTS: DemoPayment[] = [
  { number: '102', method: 'cash', amount: 'due' },
  { number: '103', method: 'card', amount: '20.00' },
  { number: '106', method: 'cash', amount: '30.00', kind: 3 },
];

// biome-ignore lint/suspicious/noExplicitAny: answers read field by field
type Json = any;

/** One HTTP request to the server: `app.inject` in the server, `fetch` from outside (the e2e tests). */
export type Send = (request: {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}) => Promise<{ status: number; body: Json }>;

export const injectInto =
  (app: FastifyInstance): Send =>
  async ({ method, url, payload, headers }) => {
    const response = await app.inject({ method, url, headers, payload: payload as Json });
    return { status: response.statusCode, body: response.body ? response.json() : null };
  };

export async function seedDemoWaterService(send: Send): Promise<void> {
  const clerk = DEMO_OPERATORS[1];
  const login = await send({
    method: 'POST',
    url: '/api/account/login',
    payload: { username: clerk.username, password: clerk.password },
  });
  // Not the demo installation (or its clerk was changed): nothing to do.
  if (login.status !== 200) return;
  const headers = { authorization: `Bearer ${login.body.jwttoken}` };
  const call: Call = async (method, url, payload, expected = [200, 201, 202]) => {
    const response = await send({ method, url: `/api${url}`, payload, headers });
    if (!expected.includes(response.status))
      throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const ids = await ensureConsumers(call);
  if (!ids) return;
  // The prepayment before the bills: raised, they are paid from it.
  await pay(call, ids, (p) => p.kind !== undefined);
  await bill(call);
  await pay(call, ids, (p) => p.kind === undefined);
  await settle(call, ids);
  // The office's side of the demo: case folders, leak reports, the accountant's documents.
  await seedDemoOffice(send);
}

type Call = (method: 'GET' | 'POST', url: string, payload?: unknown, expected?: number[]) => Promise<Json>;
const codeOf = (c: DemoConsumer) => `${c.route[0]}-${c.route[1]}-${c.number.padStart(5, ' ')}`;
const idOf = (rows: { id: number; code: string }[], code: string) => rows.find((r) => r.code === code)?.id;

/**
 * The consumers with their owners, meters and readings; answers consumer id by number, or null when
 * the company has consumers of its own (a demo installation put to real use): then nothing is added.
 */
async function ensureConsumers(call: Call): Promise<Map<string, number> | null> {
  const existing = (await call('GET', '/protocol/consumers/search?size=-1')).content as Json[];
  const demoCodes = new Set(CONSUMERS.map(codeOf));
  if (existing.some((e) => !demoCodes.has(e.code))) return null;
  const usages = await call('GET', '/water/parametrics/propertyUsages');
  const sewerage = await call('GET', '/water/parametrics/sewerageIndicators');
  const [policy] = await call('GET', '/water/invoice_policies');
  const routes = (await call('GET', '/readouts/routes')) as { id: number; description: string }[];
  const ids = new Map<string, number>();
  for (const c of CONSUMERS) {
    let id = existing.find((e) => e.code === codeOf(c))?.id as number | undefined;
    if (!id) {
      const owner = await call('POST', '/traders', {
        individual: true,
        ...c.owner,
        traderbanks: [],
        customFields: {},
      });
      const consumer = await call('POST', '/protocol/consumers', {
        parts: [...c.route, c.number],
        ownerId: owner.id,
        supplyAddress: c.address,
        status: 1,
        propertyUsageId: idOf(usages, c.usage),
        sewerageIndicatorId: idOf(sewerage, 'SYN'),
        invoicePolicyId: policy.id,
      });
      id = consumer.id as number;
    }
    ids.set(c.number, id);
    const meters = (await call('GET', `/protocol/consumers/${id}/meters`)) as Json[];
    if (meters.length === 0) {
      await call('POST', `/protocol/consumers/${id}/meters`, {
        date: '2025-12-01',
        meter: {
          serialNumber: `ZN-26${c.number}`,
          meterTypeId: null,
          kind: 1,
          direction: 1,
          diameter: 'DN15',
          digits: 5,
          initialReading: 1000,
        },
      });
    }
    const route = routes.find((r) => r.description === c.routeName);
    for (const [i, reading] of c.readings.entries()) {
      // Saving the same reading again changes nothing.
      await call('POST', '/readouts/readings', {
        routeId: route?.id,
        year: 2026,
        period: i + 1,
        consumerId: id,
        reading,
        readOn: i === 0 ? '2026-04-22' : '2026-08-24',
      });
    }
  }
  return ids;
}

/** The billing runs of the two periods, each finalized (background jobs, waited for). */
async function bill(call: Call): Promise<void> {
  for (const [period, issueDate] of [
    [1, '2026-05-11'],
    [2, '2026-09-10'],
  ] as const) {
    const runs = (await call('GET', '/billing/runs')) as Json[];
    let run = runs.find((r) => r.year === 2026 && r.period === period);
    if (!run) run = await call('POST', '/billing/runs', { year: 2026, period, scope: 'all', issueDate });
    run = await until(call, `/billing/runs/${run.id}`, (r) => r.state === 'done' || r.state === 'failed');
    if (run.open === 0) continue;
    const finalizing = await call('POST', `/billing/runs/${run.id}/finalize`, {}, [202, 409]);
    if (finalizing?.jobId)
      await until(call, `/jobs/${finalizing.jobId}`, (j) => ['succeeded', 'failed'].includes(j.state));
  }
}

async function until(call: Call, url: string, ok: (row: Json) => boolean): Promise<Json> {
  for (let i = 0; i < 600; i++) {
    const row = await call('GET', url);
    if (ok(row)) return row;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url}: still not done`);
}

async function pay(call: Call, ids: Map<string, number>, which: (p: DemoPayment) => boolean): Promise<void> {
  for (const p of PAYMENTS.filter(which)) {
    const consumerId = ids.get(p.number);
    const account = await call('GET', `/payments/accounts/${consumerId}`);
    if ((account.entries as Json[]).some((e) => e.type === 'payment' || e.type === 'prepayment')) continue;
    await call('POST', '/payments/payments', {
      consumerId,
      method: p.method,
      amount: p.amount === 'due' ? account.due : p.amount,
      prepaymentKind: p.kind ?? null,
    });
  }
}

/** The business consumer's two bills in a settlement of the 12-instalment category: 10% down, six instalments. */
async function settle(call: Call, ids: Map<string, number>): Promise<void> {
  const consumerId = ids.get('105');
  if (((await call('GET', `/settlements/consumers/${consumerId}`)) as Json[]).length > 0) return;
  const debts = (await call('GET', `/settlements/consumers/${consumerId}/debts`)) as Json[];
  const category = ((await call('GET', '/settlements/categories')) as Json[]).find((c) => c.code === '12');
  await call('POST', '/settlements', {
    consumerId,
    categoryId: category.id,
    debtIds: debts.map((d) => d.id),
    discountPercent: '0',
    // 10% of what is owed, rounded up to the euro.
    downPayment: moneyString(
      sum(debts.map((d) => d.remaining as string))
        .div(10)
        .ceil(),
    ),
    instalments: 6,
    comments: null,
  });
}
