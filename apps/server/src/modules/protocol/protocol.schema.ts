import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { tsvector } from '../../platform/search/tsvector.ts';
import { companyIdColumn } from '../companies/companies.schema.ts';
import { protocolBooks } from '../parametrics/parametrics.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { userGroups } from '../users/groups.schema.ts';
import { users } from '../users/users.schema.ts';

/**
 * Document types (τύποι εγγράφων) and their sequence settings (spec §3): `seqnr` is the type's code
 * (documents default to code 3), `autonr` registers a document of this type when it is first saved
 * into a book, `printype`/`copies` say what happens with the registration receipt (print modes 0–3),
 * `checkdates` refuses a sender's date after the registration, `relseqid` is the type a reply
 * (convert to outgoing) gets.
 */
export const documentTypes = pgTable(
  'document_types',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    seqnr: integer('seqnr').notNull(),
    descr: text('descr').notNull(),
    autonr: boolean('autonr').notNull().default(true),
    printype: smallint('printype').notNull().default(0),
    copies: smallint('copies').notNull().default(1),
    checkdates: boolean('checkdates').notNull().default(true),
    relseqid: integer('relseqid').references((): AnyPgColumn => documentTypes.id, { onDelete: 'set null' }),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [index('document_types_company_idx').on(t.companyId, t.seqnr)],
);

/** Subject categories (θεματικές κατηγορίες) that classify documents. */
export const subjectCategories = pgTable(
  'subject_categories',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    code: text('code'),
    descr: text('descr').notNull(),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [index('subject_categories_company_idx').on(t.companyId)],
);

/**
 * The running number of a protocol book in one year. Registration takes the next number with
 * `INSERT … ON CONFLICT DO UPDATE SET last = last + 1 RETURNING last` in the statement that writes
 * the document: the row lock serialises concurrent registrations and a failure gives the number
 * back, so numbers never skip or repeat (a PostgreSQL sequence would leave gaps).
 */
export const protocolCounters = pgTable(
  'protocol_counters',
  {
    bookId: integer('book_id')
      .notNull()
      .references(() => protocolBooks.id, { onDelete: 'restrict' }),
    year: integer('year').notNull(),
    last: integer('last').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bookId, t.year] })],
);

/**
 * Documents (έγγραφα) of the protocol: kind 0 incoming, 1 outgoing (spec §3 Document).
 * `state`: 0 active, 1 archived, 9 deleted (only unregistered drafts can be deleted).
 * A registered document has book, number, year and date; none of them changes afterwards.
 */
export const documents = pgTable(
  'documents',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    kind: smallint('kind').notNull(),
    name: text('name'),
    subject: text('subject').notNull(),
    subjectCategoryId: integer('subject_category_id').references(() => subjectCategories.id),
    state: smallint('state').notNull().default(0),
    documentTypeId: integer('document_type_id').references(() => documentTypes.id),
    protocolBookId: integer('protocol_book_id').references(() => protocolBooks.id),
    protocolNumber: integer('protocol_number'),
    protocolYear: integer('protocol_year'),
    protocolDate: timestamp('protocol_date', { withTimezone: true, mode: 'date' }),
    protocolIdSender: text('protocol_id_sender'),
    protocolSendDate: date('protocol_send_date', { mode: 'string' }),
    /** Display names of the senders and receivers, kept by the service for lists and search. */
    correspondents: text('correspondents'),
    createUserId: integer('create_user_id').references(() => users.id),
    chargedUserId: integer('charged_user_id').references(() => users.id),
    chargedGroupId: integer('charged_group_id').references(() => userGroups.id, { onDelete: 'set null' }),
    folder: text('folder'),
    isOutbox: boolean('is_outbox').notNull().default(false),
    /** The document this one was cloned from (spec §3 cloneDocument). */
    cloneDocumentId: integer('clone_document_id').references((): AnyPgColumn => documents.id, {
      onDelete: 'set null',
    }),
    /** The incoming document this outgoing one answers (convert to outgoing). */
    replyToId: integer('reply_to_id').references((): AnyPgColumn => documents.id, { onDelete: 'set null' }),
    /** Send status of an outgoing document: 0 hold, 1 send, 2 sent, 9 completed. */
    sendStatus: smallint('send_status').notNull().default(0),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /** Publications of the act, e.g. [{ portal: 'diavgeia', reference: 'ΑΔΑ', date, url }]. */
    publications: jsonb('publications')
      .$type<{ portal: string; reference: string; date: string | null; url: string | null }[]>()
      .notNull()
      .default([]),
    metadata: jsonb('metadata')
      .$type<Record<string, string | number | boolean | null>>()
      .notNull()
      .default({}),
    comments: text('comments'),
    nameNorm: text('name_norm').generatedAlwaysAs(sql`norm_text(name)`),
    subjectNorm: text('subject_norm').generatedAlwaysAs(sql`norm_text(subject)`),
    correspondentsNorm: text('correspondents_norm').generatedAlwaysAs(sql`norm_text(correspondents)`),
    /** "1532/2024", stored so the list's search keeps its index behind the company wall. */
    protocolId: text('protocol_id').generatedAlwaysAs(
      sql`protocol_number::text || '/' || protocol_year::text`,
    ),
    protocolIdSenderNorm: text('protocol_id_sender_norm').generatedAlwaysAs(
      sql`norm_text(protocol_id_sender)`,
    ),
    /** Subject, name and correspondents for the global search, kept by a trigger. */
    searchVector: tsvector('search_vector'),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('documents_book_number_idx').on(t.protocolBookId, t.protocolYear, t.protocolNumber),
    index('documents_list_idx').on(t.companyId, t.kind, t.state, t.id),
    index('documents_protocol_date_idx').on(t.companyId, t.protocolDate),
    index('documents_charged_user_idx').on(t.chargedUserId),
    index('documents_charged_group_idx').on(t.chargedGroupId),
    index('documents_create_user_idx').on(t.createUserId),
    index('documents_reply_to_idx').on(t.replyToId),
    index('documents_subject_norm_trgm').using('gin', t.subjectNorm.op('gin_trgm_ops')),
    index('documents_name_norm_trgm').using('gin', t.nameNorm.op('gin_trgm_ops')),
    index('documents_correspondents_norm_trgm').using('gin', t.correspondentsNorm.op('gin_trgm_ops')),
    index('documents_protocol_id_trgm').using('gin', t.protocolId.op('gin_trgm_ops')),
    index('documents_protocol_id_sender_norm_trgm').using('gin', t.protocolIdSenderNorm.op('gin_trgm_ops')),
    index('documents_search_idx').using('gin', t.searchVector).with({ fastupdate: false }),
    // The global search finds a document by its number alone ("1532") or with its year.
    index('documents_protocol_number_idx').on(t.companyId, t.protocolNumber, t.protocolYear),
    check('documents_kind_check', sql`${t.kind} in (0, 1)`),
    check(
      'documents_registration_whole',
      sql`num_nulls(${t.protocolBookId}, ${t.protocolNumber}, ${t.protocolYear}, ${t.protocolDate}) in (0, 4)`,
    ),
  ],
);

/** Senders (role 1) and receivers (role 2) of a document: several traders each, in order. */
export const documentTraders = pgTable(
  'document_traders',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    role: smallint('role').notNull(),
    position: smallint('position').notNull(),
    traderId: integer('trader_id')
      .notNull()
      .references(() => traders.id),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.role, t.position] }),
    index('document_traders_trader_idx').on(t.traderId),
  ],
);

/**
 * Files attached to a document. `storageKey` is generated by the server (never the client's name);
 * a new version of a file points at the one it replaces. Deleted attachments stay for the history.
 */
export const documentAttachments = pgTable(
  'document_attachments',
  {
    id: serial('id').primaryKey(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    version: integer('version').notNull().default(1),
    replacesId: integer('replaces_id').references((): AnyPgColumn => documentAttachments.id),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    deletedBy: text('deleted_by'),
    ...auditColumns(),
  },
  (t) => [index('document_attachments_document_idx').on(t.documentId)],
);

/**
 * Who a document is charged to (kind 1) or shared with (kind 2): an operator or a group
 * (department). An assignment ends (ended_at) by a later action, never by editing it.
 */
export const documentAssignments = pgTable(
  'document_assignments',
  {
    id: serial('id').primaryKey(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    kind: smallint('kind').notNull(),
    userId: integer('user_id').references(() => users.id),
    groupId: integer('group_id').references(() => userGroups.id, { onDelete: 'cascade' }),
    byUserId: integer('by_user_id').references(() => users.id),
    comments: text('comments'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('document_assignments_document_idx').on(t.documentId),
    index('document_assignments_user_idx').on(t.userId, t.documentId),
    index('document_assignments_group_idx').on(t.groupId, t.documentId),
  ],
);

/** An operator's approval of a document, with the SHA-256 of its content at the time. */
export const documentSignatures = pgTable(
  'document_signatures',
  {
    id: serial('id').primaryKey(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    signedAt: timestamp('signed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    contentHash: text('content_hash').notNull(),
    comments: text('comments'),
  },
  (t) => [index('document_signatures_document_idx').on(t.documentId)],
);

/**
 * Case types (τύποι υποθέσεων), a settings table. The name is unique per company: a constraint
 * deferred to the commit in the migration (0042), so a row-table save may swap two names.
 */
export const caseTypes = pgTable(
  'case_types',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    descr: text('descr').notNull(),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [index('case_types_company_idx').on(t.companyId)],
);

/** Case folders (φάκελοι υποθέσεων, spec §3 Case): the documents of one matter. */
export const cases = pgTable(
  'cases',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    caseTypeId: integer('case_type_id').references(() => caseTypes.id),
    agencies: text('agencies'),
    comments: text('comments'),
    closed: boolean('closed').notNull().default(false),
    codeNorm: text('code_norm').generatedAlwaysAs(sql`norm_text(code)`),
    nameNorm: text('name_norm').generatedAlwaysAs(sql`norm_text(name)`),
    /** Code and name for the global search, kept by a trigger. */
    searchVector: tsvector('search_vector'),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('cases_company_code_idx').on(t.companyId, t.code),
    index('cases_code_norm_trgm').using('gin', t.codeNorm.op('gin_trgm_ops')),
    index('cases_name_norm_trgm').using('gin', t.nameNorm.op('gin_trgm_ops')),
    index('cases_search_idx').using('gin', t.searchVector).with({ fastupdate: false }),
  ],
);

export const caseDocuments = pgTable(
  'case_documents',
  {
    caseId: integer('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'restrict' }),
    addedAt: timestamp('added_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    addedBy: text('added_by'),
  },
  (t) => [
    primaryKey({ columns: [t.caseId, t.documentId] }),
    index('case_documents_document_idx').on(t.documentId),
  ],
);
