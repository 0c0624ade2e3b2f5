import {
  BOOK_TYPE_OF_KIND,
  type DocumentKind,
  type ProtocolDocument,
  type SaveDocument,
} from '@protocol/contracts';
import { asc, eq, type SQL, sql, type WithSubquery } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import {
  type JsonRow,
  jsonRecords,
  jsonRowOf,
  preparedStatement,
  recordsJson,
  rowOf,
} from '../../../db/prepared.ts';
import { auditInsert, recordAudit } from '../../../platform/audit.ts';
import { updatedBy } from '../../../platform/audit-columns.ts';
import type { Principal } from '../../../platform/auth.ts';
import { pgError } from '../../../platform/db-errors.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { notificationInsert } from '../../notifications/api.ts';
import { traders } from '../../traders/traders.schema.ts';
import { documentAssignments, documents, documentTraders } from '../protocol.schema.ts';
import { documentAnswer, loadDocument } from './documents.answer.ts';
import { chargedNotification, chargeOnSave } from './documents.charge.ts';
import {
  ASSIGNMENT_KIND,
  auditUser,
  type DocumentRow,
  documentErrorKeys,
  fieldError,
  type SaveOptions,
  TRADER_ROLE,
} from './documents.common.ts';
import { assertAction, documentFacts } from './documents.facts.ts';
import { checkSendDate, type Resolved, resolveReferences } from './documents.references.ts';
import { register, registeredChanges, takeNumberSql } from './documents.registration.ts';
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

const p = (name: string) => sql.placeholder(name);

/** What changes the text of a creation statement; its values are placeholders (see `preparedStatement`). */
interface CreationShape {
  registered: boolean;
  charged: boolean;
  notified: boolean;
}

const creationStatements = new Map<string, ReturnType<typeof preparedStatement>>();

/**
 * The statement that creates a document of one shape, prepared once: the number from the book's
 * counter row (registered), the document, its senders and receivers (any number, one JSON
 * parameter), its charge and the chargee's notification (charged, notified) and its audit lines.
 */
function creationStatement(shape: CreationShape) {
  const key = `${shape.registered}${shape.charged}${shape.notified}`;
  const known = creationStatements.get(key);
  if (known) return known;
  const statement = preparedStatement((db) => {
    const audit = (action: string, changes: SQL | null) => ({
      companyId: p('companyId'),
      entity: 'document',
      entityId: sql`${p('id')}::text`,
      action,
      userId: p('userId'),
      username: p('username'),
      changes,
      requestId: p('requestId'),
    });
    const writes: { getSQL(): SQL }[] = [
      auditInsert(db, [
        audit('created', null),
        ...(shape.registered
          ? [
              audit(
                'registered',
                registeredChanges({ descr: p('bookDescr') }, sql`(SELECT last || '/' || year FROM taken)`),
              ),
            ]
          : []),
      ]),
      sql`INSERT INTO ${documentTraders} (document_id, role, position, trader_id)
        SELECT ${p('id')}, r.role, r.position, r.trader_id
        FROM ${jsonRecords(documentTraders, ['role', 'position', 'traderId'], p('people'), 'r')}`,
    ];
    if (shape.charged)
      writes.push(
        db.insert(documentAssignments).values({
          documentId: p('id'),
          kind: ASSIGNMENT_KIND.charge,
          userId: p('chargedUserId'),
          byUserId: p('userId'),
        }),
      );
    if (shape.notified) {
      // The charge notification with placeholders for its values (who is told was decided with the shape).
      const charged = chargedNotification(
        { userId: p('userId') } as never,
        { id: p('id'), companyId: p('companyId'), subject: '' } as never,
        p('chargedUserId') as never,
      );
      const notification = notificationInsert(db, {
        ...charged,
        params: sql`jsonb_build_object('subject', ${p('subject')}::text)` as never,
      });
      if (notification) writes.push(notification);
    }
    const ctes: WithSubquery[] = writes.map((write, index) =>
      db.$with(`write${index}`, {}).as(write.getSQL()),
    );
    if (shape.registered)
      ctes.unshift(
        db
          .$with('taken', {})
          .as(
            takeNumberSql(
              p('companyId'),
              p('booktype'),
              p('bookId'),
              sql`coalesce(${p('now')}::timestamptz, clock_timestamp())`,
            ),
          ),
      );
    const taken = (column: string) => sql`(SELECT ${sql.identifier(column)} FROM taken)`;
    return db
      .with(...ctes)
      .insert(documents)
      .values({
        id: p('id'),
        companyId: p('companyId'),
        kind: p('kind'),
        name: p('name'),
        subject: p('subject'),
        subjectCategoryId: p('subjectCategoryId'),
        documentTypeId: p('documentTypeId'),
        protocolIdSender: p('protocolIdSender'),
        protocolSendDate: p('protocolSendDate'),
        correspondents: p('correspondents'),
        folder: p('folder'),
        isOutbox: p('isOutbox'),
        publications: p('publications'),
        metadata: p('metadata'),
        comments: p('comments'),
        state: 0,
        createUserId: p('userId'),
        createuser: p('username'),
        chargedUserId: p('chargedUserId'),
        ...(shape.registered
          ? {
              protocolBookId: p('bookId'),
              protocolNumber: taken('last'),
              protocolYear: taken('year'),
              protocolDate: taken('at'),
            }
          : {}),
      })
      .returning({ row: jsonRowOf(documents, 'documents').as('row') })
      .getSQL();
  });
  creationStatements.set(key, statement);
  return statement;
}

/**
 * Creates a document; with a book (or autonr) it is registered. Everything it writes (the number,
 * the document, its senders and receivers, its charge and notification, its audit lines) is ONE
 * statement, run on its own: PostgreSQL makes a statement atomic, and the counter row is then locked
 * only while the statement runs and commits, not for round trips to this process. That lock is what
 * every registration in a book waits for.
 */
export async function createDocument(
  db: Tx,
  principal: Principal,
  companyId: number,
  input: SaveDocument,
  options: SaveOptions = {},
): Promise<ProtocolDocument> {
  const now = options.now ?? new Date();
  const resolved = await resolveReferences(db, principal, companyId, input, input.protocolBookId, { now });
  const id = resolved.newId;
  if (id === null) throw new Error('no document id');
  const book = resolved.book ?? resolved.autonrBook;
  checkSendDate(resolved.type, input.protocolSendDate, now, book ? now : null);

  const chargedUserId = input.chargedUserId ?? null;
  const shape: CreationShape = {
    registered: Boolean(book),
    charged: chargedUserId !== null,
    // The chargee is told, unless they charge the document to themselves (notifications' rule).
    notified: chargedUserId !== null && chargedUserId !== principal.userId,
  };
  const people = [
    ...resolved.senders.map((traderId, position) => ({ role: TRADER_ROLE.sender, position, traderId })),
    ...resolved.receivers.map((traderId, position) => ({ role: TRADER_ROLE.receiver, position, traderId })),
  ];
  let row: DocumentRow | undefined;
  try {
    const [written] = await creationStatement(shape)<{ row: JsonRow }>(db, {
      ...columnsOf(input, resolved),
      id,
      companyId,
      userId: principal.userId,
      username: principal.username,
      requestId: options.requestId ?? null,
      chargedUserId,
      subject: input.subject,
      people: recordsJson(documentTraders, ['role', 'position', 'traderId'], people),
      bookId: book?.id ?? null,
      bookDescr: book?.descr ?? null,
      booktype: BOOK_TYPE_OF_KIND[input.kind as DocumentKind],
      now: options.now?.toISOString() ?? null,
    });
    row = written && rowOf<DocumentRow>(documents, written.row);
  } catch (error) {
    // The book was closed between the check and the statement: no number was taken.
    if (book && pgError(error)?.constraint === 'documents_registration_whole')
      throw fieldError(409, documentErrorKeys.bookInactive, 'protocolBookId', { book: book.descr });
    throw error;
  }
  if (!row) throw new Error('document not created');
  const traderOf = (ids: number[]) => ids.flatMap((traderId) => resolved.traders.get(traderId) ?? []);
  return documentAnswer(principal, {
    row,
    book: book ? { id: book.id, descr: book.descr, year: book.year, booktype: book.booktype } : null,
    type: resolved.type
      ? { id: resolved.type.id, descr: resolved.type.descr, seqnr: resolved.type.seqnr }
      : null,
    receipt: resolved.type ? { printype: resolved.type.printype, copies: resolved.type.copies } : null,
    category: resolved.category,
    creator: resolved.creator,
    charged: resolved.charged,
    group: null,
    senders: traderOf(resolved.senders),
    receivers: traderOf(resolved.receivers),
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
  id: number,
  input: SaveDocument,
  options: SaveOptions = {},
): Promise<ProtocolDocument> {
  await db.transaction(async (tx) => {
    const now = options.now ?? new Date();
    const before = await visibleDocumentRow(tx, principal, id, { lock: true });
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
      principal,
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
  return loadDocument(db, principal, undefined, id);
}
