import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyUsers } from '../modules/companies/companies.schema.ts';
import { financeSeries, financeServices } from '../modules/finance/finance.schema.ts';
import { documents } from '../modules/protocol/protocol.schema.ts';
import { traders } from '../modules/traders/traders.schema.ts';
import { userGroupMembers, userGroupPermissions, userGroups } from '../modules/users/groups.schema.ts';
import { sessions } from '../modules/users/users.schema.ts';
import {
  ADMIN_PASSWORD,
  companyInUseOf,
  createOperator,
  OPERATOR_PASSWORD,
  startTestApp,
  type TestApp,
} from '../test/harness.ts';

/**
 * The hot writes (registration, invoice issuing) run on the principal a node remembered for the
 * session, checking the session in their own statement: what another node changed in the database
 * (a sign-out, the operator's companies) is honoured by the very next write, and nothing is written.
 */
let t: TestApp;
let admin: { authorization: string };
let companyId: number;
let clerkId: number;
let groupId: number;
const invoice = { seriesId: 0, traderId: 0, serviceId: 0 };

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  companyId = await companyInUseOf(t, admin);
  const created = await createOperator(t, admin, {
    username: 'remembered',
    firstname: 'Μνήμη',
    lastname: 'Κόμβου',
  });
  clerkId = created.json().id;
  const db = t.database.db;
  const [group] = await db
    .insert(userGroups)
    .values({ companyId, name: 'Πρωτόκολλο και τιμολόγια' })
    .returning({ id: userGroups.id });
  groupId = group?.id ?? 0;
  await db.insert(userGroupPermissions).values([
    { groupId, permission: 'protocol:write' },
    { groupId, permission: 'finance:write' },
  ]);
  await db.insert(userGroupMembers).values({ groupId, userId: clerkId });
  await db.insert(companyUsers).values({ companyId, userId: clerkId }).onConflictDoNothing();
  const [series] = await db
    .select({ id: financeSeries.id })
    .from(financeSeries)
    .where(and(eq(financeSeries.companyId, companyId), eq(financeSeries.kind, 'servicesInvoice')));
  const [service] = await db
    .select({ id: financeServices.id })
    .from(financeServices)
    .where(eq(financeServices.companyId, companyId));
  const [trader] = await db
    .insert(traders)
    .values({ companyId, fullname: 'Πελάτης', vatnumber: '094014201', individual: false })
    .returning({ id: traders.id });
  Object.assign(invoice, { seriesId: series?.id, serviceId: service?.id, traderId: trader?.id });
});
afterAll(async () => {
  await t?.close();
});

const register = (headers: { authorization: string }, subject: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/document?companyid=${companyId}`,
    headers,
    payload: { kind: 0, subject },
  });
const issue = (headers: { authorization: string }) =>
  t.app.inject({
    method: 'POST',
    url: `/api/finance/documents?finalize=true&companyid=${companyId}`,
    headers,
    payload: {
      seriesId: invoice.seriesId,
      date: '2026-11-25',
      traderId: invoice.traderId,
      paymentMethod: 5,
      status: 1,
      lines: [
        {
          serviceId: invoice.serviceId,
          itemId: null,
          warehouseId: null,
          quantity: '1',
          price: '10',
          discount: '0',
          vatPercent: '24',
        },
      ],
      taxes: [],
    },
  });
const written = async () =>
  (
    (await t.database.db.execute(
      sql`SELECT (SELECT count(*)::int FROM documents) + (SELECT count(*)::int FROM finance_documents) AS n`,
    )) as unknown as { rows: { n: number }[] }
  ).rows[0]?.n;

describe('a session remembered by its node', () => {
  it('is refused by the next registration and invoice once signed out elsewhere, and nothing is written', async () => {
    const session = await t.login('remembered', OPERATOR_PASSWORD);
    expect((await register(session, 'Πρώτη')).statusCode).toBe(201);
    expect((await issue(session)).statusCode).toBe(201);
    // Remembered now: the next ones read no session first, and still succeed.
    const queries = t.queries.length;
    expect((await register(session, 'Δεύτερη')).statusCode).toBe(201);
    expect(t.queries.length - queries).toBe(1);
    // Signed out on another node: only the database knows.
    await t.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, clerkId));
    const before = await written();
    expect((await register(session, 'Μετά την έξοδο')).statusCode).toBe(401);
    expect((await issue(session)).statusCode).toBe(401);
    // A bad body answers 401 too, not its 400: a signed-out session learns nothing.
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/document?companyid=${companyId}`,
      headers: session,
      payload: { kind: 7 },
    });
    expect(bad.statusCode).toBe(401);
    expect(await written()).toBe(before);
    expect(
      await t.database.db.select().from(documents).where(eq(documents.subject, 'Μετά την έξοδο')),
    ).toEqual([]);
  });

  it('follows a change of the operator made elsewhere: out of the company, the next write is not found', async () => {
    const session = await t.login('remembered', OPERATOR_PASSWORD);
    expect((await register(session, 'Πριν')).statusCode).toBe(201);
    expect((await issue(session)).statusCode).toBe(201);
    await t.database.db
      .delete(companyUsers)
      .where(and(eq(companyUsers.companyId, companyId), eq(companyUsers.userId, clerkId)));
    const before = await written();
    expect((await register(session, 'Χωρίς εταιρεία')).statusCode).toBe(404);
    expect((await issue(session)).statusCode).toBe(404);
    expect(await written()).toBe(before);
    await t.database.db.insert(companyUsers).values({ companyId, userId: clerkId });
    // Back in the company: written again, as the principal now is.
    expect((await register(session, 'Ξανά μέσα')).statusCode).toBe(201);
  });

  it('follows a permission taken away elsewhere: the next write is forbidden', async () => {
    const session = await t.login('remembered', OPERATOR_PASSWORD);
    expect((await register(session, 'Με δικαίωμα')).statusCode).toBe(201);
    await t.database.db
      .delete(userGroupPermissions)
      .where(
        and(eq(userGroupPermissions.groupId, groupId), eq(userGroupPermissions.permission, 'protocol:write')),
      );
    const before = await written();
    expect((await register(session, 'Χωρίς δικαίωμα')).statusCode).toBe(403);
    expect(await written()).toBe(before);
  });
});

describe('a list read on a session remembered by its node', () => {
  let reader: number;
  let readers: number;
  beforeAll(async () => {
    const created = await createOperator(t, admin, {
      username: 'reader',
      firstname: 'Ανάγνωση',
      lastname: 'Λίστας',
    });
    reader = created.json().id;
    const db = t.database.db;
    const [group] = await db
      .insert(userGroups)
      .values({ companyId, name: 'Ανάγνωση συναλλασσομένων' })
      .returning({ id: userGroups.id });
    readers = group?.id ?? 0;
    await db.insert(userGroupPermissions).values({ groupId: readers, permission: 'traders:read' });
    await db.insert(userGroupMembers).values({ groupId: readers, userId: reader });
    await db.insert(companyUsers).values({ companyId, userId: reader }).onConflictDoNothing();
  });
  const list = (headers: { authorization: string }, filter = '') =>
    t.app.inject({ method: 'GET', url: `/api/traders/search?companyid=${companyId}${filter}`, headers });
  const queriesOf = async (read: () => Promise<{ statusCode: number }>) => {
    const before = t.queries.length;
    expect((await read()).statusCode).toBe(200);
    return t.queries.length - before;
  };

  it('reads no session before its page, and is refused by the next page once signed out elsewhere', async () => {
    const session = await t.login('reader', OPERATOR_PASSWORD);
    const first = await queriesOf(() => list(session));
    // Remembered now: the page's own statement checks the session.
    expect(await queriesOf(() => list(session))).toBe(first - 1);
    expect((await list(session)).json().totalElements).toBeGreaterThan(0);
    await t.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, reader));
    const refused = await list(session);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().content).toBeUndefined();
  });

  it('answers an empty page of a session that holds, and not found once out of the company', async () => {
    const session = await t.login('reader', OPERATOR_PASSWORD);
    expect((await list(session)).statusCode).toBe(200);
    const empty = await list(session, `&fullname=${encodeURIComponent('ci(contains(κανένας τέτοιος))')}`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ content: [], totalElements: 0 });
    await t.database.db
      .delete(companyUsers)
      .where(and(eq(companyUsers.companyId, companyId), eq(companyUsers.userId, reader)));
    expect((await list(session)).statusCode).toBe(404);
    await t.database.db.insert(companyUsers).values({ companyId, userId: reader });
    expect((await list(session)).statusCode).toBe(200);
  });

  it('reads the page again for the operator as changed elsewhere, and refuses it once the permission is gone', async () => {
    const session = await t.login('reader', OPERATOR_PASSWORD);
    const before = (await list(session)).json().totalElements;
    // Another permission changes the session's fingerprint: the check refuses, the page is read again.
    await t.database.db.insert(userGroupPermissions).values({ groupId: readers, permission: 'water:read' });
    const again = await list(session);
    expect(again.statusCode).toBe(200);
    expect(again.json().totalElements).toBe(before);
    expect(again.json().content.length).toBeGreaterThan(0);
    await t.database.db
      .delete(userGroupPermissions)
      .where(
        and(eq(userGroupPermissions.groupId, readers), eq(userGroupPermissions.permission, 'traders:read')),
      );
    expect((await list(session)).statusCode).toBe(403);
  });
});

describe('a global search on a session remembered by its node', () => {
  let searcher: number;
  let group: number;
  beforeAll(async () => {
    const created = await createOperator(t, admin, {
      username: 'searcher',
      firstname: 'Αναζήτηση',
      lastname: 'Παντού',
    });
    searcher = created.json().id;
    const db = t.database.db;
    const [row] = await db
      .insert(userGroups)
      .values({ companyId, name: 'Αναζήτηση συναλλασσομένων' })
      .returning({ id: userGroups.id });
    group = row?.id ?? 0;
    await db.insert(userGroupPermissions).values({ groupId: group, permission: 'traders:read' });
    await db.insert(userGroupMembers).values({ groupId: group, userId: searcher });
    await db.insert(companyUsers).values({ companyId, userId: searcher }).onConflictDoNothing();
  });
  const search = (headers: { authorization: string }) =>
    t.app.inject({
      method: 'GET',
      url: `/api/search?companyid=${companyId}&search=${encodeURIComponent('ΠΕΛΑΤ')}`,
      headers,
    });
  const traderNames = async (headers: { authorization: string }) => {
    const response = await search(headers);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().traderDTOList as { fullname: string }[]).map((trader) => trader.fullname);
  };

  it('answers what it found only once the session holds: refused once signed out elsewhere', async () => {
    const session = await t.login('searcher', OPERATOR_PASSWORD);
    expect(await traderNames(session)).toEqual(['Πελάτης']);
    // Remembered now: the session is read again beside the search's statements, and still holds.
    expect(await traderNames(session)).toEqual(['Πελάτης']);
    await t.database.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, searcher));
    const refused = await search(session);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().traderDTOList).toBeUndefined();
  });

  it('is not found once out of the company, and searches again for the operator as changed elsewhere', async () => {
    const session = await t.login('searcher', OPERATOR_PASSWORD);
    expect(await traderNames(session)).toEqual(['Πελάτης']);
    await t.database.db
      .delete(companyUsers)
      .where(and(eq(companyUsers.companyId, companyId), eq(companyUsers.userId, searcher)));
    const outside = await search(session);
    expect(outside.statusCode).toBe(404);
    expect(outside.json().traderDTOList).toBeUndefined();
    await t.database.db.insert(companyUsers).values({ companyId, userId: searcher });
    expect(await traderNames(session)).toEqual(['Πελάτης']);
    // The permission taken away elsewhere: the remembered principal found the trader, the answer is
    // the search of the operator as they are now, without it.
    await t.database.db
      .delete(userGroupPermissions)
      .where(
        and(eq(userGroupPermissions.groupId, group), eq(userGroupPermissions.permission, 'traders:read')),
      );
    expect(await traderNames(session)).toEqual([]);
  });
});
