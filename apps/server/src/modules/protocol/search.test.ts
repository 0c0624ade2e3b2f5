import { documentActions } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protocolCounters } from './protocol.schema.ts';
import {
  act,
  createDocument,
  createTrader,
  type Headers,
  type ProtocolWorld,
  protocolWorld,
} from './protocol-fixtures.ts';

let w: ProtocolWorld;
// biome-ignore lint/suspicious/noExplicitAny: API answers read loosely in tests
type Json = Record<string, any>;

let application: Json;
let charged: Json;
let outgoing: Json;
let trader: number;

const search = (text: string, headers: Headers = w.writer, companyId = w.companyA) =>
  w.t.app.inject({
    method: 'GET',
    url: `/api/search?companyid=${companyId}&search=${encodeURIComponent(text)}`,
    headers,
  });
const found = async (text: string, headers: Headers = w.writer, companyId = w.companyA) => {
  const response = await search(text, headers, companyId);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Json;
};
const ids = (list: Json[]) => list.map((item) => item.id);

beforeAll(async () => {
  w = await protocolWorld();
  trader = await createTrader(w, 'Ύδρευση Κορίνθου ΑΕ');
  await w.t.app.inject({
    method: 'PUT',
    url: `/api/traders/${trader}?companyid=${w.companyA}`,
    headers: w.admin,
    payload: { individual: false, fullname: 'Ύδρευση Κορίνθου ΑΕ', vatnumber: '094014201' },
  });
  // Its number becomes 1532, as in the issue: long enough to be searched without the year.
  await w.t.database.db
    .insert(protocolCounters)
    .values({ bookId: w.inBook, year: w.year, last: 1531 })
    .onConflictDoUpdate({ target: [protocolCounters.bookId, protocolCounters.year], set: { last: 1531 } });
  application = await createDocument(w, {
    kind: 0,
    subject: 'Αίτηση σύνδεσης με το δίκτυο',
    name: 'Οδός Ερμού 12',
    senders: [trader],
    protocolBookId: w.inBook,
  });
  charged = await createDocument(w, {
    kind: 0,
    subject: 'Αιτήσεις για διακανονισμό',
    documentTypeId: w.draftType,
  });
  const charge = await act(w, {
    actionType: { id: documentActions.charge },
    document: { id: charged.id },
    userId: w.ids.reader1,
  });
  expect(charge.statusCode, charge.body).toBe(200);
  outgoing = await createDocument(w, {
    kind: 1,
    subject: 'Απάντηση σε αίτηση',
    receivers: [trader],
    documentTypeId: w.draftType,
  });
  const caseResponse = await w.t.app.inject({
    method: 'POST',
    url: `/api/cases?companyid=${w.companyA}`,
    headers: w.writer,
    payload: { name: 'Αιτήσεις νέων παροχών' },
  });
  expect(caseResponse.statusCode, caseResponse.body).toBe(201);
  // The same words in another company.
  await createDocument(
    w,
    { kind: 0, subject: 'Αίτηση άλλης εταιρείας', protocolBookId: w.otherBook },
    w.other,
    w.companyB,
  );
  await createTrader(w, 'Αιτήσεις Β ΑΕ', w.companyB);
});
// The demo company's own documents may match too: assertions name the test's rows.
afterAll(async () => {
  await w?.t.close();
});

describe('GET /api/search', () => {
  it("finds 'Αίτηση' from 'αιτηση', 'ΑΙΤΗΣΕΙΣ' and 'αιτησεις', and 'Αιτήσεις' from a prefix", async () => {
    for (const text of ['αιτηση', 'ΑΙΤΗΣΕΙΣ', 'αιτησεις', 'Αίτηση', 'αιτη']) {
      const result = await found(text);
      expect(ids(result.inboxDTOList), text).toEqual(expect.arrayContaining([application.id, charged.id]));
      expect(ids(result.outboxDTOList), text).toContain(outgoing.id);
      expect(
        result.caseDTOList.map((c: Json) => c.name),
        text,
      ).toEqual(['Αιτήσεις νέων παροχών']);
    }
    const [hit] = (await found('σύνδεση δίκτυο')).inboxDTOList;
    expect(hit).toEqual({
      id: application.id,
      protocolId: application.protocolId,
      name: 'Οδός Ερμού 12',
      subject: 'Αίτηση σύνδεσης με το δίκτυο',
    });
  });

  it('matches a word ending in ς from input ending in σ, and the other way round', async () => {
    expect(ids((await found('οδοσ')).inboxDTOList)).toContain(application.id);
    expect(ids((await found('ΟΔΟΣ ερμου')).inboxDTOList)).toContain(application.id);
    expect(ids((await found('αιτησης')).inboxDTOList)).toContain(application.id);
  });

  it('finds a document by its protocol number, with or without the year', async () => {
    expect(application.protocolId).toBe(`1532/${w.year}`);
    for (const text of [`1532/${w.year}`, '1532', ' 1532 ']) {
      expect((await found(text)).inboxDTOList[0].id, text).toBe(application.id);
    }
    expect(ids((await found('1532/1999')).inboxDTOList)).not.toContain(application.id);
  });

  it('finds a trader by name and by ΑΦΜ, whole or begun', async () => {
    for (const text of ['094014201', '0940', 'κορινθου', 'ΥΔΡΕΥΣΗ']) {
      expect(ids((await found(text, w.admin)).traderDTOList), text).toEqual([trader]);
    }
  });

  it('finds nothing of another company, and names no company the asker does not work for', async () => {
    const result = await found('αιτηση', w.admin);
    expect(result.inboxDTOList.map((d: Json) => d.subject)).not.toContain('Αίτηση άλλης εταιρείας');
    expect(result.traderDTOList).toEqual([]);
    const other = await found('αιτηση', w.other, w.companyB);
    expect(other.inboxDTOList.map((d: Json) => d.subject)).toEqual(['Αίτηση άλλης εταιρείας']);
    expect(other.traderDTOList.map((t: Json) => t.fullname)).toEqual(['Αιτήσεις Β ΑΕ']);
    expect((await search('αιτηση', w.writer, w.companyB)).statusCode).toBe(404);
  });

  it('shows a read-only operator only the documents they may see, and no list they lack', async () => {
    const reader = await found('αιτηση', w.reader1);
    expect(ids(reader.inboxDTOList)).toEqual([charged.id]);
    expect(reader.outboxDTOList).toEqual([]);
    expect(reader.traderDTOList).toEqual([]);
    expect((await found('αιτηση', w.reader2)).inboxDTOList).toEqual([]);
    expect((await found(String(application.protocolId), w.reader1)).inboxDTOList).toEqual([]);
  });

  it('answers 400 with a translated message under 3 characters', async () => {
    for (const text of ['', 'αι', '  αι  ']) {
      const response = await w.t.app.inject({
        method: 'GET',
        url: `/api/search?search=${encodeURIComponent(text)}`,
        headers: { ...w.writer, 'accept-language': 'el' },
      });
      expect(response.statusCode, text).toBe(400);
      expect(response.json()).toMatchObject({
        key: 'error.search_too_short',
        params: { length: 3 },
        message: 'Πληκτρολογήστε τουλάχιστον 3 χαρακτήρες για αναζήτηση',
      });
    }
    const noWords = await found('///');
    expect(noWords.inboxDTOList).toEqual([]);
  });

  it('needs a signed-in operator', async () => {
    expect((await w.t.app.inject({ method: 'GET', url: '/api/search?search=αιτηση' })).statusCode).toBe(401);
  });
});
