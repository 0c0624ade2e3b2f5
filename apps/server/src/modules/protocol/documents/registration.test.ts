import { type SaveDocumentRequest, saveDocumentSchema } from '@protocol/contracts';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../platform/audit.schema.ts';
import type { Principal } from '../../../platform/auth.ts';
import { AppError } from '../../../platform/errors.ts';
import { adminPrincipal, startTestApp, type TestApp } from '../../../test/harness.ts';
import { createCompany } from '../../companies/api.ts';
import { companies, companyUsers } from '../../companies/companies.schema.ts';
import { notifications } from '../../notifications/notifications.schema.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { traders } from '../../traders/traders.schema.ts';
import { users } from '../../users/users.schema.ts';
import {
  documentAssignments,
  documents,
  documentTraders,
  documentTypes,
  protocolCounters,
} from '../protocol.schema.ts';
import { checkSendDate, resolveReferences } from './documents.references.ts';
import { createDocument, updateDocument } from './documents.service.ts';

/** Protocol numbers: 1…N per book and year, year roll-over, independent books, rollbacks. */

let t: TestApp;
let principal: Principal;
let companyId: number;
let incoming: number;
let outgoing: number;
let incomingNextYear: number;

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  companyId = (await createCompany(db, { companyname: 'Αρίθμηση', companytitle: 'Αρίθμηση' }, 'test')).id;
  principal = await adminPrincipal(t);
  const books = await db
    .insert(protocolBooks)
    .values([
      { companyId, descr: 'Εισερχόμενα 2026', year: 2026, booktype: 1 },
      { companyId, descr: 'Εξερχόμενα 2026', year: 2026, booktype: 2 },
      { companyId, descr: 'Εισερχόμενα 2027', year: 2027, booktype: 1 },
    ])
    .returning({ id: protocolBooks.id });
  [incoming, outgoing, incomingNextYear] = books.map((b) => b.id) as [number, number, number];
});
afterAll(async () => {
  await t?.close();
});

const save = (input: SaveDocumentRequest) => saveDocumentSchema.parse(input);
const register = (bookId: number, kind: 0 | 1, now: Date, subject = 'Έγγραφο') =>
  createDocument(t.database.db, principal, companyId, save({ kind, subject, protocolBookId: bookId }), {
    now,
  });
const numbersOf = async (bookId: number, year: number) =>
  (
    await t.database.db
      .select({ n: documents.protocolNumber })
      .from(documents)
      .where(and(eq(documents.protocolBookId, bookId), eq(documents.protocolYear, year)))
      .orderBy(asc(documents.protocolNumber))
  ).map((r) => r.n);
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('protocol numbering', () => {
  it('numbers 1…N per book; two books number independently', async () => {
    const june = new Date('2026-06-15T09:00:00Z');
    for (let i = 0; i < 5; i++) {
      const a = await register(incoming, 0, june);
      expect(a.protocolId).toBe(`${i + 1}/2026`);
      if (i < 3) {
        const b = await register(outgoing, 1, june);
        expect(b.protocolId).toBe(`${i + 1}/2026`);
      }
    }
    expect(await numbersOf(incoming, 2026)).toEqual(range(5));
    expect(await numbersOf(outgoing, 2026)).toEqual(range(3));
  });

  it('starts again at 1 in a new year (Europe/Athens calendar), in the same book', async () => {
    // 23:59:59 on 31 December in Athens (UTC+2) is still 2026 …
    const lastSecond = await register(incoming, 0, new Date('2026-12-31T21:59:59Z'));
    expect(lastSecond).toMatchObject({ protocolNumber: 6, protocolYear: 2026 });
    expect(lastSecond.protocolDate).toBe('2026-12-31T21:59:59.000Z');
    // … 00:00:01 on 1 January is 2027: number 1 again, in this book and in the new year's book.
    const firstSecond = await register(incoming, 0, new Date('2026-12-31T22:00:01Z'));
    expect(firstSecond).toMatchObject({ protocolNumber: 1, protocolYear: 2027, protocolId: '1/2027' });
    const nextYearBook = await register(incomingNextYear, 0, new Date('2027-01-02T08:00:00Z'));
    expect(nextYearBook).toMatchObject({ protocolNumber: 1, protocolYear: 2027 });
    const again = await register(incoming, 0, new Date('2027-01-03T08:00:00Z'));
    expect(again.protocolId).toBe('2/2027');
    expect(await numbersOf(incoming, 2026)).toEqual(range(6));
    expect(await numbersOf(incoming, 2027)).toEqual(range(2));
    const counters = await t.database.db
      .select()
      .from(protocolCounters)
      .where(eq(protocolCounters.bookId, incoming))
      .orderBy(asc(protocolCounters.year));
    expect(counters.map((c) => [c.year, c.last])).toEqual([
      [2026, 6],
      [2027, 2],
    ]);
  });

  it('a failed transaction gives its number back', async () => {
    const now = new Date('2027-02-01T10:00:00Z');
    await expect(
      t.database.db.transaction(async (tx) => {
        const doc = await createDocument(
          tx,
          principal,
          companyId,
          save({ kind: 0, subject: 'Θα αποτύχει', protocolBookId: incoming }),
          { now },
        );
        expect(doc.protocolId).toBe('3/2027');
        throw new Error('the transaction fails after the number was taken');
      }),
    ).rejects.toThrow('after the number was taken');
    const next = await register(incoming, 0, now);
    expect(next.protocolId).toBe('3/2027');
    expect(await numbersOf(incoming, 2027)).toEqual(range(3));
  });

  it('registering a draft later takes the next number of its registration year', async () => {
    const db = t.database.db;
    const draft = await createDocument(db, principal, companyId, save({ kind: 1, subject: 'Πρόχειρο' }));
    expect(draft.protocolId).toBeNull();
    const registered = await updateDocument(
      db,
      principal,
      companyId,
      draft.id,
      save({ kind: 1, subject: 'Πρόχειρο', protocolBookId: outgoing }),
      { now: new Date('2027-03-01T10:00:00Z') },
    );
    expect(registered).toMatchObject({
      protocolNumber: 1,
      protocolYear: 2027,
      protocolBook: { id: outgoing },
    });
  });

  it('the demo company has registered demo documents in this year’s books', async () => {
    const rows = await t.database.db
      .select({ kind: documents.kind, n: documents.protocolNumber, correspondents: documents.correspondents })
      .from(documents)
      .innerJoin(companies, eq(companies.id, documents.companyId))
      .where(and(eq(companies.companyname, 'ΔΕΥΑ Αγίας Ελένης'), isNotNull(documents.protocolNumber)))
      .orderBy(asc(documents.kind), asc(documents.protocolNumber));
    expect(rows.filter((r) => r.kind === 0).map((r) => r.n)).toEqual([1, 2, 3]);
    expect(rows.filter((r) => r.kind === 1).map((r) => r.n)).toEqual([1, 2]);
    expect(rows.every((r) => r.correspondents)).toBe(true);
  });

  it('a create is one statement: when it fails nothing is written, and its number goes back', async () => {
    const db = t.database.db;
    const [clerk] = await db.insert(users).values({ username: 'atomic-clerk' }).returning({ id: users.id });
    const [sender] = await db
      .insert(traders)
      .values({ companyId, fullname: 'Αποστολέας', createuser: 'test' })
      .returning({ id: traders.id });
    if (!clerk || !sender) throw new Error('no fixtures');
    await db.insert(companyUsers).values({ companyId, userId: clerk.id });
    const now = new Date('2027-04-01T10:00:00Z');
    const counts = async () => {
      const [row] = rowsOf<Record<string, number>>(
        await db.execute(sql`SELECT
          (SELECT count(*)::int FROM ${documents}) AS documents,
          (SELECT count(*)::int FROM ${documentTraders}) AS traders,
          (SELECT count(*)::int FROM ${documentAssignments}) AS assignments,
          (SELECT count(*)::int FROM ${notifications}) AS notifications,
          (SELECT count(*)::int FROM ${auditLog}) AS audit,
          (SELECT last FROM ${protocolCounters} WHERE book_id = ${incoming} AND year = 2027) AS counter`),
      );
      return row;
    };
    const input = (subject: string) =>
      save({ kind: 0, subject, protocolBookId: incoming, senders: [sender.id], chargedUserId: clerk.id });
    const before = await counts();
    // Test-only: the document's own insert fails after the number was taken in the same statement.
    await db.execute(sql`
      CREATE FUNCTION test_fail_create() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.subject = 'Αποτυγχάνει' THEN RAISE EXCEPTION 'test failure after number %', NEW.protocol_number; END IF;
        RETURN NEW;
      END $$`);
    await db.execute(sql`CREATE TRIGGER test_fail_create AFTER INSERT ON documents
      FOR EACH ROW EXECUTE FUNCTION test_fail_create()`);
    try {
      await expect(createDocument(db, principal, companyId, input('Αποτυγχάνει'), { now })).rejects.toThrow();
    } finally {
      await db.execute(sql`DROP TRIGGER test_fail_create ON documents`);
      await db.execute(sql`DROP FUNCTION test_fail_create()`);
    }
    expect(await counts()).toEqual(before);

    const created = await createDocument(db, principal, companyId, input('Πετυχαίνει'), { now });
    expect(created.protocolNumber).toBe((before?.counter ?? 0) + 1);
    expect(await counts()).toEqual({
      documents: (before?.documents ?? 0) + 1,
      traders: (before?.traders ?? 0) + 1,
      assignments: (before?.assignments ?? 0) + 1,
      notifications: (before?.notifications ?? 0) + 1,
      audit: (before?.audit ?? 0) + 2,
      counter: created.protocolNumber,
    });
  });

  it('a create naming what is not usable writes nothing, takes no number, and answers the errors of the checks', async () => {
    const db = t.database.db;
    const [otherCompany] = await db
      .insert(companies)
      .values({ companyname: 'Άλλη', companytitle: 'Άλλη' })
      .returning({ id: companies.id });
    if (!otherCompany) throw new Error('no company');
    const [foreignTrader, foreignBook, closedBook, checkedType, stranger] = await Promise.all([
      db
        .insert(traders)
        .values({ companyId: otherCompany.id, fullname: 'Ξένος', createuser: 'test' })
        .returning(),
      db
        .insert(protocolBooks)
        .values({ companyId: otherCompany.id, descr: 'Ξένο', year: 2026, booktype: 1 })
        .returning(),
      db
        .insert(protocolBooks)
        .values({ companyId, descr: 'Κλειστό', year: 2031, booktype: 1, isActive: false })
        .returning(),
      db
        .insert(documentTypes)
        .values({ companyId, seqnr: 77, descr: 'Ελέγχει ημερομηνίες', checkdates: true })
        .returning(),
      db.insert(users).values({ username: 'not-of-the-company' }).returning(),
    ]).then((rows) => rows.map((r) => r[0]?.id ?? 0) as [number, number, number, number, number]);
    const now = new Date('2026-06-01T09:00:00Z');
    const cases: [string, SaveDocumentRequest][] = [
      [
        'a foreign sender and category',
        { kind: 0, subject: 'x', senders: [foreignTrader], subjectCategoryId: 999999 },
      ],
      [
        'a foreign receiver of an outgoing one',
        { kind: 1, subject: 'x', receivers: [foreignTrader], protocolBookId: outgoing },
      ],
      ['a type of no company', { kind: 0, subject: 'x', documentTypeId: 999999, protocolBookId: incoming }],
      [
        'a chargee not of the company',
        { kind: 0, subject: 'x', chargedUserId: stranger, protocolBookId: incoming },
      ],
      ['a foreign book', { kind: 0, subject: 'x', protocolBookId: foreignBook }],
      ['a book of the other type', { kind: 1, subject: 'x', protocolBookId: incoming }],
      ['a closed book', { kind: 0, subject: 'x', protocolBookId: closedBook }],
      [
        "a sender's date after today with checkdates",
        {
          kind: 0,
          subject: 'x',
          documentTypeId: checkedType,
          protocolSendDate: '2026-06-02',
          protocolBookId: incoming,
        },
      ],
    ];
    const written = async () =>
      rowsOf<Record<string, number>>(
        await db.execute(sql`SELECT (SELECT count(*)::int FROM ${documents}) AS documents,
          (SELECT count(*)::int FROM ${auditLog}) AS audit,
          (SELECT coalesce(sum(last), 0)::int FROM ${protocolCounters}) AS numbers`),
      )[0];
    const answer = (error: unknown) =>
      error instanceof AppError
        ? { status: error.status, key: error.key, params: error.params, fields: error.fieldErrors }
        : error;
    for (const [label, request] of cases) {
      const input = save(request);
      const before = await written();
      const byCreate = await createDocument(db, principal, companyId, input, { now }).then(
        () => 'created',
        answer,
      );
      // What the checks alone answer for the same save (as an update runs them).
      const byChecks = await resolveReferences(db, companyId, input, input.protocolBookId)
        .then((resolved) => checkSendDate(resolved.type, input.protocolSendDate, now, now))
        .then(() => 'created', answer);
      expect(byCreate, label).toEqual(byChecks);
      expect(byCreate, label).toMatchObject({ status: expect.any(Number), key: expect.any(String) });
      expect(await written(), label).toEqual(before);
    }
  });
});
