import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: { authorization: string };
let books: string;

// A company of its own: the demo company's books already hold registered documents.
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/companies',
    headers: admin,
    payload: { companyname: 'Δήμος Βιβλίων', companytitle: 'Δήμος Βιβλίων', vatnumber: null },
  });
  books = `/api/parametrics/book?companyid=${created.json().id}`;
});
afterAll(async () => {
  await t?.close();
});

type Row = { id: number | null; descr: string; year: number; booktype: { id: 1 | 2 }; isActive: boolean };
const get = async () => (await t.app.inject({ method: 'GET', url: books, headers: admin })).json();
const post = (rows: Row[]) => t.app.inject({ method: 'POST', url: books, headers: admin, payload: rows });

describe('protocol books: the row table save', () => {
  it('adds rows sent with null ids, in one go', async () => {
    const response = await post([
      { id: null, descr: 'Εισερχόμενα 2026', year: 2026, booktype: { id: 1 }, isActive: true },
      { id: null, descr: 'Εξερχόμενα 2026', year: 2026, booktype: { id: 2 }, isActive: true },
      { id: null, descr: 'Εισερχόμενα 2025', year: 2025, booktype: { id: 1 }, isActive: false },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      expect.objectContaining({
        descr: 'Εισερχόμενα 2026',
        year: 2026,
        booktype: { id: 1, incoming: true },
        isActive: true,
      }),
      expect.objectContaining({ descr: 'Εξερχόμενα 2026', booktype: { id: 2, incoming: false } }),
      expect.objectContaining({ descr: 'Εισερχόμενα 2025', isActive: false }),
    ]);
  });

  it('edits, deletes rows missing from the array, and may swap years within one save', async () => {
    const books = await get();
    const [in2026, out2026, in2025] = books;
    const response = await post([
      { ...in2026, year: 2025, booktype: { id: 1 } },
      { ...in2025, year: 2026, descr: 'Εισερχόμενα (νέο)', booktype: { id: 1 } },
    ]);
    expect(response.statusCode).toBe(200);
    const after = await get();
    expect(after).toHaveLength(2);
    expect(after.find((b: { id: number }) => b.id === out2026.id)).toBeUndefined();
    expect(after.find((b: { id: number }) => b.id === in2025.id)).toMatchObject({
      year: 2026,
      descr: 'Εισερχόμενα (νέο)',
    });
  });

  it('refuses a second book of the same type and year, and keeps the table as it was', async () => {
    const before = await get();
    const response = await post([
      ...before.map((b: Row & { booktype: { id: 1 | 2 } }) => ({ ...b, booktype: { id: b.booktype.id } })),
      { id: null, descr: 'Διπλό', year: 2026, booktype: { id: 1 }, isActive: true },
    ]);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      key: 'error.book_types_unique_per_year',
      message: 'Οι τύποι βιβλίων πρέπει να είναι μοναδικοί ανά έτος',
    });
    expect(await get()).toEqual(before);
  });

  it('refuses an empty description, a year out of range and an id that is not a book of the company', async () => {
    expect(
      (await post([{ id: null, descr: '  ', year: 2026, booktype: { id: 2 }, isActive: true }])).statusCode,
    ).toBe(400);
    const year = await post([{ id: null, descr: 'Χ', year: 1800, booktype: { id: 2 }, isActive: true }]);
    expect(year.statusCode).toBe(400);
    expect(year.json().fieldErrors[0].field).toBe('0.year');
    expect(
      (await post([{ id: 999999, descr: 'Χ', year: 2030, booktype: { id: 2 }, isActive: true }])).statusCode,
    ).toBe(404);
  });

  it('is not reachable without a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/parametrics/book' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/parametrics/book', payload: [] })).statusCode,
    ).toBe(401);
  });
});
