import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';
import { seedDemoOffice } from './demo-office.ts';
import { injectInto } from './demo-water.ts';

/**
 * The demo's office work (issue 32 item 8) as `npm start` fills it in after the water service: leak
 * reports registered in the incoming book, case folders, the accountant's documents; and a second
 * fill adding nothing.
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
const lists = async () => ({
  submissions: (await get('/api/onlineForms/submissions/search?size=-1&sort=id,ASC')).content as Json[],
  cases: (await get('/api/cases/search?size=-1&sort=id,ASC')).content as Json[],
  finance: ((await get('/api/finance/documents/search?size=-1')).content as Json[]).sort(
    (a, b) => a.id - b.id,
  ),
  documents: (await get('/api/document/search?size=-1')).totalElements as number,
});

let first: Awaited<ReturnType<typeof lists>>;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  await seedDemoOffice(injectInto(t.app));
  first = await lists();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('the demo office', () => {
  it('registers three leak reports in the incoming book, gapless after the demo documents, in three states', async () => {
    expect(first.submissions.map((s) => [s.formTitle, s.status])).toEqual([
      ['Δήλωση βλάβης / διαρροής', 0],
      ['Δήλωση βλάβης / διαρροής', 2],
      ['Δήλωση βλάβης / διαρροής', 3],
    ]);
    // The seed registered three incoming documents (1–3); the reports took the next numbers.
    expect(first.submissions.map((s) => Number(String(s.protocolNumber).split('/')[0]))).toEqual([4, 5, 6]);
  });

  it('files the documents in case folders, the report being repaired with its network case', async () => {
    expect(first.cases.map((c) => [c.name, c.documentsCount, c.closed])).toEqual([
      ['Διαρροές δικτύου ύδρευσης Άνω Πόλης', 2, false],
      ['Νέα σύνδεση ύδρευσης, Ερμού 12', 2, false],
      ['Προϋπολογισμός και τιμολογιακή πολιτική 2026', 2, true],
    ]);
    const repaired = await get(`/api/onlineForms/submissions/${first.submissions[1].id}`);
    expect(repaired.caseId).toBe(first.cases[0].id);
  });

  it("issues the accountant's invoices, credit note and receipt, numbered in their series", async () => {
    expect(first.finance.map((d) => [d.seriesCode, d.number, d.entryState, d.payable])).toEqual([
      ['ΤΠΥ', 1, 9, '186.00'],
      ['ΤΠΥ', 2, 9, '43.40'],
      ['ΠΤΕ', 1, 9, '43.40'],
      ['ΑΛΠ', 1, 9, '49.60'],
    ]);
  });

  it('adds nothing on a second fill', async () => {
    await seedDemoOffice(injectInto(t.app));
    expect(await lists()).toEqual(first);
  });
});
