import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit.schema.ts';
import { ADMIN_PASSWORD, companyInUseOf, startTestApp, type TestApp } from '../../test/harness.ts';
import { createCompany } from '../companies/api.ts';
import { traders } from '../traders/traders.schema.ts';
import { financeDocuments, financeSeries } from './finance.schema.ts';

/**
 * Finance API (issue 19) on the demo company: master data checks, documents with their totals,
 * finalize (numbers, immutability, checkdates), credit notes, stock moves, the FIN list and exports.
 * Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL 15 (where the concurrent finalizes
 * really race for the counter row).
 */

let t: TestApp;
let admin: { authorization: string };
let companyA: number;
let companyB: number;
let traderId: number;
const series: Record<string, number> = {};
let services: { id: number; code: string }[];
let items: { id: number; code: string; warehouseId: number | null }[];
let warehouseId: number;

type Json = Record<string, unknown>;
const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: admin,
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
const q = (url: string, company = companyA) => `${url}${url.includes('?') ? '&' : '?'}companyid=${company}`;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  companyA = await companyInUseOf(t, admin);
  companyB = (await createCompany(t.database.db, { companyname: 'Δήμος Β', companytitle: 'Δήμος Β' }, 'test'))
    .id;
  const [trader] = await t.database.db
    .insert(traders)
    .values({
      companyId: companyA,
      fullname: 'Τεχνική Κατασκευαστική ΑΕ',
      vatnumber: '094014201',
      individual: false,
    })
    .returning({ id: traders.id });
  traderId = trader?.id ?? 0;
  for (const row of await t.database.db
    .select()
    .from(financeSeries)
    .where(eq(financeSeries.companyId, companyA)))
    series[row.code] = row.id;
  services = (await inject('GET', q('/api/finance/services'))).json();
  items = (await inject('GET', q('/api/finance/items'))).json();
  warehouseId = (await inject('GET', q('/api/finance/warehouses'))).json()[0].id;
});
afterAll(async () => {
  await t?.close();
});

const serviceLine = (code: string, extra: Json = {}) => ({
  serviceId: services.find((s) => s.code === code)?.id,
  itemId: null,
  warehouseId: null,
  descr: null,
  quantity: '1',
  price: '150',
  discount: '0',
  vatPercent: '24',
  ...extra,
});
const itemLine = (code: string, quantity: string) => ({
  serviceId: null,
  itemId: items.find((i) => i.code === code)?.id,
  warehouseId: null,
  descr: null,
  quantity,
  price: '32',
  discount: '0',
  vatPercent: '24',
});
const documentBody = (seriesCode: string, date: string, lines: Json[], taxes: Json[] = []) => ({
  seriesId: series[seriesCode],
  date,
  traderId,
  paymentMethod: 3,
  status: 1,
  notes: null,
  lines,
  taxes,
});
async function create(body: Json, company = companyA) {
  const response = await inject('POST', q('/api/finance/documents', company), body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}
async function finalize(id: number) {
  return inject('POST', `/api/finance/documents/${id}/finalize`);
}

describe('master data', () => {
  it('checks account codes against the mask and names the row', async () => {
    const current = (await inject('GET', q('/api/finance/accounts'))).json();
    const response = await inject('POST', q('/api/finance/accounts'), [
      ...current.map((a: Json) => ({
        id: a.id,
        code: a.code,
        descr: a.descr,
        kind: a.kind,
        aggregate: a.aggregate,
        active: a.active,
      })),
      { id: null, code: '73.0', descr: 'Λάθος', kind: 1, aggregate: 0, active: true },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors[0]).toMatchObject({
      field: `${current.length}.code`,
      key: 'finance.error.codeMask',
    });
    const leaf = current.find((a: Json) => a.code === '73.00.00.0002');
    expect(leaf).toMatchObject({ parentCode: '73.00.00', level: 4 });
  });

  it('refuses a mask over 30 characters and one that existing codes no longer fit', async () => {
    expect(
      (await inject('PUT', q('/api/finance/settings'), { accountMask: 'X'.repeat(31) })).statusCode,
    ).toBe(400);
    const misfit = await inject('PUT', q('/api/finance/settings'), { accountMask: 'XXX.XX' });
    expect(misfit.statusCode).toBe(400);
    expect(misfit.json().fieldErrors[0]).toMatchObject({
      field: 'accountMask',
      key: 'finance.error.maskMisfit',
    });
  });

  it('takes only analytic accounts on services and checks EAN-13 on items', async () => {
    const accounts = (await inject('GET', q('/api/finance/accounts'))).json();
    const aggregate = accounts.find((a: Json) => a.code === '73');
    const current = (await inject('GET', q('/api/finance/services'))).json();
    const rows = current.map(({ accountCode: _, ...s }: Json) => s);
    const bad = await inject('POST', q('/api/finance/services'), [
      ...rows,
      {
        id: null,
        code: 'ΥΠ09',
        descr: 'Δοκιμή',
        unit: null,
        price: '1',
        vatPercent: '24',
        vatCategory: 1,
        accountId: aggregate.id,
        active: true,
      },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors[0].key).toBe('finance.error.analyticOnly');
    const item = await inject('POST', q('/api/finance/items'), [
      {
        id: null,
        code: 'X1',
        descr: 'Είδος',
        barcode: '5901234123458',
        cpv: null,
        unit: null,
        purchasePrice: '1',
        salePrice: '1',
        vatPercent: '24',
        accountId: null,
        warehouseId: null,
        group1: null,
        group2: null,
        group3: null,
        group4: null,
        active: true,
      },
    ]);
    expect(item.statusCode).toBe(400);
    expect(item.json().fieldErrors[0]).toMatchObject({ field: '0.barcode', key: 'validation.ean13' });
  });

  it("keeps another company's rows out of reach", async () => {
    expect((await inject('GET', q('/api/finance/services', companyB))).json()).toEqual([]);
    expect((await inject('GET', `/api/finance/items/${items[0]?.id}/stock`)).statusCode).toBe(200);
  });
});

describe('documents', () => {
  it('computes the totals with a withholding tax, exact to the cent', async () => {
    const doc = await create(
      documentBody(
        'ΤΠΥ',
        '2026-03-02',
        [
          serviceLine('ΥΠ01', { quantity: '3', price: '19.99' }),
          serviceLine('ΥΠ02', { price: '40', discount: '10' }),
        ],
        [
          { kind: 3, percent: '20', amount: null },
          { kind: 2, percent: null, amount: '1.20' },
        ],
      ),
    );
    // 59.97 + 36.00 = 95.97; VAT 14.39 + 8.64 = 23.03; withholding 20% of 95.97 = 19.19.
    expect(doc).toMatchObject({
      net: '95.97',
      vat: '23.03',
      gross: '119.00',
      withheld: '19.19',
      taxesCharged: '1.20',
      payable: '101.01',
      entryState: 0,
      number: null,
    });
    expect(doc.lines.map((l: Json) => l.descr)).toEqual(['Τέλος σύνδεσης ύδρευσης', 'Επανασύνδεση παροχής']);
  });

  it('refuses bad input with the field named', async () => {
    const response = await inject(
      'POST',
      q('/api/finance/documents'),
      documentBody('ΤΠΥ', '2026-02-30', [serviceLine('ΥΠ01', { quantity: '0' })]),
    );
    expect(response.statusCode).toBe(400);
    const fields = response.json().fieldErrors.map((e: Json) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['date', 'lines.0.quantity']));
    const foreign = await inject(
      'POST',
      q('/api/finance/documents', companyB),
      documentBody('ΤΠΥ', '2026-03-01', [serviceLine('ΥΠ01')]),
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fieldErrors.map((e: Json) => e.field)).toEqual(
      expect.arrayContaining(['seriesId', 'traderId', 'lines.0.serviceId']),
    );
    // Issued at once, the one statement refuses the same references and the same fields are named.
    const foreignIssued = await inject(
      'POST',
      q('/api/finance/documents?finalize=true', companyB),
      documentBody('ΤΠΥ', '2026-03-01', [serviceLine('ΥΠ01')]),
    );
    expect(foreignIssued.statusCode, foreignIssued.body).toBe(400);
    expect(foreignIssued.json().fieldErrors).toEqual(foreign.json().fieldErrors);
    const unknownItem = await inject(
      'POST',
      q('/api/finance/documents?finalize=true'),
      documentBody('ΤΠΥ', '2026-03-01', [
        serviceLine('ΥΠ01'),
        { ...itemLine('ΥΔΡ-15', '1'), itemId: 999_999 },
      ]),
    );
    expect(unknownItem.statusCode).toBe(400);
    expect(unknownItem.json().fieldErrors.map((e: Json) => e.field)).toEqual(['lines.1.itemId']);
  });

  it('finalizes with the next number, then never changes', async () => {
    const doc = await create(documentBody('ΤΠΥ', '2026-03-03', [serviceLine('ΥΠ01')]));
    const edited = await inject(
      'PUT',
      `/api/finance/documents/${doc.id}`,
      documentBody('ΤΠΥ', '2026-03-03', [serviceLine('ΥΠ01', { quantity: '2' })]),
    );
    expect(edited.json()).toMatchObject({ entryState: 1, net: '300.00', payable: '372.00' });
    const finalized = await finalize(doc.id);
    expect(finalized.statusCode, finalized.body).toBe(200);
    expect(finalized.json()).toMatchObject({ entryState: 9, number: 1, year: 2026, defuser: 'admin' });
    expect(
      (
        await inject(
          'PUT',
          `/api/finance/documents/${doc.id}`,
          documentBody('ΤΠΥ', '2026-03-03', [serviceLine('ΥΠ01')]),
        )
      ).json().key,
    ).toBe('finance.error.finalized');
    expect((await inject('DELETE', `/api/finance/documents/${doc.id}`)).statusCode).toBe(409);
    expect((await finalize(doc.id)).statusCode).toBe(409);
  });

  it('checkdates: a date before the series’ last finalized one is refused and takes no number', async () => {
    const earlier = await create(documentBody('ΤΠΥ', '2026-03-01', [serviceLine('ΥΠ01')]));
    const refused = await finalize(earlier.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      key: 'finance.error.dateBeforeLast',
      params: { date: '2026-03-03' },
    });
    const later = await create(documentBody('ΤΠΥ', '2026-03-04', [serviceLine('ΥΠ01')]));
    expect((await finalize(later.id)).json().number).toBe(2);
    // A series without checkdates takes any date.
    await t.database.db
      .update(financeSeries)
      .set({ checkdates: false })
      .where(eq(financeSeries.id, series.ΤΠΥ as number));
    expect((await finalize(earlier.id)).json().number).toBe(3);
    await t.database.db
      .update(financeSeries)
      .set({ checkdates: true })
      .where(eq(financeSeries.id, series.ΤΠΥ as number));
  });

  it('issues a document at once (finalize=true); a refusal leaves neither a draft nor a number', async () => {
    const issued = await inject(
      'POST',
      q('/api/finance/documents?finalize=true'),
      documentBody('ΤΠΥ', '2026-03-05', [serviceLine('ΥΠ01')]),
    );
    expect(issued.statusCode, issued.body).toBe(201);
    expect(issued.json()).toMatchObject({ entryState: 9, number: 4, payable: '186.00' });
    // The answer of the one-statement issue is the document as stored, to the last digit of each amount.
    expect(issued.json()).toEqual((await inject('GET', `/api/finance/documents/${issued.json().id}`)).json());
    // Issued at once, it is still audited as created and as finalized.
    const trail = await t.database.db
      .select({ action: auditLog.action, username: auditLog.username })
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'financeDocument'), eq(auditLog.entityId, String(issued.json().id))));
    expect(trail.map((line) => line.action).sort()).toEqual(['create', 'finalized']);
    expect(trail.every((line) => line.username === 'admin')).toBe(true);
    const before = (await inject('GET', q('/api/finance/documents/search?size=1'))).json().totalElements;
    const refused = await inject(
      'POST',
      q('/api/finance/documents?finalize=true'),
      documentBody('ΤΠΥ', '2026-03-01', [serviceLine('ΥΠ01')]),
    );
    expect(refused.json().key).toBe('finance.error.dateBeforeLast');
    expect((await inject('GET', q('/api/finance/documents/search?size=1'))).json().totalElements).toBe(
      before,
    );
    expect(
      (
        await inject(
          'POST',
          q('/api/finance/documents?finalize=true'),
          documentBody('ΤΠΥ', '2026-03-06', [serviceLine('ΥΠ01')]),
        )
      ).json().number,
    ).toBe(5);
  });

  it('moves stock only through finalized documents, and a credit note brings it back', async () => {
    const meter = items.find((i) => i.code === 'ΥΔΡ-15');
    const stock = async () => (await inject('GET', `/api/finance/items/${meter?.id}/stock`)).json();
    expect(await stock()).toEqual([]);
    const invoice = await create(documentBody('ΤΔΑ', '2026-04-01', [itemLine('ΥΔΡ-15', '5')]));
    expect(await stock()).toEqual([]);
    await finalize(invoice.id);
    const note = await create(documentBody('ΔΑ', '2026-04-02', [itemLine('ΥΔΡ-15', '1.5')]));
    await finalize(note.id);
    expect(await stock()).toEqual([{ warehouseId, warehouseDescr: 'Κεντρική αποθήκη', quantity: '-6.500' }]);

    const credit = await inject('POST', `/api/finance/documents/${invoice.id}/credit_note`, {
      date: '2026-04-03',
    });
    expect(credit.statusCode, credit.body).toBe(201);
    expect(credit.json()).toMatchObject({
      seriesId: series.ΠΤΕ,
      relatedDocumentId: invoice.id,
      payable: '198.40',
      entryState: 0,
    });
    await finalize(credit.json().id);
    expect((await stock())[0].quantity).toBe('-1.500');
    const all = (await inject('GET', q('/api/finance/stock'))).json();
    expect(all).toEqual([expect.objectContaining({ code: 'ΥΔΡ-15', warehouseId, quantity: '-1.500' })]);
    expect((await inject('GET', q('/api/finance/stock', companyB))).json()).toEqual([]);
    // A goods receipt brings items into the warehouse.
    const receipt = await create(documentBody('ΔΠ', '2026-04-04', [itemLine('ΥΔΡ-15', '10')]));
    await finalize(receipt.id);
    expect((await stock())[0].quantity).toBe('8.500');
    // Issued at once, an item invoice moves its stock in the same statement.
    const issued = await inject(
      'POST',
      q('/api/finance/documents?finalize=true'),
      documentBody('ΤΔΑ', '2026-04-04', [itemLine('ΥΔΡ-15', '2.25')]),
    );
    expect(issued.statusCode, issued.body).toBe(201);
    expect(issued.json().lines[0]).toMatchObject({ quantity: '2.250', warehouseId });
    expect((await stock())[0].quantity).toBe('6.250');
    const listed = (await inject('GET', q('/api/finance/items'))).json();
    expect(listed.find((i: Json) => i.code === 'ΥΔΡ-15').quantity).toBe('6.250');

    const draft = await create(documentBody('ΤΠΥ', '2026-04-05', [serviceLine('ΥΠ01')]));
    expect(
      (await inject('POST', `/api/finance/documents/${draft.id}/credit_note`, { date: '2026-04-05' })).json()
        .key,
    ).toBe('finance.error.notFinalized');
  });

  it('numbers concurrent finalizes of one series 1…N without gaps or repeats', async () => {
    const drafts = [];
    for (let i = 0; i < 24; i++)
      drafts.push(await create(documentBody('ΑΛΠ', '2026-05-10', [serviceLine('ΥΠ03')])));
    const answers = await Promise.all(drafts.map((d) => finalize(d.id)));
    expect(answers.map((a) => a.statusCode)).toEqual(drafts.map(() => 200));
    const numbers = (
      await t.database.db
        .select({ number: financeDocuments.number })
        .from(financeDocuments)
        .where(and(eq(financeDocuments.seriesId, series.ΑΛΠ as number), eq(financeDocuments.year, 2026)))
    )
      .map((r) => r.number)
      .sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(numbers).toEqual(drafts.map((_, i) => i + 1));
    // Issued at once, concurrently and with a date before the last among them: the refused ones
    // leave no number behind, the others continue the series without a gap.
    const issued = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        inject(
          'POST',
          q('/api/finance/documents?finalize=true'),
          documentBody('ΑΛΠ', i % 6 === 5 ? '2026-05-01' : '2026-05-10', [serviceLine('ΥΠ03')]),
        ),
      ),
    );
    const accepted = issued.filter((a) => a.statusCode === 201).map((a) => a.json().number);
    expect(issued.filter((a) => a.statusCode === 409).map((a) => a.json().key)).toEqual(
      Array.from({ length: 4 }, () => 'finance.error.dateBeforeLast'),
    );
    expect(accepted.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => 25 + i));
  });

  it('lists the documents (FIN) with Greek-aware search, and offers their exports', async () => {
    const page = (
      await inject('GET', q('/api/finance/documents/search?search=τεχνικη&entryState=eq(9)&size=5'))
    ).json();
    expect(page.totalElements).toBeGreaterThan(20);
    expect(page.content[0]).toMatchObject({ traderName: 'Τεχνική Κατασκευαστική ΑΕ', entryState: 9 });
    const exports = await inject('GET', '/api/export/getForEntity?entityName=FIN');
    expect(exports.statusCode).toBe(200);
    expect(exports.json().standard[0].uri).toBe('/api/finance/documents/search?format=pdf');
    expect((await inject('GET', q('/api/finance/documents/search', companyB))).json().totalElements).toBe(0);
  });

  it('prints a Greek PDF in the series’ copies', async () => {
    const [first] = (await inject('GET', q('/api/finance/documents/search?sort=date,ASC&size=1'))).json()
      .content;
    const pdf = await inject('GET', `/api/finance/documents/${first.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
