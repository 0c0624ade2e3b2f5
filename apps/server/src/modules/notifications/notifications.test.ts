import { UTILITY_TIME_ZONE } from '@protocol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, companyInUseOf, startTestApp, type TestApp } from '../../test/harness.ts';
import { addUserToCompany, createCompany } from '../companies/api.ts';
import { createUser } from '../users/api.ts';
import { notify } from './api.ts';

let t: TestApp;
let companyA: number;
let companyB: number;
const ids: Record<'maria' | 'nikos', number> = { maria: 0, nikos: 0 };
const headers: Record<'maria' | 'nikos', { authorization: string }> = {} as never;

// biome-ignore lint/suspicious/noExplicitAny: API answers read loosely in tests
type Json = Record<string, any>;

const get = async (url: string, who: 'maria' | 'nikos', extra: Record<string, string> = {}) => {
  const response = await t.app.inject({ method: 'GET', url, headers: { ...headers[who], ...extra } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const post = (url: string, who: 'maria' | 'nikos', payload?: Json) =>
  t.app.inject({ method: 'POST', url, headers: headers[who], ...(payload ? { payload } : {}) });
const unread = async (who: 'maria' | 'nikos') => (await get('/api/notification/getUnread', who)).count;

/** A notification to `to` from the other one, about document `documentId` of `companyId`. */
const send = (to: 'maria' | 'nikos', documentId: number, messageKey: string, companyId = companyA) =>
  t.database.db.transaction((tx) =>
    notify(tx, {
      companyId,
      userIds: [ids[to]],
      senderId: ids[to === 'maria' ? 'nikos' : 'maria'],
      messageKey,
      params: { subject: `Αίτηση ${documentId}` },
      entity: 'document',
      entityId: documentId,
      comments: `Σχόλιο ${documentId}`,
    }),
  );

beforeAll(async () => {
  t = await startTestApp();
  const admin = await t.login('admin', ADMIN_PASSWORD);
  companyA = await companyInUseOf(t, admin);
  await t.database.db.transaction(async (tx) => {
    companyB = (await createCompany(tx, { companyname: 'Δήμος Β', companytitle: 'Δήμος Β' }, 'test')).id;
    for (const [username, firstname, lastname] of [
      ['maria', 'Μαρία', 'Παπαδοπούλου'],
      ['nikos', 'Νίκος', 'Γεωργίου'],
    ] as const) {
      const user = await createUser(
        tx,
        { username, password: 'Operator-2026', firstname, lastname, kind: 2 },
        'test',
      );
      await addUserToCompany(tx, companyA, user.id);
      ids[username] = user.id;
    }
  });
  headers.maria = await t.login('maria', 'Operator-2026');
  headers.nikos = await t.login('nikos', 'Operator-2026');
});
afterAll(async () => {
  await t?.close();
});

describe('notifications (spec §3, §4, §7)', () => {
  it('lists the asker’s own, newest first, in their language, with sender and what it is about', async () => {
    await send('maria', 101, 'documents.notification.charged');
    await send('maria', 102, 'documents.notification.shared');
    await send('nikos', 103, 'documents.notification.returned');

    const greek = await get('/api/notification', 'maria');
    expect(greek.map((n: Json) => n.entityId)).toEqual([102, 101]);
    expect(greek[1]).toMatchObject({
      kind: 'documents.notification.charged',
      message: 'Σας χρεώθηκε το έγγραφο «Αίτηση 101».',
      sender: { firstName: 'Νίκος', lastName: 'Γεωργίου' },
      senderName: 'Γεωργίου Νίκος',
      comments: 'Σχόλιο 101',
      entity: 'document',
      path: '/document/101/edit',
      companyId: companyA,
      read: false,
    });
    expect(Date.parse(greek[1].createDate)).not.toBeNaN();
    const english = await get('/api/notification', 'maria', { 'accept-language': 'en' });
    expect(english[1].message).toBe('The document “Αίτηση 101” was charged to you.');
    expect((await get('/api/notification', 'nikos')).map((n: Json) => n.entityId)).toEqual([103]);
  });

  it('counts the unread, marks one read, and someone else’s is not found', async () => {
    expect(await unread('maria')).toBe(2);
    const [newest] = await get('/api/notification', 'maria');
    const [nikos] = await get('/api/notification', 'nikos');

    expect((await post(`/api/notification/${nikos.id}/markRead`, 'maria')).statusCode).toBe(404);
    expect(await unread('nikos')).toBe(1);
    expect((await post('/api/notification/999999/markRead', 'maria')).statusCode).toBe(404);

    expect((await post(`/api/notification/${newest.id}/markRead`, 'maria')).statusCode).toBe(204);
    expect(await unread('maria')).toBe(1);
    // Marking again is harmless and keeps it read.
    expect((await post(`/api/notification/${newest.id}/markRead`, 'maria')).statusCode).toBe(204);
    expect((await get('/api/notification', 'maria'))[0].read).toBe(true);
  });

  it('marks all read, only the asker’s', async () => {
    await send('maria', 104, 'documents.notification.charged');
    expect(await unread('maria')).toBe(2);
    expect((await post('/api/notification/markAllRead', 'maria')).json()).toEqual({ updated: 2 });
    expect(await unread('maria')).toBe(0);
    expect(await unread('nikos')).toBe(1);
  });

  it('hides what came from a company the operator does not work for', async () => {
    await send('maria', 105, 'documents.notification.charged', companyB);
    expect(await unread('maria')).toBe(0);
    expect((await get('/api/notification', 'maria')).map((n: Json) => n.entityId)).not.toContain(105);
  });

  it('lists them on the list engine with the unread, kind and date filters', async () => {
    await send('maria', 106, 'documents.notification.shared');
    await send('maria', 107, 'documents.notification.charged');
    const search = (query: string, extra: Record<string, string> = {}) =>
      get(`/api/notification/search?${query}`, 'maria', extra);

    const all = await search('');
    expect(all.totalElements).toBe(5);
    expect(all.content.map((n: Json) => n.entityId)).toEqual([107, 106, 104, 102, 101]);
    expect(all.content[0].message).toBe('Σας χρεώθηκε το έγγραφο «Αίτηση 107».');
    expect((await search('', { 'accept-language': 'en' })).content[0].message).toBe(
      'The document “Αίτηση 107” was charged to you.',
    );
    const entityIds = async (query: string) => (await search(query)).content.map((n: Json) => n.entityId);
    expect(await entityIds('read=eq(false)')).toEqual([107, 106]);
    expect(await entityIds('kind=eq(documents.notification.shared)')).toEqual([106, 102]);
    const today = new Date().toLocaleDateString('sv-SE', { timeZone: UTILITY_TIME_ZONE });
    expect(await entityIds(`createDate=eq(${today})`)).toHaveLength(5);
    expect(await entityIds('createDate=gte(2999-01-01)')).toEqual([]);
    expect(await entityIds('search=γεωργ')).toHaveLength(5);

    // Mass mark-as-read of the selected: someone else's id among them is skipped.
    const [nikos] = await get('/api/notification', 'nikos');
    const [newest] = all.content;
    const marked = await post('/api/notification/markRead', 'maria', { ids: [newest.id, nikos.id] });
    expect(marked.json()).toEqual({ updated: 1 });
    expect(await entityIds('read=eq(false)')).toEqual([106]);
    expect(await unread('nikos')).toBe(1);
  });
});
