import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ATTACHMENT_MAX_MB_SETTING, ATTACHMENT_TYPES_SETTING } from '@protocol/contracts';
import { Document, Packer, Paragraph } from 'docx';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../platform/audit.schema.ts';
import {
  ADMIN_PASSWORD,
  companyInUseOf,
  createOperator,
  grant,
  OPERATOR_PASSWORD,
  startTestApp,
  type TestApp,
} from '../../../test/harness.ts';
import { addUserToCompany, createCompany } from '../../companies/api.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { putGeneralSetting } from '../../settings/api.ts';
import { createUser } from '../../users/api.ts';
import { userGroupMembers, userGroupPermissions, userGroups } from '../../users/groups.schema.ts';
import { documentAssignments, documentAttachments, documents, documentTypes } from '../protocol.schema.ts';
import { multipart, type UploadFile } from '../protocol-fixtures.ts';
import { contentDisposition } from './attachments.routes.ts';

type Headers = { authorization: string };
// biome-ignore lint/suspicious/noExplicitAny: the API's JSON answers, read field by field
type Json = Record<string, any>;

let t: TestApp;
let admin: Headers;
let writer: Headers;
let reader: Headers;
let readerId: number;
let otherCompany: Headers;
let companyA: number;
/** A document type without autonr: its documents stay unregistered until a book is chosen. */
let manualTypeId: number;

// ----- files -----

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);
/** The start of a Windows executable (MZ header, PE offset, DOS stub). */
const EXE = Buffer.concat([
  Buffer.from([
    0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00,
  ]),
  Buffer.alloc(48, 0),
  Buffer.from('This program cannot be run in DOS mode.'),
  randomBytes(2000),
]);
/** «Ονοματεπώνυμο;Διεύθυνση» in windows-1253, the Greek code page Excel writes. */
const CSV_1253 = Buffer.from([
  0xcf, 0xed, 0xef, 0xec, 0xe1, 0xf4, 0xe5, 0xf0, 0xfe, 0xed, 0xf5, 0xec, 0xef, 0x3b, 0xc4, 0xe9, 0xe5, 0xfd,
  0xe8, 0xf5, 0xed, 0xf3, 0xe7, 0x0d, 0x0a,
]);

const upload = (documentId: number | string, files: UploadFile[], headers: Headers = writer, query = '') => {
  const body = multipart(files);
  return t.app.inject({
    method: 'POST',
    url: `/api/document/${documentId}/attachments${query}`,
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });
};
const list = (documentId: number, headers: Headers = writer) =>
  t.app.inject({ method: 'GET', url: `/api/document/${documentId}/attachments`, headers });
const download = (documentId: number, attachmentId: number, headers: Headers = writer, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/api/document/${documentId}/attachments/${attachmentId}/content${query}`,
    headers,
  });
const remove = (documentId: number, attachmentId: number, headers: Headers = writer) =>
  t.app.inject({ method: 'DELETE', url: `/api/document/${documentId}/attachments/${attachmentId}`, headers });

/** An unregistered outgoing draft (a type without autonr), unless the payload names a book. */
async function createDocument(payload: Json, headers: Headers = writer): Promise<Json> {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/document?companyid=${companyA}`,
    headers,
    payload: { kind: 1, subject: 'Έγγραφο με συνημμένα', documentTypeId: manualTypeId, ...payload },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** The history lines of a document (its audit trail), oldest first. */
const historyOf = (documentId: number) =>
  t.database.db
    .select({ action: auditLog.action, username: auditLog.username, changes: auditLog.changes })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'document'), eq(auditLog.entityId, String(documentId))))
    .orderBy(asc(auditLog.id));

/** Every stored object (temporary files included). */
function storedFiles(): string[] {
  try {
    return readdirSync(t.config.storageDir, { recursive: true, encoding: 'utf8' }).filter((name) =>
      statSync(path.join(t.config.storageDir, name)).isFile(),
    );
  } catch {
    return [];
  }
}

const rowsOf = (documentId: number) =>
  t.database.db.select().from(documentAttachments).where(eq(documentAttachments.documentId, documentId));

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('admin', ADMIN_PASSWORD);
  companyA = await companyInUseOf(t, admin);
  const [manual] = await t.database.db
    .select({ id: documentTypes.id })
    .from(documentTypes)
    .where(and(eq(documentTypes.companyId, companyA), eq(documentTypes.autonr, false)));
  if (!manual) throw new Error('the demo company has no document type without autonr');
  manualTypeId = manual.id;
  // mpapadopoulou is in «Γραμματεία πρωτοκόλλου» (protocol:write).
  writer = await t.login('mpapadopoulou', 'Demo-2026!');
  const created = await createOperator(t, admin, {
    username: 'anagnostis',
    firstname: 'Άννα',
    lastname: 'Αναγνώστη',
  });
  expect(created.statusCode, created.body).toBe(201);
  readerId = created.json().id;
  await grant(t, 'anagnostis', ['protocol:read']);
  reader = await t.login('anagnostis', OPERATOR_PASSWORD);
  await t.database.db.transaction(async (tx) => {
    const companyB = await createCompany(tx, { companyname: 'Δήμος Β', companytitle: 'Δήμος Β' }, 'test');
    const other = await createUser(
      tx,
      { username: 'allos', password: 'Other-2026', firstname: 'Άλλος', lastname: 'Δήμος', kind: 2 },
      'test',
    );
    await addUserToCompany(tx, companyB.id, other.id);
    const [group] = await tx
      .insert(userGroups)
      .values({ companyId: companyB.id, name: 'Πρωτόκολλο' })
      .returning();
    if (!group) throw new Error('no group');
    await tx.insert(userGroupPermissions).values({ groupId: group.id, permission: 'protocol:admin' });
    await tx.insert(userGroupMembers).values({ groupId: group.id, userId: other.id });
  });
  otherCompany = await t.login('allos', 'Other-2026');
});
afterAll(async () => {
  await t?.close();
});

describe('uploading files to a saved document', () => {
  it('takes several files at once with Greek names, hashes them and writes each to the history', async () => {
    const doc = await createDocument({ subject: 'Αίτηση νέας υδροδότησης' });
    const docx = await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph('Βεβαίωση')] }] }),
    );
    const response = await upload(doc.id, [
      { name: 'Αίτηση υδροδότησης.pdf', content: PDF, type: 'application/pdf' },
      { name: 'Τοπογραφικό σχέδιο.png', content: PNG, type: 'image/png' },
      { name: 'Βεβαίωση.docx', content: docx },
      {
        name: 'Σημειώσεις.txt',
        content: Buffer.from('Σημειώσεις υπαλλήλου\r\nΓραμμή 2\n'),
        type: 'text/plain',
      },
      { name: 'Κατάλογος.csv', content: CSV_1253, type: 'application/vnd.ms-excel' },
    ]);
    expect(response.statusCode, response.body).toBe(201);
    const uploaded = response.json().uploaded;
    expect(uploaded.map((a: Json) => [a.fileName, a.contentType, a.version, a.replacesId])).toEqual([
      ['Αίτηση υδροδότησης.pdf', 'application/pdf', 1, null],
      ['Τοπογραφικό σχέδιο.png', 'image/png', 1, null],
      ['Βεβαίωση.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 1, null],
      ['Σημειώσεις.txt', 'text/plain', 1, null],
      ['Κατάλογος.csv', 'text/csv', 1, null],
    ]);
    expect(uploaded[0]).toMatchObject({
      size: PDF.length,
      sha256: (await import('node:crypto')).createHash('sha256').update(PDF).digest('hex'),
      createuser: 'mpapadopoulou',
    });

    const files = (await list(doc.id)).json();
    expect(files.maxUploadMb).toBe(20);
    expect(files.allowedTypes).toEqual(expect.arrayContaining(['pdf', 'docx', 'p7m']));
    expect(files.files.map((f: Json) => [f.fileName, f.previewable, f.versions])).toEqual([
      ['Αίτηση υδροδότησης.pdf', true, []],
      ['Τοπογραφικό σχέδιο.png', true, []],
      ['Βεβαίωση.docx', false, []],
      ['Σημειώσεις.txt', false, []],
      ['Κατάλογος.csv', false, []],
    ]);
    // The document answer counts them too.
    const document = (
      await t.app.inject({ method: 'GET', url: `/api/document/${doc.id}`, headers: writer })
    ).json();
    expect(document.attachments).toHaveLength(5);

    const history = await historyOf(doc.id);
    const uploads = history.filter((h) => h.action === 'attachment_uploaded');
    expect(uploads.map((h) => (h.changes as Json).fileName.after)).toEqual(
      uploaded.map((a: Json) => a.fileName),
    );
    expect(uploads[0]).toMatchObject({ username: 'mpapadopoulou' });
    expect((uploads[0]?.changes as Json | undefined)?.version).toEqual({ before: null, after: 1 });

    // Storage keys are the server's, never the client's names.
    const rows = await rowsOf(doc.id);
    for (const row of rows) expect(row.storageKey).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}$/);
  });

  it('refuses an upload before the document is saved (spec §5) and an unknown document', async () => {
    const unsaved = await upload('new', [{ name: 'a.pdf', content: PDF }]);
    expect(unsaved.statusCode).toBe(400);
    expect(unsaved.json().key).toBe('error.document_not_saved');
    expect(unsaved.json().message).toContain('Αποθηκεύστε πρώτα το έγγραφο');
    const unknown = await upload(987654, [{ name: 'a.pdf', content: PDF }]);
    expect(unknown.statusCode).toBe(404);
    const doc = await createDocument({});
    const empty = await upload(doc.id, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().key).toBe('error.attachment_no_file');
  });

  it('cleans a file name: no path, no control or bidi characters', async () => {
    const doc = await createDocument({});
    const response = await upload(doc.id, [{ name: '..\\..\\Windows\\Έκθεση\u202e.pdf', content: PDF }]);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().uploaded[0].fileName).toBe('Έκθεση.pdf');
  });
});

describe('download', () => {
  it('gives back the same bytes with the headers a browser needs, and writes the download to the history', async () => {
    const doc = await createDocument({});
    const uploaded = (
      await upload(doc.id, [
        { name: 'Απόφαση Δ.Σ. «νερό».pdf', content: PDF },
        { name: 'Πίνακας.txt', content: Buffer.from('Α;Β\n') },
      ])
    ).json().uploaded;
    const pdf = await download(doc.id, uploaded[0].id);
    expect(pdf.statusCode).toBe(200);
    expect(Buffer.compare(pdf.rawPayload, PDF)).toBe(0);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-length']).toBe(String(PDF.length));
    expect(pdf.headers['x-content-type-options']).toBe('nosniff');
    expect(pdf.headers['content-disposition']).toBe(
      contentDisposition('attachment', 'Απόφαση Δ.Σ. «νερό».pdf'),
    );
    expect(pdf.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('Απόφαση Δ.Σ. «νερό».pdf')}`,
    );
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=/);

    const inline = await download(doc.id, uploaded[0].id, writer, '?disposition=inline');
    expect(inline.headers['content-disposition']).toMatch(/^inline; /);
    expect(inline.headers['content-security-policy']).toContain('sandbox');
    // Text is never shown inline: it always downloads, without the sandbox.
    const text = await download(doc.id, uploaded[1].id, writer, '?disposition=inline');
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-disposition']).toMatch(/^attachment; /);
    expect(text.rawPayload.toString('utf8')).toBe('Α;Β\n');

    const downloads = (await historyOf(doc.id)).filter((h) => h.action === 'attachment_downloaded');
    expect(downloads).toHaveLength(3);
    expect((downloads[0]?.changes as Json | undefined)?.fileName.after).toBe('Απόφαση Δ.Σ. «νερό».pdf');
  });

  it('writes one audit line per download (a single insert)', async () => {
    const doc = await createDocument({});
    const [file] = (await upload(doc.id, [{ name: 'a.png', content: PNG }])).json().uploaded;
    const before = t.queries.length;
    const response = await download(doc.id, file.id);
    expect(response.statusCode).toBe(200);
    const inserts = t.queries.slice(before).filter((q) => /^insert/i.test(q.trim()));
    expect(inserts).toHaveLength(1);
    expect(inserts[0]).toContain('audit_log');
  });
});

describe('limits from the general settings', () => {
  it('refuses a file over doc.max_upload_mb while streaming, leaving nothing on disk or in the database', async () => {
    const doc = await createDocument({});
    await putGeneralSetting(t.database.db, companyA, ATTACHMENT_MAX_MB_SETTING, '1', 'test');
    try {
      const filesBefore = storedFiles().length;
      const exact = await upload(doc.id, [{ name: 'όριο.txt', content: Buffer.alloc(1024 * 1024, 'α') }]);
      expect(exact.statusCode, exact.body).toBe(201);
      expect(storedFiles().length).toBe(filesBefore + 1);

      // The second file is too large: the first one of the same request goes too.
      const response = await upload(doc.id, [
        { name: 'μικρό.pdf', content: PDF },
        { name: 'Μεγάλο αρχείο.pdf', content: Buffer.concat([PDF, Buffer.alloc(1024 * 1024)]) },
      ]);
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({
        key: 'error.attachment_too_large',
        params: { name: 'Μεγάλο αρχείο.pdf', max: 1 },
      });
      expect(response.json().message).toContain('1 MB');
      expect(storedFiles().length).toBe(filesBefore + 1);
      expect(await rowsOf(doc.id)).toHaveLength(1);
    } finally {
      await putGeneralSetting(t.database.db, companyA, ATTACHMENT_MAX_MB_SETTING, '20', 'test');
    }
  });

  it('over a real connection: a fetch FormData upload works, and an oversized one is cut off with 413', async () => {
    const doc = await createDocument({});
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await putGeneralSetting(t.database.db, companyA, ATTACHMENT_MAX_MB_SETTING, '1', 'test');
    try {
      const send = (name: string, content: Buffer) => {
        const form = new FormData();
        form.append('files', new Blob([new Uint8Array(content)], { type: 'application/pdf' }), name);
        return fetch(`${address}/api/document/${doc.id}/attachments`, {
          method: 'POST',
          headers: writer,
          body: form,
        });
      };
      const fine = await send('Πρακτικό συνεδρίασης.pdf', PDF);
      expect(fine.status).toBe(201);
      expect(((await fine.json()) as Json).uploaded[0].fileName).toBe('Πρακτικό συνεδρίασης.pdf');
      const filesBefore = storedFiles().length;
      const big = await send('Μεγάλο.pdf', Buffer.concat([PDF, Buffer.alloc(3 * 1024 * 1024)])).catch(
        (error: Error) => error,
      );
      // The server answers before reading the rest; the client sees the 413 (or, on some stacks, a reset).
      if (!(big instanceof Error)) {
        expect(big.status).toBe(413);
        expect(((await big.json()) as Json).key).toBe('error.attachment_too_large');
      }
      expect(storedFiles().length).toBe(filesBefore);
      expect(await rowsOf(doc.id)).toHaveLength(1);
    } finally {
      // The cut-off upload may leave its connection half-read: close it, or app.close() waits on it.
      t.app.server.closeAllConnections();
      await putGeneralSetting(t.database.db, companyA, ATTACHMENT_MAX_MB_SETTING, '20', 'test');
    }
  });

  it('takes only the types of doc.allowed_types', async () => {
    const doc = await createDocument({});
    const exe = await upload(doc.id, [{ name: 'setup.exe', content: EXE }]);
    expect(exe.statusCode).toBe(415);
    expect(exe.json()).toMatchObject({ key: 'error.attachment_type_not_allowed', params: { type: '.exe' } });
    const noExtension = await upload(doc.id, [{ name: 'README', content: Buffer.from('text') }]);
    expect(noExtension.statusCode).toBe(415);
    await putGeneralSetting(t.database.db, companyA, ATTACHMENT_TYPES_SETTING, 'pdf, .PNG', 'test');
    try {
      expect((await upload(doc.id, [{ name: 'a.PNG', content: PNG }])).statusCode).toBe(201);
      const docx = await upload(doc.id, [{ name: 'a.txt', content: Buffer.from('x') }]);
      expect(docx.statusCode).toBe(415);
      expect(docx.json().params.allowed).toBe('pdf, png');
      expect((await list(doc.id)).json().allowedTypes).toEqual(['pdf', 'png']);
    } finally {
      await putGeneralSetting(t.database.db, companyA, ATTACHMENT_TYPES_SETTING, '', 'test');
    }
    // Empty or absent: the defaults.
    expect((await list(doc.id)).json().allowedTypes).toContain('docx');
    expect(storedFiles().filter((f) => f.startsWith('tmp'))).toEqual([]);
  });

  it('checks the content against the claimed type', async () => {
    const doc = await createDocument({});
    const filesBefore = storedFiles().length;
    const cases: [string, Buffer][] = [
      ['Τιμολόγιο.pdf', EXE],
      ['Τιμολόγιο.pdf', PNG],
      ['φωτογραφία.jpg', PNG],
      ['σημείωμα.txt', EXE],
      ['σημείωμα.txt', Buffer.from('κείμενο\u0000με NUL')],
      ['λογιστικό.xlsx', PDF],
      ['υπογεγραμμένο.p7m', PDF],
      ['αρχείο.zip', EXE],
    ];
    for (const [name, content] of cases) {
      const response = await upload(doc.id, [{ name, content, type: 'application/pdf' }]);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(415);
      expect(response.json().key).toBe('error.attachment_content_mismatch');
      expect(response.json().params.name).toBe(name);
    }
    expect(storedFiles().length).toBe(filesBefore);
    expect(await rowsOf(doc.id)).toHaveLength(0);
    // A signed file (DER PKCS#7 signedData) and UTF-16 text with its BOM are fine.
    const p7m = Buffer.from('3082010006092a864886f70d010702a081f2308201', 'hex');
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Ονοματεπώνυμο\tΑΦΜ\r\n', 'utf16le'),
    ]);
    const fine = await upload(doc.id, [
      { name: 'Σύμβαση.pdf.p7m', content: p7m },
      { name: 'εξαγωγή.txt', content: utf16 },
    ]);
    expect(fine.statusCode, fine.body).toBe(201);
  });
});

describe('versions', () => {
  it('uploads a new version of a file; the list shows the latest with the older ones', async () => {
    const doc = await createDocument({});
    const [first] = (await upload(doc.id, [{ name: 'Σχέδιο απάντησης.pdf', content: PDF }])).json().uploaded;
    const second = await upload(
      doc.id,
      [{ name: 'Σχέδιο απάντησης v2.pdf', content: PDF }],
      writer,
      `?replaces=${first.id}`,
    );
    expect(second.statusCode, second.body).toBe(201);
    const v2 = second.json().uploaded[0];
    expect(v2).toMatchObject({ version: 2, replacesId: first.id });
    const v3 = (
      await upload(doc.id, [{ name: 'Σχέδιο απάντησης.pdf', content: PDF }], writer, `?replaces=${v2.id}`)
    ).json().uploaded[0];
    expect(v3.version).toBe(3);

    const files = (await list(doc.id)).json().files;
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ id: v3.id, version: 3 });
    expect(files[0].versions.map((v: Json) => [v.id, v.version])).toEqual([
      [v2.id, 2],
      [first.id, 1],
    ]);
    // Older versions stay downloadable.
    expect((await download(doc.id, first.id)).statusCode).toBe(200);

    // Only the latest version can be replaced, with one file, of this document.
    const stale = await upload(doc.id, [{ name: 'x.pdf', content: PDF }], writer, `?replaces=${first.id}`);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().key).toBe('error.attachment_not_latest');
    const two = await upload(
      doc.id,
      [
        { name: 'x.pdf', content: PDF },
        { name: 'y.pdf', content: PDF },
      ],
      writer,
      `?replaces=${v3.id}`,
    );
    expect(two.statusCode).toBe(400);
    expect(two.json().key).toBe('error.attachment_one_version');
    const elsewhere = await createDocument({});
    expect(
      (await upload(elsewhere.id, [{ name: 'x.pdf', content: PDF }], writer, `?replaces=${v3.id}`))
        .statusCode,
    ).toBe(404);
    expect(await rowsOf(doc.id)).toHaveLength(3);

    const versions = (await historyOf(doc.id)).filter((h) => h.action === 'attachment_version');
    expect(versions.map((h) => (h.changes as Json).version)).toEqual([
      { before: 1, after: 2 },
      { before: 2, after: 3 },
    ]);
  });
});

describe('deletion', () => {
  it('soft-deletes a file with its versions from an unregistered document, into the history', async () => {
    const doc = await createDocument({});
    const [keep, gone] = (
      await upload(doc.id, [
        { name: 'Μένει.pdf', content: PDF },
        { name: 'Φεύγει.pdf', content: PDF },
      ])
    ).json().uploaded;
    const v2 = (
      await upload(doc.id, [{ name: 'Φεύγει.pdf', content: PDF }], writer, `?replaces=${gone.id}`)
    ).json().uploaded[0];
    const filesBefore = storedFiles().length;
    const response = await remove(doc.id, gone.id);
    expect(response.statusCode, response.body).toBe(204);
    expect((await list(doc.id)).json().files.map((f: Json) => f.id)).toEqual([keep.id]);
    const rows = await rowsOf(doc.id);
    for (const row of rows.filter((r) => r.id !== keep.id)) {
      expect(row.deletedAt).toBeInstanceOf(Date);
      expect(row.deletedBy).toBe('mpapadopoulou');
    }
    // The stored objects stay (copies may share them); the deleted file is no longer served.
    expect(storedFiles().length).toBe(filesBefore);
    expect((await download(doc.id, v2.id)).statusCode).toBe(404);
    expect((await remove(doc.id, gone.id)).statusCode).toBe(404);
    const deleted = (await historyOf(doc.id)).filter((h) => h.action === 'attachment_deleted');
    expect(deleted.map((h) => h.changes)).toEqual([
      { fileName: { before: 'Φεύγει.pdf', after: null }, version: { before: 2, after: null } },
    ]);
  });

  it("keeps a registered document's files: new versions yes, deletion only by protocol:admin", async () => {
    const [book] = await t.database.db
      .select({ id: protocolBooks.id })
      .from(protocolBooks)
      .where(
        and(
          eq(protocolBooks.companyId, companyA),
          eq(protocolBooks.booktype, 2),
          eq(protocolBooks.isActive, true),
        ),
      );
    if (!book) throw new Error('the demo company has no active outgoing book');
    const doc = await createDocument({ protocolBookId: book.id });
    expect(doc.protocolNumber).not.toBeNull();
    const [file] = (await upload(doc.id, [{ name: 'Πρωτότυπο.pdf', content: PDF }])).json().uploaded;
    const refused = await remove(doc.id, file.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('error.attachment_registered_delete');
    const v2 = await upload(
      doc.id,
      [{ name: 'Πρωτότυπο.pdf', content: PDF }],
      writer,
      `?replaces=${file.id}`,
    );
    expect(v2.statusCode).toBe(201);
    // The administrator (protocol:admin) may.
    expect((await remove(doc.id, file.id, admin)).statusCode).toBe(204);
  });
});

describe('who may', () => {
  it('hides the files of a document the operator does not see (404), and of another company', async () => {
    const doc = await createDocument({});
    const [file] = (await upload(doc.id, [{ name: 'a.pdf', content: PDF }])).json().uploaded;
    for (const headers of [reader, otherCompany]) {
      expect((await list(doc.id, headers)).statusCode).toBe(404);
      expect((await download(doc.id, file.id, headers)).statusCode).toBe(404);
      expect((await upload(doc.id, [{ name: 'b.pdf', content: PDF }], headers)).statusCode).toBe(404);
      expect((await remove(doc.id, file.id, headers)).statusCode).toBe(404);
    }
    // An attachment id of another document is not found through this one.
    const other = await createDocument({});
    expect((await download(other.id, file.id)).statusCode).toBe(404);
  });

  it('lets a reader the document is shared with download but not change; the chargee may change', async () => {
    const doc = await createDocument({});
    const [file] = (await upload(doc.id, [{ name: 'a.pdf', content: PDF }])).json().uploaded;
    await t.database.db.insert(documentAssignments).values({ documentId: doc.id, kind: 2, userId: readerId });
    expect((await list(doc.id, reader)).statusCode).toBe(200);
    expect((await download(doc.id, file.id, reader)).statusCode).toBe(200);
    const refused = await upload(doc.id, [{ name: 'b.pdf', content: PDF }], reader);
    expect(refused.statusCode).toBe(403);
    expect((await remove(doc.id, file.id, reader)).statusCode).toBe(403);

    await t.database.db.insert(documentAssignments).values({ documentId: doc.id, kind: 1, userId: readerId });
    await t.database.db.update(documents).set({ chargedUserId: readerId }).where(eq(documents.id, doc.id));
    const allowed = await upload(doc.id, [{ name: 'b.pdf', content: PDF }], reader);
    expect(allowed.statusCode, allowed.body).toBe(201);
  });

  it('refuses changes to an archived or deleted document', async () => {
    const doc = await createDocument({});
    const [file] = (await upload(doc.id, [{ name: 'a.pdf', content: PDF }])).json().uploaded;
    for (const state of [1, 9]) {
      await t.database.db.update(documents).set({ state }).where(eq(documents.id, doc.id));
      expect((await upload(doc.id, [{ name: 'b.pdf', content: PDF }])).statusCode).toBe(409);
      expect((await remove(doc.id, file.id)).statusCode).toBe(409);
      // Still readable.
      expect((await download(doc.id, file.id)).statusCode).toBe(200);
    }
  });
});
