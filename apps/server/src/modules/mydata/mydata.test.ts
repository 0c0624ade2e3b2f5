import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, waitForJob } from '../../test/harness.ts';
import { financeSeries } from '../finance/finance.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { FAKE_AADE_KEY, type FakeAade } from './fake-aade/fake-aade.ts';
import { DEFAULT_SETTINGS } from './mydata.defaults.ts';
import { type AadeTestBed, startAadeTestBed } from './mydata.test-helpers.ts';

/**
 * myDATA against the local AADE (a real HTTP server speaking the REST contract): success with MARK,
 * UID and QR on the PDF, AADE's error codes, 429 back-off, a timeout reconciled without a resend,
 * cancellation, a day's batch rerun that sends nothing twice, and the search by MARK.
 */

let t: TestApp;
let aade: FakeAade;
let admin: { authorization: string };
let companyId: number;
let traderId: number;
let rejectedTraderId: number;
const series: Record<string, number> = {};
let serviceId: number;

let inject: AadeTestBed['inject'];
let q: AadeTestBed['q'];
let close: AadeTestBed['close'];

type Json = Record<string, unknown>;

beforeAll(async () => {
  ({ t, aade, admin, companyId, inject, q, close } = await startAadeTestBed());
  const [trader, rejected] = await t.database.db
    .insert(traders)
    .values([
      { companyId, fullname: 'Τεχνική Κατασκευαστική ΑΕ', vatnumber: '094014201', individual: false },
      { companyId, fullname: 'Παλαιά Εταιρεία ΟΕ', vatnumber: '094422282', individual: false },
    ])
    .returning({ id: traders.id });
  traderId = trader?.id ?? 0;
  rejectedTraderId = rejected?.id ?? 0;
  for (const row of await t.database.db.select().from(financeSeries))
    if (row.companyId === companyId) series[row.code] = row.id;
  serviceId = (await inject('GET', q('/api/finance/services'))).json()[0].id;
});
afterAll(async () => {
  await close?.();
});
beforeEach(() => aade.reset());

async function saveSettings(change: Json = {}) {
  const saved = await inject('PUT', q('/api/mydata/settings'), {
    ...DEFAULT_SETTINGS,
    testUrl: aade.url,
    ...change,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return saved.json();
}

async function issue(code: string, date: string, extra: Json = {}) {
  const created = await inject('POST', q('/api/finance/documents?finalize=true'), {
    seriesId: series[code],
    date,
    traderId: code === 'ΑΛΠ' ? null : traderId,
    paymentMethod: 3,
    status: 1,
    notes: null,
    lines: [
      {
        serviceId,
        itemId: null,
        warehouseId: null,
        descr: null,
        quantity: '1',
        price: '150',
        discount: '0',
        vatPercent: '24',
      },
    ],
    taxes: [],
    ...extra,
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as number;
}

async function transmit(body: Json) {
  const started = await inject('POST', q('/api/mydata/transmissions'), body);
  expect(started.statusCode, started.body).toBe(202);
  const id = started.json().jobId;
  const job = await waitForJob(t, admin, id);
  if (job.state !== 'succeeded') throw new Error(job.error ?? job.state);
  return job.result as { sent: number; failed: number; uncertain: number; skipped: number };
}
const transmission = async (id: number) => (await inject('GET', `/api/mydata/documents/${id}`)).json();
const sends = () => aade.calls.filter((c) => c.action === 'SendInvoices').length;

describe('myDATA parameters', () => {
  it('shows the defaults, saves changes, checks them and never shows the key', async () => {
    const defaults = (await inject('GET', q('/api/mydata/settings'))).json();
    expect(defaults).toMatchObject({ environment: 'test', branch: 0, credentialsSet: true });
    expect(defaults.mappings.vatCategories).toContainEqual({ percent: '24', category: 1 });
    // Payment methods (finance's codes are myDATA's: each maps to itself), bills on credit, and a
    // classification per charge kind of a bill, all visible and changeable.
    expect(defaults.mappings.paymentMethods).toContainEqual({ method: 3, type: 3 });
    expect(defaults.mappings.billPaymentMethod).toBe(5);
    expect(defaults.mappings.chargeClassifications).toContainEqual({
      charge: 'water',
      invoiceType: '11.2',
      category: 'category1_3',
      type: 'E3_561_003',
    });
    const iris = await saveSettings({
      mappings: { ...DEFAULT_SETTINGS.mappings, paymentMethods: [{ method: 6, type: 8 }] },
    });
    expect(iris.mappings.paymentMethods).toEqual([{ method: 6, type: 8 }]);
    const twice = await inject('PUT', q('/api/mydata/settings'), {
      ...DEFAULT_SETTINGS,
      mappings: {
        ...DEFAULT_SETTINGS.mappings,
        paymentMethods: [
          { method: 6, type: 8 },
          { method: 6, type: 6 },
        ],
      },
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().fieldErrors[0]).toMatchObject({
      field: 'mappings.paymentMethods',
      key: 'mydata.validation.duplicatePaymentMethod',
    });
    expect(JSON.stringify(defaults)).not.toContain(FAKE_AADE_KEY);
    const saved = await saveSettings({ branch: 1 });
    expect(saved.branch).toBe(1);
    await saveSettings();
    const bad = await inject('PUT', q('/api/mydata/settings'), {
      ...DEFAULT_SETTINGS,
      testUrl: 'not a url',
      mappings: { ...DEFAULT_SETTINGS.mappings, exemptionCause: 99 },
    });
    expect(bad.statusCode).toBe(400);
    const fields = bad.json().fieldErrors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['testUrl', 'mappings.exemptionCause']));
  });
});

describe('transmission', () => {
  it('sends a finalized invoice: MARK, UID and QR kept, printed on the PDF, found by MARK', async () => {
    await saveSettings();
    const id = await issue('ΤΠΥ', '2026-11-20');
    expect((await transmission(id)).state).toBe('notSent');
    expect(await transmit({ documentId: id })).toMatchObject({ sent: 1, failed: 0 });
    const sent = await transmission(id);
    expect(sent).toMatchObject({ state: 'sent', canSend: false, canCancel: true });
    expect(sent.mark).toMatch(/^\d{15}$/);
    expect(sent.uid).toMatch(/^[0-9A-F]{40}$/);
    expect(sent.qrUrl).toContain(aade.url);
    expect(aade.invoices.get(sent.uid)?.mark).toBe(sent.mark);

    const pdf = await inject('GET', `/api/finance/documents/${id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({ data: new Uint8Array(pdf.rawPayload) }).promise;
    const page = await doc.getPage(1);
    const text = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    expect(text).toContain(sent.mark);
    expect(text).toContain(sent.uid);
    const ops = await page.getOperatorList();
    const { OPS } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    expect(ops.fnArray).toContain(OPS.paintImageXObject);

    const found = (await inject('GET', q(`/api/search?search=${sent.mark}`))).json();
    expect(found.mydataDTOList).toEqual([
      expect.objectContaining({ id, mark: sent.mark, seriesCode: 'ΤΠΥ' }),
    ]);

    // Sending it again changes nothing and calls AADE for nothing.
    expect(await transmit({ documentId: id })).toMatchObject({ sent: 0, skipped: 1 });
    expect(sends()).toBe(1);
  });

  it("keeps AADE's error codes on the document and in the list of failed transmissions", async () => {
    aade.rejectCounterpart('094422282', {
      code: '102',
      message: 'Vat number 094422282 does not belong to active corporation',
    });
    const id = await issue('ΤΔΑ', '2026-11-21', { traderId: rejectedTraderId });
    expect(await transmit({ documentId: id })).toMatchObject({ sent: 0, failed: 1 });
    const failed = await transmission(id);
    expect(failed).toMatchObject({ state: 'failed', canSend: true, mark: null });
    expect(failed.errors).toEqual([{ code: '102', message: expect.stringContaining('does not belong') }]);
    const list = (await inject('GET', q('/api/mydata/documents/search?state=eq(failed)'))).json();
    expect(list.content).toEqual([
      expect.objectContaining({ id, state: 'failed', errorText: expect.stringContaining('102') }),
    ]);
  });

  it('waits and retries on 429 and on 500', async () => {
    await saveSettings();
    const id = await issue('ΤΠΥ', '2026-11-22');
    aade.fail('SendInvoices', 'rateLimited');
    aade.fail('SendInvoices', 'serverError');
    expect(await transmit({ documentId: id })).toMatchObject({ sent: 1 });
    expect(aade.calls.map((c) => c.status)).toEqual([429, 500, 200]);
  });

  it('after a timeout asks AADE what it holds and does not send again', async () => {
    const id = await issue('ΤΠΥ', '2026-11-23');
    aade.fail('SendInvoices', 'hangAfterStore');
    expect(await transmit({ documentId: id })).toMatchObject({ uncertain: 1, sent: 0 });
    const uncertain = await transmission(id);
    expect(uncertain).toMatchObject({ state: 'uncertain', mark: null, canSend: true });
    expect(uncertain.errors[0].code).toBe('timeout');
    const held = aade.invoices.get(uncertain.uid);
    expect(held).toBeDefined();

    expect(await transmit({ documentId: id })).toMatchObject({ sent: 1 });
    expect(await transmission(id)).toMatchObject({ state: 'sent', mark: held?.mark, qrUrl: held?.qrUrl });
    expect(aade.calls.map((c) => c.action)).toEqual(['SendInvoices', 'RequestTransmittedDocs']);
  });

  it('after a timeout where AADE kept nothing, sends it after looking', async () => {
    const id = await issue('ΤΠΥ', '2026-11-23');
    aade.fail('SendInvoices', 'hang');
    expect(await transmit({ documentId: id })).toMatchObject({ uncertain: 1 });
    expect(await transmit({ documentId: id })).toMatchObject({ sent: 1 });
    expect(aade.calls.map((c) => c.action)).toEqual([
      'SendInvoices',
      'RequestTransmittedDocs',
      'SendInvoices',
    ]);
  });

  it('cancels a sent document and keeps the cancellation MARK; a credit note references the original MARK', async () => {
    const id = await issue('ΤΔΑ', '2026-11-24');
    await transmit({ documentId: id });
    const cancelled = await inject('POST', `/api/mydata/documents/${id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ state: 'cancelled', canCancel: false });
    expect(cancelled.json().cancellationMark).toMatch(/^\d{15}$/);
    expect((await inject('POST', `/api/mydata/documents/${id}/cancel`)).statusCode).toBe(409);

    const original = await issue('ΤΔΑ', '2026-11-24');
    await transmit({ documentId: original });
    const { mark } = await transmission(original);
    const draft = await inject('POST', `/api/finance/documents/${original}/credit_note`, {
      date: '2026-11-24',
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const credit = draft.json().id;
    expect((await inject('POST', `/api/finance/documents/${credit}/finalize`)).statusCode).toBe(200);
    expect(await transmit({ documentId: credit })).toMatchObject({ sent: 1 });
    const held = aade.invoices.get((await transmission(credit)).uid);
    expect(held).toBeDefined();
    // A credit note of an original AADE does not hold yet is refused until the original is sent.
    const unsent = await issue('ΤΔΑ', '2026-11-24');
    const early = await inject('POST', `/api/finance/documents/${unsent}/credit_note`, {
      date: '2026-11-24',
    });
    expect(early.statusCode, early.body).toBe(201);
    expect((await inject('POST', `/api/finance/documents/${early.json().id}/finalize`)).statusCode).toBe(200);
    const refused = await inject('POST', q('/api/mydata/transmissions'), { documentId: early.json().id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ key: 'mydata.error.originalNotSent' });
    expect(refused.json().message).toContain('ΜΑΡΚ');
    // The credited original is corrected by the credit note, not cancelled: its page says why.
    expect(await transmission(original)).toMatchObject({
      state: 'sent',
      canCancel: false,
      cancelRefusal: 'mydata.error.credited',
    });
    expect((await inject('POST', `/api/mydata/documents/${original}/cancel`)).json().key).toBe(
      'mydata.error.credited',
    );
    expect(mark).toMatch(/^\d{15}$/);
  });

  it("a day's batch sends each pending document once, one failing with its error; a rerun sends nothing twice", async () => {
    const day = '2026-11-26';
    const ids = [
      await issue('ΤΠΥ', day),
      await issue('ΑΛΠ', day),
      await issue('ΤΔΑ', day, { traderId: rejectedTraderId }),
      await issue('ΤΠΥ', day),
    ];
    aade.rejectCounterpart('094422282', {
      code: '102',
      message: 'Vat number 094422282 does not belong to active corporation',
    });
    expect(await transmit({ day })).toMatchObject({ sent: 3, failed: 1 });
    const states = await Promise.all(ids.map(async (id) => (await transmission(id)).state));
    expect(states).toEqual(['sent', 'sent', 'failed', 'sent']);
    const held = aade.invoices.size;
    aade.reset();
    // The rerun picks up only the failed one, which AADE still refuses: nothing is sent twice.
    aade.rejectCounterpart('094422282', {
      code: '102',
      message: 'Vat number 094422282 does not belong to active corporation',
    });
    expect(await transmit({ day })).toMatchObject({ sent: 0, failed: 1 });
    expect(aade.invoices.size).toBe(held);
    const dashboard = (await inject('GET', q('/api/dashboard'))).json();
    expect(dashboard.cards.mydataPending.failed).toBeGreaterThanOrEqual(1);
  });

  it('refuses a document that does not validate, naming the rule, without calling AADE', async () => {
    await saveSettings({
      mappings: { ...DEFAULT_SETTINGS.mappings, vatCategories: [{ percent: '13', category: 2 }] },
    });
    const id = await issue('ΤΠΥ', '2026-11-27');
    expect(await transmit({ documentId: id })).toMatchObject({ failed: 1 });
    const failed = await transmission(id);
    expect(failed.errors[0]).toMatchObject({
      code: 'xsd',
      message: expect.stringContaining('vatCategory'),
      rule: 'missing',
      field: 'vatCategory',
    });
    expect(sends()).toBe(0);
    await saveSettings();
  });

  it('a draft is not transmitted; credentials are required', async () => {
    const draft = await inject('POST', q('/api/finance/documents'), {
      seriesId: series.ΤΠΥ,
      date: '2026-11-25',
      traderId,
      paymentMethod: 3,
      status: 1,
      notes: null,
      lines: [
        {
          serviceId,
          itemId: null,
          warehouseId: null,
          descr: null,
          quantity: '1',
          price: '1',
          discount: '0',
          vatPercent: '24',
        },
      ],
      taxes: [],
    });
    const refused = await inject('POST', q('/api/mydata/transmissions'), { documentId: draft.json().id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('mydata.error.notFinalized');
  });
});
