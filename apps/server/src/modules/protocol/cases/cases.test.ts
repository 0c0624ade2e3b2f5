import { documentActions as A } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseTypes } from '../protocol.schema.ts';
import {
  act,
  createDocument,
  type Headers,
  type ProtocolWorld,
  protocolWorld,
} from '../protocol-fixtures.ts';

let w: ProtocolWorld;
let caseType: number;
let foreignCaseType: number;

beforeAll(async () => {
  w = await protocolWorld();
  const db = w.t.database.db;
  caseType = (
    await db.insert(caseTypes).values({ companyId: w.companyA, descr: 'Νέα σύνδεση' }).returning()
  )[0]?.id as number;
  foreignCaseType = (
    await db.insert(caseTypes).values({ companyId: w.companyB, descr: 'Ξένος τύπος' }).returning()
  )[0]?.id as number;
});
afterAll(async () => {
  await w?.t.close();
});

// biome-ignore lint/suspicious/noExplicitAny: API answers read loosely in tests
type Json = Record<string, any>;
const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Headers = w.writer,
) => w.t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Json }) });
const createCase = async (payload: Json, headers: Headers = w.writer, companyId = w.companyA) => {
  const response = await call('POST', `/api/cases?companyid=${companyId}`, payload, headers);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
};
const draft = (subject: string, headers: Headers = w.writer) =>
  createDocument(w, { kind: 0, subject, documentTypeId: w.draftType }, headers);

describe('case folders', () => {
  it('creates with the next code of the year, a case type and linked documents; reads it back', async () => {
    const doc = await draft('Αίτηση για νέα παροχή');
    const first = await createCase({
      name: 'Σύνδεση οικίας Παπαδόπουλου',
      caseTypeId: caseType,
      documentIds: [doc.id],
    });
    expect(first.code).toMatch(new RegExp(`^${w.year}/\\d{4}$`));
    expect(first).toMatchObject({
      name: 'Σύνδεση οικίας Παπαδόπουλου',
      caseType: { id: caseType, descr: 'Νέα σύνδεση' },
      closed: false,
      createuser: 'writer',
      documents: [
        expect.objectContaining({ id: doc.id, subject: 'Αίτηση για νέα παροχή', addedBy: 'writer' }),
      ],
    });
    const second = await createCase({ name: 'Δεύτερη' });
    const n = (code: string) => Number(code.split('/')[1]);
    expect(n(second.code)).toBe(n(first.code) + 1);
    // a code typed by hand is kept; the same code again is refused
    await createCase({ code: 'ΥΠ-1', name: 'Με κωδικό' });
    const duplicate = await call('POST', `/api/cases?companyid=${w.companyA}`, {
      code: 'ΥΠ-1',
      name: 'Άλλη',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().key).toBe('error.case_code_taken');
    // another company's case type is invalid
    const badType = await call('POST', `/api/cases?companyid=${w.companyA}`, {
      name: 'Χ',
      caseTypeId: foreignCaseType,
    });
    expect(badType.statusCode).toBe(400);
    const again = await call('GET', `/api/cases/${first.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json().documents).toHaveLength(1);
  });

  it('updates details; PUT adds documents; link and unlink one by one; each in the document history', async () => {
    const [d1, d2, d3] = [await draft('Ένα'), await draft('Δύο'), await draft('Τρία')];
    const c = await createCase({ name: 'Υπόθεση', documentIds: [d1.id] });
    const updated = await call('PUT', `/api/cases/${c.id}`, {
      code: c.code,
      name: 'Υπόθεση (αλλαγή)',
      agencies: 'Δήμος',
      closed: true,
      documentIds: [d2.id],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Υπόθεση (αλλαγή)', agencies: 'Δήμος', closed: true });
    expect(updated.json().documents.map((d: Json) => d.id)).toEqual([d1.id, d2.id]);
    const linked = await call('POST', `/api/cases/${c.id}/documents`, { documentIds: [d3.id, d1.id] });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().documents.map((d: Json) => d.id)).toEqual([d1.id, d2.id, d3.id]);
    const removed = await call('DELETE', `/api/cases/${c.id}/documents/${d2.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().documents.map((d: Json) => d.id)).toEqual([d1.id, d3.id]);
    expect((await call('DELETE', `/api/cases/${c.id}/documents/${d2.id}`)).statusCode).toBe(404);
    // a document in a case cannot be deleted; out of it, it can
    const refused = await act(w, { actionType: { id: A.delete }, document: { id: d1.id } });
    expect(refused.json().key).toBe('error.document_in_case');
    expect((await act(w, { actionType: { id: A.delete }, document: { id: d2.id } })).statusCode).toBe(200);
    // a deleted document cannot be linked
    const deletedLink = await call('POST', `/api/cases/${c.id}/documents`, { documentIds: [d2.id] });
    expect(deletedLink.statusCode).toBe(409);
    const history = (await call('GET', `/api/document/${d2.id}/history`)).json();
    expect(history.map((h: Json) => h.action)).toEqual(
      expect.arrayContaining(['created', 'case_added', 'case_removed', 'delete']),
    );
  });

  it('timeline: the history lines of all its documents, newest first, with the document', async () => {
    const [d1, d2] = [await draft('Πρώτο της υπόθεσης'), await draft('Δεύτερο της υπόθεσης')];
    const c = await createCase({ name: 'Χρονολόγιο', documentIds: [d1.id, d2.id] });
    await act(w, {
      actionType: { id: A.charge },
      document: { id: d2.id },
      userId: w.ids.reader1,
      comments: 'χρέωση',
    });
    const response = await call('GET', `/api/cases/${c.id}/timeline`);
    expect(response.statusCode, response.body).toBe(200);
    const timeline = response.json() as Json[];
    expect(timeline[0]).toMatchObject({
      action: 'charge',
      comments: 'χρέωση',
      document: { id: d2.id, subject: 'Δεύτερο της υπόθεσης' },
    });
    const times = timeline.map((l) => l.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set(timeline.map((l) => l.document.id))).toEqual(new Set([d1.id, d2.id]));
    // protocol:read sees the case but only the lines of documents they see (d2 is charged to reader1)
    const asReader = (
      await call('GET', `/api/cases/${c.id}/timeline`, undefined, w.reader1)
    ).json() as Json[];
    expect(new Set(asReader.map((l) => l.document.id))).toEqual(new Set([d2.id]));
  });

  it('permissions: protocol:read reads, links only what it sees; protocol:write changes', async () => {
    const hidden = await draft('Κρυφό');
    const c = await createCase({ name: 'Δικαιώματα' });
    expect((await call('GET', `/api/cases/${c.id}`, undefined, w.reader1)).statusCode).toBe(200);
    expect(
      (await call('POST', `/api/cases?companyid=${w.companyA}`, { name: 'Όχι' }, w.reader1)).statusCode,
    ).toBe(403);
    expect((await call('PUT', `/api/cases/${c.id}`, { name: 'Όχι' }, w.reader1)).statusCode).toBe(403);
    expect((await call('DELETE', '/api/cases', { ids: [c.id] }, w.reader1)).statusCode).toBe(403);
    // the admin-level super admin sees everything; a document of another company is not found
    const foreign = await createDocument(w, { kind: 0, subject: 'Ξένο' }, w.other, w.companyB);
    expect(
      (await call('POST', `/api/cases/${c.id}/documents`, { documentIds: [foreign.id] })).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `/api/cases/${c.id}/documents`, { documentIds: [hidden.id] })).statusCode,
    ).toBe(200);
  });

  it('list: company-scoped search with the list engine; delete; other company isolation', async () => {
    const c = await createCase({ code: 'ΑΡΔ-77', name: 'Άρδευση Αγίου Νικολάου', caseTypeId: caseType });
    await createCase({ name: 'Υπόθεση της Β' }, w.other, w.companyB);
    const search = await call('GET', `/api/cases/search?companyid=${w.companyA}&search=αγιου νικολαου`);
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().content).toEqual([
      expect.objectContaining({ id: c.id, code: 'ΑΡΔ-77', caseType: 'Νέα σύνδεση', documentsCount: 0 }),
    ]);
    const all = (await call('GET', `/api/cases/search?companyid=${w.companyA}&size=-1`)).json();
    expect(all.content.map((r: Json) => r.name)).not.toContain('Υπόθεση της Β');
    const filtered = await call('GET', `/api/cases/search?companyid=${w.companyA}&code=ci(contains(αρδ))`);
    expect(filtered.json().content.map((r: Json) => r.id)).toEqual([c.id]);
    // another company: its case is not found, its list is not reachable
    expect((await call('GET', `/api/cases/${c.id}`, undefined, w.other)).statusCode).toBe(404);
    expect((await call('GET', `/api/cases/${c.id}/timeline`, undefined, w.other)).statusCode).toBe(404);
    expect(
      (await call('GET', `/api/cases/search?companyid=${w.companyA}`, undefined, w.other)).statusCode,
    ).toBe(404);
    expect((await call('DELETE', '/api/cases', { ids: [c.id] }, w.other)).statusCode).toBe(404);
    // delete
    expect((await call('DELETE', '/api/cases', { ids: [c.id] })).statusCode).toBe(204);
    expect((await call('GET', `/api/cases/${c.id}`)).statusCode).toBe(404);
  });

  it('export: the cases list is registered for the exports', async () => {
    await createCase({ name: 'Για εξαγωγή' });
    const response = await call('POST', '/api/export', {
      uri: `/api/cases/search?companyid=${w.companyA}`,
      params: { format: 'csv' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(Buffer.from(response.json().file, 'base64').toString('utf8')).toContain('Για εξαγωγή');
  });
});
