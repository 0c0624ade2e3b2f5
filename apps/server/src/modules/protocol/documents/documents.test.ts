import { documentActions } from '@protocol/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../platform/audit.schema.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../test/harness.ts';
import { addUserToCompany, createCompany } from '../../companies/api.ts';
import { notifications } from '../../notifications/notifications.schema.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { traders } from '../../traders/traders.schema.ts';
import { createUser } from '../../users/api.ts';
import { userGroupMembers, userGroupPermissions, userGroups } from '../../users/groups.schema.ts';
import { protocolModule } from '../index.ts';
import { documents, documentTypes } from '../protocol.schema.ts';
import { protocolYearOf } from './documents.common.ts';

type Json = Record<string, unknown>;
type Headers = { authorization: string };

let t: TestApp;
let admin: Headers;
let reader: Headers;
let readerId: number;
let otherCo: Headers;
let companyA: number;
let companyB: number;
const year = protocolYearOf(new Date());
const book = {} as Record<'inA' | 'inOld' | 'outA' | 'inactiveA' | 'inB', number>;
const trader = {} as Record<'papadopoulos' | 'georgiou' | 'other', number>;
const type = {} as Record<'plain' | 'auto', number>;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  const db = t.database.db;
  await db.transaction(async (tx) => {
    const a = await createCompany(tx, { companyname: 'ΔΕΥΑ Δοκιμής', companytitle: 'ΔΕΥΑ Δοκιμής' }, 'test');
    const b = await createCompany(tx, { companyname: 'Δήμος Β', companytitle: 'Δήμος Β' }, 'test');
    companyA = a.id;
    companyB = b.id;
    const books = await tx
      .insert(protocolBooks)
      .values([
        { companyId: companyA, descr: `Εισερχόμενα ${year}`, year, booktype: 1 },
        { companyId: companyA, descr: `Εισερχόμενα ${year - 1}`, year: year - 1, booktype: 1 },
        { companyId: companyA, descr: `Εξερχόμενα ${year}`, year, booktype: 2 },
        { companyId: companyA, descr: 'Κλειστό βιβλίο', year: year - 2, booktype: 1, isActive: false },
        { companyId: companyB, descr: `Εισερχόμενα Β ${year}`, year, booktype: 1 },
      ])
      .returning({ id: protocolBooks.id });
    [book.inA, book.inOld, book.outA, book.inactiveA, book.inB] = books.map((r) => r.id) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const people = await tx
      .insert(traders)
      .values([
        { companyId: companyA, fullname: 'Παπαδόπουλος Νικόλαος', individual: true },
        { companyId: companyA, fullname: 'Γεωργίου Άννα', individual: true },
        { companyId: companyB, fullname: 'Ξένος Συναλλασσόμενος', individual: true },
      ])
      .returning({ id: traders.id });
    [trader.papadopoulos, trader.georgiou, trader.other] = people.map((r) => r.id) as [
      number,
      number,
      number,
    ];
    const types = await tx
      .insert(documentTypes)
      .values([
        { companyId: companyA, seqnr: 3, descr: 'Έγγραφο', autonr: false, checkdates: true },
        { companyId: companyA, seqnr: 1, descr: 'Αίτηση', autonr: true, checkdates: true },
      ])
      .returning({ id: documentTypes.id });
    [type.plain, type.auto] = types.map((r) => r.id) as [number, number];

    // An operator of company A with protocol:read only.
    const user = await createUser(
      tx,
      { username: 'reader', password: 'Reader-2026', firstname: 'Ρένα', lastname: 'Αναγνώστου', kind: 2 },
      'test',
    );
    readerId = user.id;
    await addUserToCompany(tx, companyA, user.id);
    const [group] = await tx.insert(userGroups).values({ companyId: companyA, name: 'Ανάγνωση' }).returning();
    if (!group) throw new Error('no group');
    await tx.insert(userGroupPermissions).values({ groupId: group.id, permission: 'protocol:read' });
    await tx.insert(userGroupMembers).values({ groupId: group.id, userId: user.id });

    // An operator of company B with protocol:write there.
    const other = await createUser(
      tx,
      { username: 'otherco', password: 'Other-2026', firstname: 'Άλλη', lastname: 'Εταιρεία', kind: 2 },
      'test',
    );
    await addUserToCompany(tx, companyB, other.id);
    const [groupB] = await tx
      .insert(userGroups)
      .values({ companyId: companyB, name: 'Πρωτόκολλο' })
      .returning();
    if (!groupB) throw new Error('no group');
    await tx.insert(userGroupPermissions).values({ groupId: groupB.id, permission: 'protocol:write' });
    await tx.insert(userGroupMembers).values({ groupId: groupB.id, userId: other.id });
  });
  reader = await t.login('reader', 'Reader-2026');
  otherCo = await t.login('otherco', 'Other-2026');
});
afterAll(async () => {
  await t?.close();
});

/**
 * The administrator works for both companies and finds a document in the company in use only: the
 * administrator's requests name company A unless they name one themselves.
 */
const inA = (url: string, headers: Headers) =>
  headers !== admin || url.includes('companyid=')
    ? url
    : `${url}${url.includes('?') ? '&' : '?'}companyid=${companyA}`;
const post = (url: string, payload: unknown, headers: Headers = admin) =>
  t.app.inject({ method: 'POST', url: inA(url, headers), headers, payload: payload as Json });
const put = (url: string, payload: unknown, headers: Headers = admin) =>
  t.app.inject({ method: 'PUT', url: inA(url, headers), headers, payload: payload as Json });
const get = (url: string, headers: Headers = admin) =>
  t.app.inject({ method: 'GET', url: inA(url, headers), headers });

const incoming = (subject: string, extra: Json = {}) => ({
  kind: 0,
  subject,
  documentTypeId: type.plain,
  senders: [trader.papadopoulos],
  ...extra,
});
const create = async (payload: Json, headers: Headers = admin, companyId = companyA) => {
  const response = await post(`/api/document?companyid=${companyId}`, payload, headers);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Json & { id: number };
};
const search = async (path: string, query = '', headers: Headers = admin, companyId = companyA) => {
  const response = await get(`/api/${path}?companyid=${companyId}&size=-1&${query}`, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { totalElements: number; content: (Json & { id: number })[] };
};
const ids = (page: { content: { id: number }[] }) => page.content.map((row) => row.id);
const auditOf = (id: number) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'document'), eq(auditLog.entityId, String(id))))
    .orderBy(asc(auditLog.id));
const actionsOf = (doc: Json) =>
  Object.fromEntries(
    (doc.actions as { name: string; allowed: boolean; reasonKey: string | null }[]).map((a) => [
      a.name,
      a.allowed ? true : a.reasonKey,
    ]),
  );

describe('create, register, update, get', () => {
  it('creates an unregistered draft with its senders; correspondents are their names', async () => {
    const doc = await create(
      incoming('Αίτηση σύνδεσης', { senders: [trader.papadopoulos, trader.georgiou] }),
    );
    expect(doc).toMatchObject({
      kind: 0,
      state: 0,
      protocolId: null,
      protocolNumber: null,
      protocolBook: null,
      isOutbox: false,
      documentType: { id: type.plain, seqnr: 3 },
      senders: [
        { id: trader.papadopoulos, fullname: 'Παπαδόπουλος Νικόλαος' },
        { id: trader.georgiou, fullname: 'Γεωργίου Άννα' },
      ],
      receivers: [],
      createUser: { username: 'admin' },
      attachedFilesCount: 0,
    });
    const [row] = await t.database.db.select().from(documents).where(eq(documents.id, doc.id));
    expect(row?.correspondents).toBe('Παπαδόπουλος Νικόλαος, Γεωργίου Άννα');
    expect((doc.actions as unknown[]).length).toBe(14);
    expect((doc.actions as { id: number }[]).map((a) => a.id)).toEqual(
      Object.values(documentActions).sort((a, b) => a - b),
    );
    expect(actionsOf(doc)).toMatchObject({
      edit: true,
      send: 'documents.reason.not_outgoing',
      return: 'documents.reason.no_active_charge',
      history: true,
      restore: 'documents.reason.not_archived',
      delete: true,
      fileTransfer: 'documents.reason.no_attachments',
    });
    expect((await auditOf(doc.id)).map((a) => a.action)).toEqual(['created']);
  });

  it('defaults the type to the company type with code 3', async () => {
    const doc = await create({ kind: 0, subject: 'Χωρίς τύπο' });
    expect(doc.documentType).toMatchObject({ id: type.plain, seqnr: 3 });
  });

  it('registers a document saved into a book: N/YYYY, date now, audit line', async () => {
    const before = Date.now();
    const first = await create(incoming('Πρώτο πρωτοκολλημένο', { protocolBookId: book.inA }));
    const second = await create(incoming('Δεύτερο πρωτοκολλημένο', { protocolBookId: book.inA }));
    expect(first).toMatchObject({ protocolNumber: 1, protocolYear: year, protocolId: `1/${year}` });
    expect(first.protocolBook).toMatchObject({ id: book.inA, booktype: 1, year });
    expect(second).toMatchObject({ protocolNumber: 2, protocolId: `2/${year}` });
    expect(Date.parse(first.protocolDate as string)).toBeGreaterThanOrEqual(before - 1000);
    expect(actionsOf(first).delete).toBe('error.document_registered_delete');
    const audit = await auditOf(first.id);
    expect(audit.map((a) => a.action)).toEqual(['created', 'registered']);
    expect(audit[1]?.changes).toMatchObject({ protocolId: { before: null, after: `1/${year}` } });
  });

  it('registers a draft when a later save names a book', async () => {
    const draft = await create(incoming('Πρόχειρο προς πρωτοκόλληση'));
    const response = await put(
      `/api/document/${draft.id}`,
      incoming('Πρόχειρο προς πρωτοκόλληση', { protocolBookId: book.inA }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ protocolNumber: 3, protocolId: `3/${year}` });
    expect((await auditOf(draft.id)).map((a) => a.action)).toEqual(['created', 'updated', 'registered']);
  });

  it('autonr registers a new document of that type in the single active book of the year', async () => {
    const doc = await create(incoming('Αίτηση με αυτόματη αρίθμηση', { documentTypeId: type.auto }));
    expect(doc).toMatchObject({ protocolBook: { id: book.inA }, protocolNumber: 4 });
  });

  it('refuses changes of the registration fields once registered (409) and keeps the rest editable', async () => {
    const doc = await create(incoming('Κλειδωμένο', { protocolBookId: book.inA }));
    const otherBook = await put(
      `/api/document/${doc.id}`,
      incoming('Κλειδωμένο', { protocolBookId: book.inOld }),
    );
    expect(otherBook.statusCode).toBe(409);
    expect(otherBook.json()).toMatchObject({ key: 'error.document_registered_locked' });
    const unregister = await put(`/api/document/${doc.id}`, incoming('Κλειδωμένο', { protocolBookId: null }));
    expect(unregister.statusCode).toBe(409);
    const kind = await put(`/api/document/${doc.id}`, {
      ...incoming('Κλειδωμένο', { protocolBookId: book.inA }),
      kind: 1,
    });
    expect(kind.statusCode).toBe(409);
    expect(kind.json().fieldErrors).toEqual([expect.objectContaining({ field: 'kind' })]);

    const changed = await put(
      `/api/document/${doc.id}`,
      incoming('Κλειδωμένο αλλά με νέο θέμα', {
        protocolBookId: book.inA,
        senders: [trader.georgiou],
        protocolIdSender: '77/Α',
      }),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      subject: 'Κλειδωμένο αλλά με νέο θέμα',
      protocolNumber: doc.protocolNumber,
      protocolDate: doc.protocolDate,
      senders: [{ id: trader.georgiou }],
    });
    const updated = (await auditOf(doc.id)).find((a) => a.action === 'updated');
    expect(updated?.changes).toMatchObject({
      subject: { before: 'Κλειδωμένο', after: 'Κλειδωμένο αλλά με νέο θέμα' },
      senders: { before: 'Παπαδόπουλος Νικόλαος', after: 'Γεωργίου Άννα' },
      protocolIdSender: { before: null, after: '77/Α' },
    });
  });

  it('GET answers the document; 404 for an unknown id', async () => {
    const doc = await create(incoming('Για ανάγνωση', { protocolBookId: book.inA }));
    const response = await get(`/api/document/${doc.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: doc.id, protocolId: doc.protocolId, companyId: companyA });
    expect((await get('/api/document/999999')).statusCode).toBe(404);
  });

  it('charges on save: assignment, chargedUser, notification', async () => {
    const doc = await create(incoming('Χρεωμένο στον αναγνώστη', { chargedUserId: readerId }));
    expect(doc.chargedUser).toMatchObject({ id: readerId, fullName: 'Ρένα Αναγνώστου' });
    const rows = await t.database.db.select().from(notifications).where(eq(notifications.entityId, doc.id));
    expect(rows).toEqual([
      expect.objectContaining({ userId: readerId, messageKey: 'documents.notification.charged' }),
    ]);
  });

  it('declares the document_traders reference for trader merges', () => {
    expect(protocolModule.references).toContainEqual({
      target: 'traders',
      table: 'document_traders',
      column: 'trader_id',
    });
  });
});

describe('book, trader and date checks', () => {
  const counter = async () =>
    (await search('inbox/search', `protocolBook=eq(${encodeURIComponent(`Εισερχόμενα ${year}`)})`))
      .totalElements;

  it('refuses an inactive book (409), a book of the wrong type or of another company (400)', async () => {
    const registeredBefore = await counter();
    const inactive = await post(
      `/api/document?companyid=${companyA}`,
      incoming('x', { protocolBookId: book.inactiveA }),
    );
    expect(inactive.statusCode).toBe(409);
    expect(inactive.json()).toMatchObject({ key: 'error.document_book_inactive' });
    const wrongType = await post(
      `/api/document?companyid=${companyA}`,
      incoming('x', { protocolBookId: book.outA }),
    );
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json()).toMatchObject({
      key: 'error.document_book_wrong_type',
      fieldErrors: [{ field: 'protocolBookId', key: 'error.document_book_wrong_type' }],
    });
    const otherCompany = await post(
      `/api/document?companyid=${companyA}`,
      incoming('x', { protocolBookId: book.inB }),
    );
    expect(otherCompany.statusCode).toBe(400);
    expect(otherCompany.json()).toMatchObject({ key: 'error.document_book_invalid' });
    // Nothing was stored, and the numbering continues without a gap.
    expect(await counter()).toBe(registeredBefore);
    const next = await create(incoming('Μετά τις αποτυχίες', { protocolBookId: book.inA }));
    expect(next.protocolNumber).toBe(registeredBefore + 1);
  });

  it('refuses a trader of another company with a clear key', async () => {
    const response = await post(
      `/api/document?companyid=${companyA}`,
      incoming('x', { senders: [trader.other] }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      key: 'error.document_trader_invalid',
      fieldErrors: [{ field: 'senders.0', key: 'error.document_trader_invalid' }],
    });
  });

  it('checkdates: the sender’s date may not be in the future', async () => {
    const response = await post(
      `/api/document?companyid=${companyA}`,
      incoming('x', { protocolSendDate: `${year + 1}-01-01` }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ key: 'error.document_send_date_future' });
  });

  it('GET /document/books offers the active books of the kind', async () => {
    const incomingBooks = await get(`/api/document/books?kind=0&companyid=${companyA}`);
    expect(incomingBooks.json().map((b: { id: number }) => b.id)).toEqual([book.inA, book.inOld]);
    const outgoingBooks = await get(`/api/document/books?kind=1&companyid=${companyA}`);
    expect(outgoingBooks.json()).toEqual([{ id: book.outA, descr: `Εξερχόμενα ${year}`, year, booktype: 2 }]);
  });
});

describe('lists', () => {
  let outgoingId: number;
  let archivedId: number;
  let deletedId: number;

  beforeAll(async () => {
    outgoingId = (
      await create({
        kind: 1,
        subject: 'Απάντηση για τη σύνδεση ύδρευσης',
        documentTypeId: type.plain,
        receivers: [trader.georgiou],
        protocolBookId: book.outA,
      })
    ).id;
    archivedId = (await create(incoming('Αρχειοθετημένο έγγραφο'))).id;
    deletedId = (await create(incoming('Διαγραμμένο πρόχειρο'))).id;
    await t.database.db.update(documents).set({ state: 1 }).where(eq(documents.id, archivedId));
    await t.database.db.update(documents).set({ state: 9 }).where(eq(documents.id, deletedId));
  });

  it('inbox, outbox, all, archived and deleted hold the right documents', async () => {
    const inbox = await search('inbox/search');
    expect(inbox.content.every((d) => d.kind === 0 && d.state === 0)).toBe(true);
    expect(ids(inbox)).not.toContain(outgoingId);
    const outbox = await search('outbox/search');
    expect(ids(outbox)).toEqual([outgoingId]);
    expect(outbox.content[0]).toMatchObject({
      correspondents: 'Γεωργίου Άννα',
      protocolId: `1/${year}`,
      protocolBook: `Εξερχόμενα ${year}`,
      documentType: 'Έγγραφο',
      attachedFilesCount: 0,
    });
    const all = await search('document/search');
    expect(all.totalElements).toBe(inbox.totalElements + outbox.totalElements);
    expect(ids(all)).not.toContain(archivedId);
    expect(ids(await search('document/archived/search'))).toEqual([archivedId]);
    expect(ids(await search('document/deleted/search'))).toEqual([deletedId]);
  });

  it('searches Greek text without accents or case, with the final sigma', async () => {
    const bySender = await search('inbox/search', `search=${encodeURIComponent('παπαδοπουλοσ')}`);
    expect(bySender.totalElements).toBeGreaterThan(0);
    expect(bySender.content.every((d) => String(d.correspondents).includes('Παπαδόπουλος'))).toBe(true);
    const upper = await search('inbox/search', `search=${encodeURIComponent('ΠΑΠΑΔΟΠΟΥΛΟΣ')}`);
    expect(upper.totalElements).toBe(bySender.totalElements);
    const bySubject = await search('outbox/search', `search=${encodeURIComponent('υδρευσης')}`);
    expect(ids(bySubject)).toEqual([outgoingId]);
    const filtered = await search(
      'inbox/search',
      `subject=${encodeURIComponent('ci(contains(κλειδωμενο))')}`,
    );
    expect(filtered.totalElements).toBe(1);
    const bySenderNo = await search('inbox/search', `search=${encodeURIComponent('77/α')}`);
    expect(bySenderNo.content.map((d) => d.protocolIdSender)).toEqual(['77/Α']);
  });

  it('finds a document by its protocol number, written N/YYYY or N', async () => {
    const full = await search('inbox/search', `search=${encodeURIComponent(`2/${year}`)}`);
    expect(full.content.map((d) => d.protocolId)).toContain(`2/${year}`);
    expect(
      full.content.every(
        (d) => String(d.protocolId).includes(`2/${year}`) || String(d.subject).includes('2'),
      ),
    ).toBe(true);
    const bare = await search('inbox/search', 'search=3');
    expect(bare.content.map((d) => d.protocolId)).toContain(`3/${year}`);
    const exact = await search('inbox/search', `protocolId=${encodeURIComponent(`eq(2/${year})`)}`);
    expect(exact.content.map((d) => d.subject)).toEqual(['Δεύτερο πρωτοκολλημένο']);
  });

  it('sorts and filters on joined columns', async () => {
    const sorted = await search('document/search', 'sort=protocolNumber,DESC&protocolNumber=gte(1)');
    const numbers = sorted.content.map((d) => d.protocolNumber as number);
    expect(numbers.length).toBeGreaterThan(2);
    expect([...numbers].sort((a, b) => b - a)).toEqual(numbers);
    const byType = await search(
      'document/search',
      `documentType=${encodeURIComponent('ci(contains(εγγραφο))')}`,
    );
    expect(byType.content.every((d) => d.documentType === 'Έγγραφο')).toBe(true);
  });

  it('runs at most three SQL queries per page, whatever the page size', async () => {
    for (const size of [1, 2, 50, -1]) {
      const before = t.queries.length;
      await get(
        `/api/document/search?companyid=${companyA}&size=${size}&search=${encodeURIComponent('έγγραφο')}&sort=chargedUser,ASC`,
      );
      const listQueries = t.queries.slice(before).filter((q) => !q.includes('live_session('));
      // The page, the planner's estimate of the total, and a count up to the exact-count limit.
      expect(listQueries.length, listQueries.join('\n')).toBeLessThanOrEqual(3);
    }
  });

  it('exports the inbox as the screen shows it (POST /api/export)', async () => {
    const response = await post('/api/export', {
      uri: `/api/inbox/search?companyid=${companyA}&search=${encodeURIComponent('κλειδωμενο')}`,
      params: { format: 'csv', columns: ['protocolId', 'subject', 'correspondents'], lang: 'en' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const csv = Buffer.from(response.json().file, 'base64').toString('utf8');
    expect(csv).toContain('Protocol no.');
    expect(csv).toContain('Κλειδωμένο αλλά με νέο θέμα');
    expect(csv).toContain('Γεωργίου Άννα');
    expect(csv).not.toContain('Αίτηση σύνδεσης');
  });
});

describe('visibility and company isolation', () => {
  it('a protocol:read operator sees only what was charged to them (404 and absent from the lists otherwise)', async () => {
    const hidden = await create(incoming('Κρυφό από τον αναγνώστη', { protocolBookId: book.inA }));
    const charged = await create(incoming('Για τον αναγνώστη', { protocolBookId: book.inA }));
    expect((await get(`/api/document/${charged.id}`, reader)).statusCode).toBe(404);
    const change = await put(
      `/api/document/${charged.id}`,
      incoming('Για τον αναγνώστη', { protocolBookId: book.inA, chargedUserId: readerId }),
    );
    expect(change.statusCode, change.body).toBe(200);

    expect((await get(`/api/document/${hidden.id}`, reader)).statusCode).toBe(404);
    const mine = await get(`/api/document/${charged.id}`, reader);
    expect(mine.statusCode).toBe(200);
    expect(actionsOf(mine.json())).toMatchObject({
      edit: true,
      charge: true,
      return: true,
      archive: 'documents.reason.not_allowed',
      clone: 'documents.reason.not_allowed',
      delete: 'documents.reason.not_allowed',
    });
    const inbox = await search('inbox/search', '', reader);
    expect(ids(inbox)).toContain(charged.id);
    expect(ids(inbox)).not.toContain(hidden.id);
    expect(
      inbox.content.every((d) =>
        ['Για τον αναγνώστη', 'Χρεωμένο στον αναγνώστη'].includes(d.subject as string),
      ),
    ).toBe(true);
    const exported = await post(
      '/api/export',
      { uri: `/api/inbox/search?companyid=${companyA}`, params: { format: 'csv', columns: ['subject'] } },
      reader,
    );
    const csv = Buffer.from(exported.json().file, 'base64').toString('utf8');
    expect(csv).toContain('Για τον αναγνώστη');
    expect(csv).not.toContain('Κρυφό');

    // The chargee may edit it; not the hidden one; and may not create documents.
    const edit = await put(
      `/api/document/${charged.id}`,
      incoming('Για τον αναγνώστη, διορθωμένο', { protocolBookId: book.inA }),
      reader,
    );
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await put(`/api/document/${hidden.id}`, incoming('x'), reader)).statusCode).toBe(404);
    expect((await post(`/api/document?companyid=${companyA}`, incoming('x'), reader)).statusCode).toBe(403);
  });

  it('edit is refused for an archived document (409 with the reason)', async () => {
    const doc = await create(incoming('Θα αρχειοθετηθεί'));
    await t.database.db.update(documents).set({ state: 1 }).where(eq(documents.id, doc.id));
    const response = await put(`/api/document/${doc.id}`, incoming('Αλλαγή'));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ key: 'documents.reason.archived' });
  });

  it('keeps companies apart', async () => {
    const docA = await create(incoming('Μόνο της εταιρείας Α'));
    const docB = await create(
      { kind: 0, subject: 'Της εταιρείας Β', protocolBookId: book.inB },
      otherCo,
      companyB,
    );
    expect(docB.protocolNumber).toBe(1);
    expect((await get(`/api/document/${docA.id}`, otherCo)).statusCode).toBe(404);
    expect((await put(`/api/document/${docA.id}`, incoming('x'), otherCo)).statusCode).toBe(404);
    expect((await get(`/api/inbox/search?companyid=${companyA}`, otherCo)).statusCode).toBe(404);
    expect((await post(`/api/document?companyid=${companyA}`, incoming('x'), otherCo)).statusCode).toBe(404);
    expect(ids(await search('inbox/search', '', otherCo, companyB))).toEqual([docB.id]);
    expect(ids(await search('inbox/search', '', admin, companyB))).toEqual([docB.id]);
    expect(ids(await search('inbox/search'))).not.toContain(docB.id);
    // Company A's traders are not senders of company B's documents.
    const wrong = await post(
      `/api/document?companyid=${companyB}`,
      { kind: 0, subject: 'x', senders: [trader.papadopoulos] },
      otherCo,
    );
    expect(wrong.json()).toMatchObject({ key: 'error.document_trader_invalid' });
  });
});

// Last: it charges a document to the reader, which the visibility tests above do not expect.
describe('the answer of a create', () => {
  it('answers a create with exactly what a later GET answers (the answer is built without re-reading)', async () => {
    for (const payload of [
      incoming('Απάντηση ίδια με το GET', {
        protocolBookId: book.inA,
        senders: [trader.papadopoulos, trader.georgiou],
        receivers: [trader.georgiou],
      }),
      incoming('Χρεωμένο, ίδιο με το GET', { chargedUserId: readerId }),
    ]) {
      const created = await create(payload);
      expect((await get(`/api/document/${created.id}`)).json()).toEqual(created);
    }
  });
});
