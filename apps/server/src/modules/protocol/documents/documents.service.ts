import {
  BOOK_TYPE_OF_KIND,
  type DocumentKind,
  type ProtocolDocument,
  type SaveDocument,
} from '@protocol/contracts';
import { asc, eq } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { recordsJson, rowOf } from '../../../db/prepared.ts';
import { recordAudit } from '../../../platform/audit.ts';
import { updatedBy } from '../../../platform/audit-columns.ts';
import type { Principal } from '../../../platform/auth.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { traders } from '../../traders/traders.schema.ts';
import { sessionValues } from '../../users/api.ts';
import { documents, documentTraders } from '../protocol.schema.ts';
import { documentAnswer, loadDocument } from './documents.answer.ts';
import { chargeOnSave } from './documents.charge.ts';
import {
  auditUser,
  type DocumentRow,
  documentErrorKeys,
  protocolDay,
  protocolYearOf,
  type SaveOptions,
  TRADER_ROLE,
  unique,
} from './documents.common.ts';
import { type Created, creation, linkedCreation } from './documents.creation.ts';
import { assertAction, documentFacts } from './documents.facts.ts';
import { checkSendDate, type Resolved, resolveReferences } from './documents.references.ts';
import { register } from './documents.registration.ts';
import { correspondentsOf, namesOf, saveTraders } from './documents.traders.ts';
import { visibleDocumentRow } from './visibility.ts';

/*
 * Creating and changing a document from the form (POST and PUT /api/document): the checks, the
 * columns and the audit line of a save, and its registration. The parts it uses live beside it:
 * visibility, references, registration, charge, traders, the answer.
 */

/** The editable columns of a save (never the registration fields). */
function columnsOf(input: SaveDocument, resolved: Resolved) {
  return {
    kind: input.kind,
    name: input.name,
    subject: input.subject,
    subjectCategoryId: input.subjectCategoryId ?? null,
    documentTypeId: resolved.type?.id ?? null,
    protocolIdSender: input.protocolIdSender,
    protocolSendDate: input.protocolSendDate,
    correspondents: correspondentsOf(input.kind, resolved),
    folder: input.folder,
    isOutbox: input.kind === 1,
    publications: input.publications,
    metadata: input.metadata,
    comments: input.comments,
  };
}

/**
 * Creates a document; with a book (or autonr) it is registered. Everything it checks and writes (what
 * the save names, the number, the document, its senders and receivers, its charge and notification,
 * its audit lines) is ONE statement (documents.creation.ts), run on its own: PostgreSQL makes a
 * statement atomic, and the counter row is then locked only while the statement runs and commits,
 * not for round trips to this process. That lock is what every registration in a book waits for.
 * When a check fails the statement writes nothing and takes no number; the errors are then those of
 * the checks that name the fields (`resolveReferences`, `checkSendDate`), as an update's (or, on a
 * session its node remembered that no longer holds as it was, the session is confirmed first).
 */
export async function createDocument(
  db: Tx,
  principal: Principal,
  companyId: number,
  input: SaveDocument,
  options: SaveOptions = {},
): Promise<ProtocolDocument> {
  const now = options.now ?? new Date();
  const senders = unique(input.senders);
  const receivers = unique(input.receivers);
  const people = [
    ...senders.map((traderId, position) => ({ role: TRADER_ROLE.sender, position, traderId })),
    ...receivers.map((traderId, position) => ({ role: TRADER_ROLE.receiver, position, traderId })),
  ];
  const chargedUserId = input.chargedUserId ?? null;
  const statement = options.link ? linkedCreation(options.link.to) : creation;
  const [created] = await statement<Created>(db, {
    ...(options.link && { linkId: options.link.id }),
    companyId,
    ...sessionValues(principal),
    username: principal.username,
    requestId: options.requestId ?? null,
    kind: input.kind,
    name: input.name,
    subject: input.subject,
    typeId: input.documentTypeId ?? null,
    categoryId: input.subjectCategoryId ?? null,
    protocolIdSender: input.protocolIdSender,
    protocolSendDate: input.protocolSendDate,
    today: protocolDay(now),
    correspondentRole: input.kind === 0 ? TRADER_ROLE.sender : TRADER_ROLE.receiver,
    folder: input.folder,
    isOutbox: input.kind === 1,
    publications: JSON.stringify(input.publications),
    metadata: JSON.stringify(input.metadata),
    comments: input.comments,
    chargedUserId,
    people: recordsJson(documentTraders, ['role', 'position', 'traderId'], people),
    bookId: input.protocolBookId ?? null,
    booktype: BOOK_TYPE_OF_KIND[input.kind as DocumentKind],
    autonrYear: protocolYearOf(now),
    now: options.now?.toISOString() ?? null,
  });
  if (!created?.row) {
    // The session this node remembered has changed: created again for the principal as it is now.
    if (principal.remembered)
      return createDocument(db, await principal.remembered.confirm(), companyId, input, options);
    // Something the save names is not the company's or not usable: name the fields.
    const resolved = await resolveReferences(db, companyId, input, input.protocolBookId);
    checkSendDate(resolved.type, input.protocolSendDate, now, now);
    throw new Error('the creation statement wrote no document, yet every check holds');
  }
  const row = rowOf<DocumentRow>(documents, created.row);
  // A linked row that is not there (or a document the book did not number) is the caller's mistake.
  if (options.link && created.linked !== 1) throw new Error('the registration linked no row');
  const { book, type } = created;
  const named = (role: number) =>
    (created.people ?? [])
      .filter((person) => person.role === role)
      .map(({ id, fullname, vatnumber, email }) => ({ id, fullname, vatnumber, email }));
  return documentAnswer(principal, {
    row,
    book: book ? { id: book.id, descr: book.descr, year: book.year, booktype: book.booktype } : null,
    type: type ? { id: type.id, descr: type.descr, seqnr: type.seqnr } : null,
    receipt: type ? { printype: type.printype, copies: type.copies } : null,
    category: created.category,
    creator: created.creator,
    charged: created.charged,
    group: null,
    senders: named(TRADER_ROLE.sender),
    receivers: named(TRADER_ROLE.receiver),
    files: [],
    signatures: [],
    cases: [],
    links: [],
    charge: { hasActiveCharge: chargedUserId !== null, isChargee: chargedUserId === principal.userId },
  });
}

/** The fields of a document the 'updated' audit line compares. */
function auditShape(row: DocumentRow, senders: string, receivers: string) {
  return {
    kind: row.kind,
    name: row.name,
    subject: row.subject,
    subjectCategoryId: row.subjectCategoryId,
    documentTypeId: row.documentTypeId,
    protocolIdSender: row.protocolIdSender,
    protocolSendDate: row.protocolSendDate,
    folder: row.folder,
    comments: row.comments,
    publications: row.publications,
    metadata: row.metadata,
    chargedUserId: row.chargedUserId,
    senders,
    receivers,
  };
}

function diffShapes(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const [key, value] of Object.entries(after)) {
    if (JSON.stringify(before[key] ?? null) !== JSON.stringify(value ?? null))
      changes[key] = { before: before[key] ?? null, after: value ?? null };
  }
  return changes;
}

/**
 * Changes a document (edit rule: protocol:write or the current chargee; active only). A registered
 * document keeps its book, number, year, date and kind: a save that changes them is 409. Naming a
 * book on an unregistered document registers it.
 */
export async function updateDocument(
  db: Tx,
  principal: Principal,
  companyId: number,
  id: number,
  input: SaveDocument,
  options: SaveOptions = {},
): Promise<ProtocolDocument> {
  await db.transaction(async (tx) => {
    const now = options.now ?? new Date();
    const before = await visibleDocumentRow(tx, principal, companyId, id, { lock: true });
    assertAction(principal, 'edit', before, await documentFacts(tx, principal, before));
    const registered = before.protocolNumber !== null;
    if (registered) {
      const locked: string[] = [];
      if (input.kind !== before.kind) locked.push('kind');
      if (input.protocolBookId !== undefined && input.protocolBookId !== before.protocolBookId)
        locked.push('protocolBookId');
      if (locked.length > 0) {
        throw new AppError(
          409,
          documentErrorKeys.registeredLocked,
          { fields: locked.join(', ') },
          locked.map((field) => ({ field, key: documentErrorKeys.registeredLocked, params: {} })),
        );
      }
    }
    const resolved = await resolveReferences(
      tx,
      before.companyId,
      input,
      registered ? undefined : input.protocolBookId,
    );
    checkSendDate(resolved.type, input.protocolSendDate, now, registered ? before.protocolDate : now);

    const oldTraders = await tx
      .select({ role: documentTraders.role, traderId: documentTraders.traderId, fullname: traders.fullname })
      .from(documentTraders)
      .innerJoin(traders, eq(traders.id, documentTraders.traderId))
      .where(eq(documentTraders.documentId, id))
      .orderBy(asc(documentTraders.role), asc(documentTraders.position));
    const oldNames = (role: number) =>
      oldTraders
        .filter((t) => t.role === role)
        .map((t) => t.fullname ?? String(t.traderId))
        .join(', ');

    const [row] = await tx
      .update(documents)
      .set({ ...columnsOf(input, resolved), ...updatedBy(principal.username) })
      .where(eq(documents.id, id))
      .returning();
    if (!row) throw notFound();
    await saveTraders(tx, id, resolved.senders, resolved.receivers);
    const chargeChanged = Boolean(input.chargedUserId) && input.chargedUserId !== before.chargedUserId;
    if (chargeChanged && input.chargedUserId) await chargeOnSave(tx, principal, row, input.chargedUserId);

    const changes = diffShapes(
      auditShape(before, oldNames(TRADER_ROLE.sender), oldNames(TRADER_ROLE.receiver)),
      auditShape(
        { ...row, chargedUserId: chargeChanged ? (input.chargedUserId ?? null) : before.chargedUserId },
        namesOf(resolved.senders, resolved.names),
        namesOf(resolved.receivers, resolved.names),
      ),
    );
    await recordAudit(tx, {
      entity: 'document',
      entityId: id,
      action: 'updated',
      companyId: row.companyId,
      user: auditUser(principal),
      changes,
      requestId: options.requestId,
    });
    if (!registered && resolved.book) await register(tx, principal, row, resolved.book, options);
  });
  return loadDocument(db, principal, companyId, id);
}
