import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/files.ts';
import { documentTypes } from '../protocol.schema.ts';
import { createDocument, createTrader, type ProtocolWorld, protocolWorld } from '../protocol-fixtures.ts';

// biome-ignore lint/suspicious/noExplicitAny: API answers read loosely in tests
type Json = Record<string, any>;

let w: ProtocolWorld;
let registered: Json;
let draft: Json;

beforeAll(async () => {
  w = await protocolWorld();
  const [type] = await w.t.database.db
    .insert(documentTypes)
    .values({
      companyId: w.companyA,
      seqnr: 91,
      descr: 'Με απόδειξη',
      autonr: false,
      checkdates: false,
      printype: 1,
      copies: 2,
    })
    .returning({ id: documentTypes.id });
  const sender = await createTrader(w, 'Κωνσταντίνου Ελένη');
  registered = await createDocument(w, {
    kind: 0,
    subject: 'Αίτηση σύνδεσης με το δίκτυο ύδρευσης',
    documentTypeId: type?.id,
    protocolBookId: w.inBook,
    senders: [sender],
    protocolIdSender: 'Φ.100/7',
    protocolSendDate: `${w.year}-01-02`,
  });
  draft = await createDocument(w, { kind: 0, subject: 'Πρόχειρο χωρίς αριθμό', documentTypeId: w.draftType });
}, 60_000);
afterAll(async () => {
  await w?.t.close();
});

const receipt = (id: number, headers: Json = w.writer, query = '') =>
  w.t.app.inject({ method: 'GET', url: `/api/document/${id}/receipt${query}`, headers });
const pages = (bytes: Buffer) => (bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;

describe('GET /api/document/{id}/receipt (registration receipt)', () => {
  it('tells the web the type’s receipt settings on the document', () => {
    expect(registered.protocolId).toMatch(/^\d+\/\d{4}$/);
    expect(registered.receipt).toEqual({ printype: 1, copies: 2 });
  });

  it('is a PDF with the number, subject and traders, one page per copy (Greek)', async () => {
    const response = await receipt(registered.id, w.writer, '?lang=el');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(/^inline; /);
    expect(pages(response.rawPayload)).toBe(2);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Απόδειξη πρωτοκόλλησης');
    expect(text).toContain(registered.protocolId);
    expect(text).toContain('Αίτηση σύνδεσης με το δίκτυο ύδρευσης');
    expect(text).toContain('Κωνσταντίνου Ελένη');
    expect(text).toContain('Φ.100/7');
    expect(text).toContain(`02/01/${w.year}`);
    expect(text).toContain('Εισερχόμενο');
    expect(text).toContain('Γραμματέας Πρωτοκόλλου');
    expect(text).toContain('Αντίτυπο 1 από 2');
    expect(text).toContain('Αντίτυπο 2 από 2');
    expect(text).toMatch(/\d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2}:\d{2}/);
  });

  it('speaks English when asked', async () => {
    const response = await receipt(registered.id, { ...w.writer, 'accept-language': 'en-GB,en' });
    expect(response.statusCode).toBe(200);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Protocol registration receipt');
    expect(text).toContain('Copy 2 of 2');
  });

  it('is refused for an unregistered document (409), an invisible one (404) and anonymously (401)', async () => {
    const unregistered = await receipt(draft.id);
    expect(unregistered.statusCode).toBe(409);
    expect(unregistered.json().key).toBe('error.document_not_registered');
    // reader2 neither created it nor is charged or shared: not visible.
    expect((await receipt(registered.id, w.reader2)).statusCode).toBe(404);
    expect((await receipt(registered.id, w.other)).statusCode).toBe(404);
    expect((await receipt(registered.id, {})).statusCode).toBe(401);
  });
});
