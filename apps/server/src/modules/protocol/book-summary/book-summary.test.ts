import { documentActions as A, saveDocumentSchema } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../platform/auth.ts';
import { pdfText, xlsxRows } from '../../../test/files.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { createDocument } from '../documents/documents.service.ts';
import { act, createTrader, type ProtocolWorld, protocolWorld } from '../protocol-fixtures.ts';

let w: ProtocolWorld;
let book: number;
let bookYear: number;
const ids: number[] = [];

const LONG = 'Αίτηση για σύνδεση ακινήτου με το δίκτυο ύδρευσης και αποχέτευσης στην οδό Ευαγγελιστρίας';

beforeAll(async () => {
  w = await protocolWorld();
  bookYear = w.year - 1;
  const db = w.t.database.db;
  const [row] = await db
    .insert(protocolBooks)
    .values({
      companyId: w.companyA,
      booktype: 1,
      year: bookYear,
      descr: 'Γενικό Εισερχομένων',
      createuser: 'test',
    })
    .returning();
  book = row?.id as number;
  const sender = await createTrader(w, 'Κωνσταντίνου Ελένη');
  const principal: Principal = {
    userId: w.ids.writer,
    sessionId: 'test',
    username: 'writer',
    kind: 2,
    superAdmin: false,
    scope: ['protocol:write'],
    companyIds: [w.companyA],
    sso: false,
  };
  const register = async (at: string, subject: string) => {
    const doc = await createDocument(
      db,
      principal,
      w.companyA,
      saveDocumentSchema.parse({
        kind: 0,
        subject,
        senders: [sender],
        protocolBookId: book,
        documentTypeId: w.draftType,
        protocolIdSender: 'Φ.100/1',
        protocolSendDate: `${bookYear}-02-20`,
      }),
      { now: new Date(at) },
    );
    ids.push(doc.id);
  };
  await register(`${bookYear}-03-01T10:00:00Z`, 'Πρώτη καταχώριση');
  await register(`${bookYear}-03-02T21:30:00Z`, 'Αργά το βράδυ (23:30 Αθήνα)'); // still 2 March in Athens
  await register(`${bookYear}-03-02T22:30:00Z`, 'Μετά τα μεσάνυχτα (00:30 Αθήνα)'); // 3 March in Athens
  for (let i = 0; i < 90; i++)
    await register(`${bookYear}-03-05T09:${String(i % 60).padStart(2, '0')}:00Z`, `${LONG} αρ. ${i + 1}`);
  const charged = await act(w, {
    actionType: { id: A.charge },
    document: { id: ids[0] },
    userId: w.ids.reader1,
  });
  expect(charged.statusCode, charged.body).toBe(200);
}, 120_000);
afterAll(async () => {
  await w?.t.close();
});

// biome-ignore lint/suspicious/noExplicitAny: API answers read loosely in tests
type Json = Record<string, any>;
const get = (url: string, headers = w.writer) => w.t.app.inject({ method: 'GET', url, headers });
const summary = async (from: string, to: string) => {
  const response = await get(
    `/api/protocol/book_summary?companyid=${w.companyA}&bookId=${book}&from=${from}&to=${to}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('protocol book summary', () => {
  it('JSON: every entry of the book in the range (Athens days), in number order, with the charge', async () => {
    const all = await summary(`${bookYear}-01-01`, `${bookYear}-12-31`);
    expect(all.book).toMatchObject({ id: book, descr: 'Γενικό Εισερχομένων', year: bookYear, booktype: 1 });
    expect(all.entries).toHaveLength(93);
    expect(all.entries.map((e: Json) => e.protocolNumber)).toEqual(
      Array.from({ length: 93 }, (_, i) => i + 1),
    );
    expect(all.entries[0]).toMatchObject({
      documentId: ids[0],
      protocolId: `1/${bookYear}`,
      kind: 0,
      correspondents: 'Κωνσταντίνου Ελένη',
      subject: 'Πρώτη καταχώριση',
      protocolIdSender: 'Φ.100/1',
      protocolSendDate: `${bookYear}-02-20`,
      charge: 'Υπάλληλος Πρώτος',
    });
    const second = await summary(`${bookYear}-03-02`, `${bookYear}-03-02`);
    expect(second.entries.map((e: Json) => e.subject)).toEqual(['Αργά το βράδυ (23:30 Αθήνα)']);
    const third = await summary(`${bookYear}-03-03`, `${bookYear}-03-04`);
    expect(third.entries.map((e: Json) => e.protocolId)).toEqual([`3/${bookYear}`]);
    expect((await summary(`${bookYear}-04-01`, `${bookYear}-04-30`)).entries).toEqual([]);
  });

  it('refuses: protocol:read only (403), another company’s book (404), a reversed range (400)', async () => {
    const url = `/api/protocol/book_summary?companyid=${w.companyA}&bookId=${book}&from=${bookYear}-01-01&to=${bookYear}-12-31`;
    expect((await get(url, w.reader1)).statusCode).toBe(403);
    expect(
      (await get(`${url.replace('/book_summary?', '/book_summary/file?')}&format=pdf`, w.reader1)).statusCode,
    ).toBe(403);
    expect((await get(url, w.other)).statusCode).toBe(404);
    const foreign = await get(
      `/api/protocol/book_summary?companyid=${w.companyB}&bookId=${book}&from=${bookYear}-01-01&to=${bookYear}-12-31`,
      w.other,
    );
    expect(foreign.statusCode).toBe(404);
    const otherBook = await get(
      `/api/protocol/book_summary?companyid=${w.companyA}&bookId=${w.otherBook}&from=${bookYear}-01-01&to=${bookYear}-12-31`,
    );
    expect(otherBook.statusCode).toBe(404);
    const reversed = await get(
      `/api/protocol/book_summary?companyid=${w.companyA}&bookId=${book}&from=${bookYear}-12-31&to=${bookYear}-01-01`,
    );
    expect(reversed.statusCode).toBe(400);
  });

  it('issue 29 item 15: from after to answers error.invalid_date_range on the "to" field, not validation.invalid', async () => {
    const reversed = await get(
      `/api/protocol/book_summary?companyid=${w.companyA}&bookId=${book}&from=${bookYear}-12-31&to=${bookYear}-01-01`,
    );
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().fieldErrors).toEqual([
      { field: 'to', key: 'error.invalid_date_range', params: {} },
    ]);
  });

  it('PDF: A4 landscape, company, book and year on every page, "Σελίδα N από M", Greek subjects', async () => {
    const response = await get(
      `/api/protocol/book_summary/file?companyid=${w.companyA}&bookId=${book}&from=${bookYear}-01-01&to=${bookYear}-12-31&format=pdf&lang=el`,
    );
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const disposition = String(response.headers['content-disposition']);
    expect(disposition).toContain(
      `filename*=UTF-8''${encodeURIComponent(`Βιβλίο_πρωτοκόλλου_Γενικό_Εισερχομένων_${bookYear}-01-01_${bookYear}-12-31.pdf`)}`,
    );
    const bytes = response.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // A4 landscape: 841.89 x 595.28
    expect(bytes.toString('latin1')).toMatch(/\/MediaBox \[0 0 841\.89\d* 595\.2\d*\]/);
    const text = await pdfText(bytes);
    const pages = [...text.matchAll(/Σελίδα (\d+) από (\d+)/g)];
    expect(pages.length).toBeGreaterThan(2);
    const total = Number(pages[0]?.[2]);
    expect(pages.map((m) => Number(m[1]))).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(pages.every((m) => Number(m[2]) === total)).toBe(true);
    const headings = text.match(/Βιβλίο πρωτοκόλλου: Γενικό Εισερχομένων — Έτος \d{4}/g) ?? [];
    // every page: the header and the footer
    expect(headings.length).toBe(2 * total);
    expect(headings[0]).toContain(String(bookYear));
    expect((text.match(/ΔΕΥΑ Αγίας Ελένης/g) ?? []).length).toBe(total);
    expect((text.match(/Αρ\. πρωτ\. αποστολέα/g) ?? []).length).toBe(total); // header row repeated
    expect(text).toContain('Πρώτη καταχώριση');
    expect(text).toContain(`93/${bookYear}`);
    expect(text).toContain('Υπάλληλος Πρώτος');
    expect(text).toContain('Εισερχόμενο');
  });

  it('PDF in English and of an empty range', async () => {
    const response = await get(
      `/api/protocol/book_summary/file?companyid=${w.companyA}&bookId=${book}&from=${bookYear}-06-01&to=${bookYear}-06-30&format=pdf&lang=en`,
    );
    expect(response.statusCode).toBe(200);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Page 1 of 1');
    expect(text).toContain('No entries in this period.');
    expect(text).toContain(`Protocol book: Γενικό Εισερχομένων — Year ${bookYear}`);
  });

  it('Excel: the same columns and rows in number order', async () => {
    const response = await get(
      `/api/protocol/book_summary/file?companyid=${w.companyA}&bookId=${book}&from=${bookYear}-03-01&to=${bookYear}-03-03&format=xlsx&lang=el`,
    );
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['content-disposition'])).toContain('.xlsx');
    const rows = await xlsxRows(response.rawPayload);
    expect(rows[0]).toEqual([
      'Αρ. πρωτ.',
      'Ημ/νία - ώρα',
      'Είδος',
      'Αποστολέας / Παραλήπτης',
      'Θέμα',
      'Αρ. πρωτ. αποστολέα',
      'Ημ/νία αποστολέα',
      'Χρέωση',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual([`1/${bookYear}`, `2/${bookYear}`, `3/${bookYear}`]);
    expect(rows[1]).toEqual([
      `1/${bookYear}`,
      `01/03/${bookYear} 12:00`,
      'Εισερχόμενο',
      'Κωνσταντίνου Ελένη',
      'Πρώτη καταχώριση',
      'Φ.100/1',
      `20/02/${bookYear}`,
      'Υπάλληλος Πρώτος',
    ]);
    expect(rows[2]?.[1]).toBe(`02/03/${bookYear} 23:30`);
  });
});
