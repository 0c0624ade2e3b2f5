import type { BillLine, ComputedBill } from '@protocol/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../db/client.ts';
import { copyConnection } from '../../db/copy.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { lineRow } from './bills.service.ts';
import { copyLines, insertLines } from './runs.store.ts';

/**
 * How a run writes bill lines (issue 17, "Measure"): on PostgreSQL with COPY, on PGlite as one JSON
 * parameter; both must store exactly the computed lines, whatever their text holds. The lines have
 * no foreign key to their bill (its per-line check was most of their cost): statement triggers refuse
 * a line without its bill and delete the lines of a deleted bill, on both databases. Bills, for the
 * same reason, have no foreign keys to their company, consumer and run (migration 0037): statement
 * triggers refuse a bill without them, a billed consumer's deletion, and unlink a deleted run's bills.
 */
// biome-ignore lint/suspicious/noExplicitAny: answers read field by field
type Json = Record<string, any>;

let t: TestApp;
let headers: { authorization: string };
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

const post = (url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers, payload: payload as Json });
const get = (url: string) => t.app.inject({ method: 'GET', url, headers });
const idOf = (rows: Json[], code: string) => rows.find((r) => r.code === code)?.id as number;

/** A consumer's draft bill of 2026's first period, stored through the API; its id. */
async function draftBill(number: string): Promise<number> {
  const usages = (await get('/api/water/parametrics/propertyUsages')).json();
  const sewerage = (await get('/api/water/parametrics/sewerageIndicators')).json();
  const policies = (await get('/api/water/invoice_policies')).json();
  const trader = await post('/api/traders', {
    individual: true,
    lastname: `Γραμμές${number}`,
    firstname: 'Ζωή',
  });
  expect(trader.statusCode, trader.body).toBe(201);
  const consumer = await post('/api/protocol/consumers', {
    parts: ['01', '001', number],
    ownerId: trader.json().id,
    supplyAddress: 'Ερμού 3',
    status: 1,
    propertyUsageId: idOf(usages, 'OIK'),
    sewerageIndicatorId: idOf(sewerage, 'SYN'),
    invoicePolicyId: (policies[0] as Json).id,
  });
  expect(consumer.statusCode, consumer.body).toBe(201);
  const bill = await post('/api/billing/bills', {
    consumerId: consumer.json().id,
    from: '2026-01-01',
    to: '2026-04-30',
    periodLabel: 'Ιαν–Απρ 2026',
    previousReading: 100,
    previousDate: '2026-01-01',
    currentReading: 130,
    currentDate: '2026-04-30',
    consumption: '30',
    issueDate: '2026-05-10',
  });
  expect(bill.statusCode, bill.body).toBe(200);
  return bill.json().id as number;
}

/** Lines whose text COPY must escape (tab, newline, carriage return, backslash, a literal \N), nulls and every column set. */
const awkward: BillLine[] = [
  {
    charge: 'specialFee',
    description: 'Τέλος\tσύνδεσης\nγραμμή 2\r\\ και \\N',
    band: null,
    from: null,
    to: null,
    target: null,
    quantity: null,
    price: null,
    amount: '12.34',
    vatPercent: '24.00',
    sourceId: null,
  },
  {
    charge: 'water',
    description: '',
    band: 2,
    from: '2026-01-01',
    to: '2026-02-28',
    target: null,
    quantity: '17.125',
    price: '0.8000',
    amount: '13.70',
    vatPercent: '13.00',
    sourceId: 4,
  },
  {
    charge: 'discount',
    description: 'Κοινωνικό τιμολόγιο 25% (τρίτεκνοι)',
    band: null,
    from: null,
    to: null,
    target: 'water',
    quantity: null,
    price: '25.0000',
    amount: '-3.43',
    vatPercent: '13.00',
    sourceId: 2,
  },
];
const bill = { lines: awkward } as ComputedBill;

async function storedLines(billId: number) {
  const result = await t.database.db.execute(sql`
    SELECT bill_id AS "billId", position, charge, description, band, from_date::text AS "fromDate",
      to_date::text AS "toDate", target, quantity::text, price::text, amount::text,
      vat_percent::text AS "vatPercent", source_id AS "sourceId"
    FROM billing_bill_lines WHERE bill_id = ${billId} ORDER BY position`);
  return (result as unknown as { rows: Json[] }).rows;
}

async function replaceLines(billId: number, write: (tx: Tx) => Promise<void>) {
  await t.database.db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM billing_bill_lines WHERE bill_id = ${billId}`);
    await write(tx);
  });
}

beforeAll(async () => {
  t = await startTestApp();
  headers = await t.login('admin', ADMIN_PASSWORD);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('bill lines as a run writes them', () => {
  it('stores every column of the computed lines exactly, text with tabs, newlines and backslashes too', async () => {
    const id = await draftBill('981');
    await replaceLines(id, async (tx) => {
      const copy = copyConnection(tx);
      // PostgreSQL writes them with COPY, PGlite (no COPY stream) as JSON.
      expect(copy !== null).toBe(onPostgres);
      if (copy) await copyLines(copy, [{ billId: id, bill }]);
      else await insertLines(tx, [{ billId: id, bill }]);
    });
    expect(await storedLines(id)).toEqual(awkward.map((line, i) => lineRow(id, i + 1, line)));
  });

  it.skipIf(!onPostgres)('stores the same lines with COPY as with the JSON of PGlite', async () => {
    const copied = await draftBill('982');
    const inserted = await draftBill('983');
    await replaceLines(copied, async (tx) =>
      copyLines(copyConnection(tx) as never, [{ billId: copied, bill }]),
    );
    await replaceLines(inserted, (tx) => insertLines(tx, [{ billId: inserted, bill }]));
    const strip = (rows: Json[]) => rows.map(({ billId: _, ...line }) => line);
    expect(strip(await storedLines(copied))).toEqual(strip(await storedLines(inserted)));
  });

  it('refuses a line without its bill, as the foreign key did', async () => {
    const write = t.database.db.transaction(async (tx) => {
      const copy = copyConnection(tx);
      if (copy) await copyLines(copy, [{ billId: 2_000_000_000, bill }]);
      else await insertLines(tx, [{ billId: 2_000_000_000, bill }]);
    });
    const error = (await write.catch((e: unknown) => e)) as { code?: string; cause?: { code?: string } };
    // A foreign key violation, from the COPY itself or wrapped by the query builder.
    expect(error.cause?.code ?? error.code).toBe('23503');
  });

  it('deletes the lines of a deleted bill, as the cascade did', async () => {
    const id = await draftBill('984');
    expect((await storedLines(id)).length).toBeGreaterThan(3);
    await t.database.db.execute(sql`DELETE FROM billing_bills WHERE id = ${id}`);
    expect(await storedLines(id)).toEqual([]);
  });
});

describe('bills as a run writes them', () => {
  /** The error code of a failed statement, from the driver or wrapped by the query builder. */
  const codeOf = async (statement: Promise<unknown>) => {
    const error = (await statement.then(
      () => ({}),
      (e: unknown) => e,
    )) as { code?: string; cause?: { code?: string } };
    return error.cause?.code ?? error.code;
  };
  const billRow = async (id: number) =>
    (
      (await t.database.db.execute(
        sql`SELECT company_id, consumer_id, run_id FROM billing_bills WHERE id = ${id}`,
      )) as unknown as { rows: Json[] }
    ).rows[0] as Json;

  it('refuses a bill of a company, consumer or run that is not there, as the foreign keys did', async () => {
    const id = await draftBill('985');
    const { company_id: companyId, consumer_id: consumerId } = await billRow(id);
    // The bill again for another period, with one of its references changed.
    const copyOf = (column: string, value: number) =>
      t.database.db.execute(sql`
        INSERT INTO billing_bills
        SELECT (jsonb_populate_record(b, jsonb_build_object('id', nextval('billing_bills_id_seq'),
          'period_from', '2027-01-01', 'rf_code', NULL, 'number', NULL,
          'company_id', ${column === 'company' ? value : companyId}::int,
          'consumer_id', ${column === 'consumer' ? value : consumerId}::int,
          'run_id', ${column === 'run' ? value : null}::int))).*
        FROM billing_bills b WHERE id = ${id}`);
    expect(await codeOf(copyOf('company', 2_000_000_000))).toBe('23503');
    expect(await codeOf(copyOf('consumer', 2_000_000_000))).toBe('23503');
    expect(await codeOf(copyOf('run', 2_000_000_000))).toBe('23503');
    expect(
      await codeOf(
        t.database.db.execute(sql`UPDATE billing_bills SET consumer_id = 2000000000 WHERE id = ${id}`),
      ),
    ).toBe('23503');
    // The same bill with what is there is stored.
    await copyOf('none', 0);
  });

  it('refuses to delete a billed consumer, and unlinks the bills of a deleted run', async () => {
    const id = await draftBill('986');
    const { company_id: companyId, consumer_id: consumerId } = await billRow(id);
    expect(
      await codeOf(t.database.db.execute(sql`DELETE FROM water_consumers WHERE id = ${consumerId}`)),
    ).toBe('23503');
    const run = (
      (await t.database.db.execute(sql`
        INSERT INTO billing_runs (company_id, year, period, scope, route_ids, issue_date)
        VALUES (${companyId}, 2026, 1, 'routes', '{}', '2026-05-10') RETURNING id`)) as unknown as {
        rows: { id: number }[];
      }
    ).rows[0]?.id as number;
    await t.database.db.execute(sql`UPDATE billing_bills SET run_id = ${run} WHERE id = ${id}`);
    expect((await billRow(id)).run_id).toBe(run);
    await t.database.db.execute(sql`DELETE FROM billing_runs WHERE id = ${run}`);
    expect(await billRow(id)).toMatchObject({ consumer_id: consumerId, run_id: null });
  });
});
