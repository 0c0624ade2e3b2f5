import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, companyInUseOf, startTestApp, type TestApp } from '../../test/harness.ts';
import { traders } from '../traders/traders.schema.ts';
import { financeDocuments, financeSeries } from './finance.schema.ts';

/** Income certification (issue 19): totals per income account, once per document, numbering, files. */
let t: TestApp;
let admin: { authorization: string };
let companyA: number;
let traderId: number;
const series: Record<string, number> = {};
const services: Record<string, number> = {};

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
  const [row] = await t.database.db
    .insert(traders)
    .values({ companyId: companyA, fullname: 'Δήμος Αγίας Ελένης' })
    .returning({ id: traders.id });
  traderId = row?.id ?? 0;
  for (const s of await t.database.db
    .select()
    .from(financeSeries)
    .where(eq(financeSeries.companyId, companyA)))
    series[s.code] = s.id;
  for (const s of (await inject('GET', q('/api/finance/services'))).json()) services[s.code] = s.id;
});
afterAll(async () => {
  await t?.close();
});

async function documentOf(code: string, date: string, lines: [string, string][], finalize = true) {
  const created = await inject('POST', q('/api/finance/documents'), {
    seriesId: series[code],
    date,
    traderId,
    paymentMethod: 5,
    status: 1,
    lines: lines.map(([service, quantity]) => ({
      serviceId: services[service],
      itemId: null,
      warehouseId: null,
      quantity,
      price: service === 'ΥΠ01' ? '150' : '40',
      discount: '0',
      vatPercent: '24',
    })),
    taxes: [],
  });
  expect(created.statusCode, created.body).toBe(201);
  if (finalize)
    expect((await inject('POST', `/api/finance/documents/${created.json().id}/finalize`)).statusCode).toBe(
      200,
    );
  return created.json().id as number;
}
const period = { periodFrom: '2026-07-01', periodTo: '2026-07-31', date: '2026-08-03', notes: null };

describe('income certification', () => {
  it("gathers the month's finalized income per account; credit notes subtract; drafts, notes and other months stay out", async () => {
    const invoice = await documentOf('ΤΠΥ', '2026-07-02', [
      ['ΥΠ01', '2'],
      ['ΥΠ02', '1'],
    ]); // 300 + 40
    await documentOf('ΑΛΠ', '2026-07-10', [['ΥΠ02', '3']]); // 120
    await documentOf('ΤΠΥ', '2026-07-11', [['ΥΠ01', '1']], false); // a draft
    await documentOf('ΔΑ', '2026-07-12', [['ΥΠ01', '5']]); // a delivery note is not income
    await documentOf('ΤΠΥ', '2026-08-01', [['ΥΠ01', '1']]); // next month
    const cancelled = await documentOf('ΑΛΠ', '2026-07-13', [['ΥΠ02', '1']]);
    await t.database.db.update(financeDocuments).set({ status: 9 }).where(eq(financeDocuments.id, cancelled));
    const credit = await inject('POST', `/api/finance/documents/${invoice}/credit_note`, {
      date: '2026-07-20',
    });
    const creditId = credit.json().id;
    // Credit only the reconnection (one line of 40.00).
    const draft = credit.json();
    await t.app.inject({
      method: 'PUT',
      url: `/api/finance/documents/${creditId}`,
      headers: admin,
      payload: {
        seriesId: draft.seriesId,
        date: draft.date,
        traderId,
        paymentMethod: 5,
        status: 1,
        lines: [{ ...draft.lines[1], id: undefined, net: undefined, vat: undefined, total: undefined }],
        taxes: [],
      },
    });
    expect((await inject('POST', `/api/finance/documents/${creditId}/finalize`)).statusCode).toBe(200);

    const created = await inject('POST', q('/api/finance/certifications'), period);
    expect(created.statusCode, created.body).toBe(201);
    const cert = created.json();
    // 0002 connection fees: 300.00 (+72.00 VAT); 0003 reconnections: 40 + 120 − 40 = 120.00 (+28.80).
    expect(cert).toMatchObject({
      documents: 3,
      net: '420.00',
      vat: '100.80',
      total: '520.80',
      entryState: 0,
      number: null,
    });
    expect(cert.lines.map((l: Json) => [l.accountCode, l.documents, l.net, l.vat, l.total])).toEqual([
      ['73.00.00.0002', 1, '300.00', '72.00', '372.00'],
      ['73.00.00.0003', 3, '120.00', '28.80', '148.80'],
    ]);
  });

  it('certifies a document once; a deleted draft gives its documents back', async () => {
    const again = await inject('POST', q('/api/finance/certifications'), period);
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('finance.error.noAvailableDocuments');
    const [draft] = (await inject('GET', q('/api/finance/certifications/search'))).json().content;
    expect((await inject('DELETE', `/api/finance/certifications/${draft.id}`)).statusCode).toBe(204);
    expect((await inject('POST', q('/api/finance/certifications'), period)).statusCode).toBe(201);
  });

  it('finalizes with the next number, then refuses changes; prints and exports', async () => {
    const [cert] = (await inject('GET', q('/api/finance/certifications/search'))).json().content;
    const finalized = await inject('POST', `/api/finance/certifications/${cert.id}/finalize`);
    expect(finalized.json()).toMatchObject({ number: 1, year: 2026, entryState: 9, defuser: 'admin' });
    expect((await inject('DELETE', `/api/finance/certifications/${cert.id}`)).statusCode).toBe(409);
    expect((await inject('POST', `/api/finance/certifications/${cert.id}/finalize`)).statusCode).toBe(409);

    const pdf = await inject('GET', `/api/finance/certifications/${cert.id}/pdf`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const xlsx = await inject('GET', `/api/finance/certifications/${cert.id}/xlsx?lang=en`);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const rows = workbook.worksheets[0]
      ?.getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1));
    expect(rows?.[0]).toEqual(['Income certification 1/2026']);
    expect(rows?.at(-1)).toEqual(['', 'Total', 3, 420, 100.8, 520.8]);
  });

  it('two certifications of one period at once: one gets the documents, the other is refused', async () => {
    await documentOf('ΤΠΥ', '2026-09-05', [['ΥΠ01', '1']]);
    const september = { periodFrom: '2026-09-01', periodTo: '2026-09-30', date: '2026-10-01', notes: null };
    const answers = await Promise.all(
      [1, 2, 3].map(() => inject('POST', q('/api/finance/certifications'), september)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
  });
});
