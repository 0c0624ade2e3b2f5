import { documentActions as A } from '@protocol/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../../notifications/notifications.schema.ts';
import { documentAssignments, documentAttachments, documentSignatures } from '../protocol.schema.ts';
import {
  act,
  createDocument,
  createTrader,
  type ProtocolWorld,
  protocolWorld,
} from '../protocol-fixtures.ts';

let w: ProtocolWorld;
let sender: number;

beforeAll(async () => {
  w = await protocolWorld();
  sender = await createTrader(w, 'Περιφέρεια Πελοποννήσου');
});
afterAll(async () => {
  await w?.t.close();
});

// biome-ignore lint/suspicious/noExplicitAny: API answers read loosely in tests
type Json = Record<string, any>;

const incoming = (extra: Json = {}) =>
  createDocument(w, {
    kind: 0,
    subject: 'Αίτηση σύνδεσης ύδρευσης',
    senders: [sender],
    protocolBookId: w.inBook,
    ...extra,
  });
const draft = (extra: Json = {}) =>
  createDocument(w, { kind: 0, subject: 'Πρόχειρο έγγραφο', documentTypeId: w.draftType, ...extra });
const outgoing = (extra: Json = {}) =>
  createDocument(w, {
    kind: 1,
    subject: 'Απάντηση σε αίτηση',
    receivers: [sender],
    documentTypeId: w.draftType,
    ...extra,
  });

const run = async (actionType: number, id: number, extra: Json = {}, headers = w.writer) =>
  act(w, { actionType: { id: actionType }, document: { id }, ...extra }, headers);
const ok = async (actionType: number, id: number, extra: Json = {}, headers = w.writer) => {
  const response = await run(actionType, id, extra, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const refused = async (
  status: number,
  key: string,
  actionType: number,
  id: number,
  extra: Json = {},
  headers = w.writer,
) => {
  const response = await run(actionType, id, extra, headers);
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().key).toBe(key);
};
const history = async (id: number, headers = w.writer) => {
  const response = await w.t.app.inject({ method: 'GET', url: `/api/document/${id}/history`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Json[];
};
const notificationsOf = (userId: number, documentId: number) =>
  w.t.database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.entityId, documentId)));
const getDoc = (id: number, headers = w.writer) =>
  w.t.app.inject({ method: 'GET', url: `/api/document/${id}`, headers });
const addAttachment = async (documentId: number, fileName: string) => {
  const [row] = await w.t.database.db
    .insert(documentAttachments)
    .values({
      documentId,
      fileName,
      contentType: 'application/pdf',
      size: 1234,
      sha256: 'a'.repeat(64),
      storageKey: '2026/01/0f0e0d0c-0b0a-4908-8706-050403020100',
      createuser: 'test',
    })
    .returning();
  return row?.id as number;
};

describe('document actions: rules and effects', () => {
  it('edit: a writer may edit; a registered document keeps kind and book; a stranger does not see it', async () => {
    const doc = await incoming();
    expect(doc.protocolId).toMatch(/^\d+\/\d{4}$/);
    const result = await ok(A.edit, doc.id);
    expect(result.editable).toContain('subject');
    expect(result.editable).not.toContain('protocolBookId');
    expect(result.document.id).toBe(doc.id);
    const unregistered = await ok(A.edit, (await draft()).id);
    expect(unregistered.editable).toContain('protocolBookId');
    // protocol:read that neither created nor was charged: not visible → 404
    await refused(404, 'error.not_found', A.edit, doc.id, {}, w.reader1);
    // another company's operator: 404
    await refused(404, 'error.not_found', A.edit, doc.id, {}, w.other);
    // edit changes nothing: no history line
    expect((await history(doc.id)).map((h) => h.action)).not.toContain('edit');
  });

  it('send: outgoing and registered only; records status 2, time and method; once', async () => {
    await refused(409, 'documents.reason.not_outgoing', A.send, (await incoming()).id);
    const unregistered = await outgoing();
    await refused(409, 'documents.reason.not_registered', A.send, unregistered.id);
    const doc = await outgoing({ protocolBookId: w.outBook });
    const result = await ok(A.send, doc.id, { sendMethod: 'post', comments: 'με συστημένη επιστολή' });
    expect(result.document.sendStatus).toBe(2);
    expect(result.document.sentAt).not.toBeNull();
    await refused(409, 'documents.reason.already_sent', A.send, doc.id);
    const line = (await history(doc.id)).find((h) => h.action === 'send');
    expect(line).toMatchObject({
      comments: 'με συστημένη επιστολή',
      username: 'writer',
      userFullName: 'Γραμματέας Πρωτοκόλλου',
      changes: { sendStatus: { before: 0, after: 2 }, sendMethod: { before: null, after: 'post' } },
    });
    // By e-mail on an installation without SMTP_URL: refused with the reason, and still unsent.
    const unsent = await outgoing({ protocolBookId: w.outBook });
    await refused(409, 'error.mail_not_configured', A.send, unsent.id, { sendMethod: 'email' });
    expect((await getDoc(unsent.id)).json().sendStatus).toBe(0);
  });

  it('charge → share → return: assignments, visibility, notifications and history', async () => {
    const doc = await incoming();
    // return with no active charge is refused
    await refused(409, 'documents.reason.no_active_charge', A.return, doc.id);
    // a target is required, only one kind of target, of the company and active
    await refused(400, 'error.bad_data', A.charge, doc.id, {});
    await refused(400, 'error.bad_data', A.charge, doc.id, {
      userId: w.ids.reader1,
      groupId: w.departmentId,
    });
    await refused(400, 'error.bad_data', A.charge, doc.id, { userId: w.ids.other });

    const charged = await ok(A.charge, doc.id, { userId: w.ids.reader1, comments: 'Για ενέργειες' });
    expect(charged.document.chargedUser).toMatchObject({ id: w.ids.reader1, username: 'reader1' });
    expect((await getDoc(doc.id, w.reader1)).statusCode).toBe(200);
    expect((await getDoc(doc.id, w.reader2)).statusCode).toBe(404);
    const [note] = await notificationsOf(w.ids.reader1, doc.id);
    expect(note).toMatchObject({
      messageKey: 'documents.notification.charged',
      senderId: w.ids.writer,
      entity: 'document',
      comments: 'Για ενέργειες',
    });

    // the chargee (protocol:read) shares it with reader2
    await refused(400, 'error.bad_data', A.share, doc.id, { userIds: [] }, w.reader1);
    await ok(A.share, doc.id, { userIds: [w.ids.reader2], comments: 'Για ενημέρωση' }, w.reader1);
    expect((await getDoc(doc.id, w.reader2)).statusCode).toBe(200);
    expect((await notificationsOf(w.ids.reader2, doc.id))[0]?.messageKey).toBe(
      'documents.notification.shared',
    );
    // reader2 sees it but is not the chargee: may not return it, nor charge it on
    await refused(403, 'documents.reason.not_chargee', A.return, doc.id, {}, w.reader2);
    await refused(
      403,
      'documents.reason.write_or_chargee',
      A.charge,
      doc.id,
      { userId: w.ids.reader2 },
      w.reader2,
    );

    // the chargee returns it: back to whoever charged it (writer), who is notified
    const returned = await ok(A.return, doc.id, { comments: 'Δεν αφορά το τμήμα μας' }, w.reader1);
    expect(returned.document.chargedUser).toMatchObject({ id: w.ids.writer });
    expect((await notificationsOf(w.ids.writer, doc.id))[0]).toMatchObject({
      messageKey: 'documents.notification.returned',
      senderId: w.ids.reader1,
      comments: 'Δεν αφορά το τμήμα μας',
    });
    // reader1 still sees it (was charged to them)
    expect((await getDoc(doc.id, w.reader1)).statusCode).toBe(200);
    const assignments = await w.t.database.db
      .select()
      .from(documentAssignments)
      .where(eq(documentAssignments.documentId, doc.id));
    const charges = assignments.filter((a) => a.kind === 1);
    expect(charges.filter((a) => a.endedAt === null)).toHaveLength(1);
    expect(charges.map((a) => a.userId)).toEqual([w.ids.reader1, w.ids.writer]);

    const lines = await history(doc.id);
    expect(lines.map((h) => h.action)).toEqual(expect.arrayContaining(['charge', 'share', 'return']));
    expect(lines.find((h) => h.action === 'charge')?.changes).toEqual({
      chargedTo: { before: null, after: 'Υπάλληλος Πρώτος' },
    });
    expect(lines.find((h) => h.action === 'return')?.changes).toEqual({
      chargedTo: { before: 'Υπάλληλος Πρώτος', after: 'Γραμματέας Πρωτοκόλλου' },
    });
    // oldest first
    const times = lines.map((h) => h.at);
    expect([...times].sort()).toEqual(times);
  });

  it('charge to a department: every member is notified; a member may return it', async () => {
    const doc = await incoming();
    const result = await ok(A.charge, doc.id, { groupId: w.departmentId });
    expect(result.document.chargedGroup).toMatchObject({ id: w.departmentId, name: 'Τμήμα δοκιμών' });
    expect(await notificationsOf(w.ids.reader1, doc.id)).toHaveLength(1);
    expect(await notificationsOf(w.ids.reader2, doc.id)).toHaveLength(1);
    const returned = await ok(A.return, doc.id, {}, w.reader2);
    expect(returned.document.chargedGroup).toBeNull();
    expect(returned.document.chargedUser).toMatchObject({ id: w.ids.writer });
  });

  it('history: the action returns the timeline, the same as GET …/history', async () => {
    const doc = await incoming();
    await ok(A.archive, doc.id, { comments: 'τέλος' });
    const result = await ok(A.history, doc.id);
    expect(result.history).toEqual(await history(doc.id));
    expect(result.history.at(-1)).toMatchObject({
      action: 'archive',
      changes: { state: { before: 0, after: 1 } },
    });
  });

  it('archive and restore: protocol:write; archive only active, restore archived or deleted', async () => {
    const doc = await incoming();
    await ok(A.charge, doc.id, { userId: w.ids.reader1 });
    await refused(403, 'documents.reason.not_allowed', A.archive, doc.id, {}, w.reader1);
    expect((await ok(A.archive, doc.id)).document.state).toBe(1);
    await refused(409, 'documents.reason.archived', A.archive, doc.id);
    await refused(409, 'documents.reason.archived', A.charge, doc.id, { userId: w.ids.reader2 });
    await refused(409, 'documents.reason.archived', A.sign, doc.id);
    expect((await ok(A.restore, doc.id)).document.state).toBe(0);
    await refused(409, 'documents.reason.not_archived', A.restore, doc.id);
  });

  it('sign: records the user, time and content hash once per content', async () => {
    const doc = await incoming();
    await addAttachment(doc.id, 'αίτηση.pdf');
    const result = await ok(A.sign, doc.id, { comments: 'Εγκρίνεται' });
    expect(result.document.signatures).toHaveLength(1);
    const [signature] = await w.t.database.db
      .select()
      .from(documentSignatures)
      .where(eq(documentSignatures.documentId, doc.id));
    expect(signature).toMatchObject({ userId: w.ids.writer, comments: 'Εγκρίνεται' });
    expect(signature?.contentHash).toMatch(/^[0-9a-f]{64}$/);
    await refused(409, 'documents.reason.already_signed', A.sign, doc.id);
    // the chargee (protocol:read) may sign too
    await ok(A.charge, doc.id, { userId: w.ids.reader1 });
    await ok(A.sign, doc.id, {}, w.reader1);
    const line = (await history(doc.id)).find((h) => h.action === 'sign');
    expect(line?.changes?.signature.after).toBe(signature?.contentHash);
  });

  it('convert to outgoing: an unregistered outgoing reply to the senders, linked to the source', async () => {
    const doc = await incoming();
    const result = await ok(A.convertToOutgoing, doc.id, { comments: 'απάντηση' });
    const replyId = result.createdDocumentId as number;
    expect(replyId).toBeGreaterThan(doc.id);
    const reply = (await getDoc(replyId)).json();
    expect(reply).toMatchObject({
      kind: 1,
      protocolId: null,
      subject: doc.subject,
      replyTo: { id: doc.id },
      senders: [],
      receivers: [{ id: sender }],
    });
    expect(reply.documentType?.seqnr).toBe(7); // relseqid of type 3 → 'Απάντηση'
    expect(result.document.replies.map((r: Json) => r.id)).toContain(replyId);
    await refused(409, 'documents.reason.not_incoming', A.convertToOutgoing, replyId);
    // the chargee with protocol:read may not convert it
    await ok(A.charge, doc.id, { userId: w.ids.reader1 });
    await refused(403, 'documents.reason.not_allowed', A.convertToOutgoing, doc.id, {}, w.reader1);
  });

  it('create case: opens a case with the document, or adds it to a given case; delete is then refused', async () => {
    const doc = await draft();
    const result = await ok(A.createCase, doc.id, { case: { name: 'Υπόθεση σύνδεσης' } });
    expect(result.caseId).toBeGreaterThan(0);
    expect(result.document.cases).toEqual([
      expect.objectContaining({ id: result.caseId, name: 'Υπόθεση σύνδεσης' }),
    ]);
    expect(result.document.cases[0].code).toMatch(new RegExp(`^${w.year}/\\d{4}$`));
    await refused(409, 'error.document_in_case', A.delete, doc.id);
    const other = await draft();
    const added = await ok(A.createCase, other.id, { caseId: result.caseId });
    expect(added.caseId).toBe(result.caseId);
    // a case of another company does not exist
    const foreignCase = await w.t.app.inject({
      method: 'POST',
      url: `/api/cases?companyid=${w.companyB}`,
      headers: w.other,
      payload: { name: 'Ξένη υπόθεση' },
    });
    expect(foreignCase.statusCode, foreignCase.body).toBe(201);
    await refused(404, 'error.not_found', A.createCase, other.id, { caseId: foreignCase.json().id });
    await refused(404, 'error.not_found', A.createCase, other.id, {}, w.reader1);
    const line = (await history(doc.id)).find((h) => h.action === 'createCase');
    expect(line?.changes?.case.after).toContain('Υπόθεση σύνδεσης');
  });

  it('file transfer: copy out of a registered document, move between drafts, refusals', async () => {
    const registered = await incoming();
    const fileA = await addAttachment(registered.id, 'σχέδιο.pdf');
    const target = await draft();
    // moving out of a registered document is refused
    await refused(409, 'error.document_files_registered', A.fileTransfer, registered.id, {
      targetDocumentId: target.id,
      move: true,
    });
    // copy: the target gets its own row, the same stored object
    const copied = await ok(A.fileTransfer, registered.id, {
      targetDocumentId: target.id,
      attachmentIds: [fileA],
    });
    expect(copied.document.attachedFilesCount).toBe(1);
    const targetFiles = await w.t.database.db
      .select()
      .from(documentAttachments)
      .where(eq(documentAttachments.documentId, target.id));
    expect(targetFiles).toHaveLength(1);
    expect(targetFiles[0]).toMatchObject({
      fileName: 'σχέδιο.pdf',
      storageKey: '2026/01/0f0e0d0c-0b0a-4908-8706-050403020100',
    });
    expect(targetFiles[0]?.id).not.toBe(fileA);
    // move from a draft to another draft
    const second = await draft();
    const moved = await ok(A.fileTransfer, target.id, { targetDocumentId: second.id, move: true });
    expect(moved.document.attachedFilesCount).toBe(0);
    expect((await getDoc(second.id)).json().attachedFilesCount).toBe(1);
    expect((await history(second.id)).map((h) => h.action)).toContain('attachments_received');
    expect((await history(target.id)).find((h) => h.action === 'fileTransfer')?.changes).toEqual({
      attachmentsMoved: { before: ['σχέδιο.pdf'], after: `#${second.id}` },
    });
    // no attachments left: refused by the rule
    await refused(409, 'documents.reason.no_attachments', A.fileTransfer, target.id, {
      targetDocumentId: second.id,
    });
    // a target of another company is not found; a deleted one is refused; the target is required
    const foreign = await createDocument(w, { kind: 0, subject: 'Ξένο' }, w.other, w.companyB);
    await refused(404, 'error.not_found', A.fileTransfer, registered.id, { targetDocumentId: foreign.id });
    const deleted = await draft();
    await ok(A.delete, deleted.id);
    await refused(409, 'error.transfer_target_deleted', A.fileTransfer, registered.id, {
      targetDocumentId: deleted.id,
    });
    await refused(400, 'error.bad_data', A.fileTransfer, registered.id, {});
    // only protocol:write
    await ok(A.charge, registered.id, { userId: w.ids.reader1 });
    await refused(
      403,
      'documents.reason.not_allowed',
      A.fileTransfer,
      registered.id,
      { targetDocumentId: target.id },
      w.reader1,
    );
  });

  it('clone: a new unregistered draft with the same fields, cloneDocument = source, files copied', async () => {
    const doc = await incoming({ folder: 'Φ.12' });
    await addAttachment(doc.id, 'πρωτότυπο.pdf');
    const result = await ok(A.clone, doc.id);
    const clone = (await getDoc(result.createdDocumentId)).json();
    expect(clone).toMatchObject({
      kind: 0,
      subject: doc.subject,
      folder: 'Φ.12',
      protocolId: null,
      cloneDocument: doc.id,
      senders: [{ id: sender }],
      attachedFilesCount: 1,
      state: 0,
    });
    expect((await history(doc.id)).find((h) => h.action === 'clone')?.changes).toEqual({
      clone: { before: null, after: clone.id },
    });
    await refused(404, 'error.not_found', A.clone, doc.id, {}, w.reader1);
  });

  it('delete: only unregistered drafts; moves to state 9; restore brings it back', async () => {
    const registered = await incoming();
    await refused(409, 'error.document_registered_delete', A.delete, registered.id);
    const doc = await draft();
    await ok(A.charge, doc.id, { userId: w.ids.reader1 });
    await refused(403, 'documents.reason.not_allowed', A.delete, doc.id, {}, w.reader1);
    expect((await ok(A.delete, doc.id, { comments: 'λάθος καταχώριση' })).document.state).toBe(9);
    await refused(409, 'documents.reason.deleted', A.delete, doc.id);
    await refused(409, 'documents.reason.deleted', A.archive, doc.id);
    await refused(409, 'documents.reason.deleted', A.clone, doc.id);
    expect((await ok(A.restore, doc.id)).document.state).toBe(0);
    const lines = await history(doc.id);
    expect(lines.find((h) => h.action === 'delete')).toMatchObject({
      comments: 'λάθος καταχώριση',
      changes: { state: { before: 0, after: 9 } },
    });
    expect(lines.find((h) => h.action === 'restore')?.changes).toEqual({ state: { before: 9, after: 0 } });
  });

  it('other company and unknown documents: 404; bad action id: 400', async () => {
    const doc = await incoming();
    for (const id of [A.history, A.charge, A.archive, A.delete]) {
      await refused(404, 'error.not_found', id, doc.id, { userId: w.ids.other }, w.other);
    }
    await refused(404, 'error.not_found', A.history, 999_999);
    const bad = await act(w, { actionType: { id: 15 }, document: { id: doc.id } });
    expect(bad.statusCode).toBe(400);
    const history404 = await w.t.app.inject({
      method: 'GET',
      url: `/api/document/${doc.id}/history`,
      headers: w.other,
    });
    expect(history404.statusCode).toBe(404);
  });
});
