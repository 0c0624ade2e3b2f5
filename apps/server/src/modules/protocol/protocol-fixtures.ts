// Test fixtures of the protocol API tests (actions, cases, book summary): operators, books, documents.
import { randomBytes } from 'node:crypto';
import { allPermissions } from '@protocol/contracts';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  ADMIN_PASSWORD,
  createOperator,
  grant,
  OPERATOR_PASSWORD,
  startTestApp,
  type TestApp,
} from '../../test/harness.ts';
import { addUserToCompany, createCompany } from '../companies/api.ts';
import { protocolBooks } from '../parametrics/parametrics.schema.ts';
import { createUser } from '../users/api.ts';
import { userGroupMembers, userGroupPermissions, userGroups } from '../users/groups.schema.ts';
import { protocolYearOf } from './documents/documents.common.ts';
import { documentTypes } from './protocol.schema.ts';

export type Headers = { authorization: string };
type Json = Record<string, unknown>;

export interface ProtocolWorld {
  t: TestApp;
  companyA: number;
  companyB: number;
  admin: Headers;
  /** protocol:write */
  writer: Headers;
  /** protocol:read only */
  reader1: Headers;
  reader2: Headers;
  /** protocol:write of company B only */
  other: Headers;
  ids: Record<'writer' | 'reader1' | 'reader2' | 'other', number>;
  /** A group (department) of company A with reader1 and reader2 in it. */
  departmentId: number;
  /** The (demo) books of company A this year: one per type, so autonr registers in them. */
  inBook: number;
  outBook: number;
  /** A document type of company A without autonr: documents of it stay unregistered drafts. */
  draftType: number;
  /** A book of company B. */
  otherBook: number;
  year: number;
}

/** The protocol test world; `env` adds settings (e.g. SMTP_URL). */
export async function protocolWorld(env: Record<string, string> = {}): Promise<ProtocolWorld> {
  const t = await startTestApp(env);
  const admin = await t.login('admin', ADMIN_PASSWORD);
  const me = (
    await t.app.inject({ method: 'GET', url: '/api/users/authenticatedUser', headers: admin })
  ).json();
  const companyA: number = me.companies[0].id;
  const db = t.database.db;
  const year = protocolYearOf(new Date());
  const ids = {} as ProtocolWorld['ids'];
  for (const [username, permission] of [
    ['writer', 'protocol:write'],
    ['reader1', 'protocol:read'],
    ['reader2', 'protocol:read'],
  ] as const) {
    const response = await createOperator(t, admin, {
      username,
      firstname: username === 'writer' ? 'Γραμματέας' : 'Υπάλληλος',
      lastname: username === 'writer' ? 'Πρωτοκόλλου' : username === 'reader1' ? 'Πρώτος' : 'Δεύτερος',
    });
    expect(response.statusCode, response.body).toBe(201);
    ids[username] = response.json().id;
    await grant(t, username, [permission]);
  }
  const [department] = await db
    .insert(userGroups)
    .values({ companyId: companyA, name: 'Τμήμα δοκιμών' })
    .returning();
  if (!department) throw new Error('no group');
  await db.insert(userGroupMembers).values([
    { groupId: department.id, userId: ids.reader1 },
    { groupId: department.id, userId: ids.reader2 },
  ]);

  const companyB = (await createCompany(db, { companyname: 'Δήμος Β', companytitle: 'Δήμος Β' }, 'test')).id;
  const otherUser = await createUser(
    db,
    { username: 'otherco', password: OPERATOR_PASSWORD, firstname: 'Άλλη', lastname: 'Εταιρεία', kind: 2 },
    'test',
  );
  await addUserToCompany(db, companyB, otherUser.id);
  const [groupB] = await db.insert(userGroups).values({ companyId: companyB, name: 'Όλα' }).returning();
  if (!groupB) throw new Error('no group');
  await db
    .insert(userGroupPermissions)
    .values(allPermissions.map((permission) => ({ groupId: groupB.id, permission })));
  await db.insert(userGroupMembers).values({ groupId: groupB.id, userId: otherUser.id });
  ids.other = otherUser.id;

  const book = async (companyId: number, booktype: 1 | 2, descr: string) => {
    const [row] = await db
      .insert(protocolBooks)
      .values({ companyId, booktype, year, descr, createuser: 'test' })
      .returning();
    if (!row) throw new Error('no book');
    return row.id;
  };
  const demoBook = async (booktype: 1 | 2) => {
    const [row] = await db
      .select({ id: protocolBooks.id })
      .from(protocolBooks)
      .where(
        and(
          eq(protocolBooks.companyId, companyA),
          eq(protocolBooks.booktype, booktype),
          eq(protocolBooks.year, year),
        ),
      );
    return row?.id ?? book(companyA, booktype, `Πρωτόκολλο ${booktype} ${year}`);
  };
  const draftType = async () => {
    const [row] = await db
      .insert(documentTypes)
      .values({ companyId: companyA, seqnr: 90, descr: 'Πρόχειρο', autonr: false, checkdates: false })
      .returning({ id: documentTypes.id });
    return row?.id as number;
  };
  return {
    t,
    companyA,
    companyB,
    admin,
    writer: await t.login('writer', OPERATOR_PASSWORD),
    reader1: await t.login('reader1', OPERATOR_PASSWORD),
    reader2: await t.login('reader2', OPERATOR_PASSWORD),
    other: await t.login('otherco', OPERATOR_PASSWORD),
    ids,
    departmentId: department.id,
    inBook: await demoBook(1),
    outBook: await demoBook(2),
    draftType: await draftType(),
    otherBook: await book(companyB, 1, 'Πρωτόκολλο Β'),
    year,
  };
}

/** POST /api/document (the documents core) as `headers`; 201 expected. */
export async function createDocument(
  w: ProtocolWorld,
  payload: Json,
  headers: Headers = w.writer,
  companyId: number = w.companyA,
): Promise<Json & { id: number }> {
  const response = await w.t.app.inject({
    method: 'POST',
    url: `/api/document?companyid=${companyId}`,
    headers,
    payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** POST /api/document/actions as `headers`. */
export function act(w: ProtocolWorld, body: Json, headers: Headers = w.writer) {
  return w.t.app.inject({ method: 'POST', url: '/api/document/actions', headers, payload: body });
}

/** A trader of the company (POST /api/traders). */
export async function createTrader(w: ProtocolWorld, fullname: string, companyId = w.companyA) {
  const response = await w.t.app.inject({
    method: 'POST',
    url: `/api/traders?companyid=${companyId}`,
    headers: w.admin,
    payload: { individual: false, fullname },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

export interface UploadFile {
  name: string;
  content: Buffer;
  type?: string;
}

/** A multipart/form-data body as a browser sends it: raw UTF-8 file names. */
export function multipart(files: UploadFile[], fields: Record<string, string> = {}) {
  const boundary = `----protocol${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
