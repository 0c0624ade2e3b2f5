import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, companyInUseOf, startTestApp, type TestApp } from '../../test/harness.ts';
import { traders } from '../traders/traders.schema.ts';
import { financeSeries } from './finance.schema.ts';

/** Transformation (issue 19): the three modes, the preview, the links and the refusals. */
let t: TestApp;
let admin: { authorization: string };
let companyA: number;
const series: Record<string, number> = {};
const tradersOf: number[] = [];
let meterId: number;

type Json = Record<string, unknown>;
const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: admin,
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
const q = (url: string) => `${url}${url.includes('?') ? '&' : '?'}companyid=${companyA}`;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  companyA = await companyInUseOf(t, admin);
  for (const name of ['Α. Παπαδάκης', 'Β. Γεωργίου']) {
    const [row] = await t.database.db
      .insert(traders)
      .values({ companyId: companyA, fullname: name })
      .returning({ id: traders.id });
    tradersOf.push(row?.id ?? 0);
  }
  for (const row of await t.database.db
    .select()
    .from(financeSeries)
    .where(eq(financeSeries.companyId, companyA)))
    series[row.code] = row.id;
  meterId = (await inject('GET', q('/api/finance/items'))).json().find((i: Json) => i.code === 'ΥΔΡ-15').id;
});
afterAll(async () => {
  await t?.close();
});

/** A finalized delivery note of `quantity` meters at 32.00 + 24% for a trader. */
async function deliveryNote(traderId: number | undefined, quantity: string, date = '2026-06-01') {
  const created = await inject('POST', q('/api/finance/documents'), {
    seriesId: series.ΔΑ,
    date,
    traderId,
    paymentMethod: 5,
    status: 1,
    notes: null,
    lines: [
      {
        serviceId: null,
        itemId: meterId,
        warehouseId: null,
        descr: null,
        quantity,
        price: '32',
        discount: '0',
        vatPercent: '24',
      },
    ],
    taxes: [],
  });
  expect(created.statusCode, created.body).toBe(201);
  const finalized = await inject('POST', `/api/finance/documents/${created.json().id}/finalize`);
  expect(finalized.statusCode, finalized.body).toBe(200);
  return finalized.json().id as number;
}
const request = (mode: number, sourceIds: number[], targetSeriesId = series.ΤΔΑ) => ({
  mode,
  sourceIds,
  targetSeriesId,
  date: '2026-06-30',
});
const stock = async () => (await inject('GET', `/api/finance/items/${meterId}/stock`)).json()[0]?.quantity;

describe('transformation', () => {
  it("answers 'No available commercial documents' when there is nothing to transform", async () => {
    expect((await inject('GET', q('/api/finance/transformation/candidates'))).json()).toEqual([]);
    const refused = await inject('POST', q('/api/finance/transformation'), request(1, [999]));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('finance.error.noAvailableDocuments');
    expect(refused.json().message).toBe('Δεν υπάρχουν διαθέσιμα εμπορικά παραστατικά');
  });

  it('mode 2 turns two notes of one trader into one invoice, previewed first, moving no stock twice', async () => {
    const first = await deliveryNote(tradersOf[0], '2');
    const second = await deliveryNote(tradersOf[0], '3');
    expect(await stock()).toBe('-5.000');
    const candidates = (
      await inject('GET', q(`/api/finance/transformation/candidates?traderId=${tradersOf[0]}`))
    ).json();
    expect(candidates.map((c: Json) => c.id)).toEqual([first, second]);

    const preview = await inject(
      'POST',
      q('/api/finance/transformation/preview'),
      request(2, [first, second]),
    );
    expect(preview.json()).toMatchObject({
      ids: [],
      documents: [
        {
          traderId: tradersOf[0],
          sourceIds: [first, second],
          lines: 2,
          net: '160.00',
          vat: '38.40',
          payable: '198.40',
        },
      ],
    });
    expect((await inject('GET', q('/api/finance/transformation/candidates'))).json()).toHaveLength(2);

    const done = await inject('POST', q('/api/finance/transformation'), request(2, [first, second]));
    expect(done.statusCode, done.body).toBe(201);
    const [invoiceId] = done.json().ids;
    const invoice = (await inject('GET', `/api/finance/documents/${invoiceId}`)).json();
    expect(invoice).toMatchObject({
      seriesId: series.ΤΔΑ,
      entryState: 0,
      traderId: tradersOf[0],
      payable: '198.40',
    });
    expect(invoice.lines).toHaveLength(2);
    for (const id of [first, second])
      expect((await inject('GET', `/api/finance/documents/${id}`)).json().transformedIntoId).toBe(invoiceId);

    const again = await inject('POST', q('/api/finance/transformation'), request(1, [first]));
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('finance.error.alreadyTransformed');
    expect((await inject('GET', q('/api/finance/transformation/candidates'))).json()).toEqual([]);

    expect((await inject('POST', `/api/finance/documents/${invoiceId}/finalize`)).statusCode).toBe(200);
    expect(await stock()).toBe('-5.000');
  });

  it('mode 1 makes one result per source; deleting a draft result frees its sources', async () => {
    const a = await deliveryNote(tradersOf[0], '1');
    const b = await deliveryNote(tradersOf[1], '1');
    const done = await inject('POST', q('/api/finance/transformation'), request(1, [a, b]));
    expect(done.json().ids).toHaveLength(2);
    expect(done.json().documents.map((d: Json) => d.traderId)).toEqual([tradersOf[0], tradersOf[1]]);
    await inject('DELETE', `/api/finance/documents/${done.json().ids[0]}`);
    const left = (await inject('GET', q('/api/finance/transformation/candidates'))).json();
    expect(left.map((c: Json) => c.id)).toEqual([a]);
  });

  it('mode 3 puts all in one for one trader and refuses mixed traders', async () => {
    const a = (await inject('GET', q('/api/finance/transformation/candidates'))).json()[0].id;
    const c = await deliveryNote(tradersOf[1], '4');
    const mixed = await inject('POST', q('/api/finance/transformation'), request(3, [a, c]));
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().fieldErrors[0]).toMatchObject({
      field: 'sourceIds',
      key: 'finance.error.tradersDiffer',
    });
    const d = await deliveryNote(tradersOf[1], '1');
    const done = await inject('POST', q('/api/finance/transformation'), request(3, [c, d]));
    expect(done.json().documents).toMatchObject([{ sourceIds: [c, d], lines: 2 }]);
  });

  it('refuses a target series that is not an invoice and a draft source', async () => {
    const a = (await inject('GET', q('/api/finance/transformation/candidates'))).json()[0].id;
    const wrong = await inject('POST', q('/api/finance/transformation'), request(1, [a], series.ΔΑ));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors[0].field).toBe('targetSeriesId');
    const draft = await inject('POST', q('/api/finance/documents'), {
      seriesId: series.ΔΑ,
      date: '2026-06-02',
      traderId: tradersOf[0],
      paymentMethod: 5,
      status: 1,
      lines: [
        {
          serviceId: null,
          itemId: meterId,
          warehouseId: null,
          quantity: '1',
          price: '1',
          discount: '0',
          vatPercent: '24',
        },
      ],
      taxes: [],
    });
    const refused = await inject('POST', q('/api/finance/transformation'), request(1, [draft.json().id]));
    expect(refused.json().key).toBe('finance.error.noAvailableDocuments');
  });
});
