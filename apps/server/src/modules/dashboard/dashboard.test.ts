import type { Dashboard } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { addUserToCompany, createCompany } from '../companies/api.ts';
import { notifications } from '../notifications/notifications.schema.ts';
import { protocolBooks } from '../parametrics/parametrics.schema.ts';
import { cases, documents } from '../protocol/protocol.schema.ts';
import { createUser } from '../users/api.ts';
import { userGroupMembers, userGroupPermissions, userGroups } from '../users/groups.schema.ts';
import { addDays } from './dashboard.cards.ts';

/*
 * Hand-made data in two fresh companies (the demo company's documents stay out of the figures), at a
 * fixed instant: 2026-11-24 22:30 UTC is already Wednesday 25/11 00:30 in Athens (EET, UTC+2).
 */
const NOW = new Date('2026-11-24T22:30:00Z');
const PASSWORD = 'Dashboard-2026';

let t: TestApp;
let companyC: number;
let companyD: number;
const ids = { writer: 0, reader: 0 };
const auth: Record<'writer' | 'reader', { authorization: string }> = {} as never;

async function dashboard(who: 'writer' | 'reader', companyId: number): Promise<Dashboard> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/dashboard?companyid=${companyId}`,
    headers: auth[who],
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  t = await startTestApp();
  const db = t.database.db;
  await db.transaction(async (tx) => {
    const c = await createCompany(tx, { companyname: 'ΔΕΥΑ Γ', companytitle: 'ΔΕΥΑ Γ' }, 'test');
    const d = await createCompany(tx, { companyname: 'ΔΕΥΑ Δ', companytitle: 'ΔΕΥΑ Δ' }, 'test');
    companyC = c.id;
    companyD = d.id;
    for (const [name, permission, companies] of [
      ['writer', 'protocol:write', [c.id, d.id]],
      ['reader', 'protocol:read', [c.id]],
    ] as const) {
      const user = await createUser(
        tx,
        { username: `dash-${name}`, password: PASSWORD, firstname: name, lastname: 'Δοκιμή', kind: 2 },
        'test',
      );
      ids[name] = user.id;
      for (const companyId of companies) {
        await addUserToCompany(tx, companyId, user.id);
        const [group] = await tx
          .insert(userGroups)
          .values({ companyId, name: `dash-${name}` })
          .returning();
        if (!group) throw new Error('no group');
        await tx.insert(userGroupPermissions).values({ groupId: group.id, permission });
        await tx.insert(userGroupMembers).values({ groupId: group.id, userId: user.id });
      }
    }
    const [general, secret, otherBook] = await tx
      .insert(protocolBooks)
      .values([
        { companyId: c.id, descr: 'Γενικό', year: 2026, booktype: 0 },
        { companyId: c.id, descr: 'Εμπιστευτικό', year: 2026, booktype: 1 },
        { companyId: d.id, descr: 'Γενικό Δ', year: 2026, booktype: 0 },
      ])
      .returning();
    if (!general || !secret || !otherBook) throw new Error('no books');
    let number = 0;
    const registered = (bookId: number, at: string) => ({
      protocolBookId: bookId,
      protocolNumber: ++number,
      protocolYear: 2026,
      protocolDate: new Date(at),
    });
    await tx.insert(documents).values([
      // Athens 25/11 00:10: today, charged to the writer.
      {
        companyId: c.id,
        kind: 0,
        subject: 'σήμερα',
        chargedUserId: ids.writer,
        ...registered(general.id, '2026-11-24T22:10:00Z'),
      },
      // Athens 24/11 23:50: the same UTC day as the one above, but yesterday; the reader's.
      {
        companyId: c.id,
        kind: 0,
        subject: 'χθες',
        chargedUserId: ids.reader,
        ...registered(general.id, '2026-11-24T21:50:00Z'),
      },
      // Athens 1/11 02:00 and 00:30 (UTC still 31/10 for the second): the month's first day.
      {
        companyId: c.id,
        kind: 1,
        subject: 'αρχή μήνα',
        createUserId: ids.reader,
        ...registered(secret.id, '2026-11-01T00:00:00Z'),
      },
      { companyId: c.id, kind: 0, subject: 'μεσάνυχτα', ...registered(secret.id, '2026-10-31T22:30:00Z') },
      // Athens 27/10: the first day of the 30; 26/10 is outside.
      { companyId: c.id, kind: 0, subject: 'πρώτη μέρα', ...registered(general.id, '2026-10-27T10:00:00Z') },
      { companyId: c.id, kind: 0, subject: 'εκτός', ...registered(general.id, '2026-10-26T10:00:00Z') },
      // Archived: handled, and out of the registrations (the active lists do not show it).
      {
        companyId: c.id,
        kind: 0,
        subject: 'αρχειοθετημένο',
        state: 1,
        chargedUserId: ids.writer,
        ...registered(general.id, '2026-11-24T23:00:00Z'),
      },
      // An unregistered draft charged to the writer: still to be handled.
      { companyId: c.id, kind: 1, subject: 'πρόχειρο', chargedUserId: ids.writer },
      // Another company's document, registered today and charged to the writer.
      {
        companyId: d.id,
        kind: 0,
        subject: 'άλλη εταιρεία',
        chargedUserId: ids.writer,
        ...registered(otherBook.id, '2026-11-24T22:20:00Z'),
      },
    ]);
    await tx.insert(cases).values([
      { companyId: c.id, code: '2026/0001', name: 'Πρώτη υπόθεση' },
      { companyId: c.id, code: '2026/0002', name: 'Δεύτερη υπόθεση', closed: true },
      { companyId: d.id, code: '2026/0001', name: 'Υπόθεση Δ' },
    ]);
    const message = { messageKey: 'documents.notification.charged' };
    await tx.insert(notifications).values([
      { companyId: c.id, userId: ids.writer, ...message },
      { companyId: c.id, userId: ids.writer, ...message },
      { companyId: c.id, userId: ids.writer, readAt: NOW, ...message },
      { companyId: null, userId: ids.writer, ...message },
      { companyId: d.id, userId: ids.writer, ...message },
      { companyId: c.id, userId: ids.reader, ...message },
    ]);
  });
  // Sessions are checked against the database's clock, which the fake one does not move on a real
  // PostgreSQL server: sign in on the real clock, then return to the fixed instant.
  vi.useRealTimers();
  auth.writer = await t.login('dash-writer', PASSWORD);
  auth.reader = await t.login('dash-reader', PASSWORD);
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
});

afterAll(async () => {
  vi.useRealTimers();
  await t?.close();
});

describe('GET /api/dashboard', () => {
  it("counts the writer's cards in the company in use, in Athens days", async () => {
    const { today, cards } = await dashboard('writer', companyC);
    expect(today).toBe('2026-11-25');
    expect(cards.chargedToMe?.count).toBe(2);
    expect(cards.chargedToMe?.recent.map((d) => d.subject)).toEqual(['πρόχειρο', 'σήμερα']);
    expect(cards.registrations?.books).toEqual([
      expect.objectContaining({ book: 'Γενικό', today: 1, month: 2 }),
      expect.objectContaining({ book: 'Εμπιστευτικό', today: 0, month: 2 }),
    ]);
    expect(cards.unreadNotifications).toEqual({ count: 3 });
    expect(cards.recentCases?.items.map((c) => c.code)).toEqual(['2026/0002', '2026/0001']);
  });

  it('zero-fills the 30 days and splits them at Athens midnight, not UTC midnight', async () => {
    const days = (await dashboard('writer', companyC)).cards.registrations?.days ?? [];
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: '2026-10-27', count: 1 });
    expect(days.at(-1)).toEqual({ day: '2026-11-25', count: 1 });
    expect(days.at(-2)).toEqual({ day: '2026-11-24', count: 1 });
    expect(days.find((d) => d.day === '2026-11-01')).toEqual({ day: '2026-11-01', count: 2 });
    expect(days.find((d) => d.day === '2026-10-31')).toEqual({ day: '2026-10-31', count: 0 });
    expect(days.reduce((sum, d) => sum + d.count, 0)).toBe(5);
    expect(days.map((d) => d.day)).toEqual(Array.from({ length: 30 }, (_, i) => addDays('2026-10-27', i)));
  });

  it('shows a read-only operator only the documents they may see', async () => {
    const { cards } = await dashboard('reader', companyC);
    expect(cards.chargedToMe?.count).toBe(1);
    expect(cards.chargedToMe?.recent.map((d) => d.subject)).toEqual(['χθες']);
    // Only 'χθες' (charged to them) and 'αρχή μήνα' (created by them) are theirs to see.
    expect(cards.registrations?.books).toEqual([
      expect.objectContaining({ book: 'Γενικό', today: 0, month: 1 }),
      expect.objectContaining({ book: 'Εμπιστευτικό', today: 0, month: 1 }),
    ]);
    expect(cards.unreadNotifications).toEqual({ count: 1 });
  });

  it("counts only the named company's data", async () => {
    const { cards } = await dashboard('writer', companyD);
    expect(cards.chargedToMe?.recent.map((d) => d.subject)).toEqual(['άλλη εταιρεία']);
    expect(cards.registrations?.books).toEqual([
      expect.objectContaining({ book: 'Γενικό Δ', today: 1, month: 1 }),
    ]);
    expect(cards.unreadNotifications).toEqual({ count: 2 });
    expect(cards.recentCases?.items.map((c) => c.name)).toEqual(['Υπόθεση Δ']);
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/dashboard?companyid=${companyD}`,
      headers: auth.reader,
    });
    expect(refused.statusCode).toBe(404);
  });

  it('answers in one query per card, whatever the data', async () => {
    const before = t.queries.length;
    await dashboard('writer', companyC);
    const cardQueries = t.queries
      .slice(before)
      .filter((q) => !/live_session|sessions|users|company_users|user_group/.test(q));
    expect(cardQueries).toHaveLength(4);
  });
});
