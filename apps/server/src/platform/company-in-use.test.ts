import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '../modules/companies/api.ts';
import { financeItems, financeSeries } from '../modules/finance/finance.schema.ts';
import { documents } from '../modules/protocol/protocol.schema.ts';
import { traders } from '../modules/traders/traders.schema.ts';
import { ADMIN_PASSWORD, companyInUseOf, startTestApp, type TestApp } from '../test/harness.ts';

/**
 * Issue 30, one scoping style: a record asked for by id must be of the company in use, not of any of
 * the operator's companies. The administrator works for both companies; each record of the demo
 * company A is 'not found' while working in B, and found once the request names A.
 */
let t: TestApp;
let admin: { authorization: string };
let companyA: number;
let companyB: number;
const ids: Record<string, number> = {};

const inCompany = (
  company: number,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: { ...admin, 'x-company-id': String(company) },
    ...(payload ? { payload } : {}),
  });

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  companyA = await companyInUseOf(t, admin);
  companyB = (await createCompany(t.database.db, { companyname: 'Δήμος Β', companytitle: 'Δήμος Β' }, 'test'))
    .id;
  const db = t.database.db;
  const of = async <T extends { id: number }>(rows: Promise<T[]>, name: string) => {
    const [row] = await rows;
    if (!row) throw new Error(`the demo company has no ${name}`);
    ids[name] = row.id;
  };
  const firstIn = (table: typeof documents) =>
    db
      .select({ id: table.id })
      .from(table)
      .where(eq(table.companyId, companyA))
      .orderBy(asc(table.id))
      .limit(1);
  const [first, second] = await db
    .insert(traders)
    .values([
      { companyId: companyA, fullname: 'Δήμος Αγίας Ελένης', individual: false },
      { companyId: companyA, fullname: 'Ύδρευση Αγίας Ελένης', individual: false },
    ])
    .returning({ id: traders.id });
  ids.trader = first?.id ?? 0;
  ids.secondTrader = second?.id ?? 0;
  await of(firstIn(documents), 'document');
  await of(
    db
      .select({ id: financeItems.id })
      .from(financeItems)
      .where(eq(financeItems.companyId, companyA))
      .limit(1),
    'item',
  );
  const created = async (url: string, body: object) => {
    const response = await inCompany(companyA, 'POST', url, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as number;
  };
  ids.case = await created('/api/cases', { name: 'Υπόθεση της εταιρείας Α' });
  ids.group = await created('/api/users/groups', {
    name: 'Ομάδα της εταιρείας Α',
    description: null,
    permissions: [],
    members: [],
  });
  const [invoices] = await db
    .select({ id: financeSeries.id })
    .from(financeSeries)
    .where(and(eq(financeSeries.companyId, companyA), eq(financeSeries.code, 'ΤΠΥ')));
  const [service] = (await inCompany(companyA, 'GET', '/api/finance/services')).json();
  ids.financeDocument = await created('/api/finance/documents', {
    seriesId: invoices?.id,
    date: '2026-07-02',
    traderId: ids.trader,
    paymentMethod: 5,
    status: 1,
    lines: [
      {
        serviceId: service.id,
        itemId: null,
        warehouseId: null,
        quantity: '1',
        price: '150',
        discount: '0',
        vatPercent: '24',
      },
    ],
    taxes: [],
  });
  const finalized = await inCompany(
    companyA,
    'POST',
    `/api/finance/documents/${ids.financeDocument}/finalize`,
  );
  expect(finalized.statusCode, finalized.body).toBe(200);
  ids.certification = await created('/api/finance/certifications', {
    periodFrom: '2026-07-01',
    periodTo: '2026-07-31',
    date: '2026-08-03',
    notes: null,
  });
});
afterAll(async () => {
  await t?.close();
});

describe('a record by id is of the company in use', () => {
  it('reads: 404 in the other company, found once the request names its company', async () => {
    const reads = [
      `/api/traders/${ids.trader}`,
      `/api/cases/${ids.case}`,
      `/api/cases/${ids.case}/timeline`,
      `/api/users/groups/${ids.group}`,
      `/api/document/${ids.document}`,
      `/api/document/${ids.document}/history`,
      `/api/document/${ids.document}/attachments`,
      `/api/finance/documents/${ids.financeDocument}`,
      `/api/finance/documents/${ids.financeDocument}/pdf`,
      `/api/finance/certifications/${ids.certification}`,
      `/api/finance/certifications/${ids.certification}/xlsx`,
      `/api/finance/items/${ids.item}/stock`,
      `/api/mydata/documents/${ids.financeDocument}`,
    ];
    const failures: string[] = [];
    for (const url of reads) {
      const elsewhere = await inCompany(companyB, 'GET', url);
      if (elsewhere.statusCode !== 404) failures.push(`in B: ${url} → ${elsewhere.statusCode}`);
      const home = await inCompany(companyA, 'GET', url);
      if (home.statusCode !== 200) failures.push(`in A: ${url} → ${home.statusCode} ${home.body}`);
    }
    expect(failures).toEqual([]);
  });

  it('changes: 404 in the other company, and the record is still there', async () => {
    // A change as the record's own company would take it: the record as read is a valid body.
    const asRead = async (url: string) => (await inCompany(companyA, 'GET', url)).json();
    const changes: [method: 'POST' | 'PUT' | 'DELETE', url: string, body: object][] = [
      ['PUT', `/api/traders/${ids.trader}`, await asRead(`/api/traders/${ids.trader}`)],
      ['DELETE', '/api/traders', { ids: [ids.trader] }],
      ['POST', '/api/traders/merge', { survivorId: ids.trader, mergedId: ids.secondTrader, values: {} }],
      ['PUT', `/api/cases/${ids.case}`, await asRead(`/api/cases/${ids.case}`)],
      ['DELETE', '/api/cases', { ids: [ids.case] }],
      ['POST', `/api/cases/${ids.case}/documents`, { documentIds: [ids.document] }],
      ['DELETE', `/api/cases/${ids.case}/documents/${ids.document}`, {}],
      ['PUT', `/api/users/groups/${ids.group}`, await asRead(`/api/users/groups/${ids.group}`)],
      ['DELETE', '/api/users/groups', { ids: [ids.group] }],
      ['PUT', `/api/document/${ids.document}`, { kind: 1, subject: 'Αλλαγή από την άλλη εταιρεία' }],
      ['DELETE', `/api/document/${ids.document}/attachments/1`, {}],
      [
        'PUT',
        `/api/finance/documents/${ids.financeDocument}`,
        await asRead(`/api/finance/documents/${ids.financeDocument}`),
      ],
      ['DELETE', `/api/finance/documents/${ids.financeDocument}`, {}],
      ['POST', `/api/finance/documents/${ids.financeDocument}/finalize`, {}],
      ['POST', `/api/finance/documents/${ids.financeDocument}/credit_note`, { date: '2026-03-01' }],
      ['POST', `/api/finance/certifications/${ids.certification}/finalize`, {}],
      ['DELETE', `/api/finance/certifications/${ids.certification}`, {}],
      ['POST', `/api/mydata/documents/${ids.financeDocument}/cancel`, {}],
    ];
    const failures: string[] = [];
    for (const [method, url, body] of changes) {
      const elsewhere = await inCompany(companyB, method, url, body);
      if (elsewhere.statusCode !== 404)
        failures.push(`in B: ${method} ${url} → ${elsewhere.statusCode} ${elsewhere.body}`);
    }
    expect(failures).toEqual([]);
    for (const url of [
      `/api/traders/${ids.trader}`,
      `/api/traders/${ids.secondTrader}`,
      `/api/cases/${ids.case}`,
    ]) {
      expect((await inCompany(companyA, 'GET', url)).statusCode, url).toBe(200);
    }
  });
});
