import { Decimal } from '@protocol/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, waitForJob } from '../../test/harness.ts';
import { client, finalBill, newConsumer } from '../../test/water-fixtures.ts';
import type { FakeAade } from './fake-aade/fake-aade.ts';
import { pendingCounts } from './mydata.card.ts';
import { DEFAULT_MAPPINGS, DEFAULT_SETTINGS } from './mydata.defaults.ts';
import { billSource } from './mydata.sources.ts';
import { type AadeTestBed, startAadeTestBed } from './mydata.test-helpers.ts';
import { buildInvoicesDoc } from './mydata.xml.ts';
import { validateXml } from './mydata.xsd.ts';

/**
 * Water bills through myDATA against the local AADE: finalized bills (created and finalized through
 * billing's API) become documents of two VAT rates that validate against the XSD, a consumer with an
 * ΑΦΜ named as counterpart; one bill or a day's batch is sent by the job, AADE's refusal is kept with
 * its error, a rerun sends nothing twice, and the bill's PDF prints the MARK, UID and QR code.
 */

let t: TestApp;
let aade: FakeAade;
let admin: { authorization: string };
let companyId: number;

let inject: AadeTestBed['inject'];
let q: AadeTestBed['q'];
let close: AadeTestBed['close'];

type Json = Record<string, unknown>;
const DAY = '2026-05-10';
const REFUSED = { code: '102', message: 'Vat number 094422282 does not belong to active corporation' };

/** A consumer of an owner (with an ΑΦΜ or not) and its finalized bill of the first 2026 period. */
async function finalizedBill(n: number, owner: Json, consumption: string, issueDate = DAY) {
  const api = client(t, admin);
  const query = `?companyid=${companyId}`;
  const consumer = await newConsumer(api, query, ['01', '002', String(900 + n)], owner, {
    supplyAddress: `Αγίου Νικολάου ${n}, Αγία Ελένη`,
  });
  const period = { periodLabel: 'Α΄ τετράμηνο 2026', previousDate: '2026-01-03', currentDate: '2026-05-02' };
  return (await finalBill(
    api,
    query,
    consumer,
    '2026-01-01',
    '2026-04-30',
    consumption,
    issueDate,
    period,
  )) as {
    id: number;
    number: number;
    vat: { vatPercent: string; net: string; vat: string }[];
  };
}

async function transmit(body: Json) {
  const started = await inject('POST', q('/api/mydata/transmissions'), body);
  expect(started.statusCode, started.body).toBe(202);
  const id = started.json().jobId;
  const job = await waitForJob(t, admin, id);
  if (job.state !== 'succeeded') throw new Error(job.error ?? job.state);
  return job.result as Record<string, number>;
}
const transmission = async (billId: number) => (await inject('GET', q(`/api/mydata/bills/${billId}`))).json();
const sends = () => aade.calls.filter((c) => c.action === 'SendInvoices').length;

let household: { id: number; vat: { vatPercent: string; net: string; vat: string }[] };
let business: { id: number };
let refused: { id: number };

beforeAll(async () => {
  ({ t, aade, admin, companyId, inject, q, close } = await startAadeTestBed());
  const saved = await inject('PUT', q('/api/mydata/settings'), { ...DEFAULT_SETTINGS, testUrl: aade.url });
  expect(saved.statusCode, saved.body).toBe(200);
  household = await finalizedBill(1, { individual: true, lastname: 'Καραγιάννη', firstname: 'Ελένη' }, '25');
  business = await finalizedBill(
    2,
    { individual: false, fullname: 'Ξενοδοχείο Αγία Ελένη ΑΕ', vatnumber: '094014201' },
    '80',
  );
  refused = await finalizedBill(
    3,
    { individual: false, fullname: 'Παλαιά Εταιρεία ΟΕ', vatnumber: '094422282' },
    '12',
  );
});
afterAll(async () => {
  await close?.();
});

describe('water bills through myDATA', () => {
  it('builds a bill of two VAT rates that validates; a consumer with an ΑΦΜ is the counterpart', async () => {
    expect(household.vat.map((v) => v.vatPercent).sort()).toEqual(['13.00', '24.00']);
    const docs = await billSource(t.database.db, companyId, { branch: 0, mappings: DEFAULT_MAPPINGS }, [
      household.id,
      business.id,
    ]);
    expect(docs.map((d) => [d.invoiceType, d.counterpart?.vatNumber ?? null])).toEqual([
      ['11.2', null],
      ['2.1', '094014201'],
    ]);
    // A line per charge kind and rate, adding up to the bill's VAT breakdown to the cent.
    const [first] = docs;
    expect(new Set(first?.lines.map((l) => l.charge)).size).toBe(first?.lines.length);
    expect(first?.lines.every((l) => l.charge)).toBe(true);
    for (const rate of household.vat) {
      const ofRate = first?.lines.filter((l) => l.vatPercent === rate.vatPercent) ?? [];
      expect(ofRate.reduce((acc, l) => acc + Math.round(Number(l.net) * 100), 0)).toBe(
        Math.round(Number(rate.net) * 100),
      );
      expect(ofRate.reduce((acc, l) => acc + Math.round(Number(l.vat) * 100), 0)).toBe(
        Math.round(Number(rate.vat) * 100),
      );
    }
    for (const doc of docs) expect(validateXml(buildInvoicesDoc([doc], DEFAULT_MAPPINGS))).toEqual([]);
    const xml = buildInvoicesDoc(docs.slice(0, 1), DEFAULT_MAPPINGS);
    expect(xml).toContain('<series>ΛΥΔ</series>');
    expect(xml).not.toContain('<counterpart>');
    // The lines add up to the bill's current amount (net + VAT) to the cent.
    const bill = (await inject('GET', q(`/api/billing/bills/${household.id}`))).json();
    expect(xml).toContain(`<totalGrossValue>${bill.current}</totalGrossValue>`);
  });

  it('sends one bill: MARK, UID and QR kept and printed on the bill; sending again sends nothing', async () => {
    expect(await transmission(household.id)).toMatchObject({ state: 'notSent', canSend: true });
    expect(await transmit({ billId: household.id })).toMatchObject({ sent: 1, failed: 0 });
    const sent = await transmission(household.id);
    expect(sent).toMatchObject({ state: 'sent', canSend: false, canCancel: true });
    expect(sent.mark).toMatch(/^\d{15}$/);
    expect(aade.invoices.get(sent.uid)?.mark).toBe(sent.mark);
    // The page shows the QR code itself, as printed.
    expect(sent.qrImage).toMatch(/^data:image\/png;base64,iVBOR/);

    const pdf = await inject('GET', q(`/api/billing/bills/${household.id}/pdf`));
    expect(pdf.statusCode).toBe(200);
    const { getDocument, OPS } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const page = await (await getDocument({ data: new Uint8Array(pdf.rawPayload) }).promise).getPage(1);
    const text = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text).toContain(sent.mark);
    expect(text).toContain(sent.uid);
    expect((await page.getOperatorList()).fnArray).toContain(OPS.paintImageXObject);

    expect(await transmit({ billId: household.id })).toMatchObject({ sent: 0, skipped: 1 });
    expect(sends()).toBe(1);
  });

  it("a day's bills as a batch: one refused with AADE's error, in the list; a rerun sends nothing twice", async () => {
    aade.rejectCounterpart('094422282', REFUSED);
    // The household bill is already sent: the day's batch takes the other two.
    expect(await transmit({ billDay: DAY })).toMatchObject({ sent: 1, failed: 1 });
    // Sent as a services invoice (2.1) naming the consumer: its page and the list say so.
    expect(await transmission(business.id)).toMatchObject({
      state: 'sent',
      document: { invoiceType: '2.1' },
    });
    const failed = await transmission(refused.id);
    expect(failed).toMatchObject({ state: 'failed', canSend: true, mark: null });
    expect(failed.errors).toEqual([REFUSED]);

    const list = (await inject('GET', q('/api/mydata/documents/search?source=eq(bill)'))).json();
    expect(list.content.map((r: Json) => [r.id, r.state])).toEqual(
      expect.arrayContaining([
        [household.id, 'sent'],
        [business.id, 'sent'],
        [refused.id, 'failed'],
      ]),
    );
    expect(list.content.find((r: Json) => r.id === refused.id).errorText).toContain('102');
    expect(list.content.find((r: Json) => r.id === refused.id).errors).toEqual([REFUSED]);
    expect(list.content.find((r: Json) => r.id === business.id).invoiceType).toBe('2.1');
    expect(list.content.find((r: Json) => r.id === household.id).invoiceType).toBe('11.2');
    const dashboard = (await inject('GET', q('/api/dashboard'))).json();
    expect(dashboard.cards.mydataPending).toMatchObject({ failed: 1 });

    const held = aade.invoices.size;
    const before = sends();
    expect(await transmit({ billDay: DAY })).toMatchObject({ sent: 0, failed: 1 });
    expect(aade.invoices.size).toBe(held);
    expect(sends()).toBe(before + 1);
    // A run's bills (their ids): the sent ones are not even queued.
    const started = await inject('POST', q('/api/mydata/transmissions'), {
      billIds: [household.id, business.id],
    });
    expect(started.json().documents).toBe(0);
  });

  it('a bill to a foreign owner names the owner with the address; sent as the business type', async () => {
    const foreign = await finalizedBill(
      4,
      {
        individual: false,
        fullname: 'Kypros Hotels Ltd',
        vatnumber: '102590332',
        country: 'CY',
        address: 'Makariou 12',
        zipcode: '1065',
        city: 'Nicosia',
      },
      '30',
      '2026-05-11',
    );
    const [doc] = await billSource(t.database.db, companyId, { branch: 0, mappings: DEFAULT_MAPPINGS }, [
      foreign.id,
    ]);
    expect(doc?.counterpart).toMatchObject({
      country: 'CY',
      name: 'Kypros Hotels Ltd',
      address: { street: 'Makariou 12', postalCode: '1065', city: 'Nicosia' },
    });
    const xml = buildInvoicesDoc(doc ? [doc] : [], DEFAULT_MAPPINGS);
    expect(validateXml(xml)).toEqual([]);
    expect(xml).toContain(
      '<address><street>Makariou 12</street><postalCode>1065</postalCode><city>Nicosia</city></address>',
    );
    expect(await transmit({ billId: foreign.id })).toMatchObject({ sent: 1 });
  });

  it('cancels a sent bill at AADE, keeping the cancellation MARK; a paid bill is not cancelled', async () => {
    // The business bill is paid in part: it was issued, so it is corrected, not cancelled.
    await t.database.db.execute(sql`UPDATE billing_bills SET paid = 10 WHERE id = ${business.id}`);
    const paid = await transmission(business.id);
    expect(paid).toMatchObject({ state: 'sent', canCancel: false, cancelRefusal: 'mydata.error.billPaid' });
    const refusedCancel = await inject('POST', q(`/api/mydata/bills/${business.id}/cancel`));
    expect(refusedCancel.statusCode).toBe(409);
    expect(refusedCancel.json().key).toBe('mydata.error.billPaid');
    expect(aade.calls.some((c) => c.action === 'CancelInvoice')).toBe(false);

    expect(await transmission(household.id)).toMatchObject({ canCancel: true, cancelRefusal: null });
    const cancelled = await inject('POST', q(`/api/mydata/bills/${household.id}/cancel`));
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const mark = cancelled.json().mark;
    expect(cancelled.json()).toMatchObject({ state: 'cancelled', canCancel: false, canSend: false });
    expect(cancelled.json().cancellationMark).toMatch(/^\d{15}$/);
    expect(aade.invoices.get(cancelled.json().uid)?.cancellationMark).toBe(cancelled.json().cancellationMark);
    expect(mark).toBeTruthy();
    // Twice is refused here, before AADE is asked.
    const again = await inject('POST', q(`/api/mydata/bills/${household.id}/cancel`));
    expect(again.statusCode).toBe(409);
    expect(aade.calls.filter((c) => c.action === 'CancelInvoice')).toHaveLength(1);
  });

  it('sends a credit of a bill as 11.4 (5.1 for a business) linked to the bill by its MARK, amounts positive', async () => {
    const retail = await finalizedBill(
      5,
      { individual: true, lastname: 'Πιστωμένη', firstname: 'Άννα' },
      '18',
      '2026-05-12',
    );
    expect(await transmit({ billId: retail.id })).toMatchObject({ sent: 1 });
    const credits = [];
    for (const bill of [retail, business]) {
      const credited = await inject('POST', q(`/api/billing/bills/${bill.id}/credit`), {
        reason: 'Λάθος ένδειξη',
      });
      expect(credited.statusCode, credited.body).toBe(201);
      credits.push(credited.json());
    }
    const docs = await billSource(
      t.database.db,
      companyId,
      { branch: 0, mappings: DEFAULT_MAPPINGS },
      credits.map((c) => c.id),
    );
    expect(
      docs.map((d) => [d.series, d.invoiceType, d.correlatedMark, d.counterpart?.vatNumber ?? null]),
    ).toEqual([
      ['ΠΛΥ', '11.4', (await transmission(retail.id)).mark, null],
      ['ΠΛΥ', '5.1', (await transmission(business.id)).mark, '094014201'],
    ]);
    // The credited amounts, positive, to the cent: the bill's net and VAT.
    expect(docs[0]?.payable).toBe(new Decimal(credits[0].net).plus(credits[0].vatTotal).negated().toFixed(2));
    expect(docs[0]?.lines.every((l) => new Decimal(l.net).gte(0) && new Decimal(l.vat).gte(0))).toBe(true);
    for (const doc of docs) {
      const xml = buildInvoicesDoc([doc], DEFAULT_MAPPINGS);
      expect(validateXml(xml)).toEqual([]);
      expect(xml).toContain(`<correlatedInvoices>${doc.correlatedMark}</correlatedInvoices>`);
    }
    expect(await transmit({ billIds: credits.map((c) => c.id) })).toMatchObject({ sent: 2, failed: 0 });
    // A credited bill is corrected by its credit: it is not cancelled at AADE.
    expect(await transmission(retail.id)).toMatchObject({
      canCancel: false,
      cancelRefusal: 'mydata.error.credited',
    });
  });

  it('refuses a bill that is not finalized, and another company’s bill is not found', async () => {
    const draft = await inject('POST', q('/api/mydata/transmissions'), { billId: 999_999 });
    expect(draft.statusCode).toBe(409);
    expect(draft.json().key).toBe('mydata.error.notFinalized');
    expect((await inject('GET', q('/api/mydata/bills/999999'))).statusCode).toBe(404);
  });

  it('the dashboard card counts exactly what the list shows, reading no bill it need not', async () => {
    const { db } = t.database;
    const rows = async <R>(query: SQL) => ((await db.execute(query)) as unknown as { rows: R[] }).rows;
    const one = async <R>(query: SQL) => {
      const [row] = await rows<R>(query);
      if (!row) throw new Error('no row');
      return row;
    };
    const card = async () => (await inject('GET', q('/api/dashboard'))).json().cards.mydataPending;
    const listed = async () =>
      (
        await rows<{ pending: number; failed: number }>(sql`SELECT
          count(*) FILTER (WHERE state IN ('notSent', 'failed', 'uncertain'))::int AS pending,
          count(*) FILTER (WHERE state IN ('failed', 'uncertain'))::int AS failed
          FROM mydata_documents WHERE company_id = ${companyId}`)
      )[0];
    const agrees = async () => expect(await card()).toEqual(await listed());
    await agrees();

    // 2,000 finalized bills of earlier periods (copies of the household's, in one statement as a
    // billing run finalizes them): pending until their transmissions come, as years of bills are.
    const { last } = await one<{ last: number }>(sql`SELECT max(id) AS last FROM billing_bills`);
    const columns = (
      await rows<{ name: string }>(sql`SELECT column_name AS name FROM information_schema.columns
        WHERE table_name = 'billing_bills' AND column_name <> 'id' AND is_generated = 'NEVER'`)
    ).map((c) => c.name);
    const copied: Record<string, string> = {
      period_from: 'period_from - g',
      number: 'number + 1000 + g',
      rf_code: 'NULL',
    };
    await db.execute(
      sql.raw(`INSERT INTO billing_bills (${columns.join(', ')})
        SELECT ${columns.map((c) => copied[c] ?? c).join(', ')}
        FROM billing_bills, generate_series(1, 2000) g WHERE id = ${household.id}`),
    );
    await agrees();
    const before = await card();
    // One carried into a later bill leaves the finalized state; a series losing its myDATA type
    // takes its bills out, and back in when it has one again.
    await db.execute(sql`UPDATE billing_bills SET entry_state = -2 WHERE id = ${last + 1}`);
    await agrees();
    expect((await card()).pending).toBe(before.pending - 1);
    const { series } = await one<{ series: number }>(
      sql`SELECT series_id AS series FROM billing_bills WHERE id = ${household.id}`,
    );
    const { type } = await one<{ type: string }>(
      sql`SELECT mydata_type AS type FROM finance_series WHERE id = ${series}`,
    );
    await db.execute(sql`UPDATE finance_series SET mydata_type = NULL WHERE id = ${series}`);
    await agrees();
    await db.execute(sql`UPDATE finance_series SET mydata_type = ${type} WHERE id = ${series}`);
    await agrees();
    // Sent, as the bench's data set has them.
    await db.execute(sql`INSERT INTO mydata_transmissions (source, document_id, company_id, state, uid, mark)
      SELECT 'bill', id, company_id, 'sent', md5(id::text), (500000000000 + id)::text
      FROM billing_bills WHERE id > ${last} AND entry_state = 9`);
    await agrees();
    expect(await card()).toEqual({ pending: before.pending - 2000, failed: before.failed });
    expect(before.failed).toBeGreaterThan(0);

    // Its SQL reads bills only for the failed transmissions, however many finalized bills there are
    // (the anti-join it replaced read all 2,000 and more).
    const [explained] = await rows<{ 'QUERY PLAN': unknown }>(
      sql`EXPLAIN (ANALYZE, FORMAT JSON) ${pendingCounts(companyId)}`,
    );
    const plan = explained?.['QUERY PLAN'];
    type Node = Record<string, unknown> & { Plans?: Node[] };
    const read = (node: Node): number =>
      (['billing_bills', 'finance_documents'].includes(node['Relation Name'] as string)
        ? (Number(node['Actual Rows']) + Number(node['Rows Removed by Filter'] ?? 0)) *
          Number(node['Actual Loops'])
        : 0) + (node.Plans ?? []).reduce((sum, child) => sum + read(child), 0);
    const root = ((typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: Node }[])[0]?.Plan as Node;
    expect(read(root)).toBeLessThanOrEqual(before.failed);
  });
});
