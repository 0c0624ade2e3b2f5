import { DEFAULT_DOCUMENT_TYPE_SEQNR, type DocumentTrader } from '@protocol/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { jsonRecords, jsonRowOf, preparedStatement } from '../../../db/prepared.ts';
import { auditLog } from '../../../platform/audit.schema.ts';
import { companyUsers } from '../../companies/companies.schema.ts';
import { notifications } from '../../notifications/notifications.schema.ts';
import { protocolBooks } from '../../parametrics/parametrics.schema.ts';
import { traders } from '../../traders/traders.schema.ts';
import { sessionHolds } from '../../users/api.ts';
import { users } from '../../users/users.schema.ts';
import {
  documentAssignments,
  documents,
  documentTraders,
  documentTypes,
  subjectCategories,
} from '../protocol.schema.ts';
import { chargedNotification } from './documents.charge.ts';
import { ASSIGNMENT_KIND, fullNameSql, type OperatorRef, type RegistrationLink } from './documents.common.ts';
import type { BookRef, TypeRef } from './documents.references.ts';
import { registeredChanges, takeNumberSql } from './documents.registration.ts';

/*
 * Creating a document (POST /api/document) in ONE statement, checks included: a registration's
 * round trips are what limits its throughput, and the counter row is locked for that statement only.
 */

const p = (name: string) => sql.placeholder(name);
const companyId = p('companyId');
const userId = p('userId');

/** What the creation statement answers: the document and what its answer shows of what it names. */
export interface Created {
  /** Null when a check failed: nothing was written and no number taken. */
  row: Record<string, unknown> | null;
  type: TypeRef | null;
  category: { id: number; descr: string } | null;
  book: BookRef | null;
  creator: OperatorRef | null;
  charged: OperatorRef | null;
  people: (DocumentTrader & { role: number })[] | null;
  /** The caller's rows the statement linked to the document (`RegistrationLink`): 1, or 0 when none. */
  linked: number;
}

const CHARGED = chargedNotification({ userId: 0 } as never, { id: 0, companyId: 0, subject: '' }, 0);

/**
 * Checks what the save names as `resolveReferences` and `checkSendDate` do (the type, default code 3,
 * category, senders and receivers, chargee and book of the company; the autonr book when none is
 * named; the sender's date), and only when all of it holds takes the book's number and writes the
 * document, its senders and receivers, its charge and the chargee's notification, and its audit
 * lines, and only on behalf of a session that holds (`sessionHolds`). Otherwise it writes nothing,
 * takes no number and answers no row; the caller then names the fields with `resolveReferences`.
 */
export const creation = preparedStatement(() => creationSql(null));

const linkedCreations = new WeakMap<RegistrationLink, ReturnType<typeof preparedStatement>>();

/** The creation statement that also links `link`'s row (the prepared statement's `linkId` parameter) to the registered document. */
export function linkedCreation(link: RegistrationLink) {
  let statement = linkedCreations.get(link);
  if (!statement) {
    statement = preparedStatement(() => creationSql(link));
    linkedCreations.set(link, statement);
  }
  return statement;
}

/** Only a registered document is linked: the row names no unnumbered document. */
const linkSql = (link: RegistrationLink): SQL => sql`, linked AS (
      UPDATE ${link.key.table} SET ${sql.identifier(link.documentId.name)} = doc.id,
        ${sql.identifier(link.protocolId.name)} = doc.protocol_number || '/' || doc.protocol_year
      FROM doc WHERE ${link.key} = ${p('linkId')} AND doc.protocol_number IS NOT NULL
      RETURNING 1
    )`;

function creationSql(link: RegistrationLink | null): SQL {
  return sql`
    WITH type AS (
      SELECT ${documentTypes.id} AS id, ${documentTypes.companyId} AS "companyId", ${documentTypes.descr} AS descr,
        ${documentTypes.seqnr} AS seqnr, ${documentTypes.autonr} AS autonr, ${documentTypes.checkdates} AS checkdates,
        ${documentTypes.printype} AS printype, ${documentTypes.copies} AS copies
      FROM ${documentTypes}
      WHERE ${documentTypes.id} = ${p('typeId')}
        OR (${p('typeId')}::int IS NULL AND ${documentTypes.companyId} = ${companyId}
          AND ${documentTypes.seqnr} = ${DEFAULT_DOCUMENT_TYPE_SEQNR} AND ${documentTypes.active})
      ORDER BY ${documentTypes.id} LIMIT 1
    ), category AS (
      SELECT ${subjectCategories.id} AS id, ${subjectCategories.descr} AS descr FROM ${subjectCategories}
      WHERE ${subjectCategories.id} = ${p('categoryId')} AND ${subjectCategories.companyId} = ${companyId}
    ), people AS (
      SELECT r.role, r.position, r.trader_id, ${traders.id} IS NOT NULL AS found, ${traders.fullname} AS fullname,
        ${traders.vatnumber} AS vatnumber, ${traders.email} AS email
      FROM ${jsonRecords(documentTraders, ['role', 'position', 'traderId'], p('people'), 'r')}
      LEFT JOIN ${traders} ON ${traders.id} = r.trader_id AND ${traders.companyId} = ${companyId}
    ), charged AS (
      SELECT ${users.id} AS id, ${users.username} AS username, ${fullNameSql(users)} AS "fullName" FROM ${users}
      JOIN ${companyUsers} ON ${companyUsers.userId} = ${users.id} AND ${companyUsers.companyId} = ${companyId}
      WHERE ${users.id} = ${p('chargedUserId')} AND ${users.active}
    ), creator AS (
      SELECT ${users.id} AS id, ${users.username} AS username, ${fullNameSql(users)} AS "fullName" FROM ${users}
      WHERE ${users.id} = ${userId}
    ), books AS (
      SELECT ${protocolBooks.id} AS id, ${protocolBooks.companyId} AS "companyId", ${protocolBooks.descr} AS descr,
        ${protocolBooks.year} AS year, ${protocolBooks.booktype} AS booktype, ${protocolBooks.isActive} AS "isActive",
        ${protocolBooks.id} = ${p('bookId')} AS named
      FROM ${protocolBooks}
      WHERE ${protocolBooks.id} = ${p('bookId')}
        OR (${p('bookId')}::int IS NULL AND (SELECT autonr FROM type) AND ${protocolBooks.companyId} = ${companyId}
          AND ${protocolBooks.isActive} AND ${protocolBooks.booktype} = ${p('booktype')}
          AND ${protocolBooks.year} = ${p('autonrYear')})
      LIMIT 2
    ), book AS (
      SELECT * FROM books
      WHERE "companyId" = ${companyId} AND booktype = ${p('booktype')} AND "isActive"
        AND (named OR (SELECT count(*) FROM books) = 1)
    ), valid AS (
      SELECT WHERE ${sessionHolds()} AND (${p('typeId')}::int IS NULL OR EXISTS (SELECT FROM type WHERE "companyId" = ${companyId}))
        AND (${p('categoryId')}::int IS NULL OR EXISTS (SELECT FROM category))
        AND (${p('chargedUserId')}::int IS NULL OR EXISTS (SELECT FROM charged))
        AND NOT EXISTS (SELECT FROM people WHERE NOT found)
        AND (${p('bookId')}::int IS NULL OR EXISTS (SELECT FROM book))
        AND NOT coalesce((SELECT checkdates FROM type) AND ${p('protocolSendDate')}::date > ${p('today')}::date, false)
    ), taken AS (${takeNumberSql(
      companyId,
      p('booktype'),
      sql`(SELECT id FROM book WHERE EXISTS (SELECT FROM valid))`,
      sql`coalesce(${p('now')}::timestamptz, clock_timestamp())`,
    )}), doc AS (
      INSERT INTO ${documents} (company_id, kind, name, subject, subject_category_id, document_type_id,
        protocol_id_sender, protocol_send_date, correspondents, folder, is_outbox, publications, metadata, comments,
        state, create_user_id, createuser, charged_user_id, protocol_book_id, protocol_number, protocol_year,
        protocol_date)
      SELECT ${companyId}::int, ${p('kind')}::smallint, ${p('name')}::text, ${p('subject')}::text,
        ${p('categoryId')}::int, (SELECT id FROM type), ${p('protocolIdSender')}::text, ${p('protocolSendDate')}::date,
        (SELECT nullif(string_agg(fullname, ', ' ORDER BY position) FILTER (WHERE fullname <> ''), '') FROM people
          WHERE role = ${p('correspondentRole')}),
        ${p('folder')}::text, ${p('isOutbox')}::boolean, ${p('publications')}::jsonb, ${p('metadata')}::jsonb,
        ${p('comments')}::text, 0, ${userId}::int, ${p('username')}::text, ${p('chargedUserId')}::int,
        taken.book_id, taken.last, taken.year, taken.at
      FROM valid LEFT JOIN taken ON true
      RETURNING *
    ), named_people AS (
      INSERT INTO ${documentTraders} (document_id, role, position, trader_id)
      SELECT doc.id, people.role, people.position, people.trader_id FROM doc, people
    ), charge AS (
      INSERT INTO ${documentAssignments} (document_id, kind, user_id, by_user_id)
      SELECT doc.id, ${ASSIGNMENT_KIND.charge}, doc.charged_user_id, ${userId}::int FROM doc
      WHERE doc.charged_user_id IS NOT NULL
    ), notified AS (
      INSERT INTO ${notifications} (company_id, user_id, sender_id, message_key, params, entity, entity_id)
      SELECT doc.company_id, doc.charged_user_id, ${userId}::int, ${CHARGED.messageKey},
        jsonb_build_object('subject', doc.subject), ${CHARGED.entity}, doc.id
      FROM doc WHERE doc.charged_user_id <> ${userId}::int
    ), logged AS (
      INSERT INTO ${auditLog} (company_id, entity, entity_id, action, user_id, username, changes, request_id)
      SELECT doc.company_id, 'document', doc.id::text, a.action, ${userId}::int, doc.createuser,
        CASE WHEN a.action = 'registered' THEN ${registeredChanges(
          { descr: sql`(SELECT descr FROM book)` },
          sql`(SELECT last || '/' || year FROM taken)`,
        )} END, ${p('requestId')}::text
      FROM doc, (VALUES (1, 'created'), (2, 'registered')) AS a(position, action)
      WHERE a.action = 'created' OR EXISTS (SELECT FROM taken)
      ORDER BY a.position
    )${link ? linkSql(link) : sql``}
    SELECT (SELECT ${jsonRowOf(documents, 'doc')} FROM doc) AS "row",
      (SELECT row_to_json(type) FROM type) AS "type",
      (SELECT row_to_json(category) FROM category) AS "category",
      (SELECT json_build_object('id', id, 'companyId', "companyId", 'descr', descr, 'year', year,
        'booktype', booktype, 'isActive', "isActive") FROM book WHERE EXISTS (SELECT FROM taken)) AS "book",
      (SELECT row_to_json(creator) FROM creator) AS "creator",
      (SELECT row_to_json(charged) FROM charged) AS "charged",
      (SELECT json_agg(json_build_object('role', role, 'id', trader_id, 'fullname', fullname,
        'vatnumber', vatnumber, 'email', email) ORDER BY role, position) FROM people) AS "people",
      ${link ? sql`(SELECT count(*)::int FROM linked)` : sql`0`} AS "linked"`;
}
