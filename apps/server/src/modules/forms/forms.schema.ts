import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
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
import { cases, documents } from '../protocol/protocol.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { userGroups } from '../users/groups.schema.ts';
import { users } from '../users/users.schema.ts';

/**
 * Spec §3 Online form: the settings and the working structure (`api`) the builder edits. What
 * citizens fill in is a published version (online_form_versions), so a later edit never changes
 * the structure an earlier submission was made with.
 */
export const onlineForms = pgTable(
  'online_forms',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    /** The public id: `/forms/{form_id}`; unique across the installation (the address has no company). */
    formId: text('form_id').notNull(),
    title: text('title').notNull(),
    language: smallint('language').notNull().default(0),
    description: text('description'),
    submitMethod: smallint('submit_method').notNull().default(0),
    saveMethod: smallint('save_method').notNull().default(0),
    mailTo: text('mail_to'),
    successNote: text('success_note'),
    errorNote: text('error_note'),
    successUrl: text('success_url'),
    errorUrl: text('error_url'),
    /** 0 draft, 1 published. */
    status: smallint('status').notNull().default(0),
    assignTo: integer('assign_to').references(() => users.id, { onDelete: 'set null' }),
    isOnline: boolean('is_online').notNull().default(false),
    isPayment: boolean('is_payment').notNull().default(false),
    fee: numeric('fee', { precision: 11, scale: 2 }),
    autoNr: boolean('auto_nr').notNull().default(false),
    bookId: integer('book_id').references(() => protocolBooks.id),
    disabled: boolean('disabled').notNull().default(false),
    readonly: boolean('readonly').notNull().default(false),
    printurl: text('printurl'),
    parentFormId: integer('parent_form_id'),
    api: text('api').notNull().default('[]'),
    /** The latest published version (0: never published). */
    version: integer('version').notNull().default(0),
    createUserId: integer('create_user_id').references(() => users.id, { onDelete: 'set null' }),
    titleNorm: text('title_norm').generatedAlwaysAs(sql`norm_text(title)`),
    formIdNorm: text('form_id_norm').generatedAlwaysAs(sql`norm_text(form_id)`),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('online_forms_form_id_idx').on(t.formId),
    index('online_forms_company_idx').on(t.companyId),
    index('online_forms_title_norm_trgm').using('gin', t.titleNorm.op('gin_trgm_ops')),
  ],
);

/** A published structure of a form; submissions point at the version they were made with. */
export const onlineFormVersions = pgTable(
  'online_form_versions',
  {
    id: serial('id').primaryKey(),
    formId: integer('form_id')
      .notNull()
      .references(() => onlineForms.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    api: text('api').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    publishedBy: text('published_by'),
  },
  (t) => [uniqueIndex('online_form_versions_form_version_idx').on(t.formId, t.version)],
);

/** A citizen's submission (spec §3 'Online form submission'), with where staff have taken it. */
export const formSubmissions = pgTable(
  'form_submissions',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    formId: integer('form_id')
      .notNull()
      .references(() => onlineForms.id),
    versionId: integer('version_id')
      .notNull()
      .references(() => onlineFormVersions.id),
    /** What the citizen is told and quotes: e.g. `F-2026-000123`. */
    reference: text('reference').notNull(),
    values: jsonb('values').$type<Record<string, unknown>>().notNull(),
    /** Spec §3: 0 open … 6 duplicate. */
    status: smallint('status').notNull().default(0),
    assignedTo: integer('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    /** A group (department) the submission is assigned to, beside or instead of an operator. */
    assignedGroupId: integer('assigned_group_id').references(() => userGroups.id, { onDelete: 'set null' }),
    duplicateOf: integer('duplicate_of'),
    documentId: integer('document_id').references(() => documents.id),
    protocolNumber: text('protocol_number'),
    caseId: integer('case_id').references(() => cases.id, { onDelete: 'set null' }),
    traderId: integer('trader_id').references(() => traders.id, { onDelete: 'set null' }),
    /** Who applied (a name or e-mail from the values), for the list and the search. */
    applicant: text('applicant'),
    applicantNorm: text('applicant_norm').generatedAlwaysAs(sql`norm_text(applicant)`),
    fee: numeric('fee', { precision: 11, scale: 2 }),
    rfCode: text('rf_code'),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Reference, applicant, form title and protocol number for the global search, kept by a trigger. */
    searchVector: tsvector('search_vector'),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('form_submissions_reference_idx').on(t.reference),
    index('form_submissions_company_idx').on(t.companyId, t.submittedAt),
    index('form_submissions_form_idx').on(t.formId),
    index('form_submissions_applicant_norm_trgm').using('gin', t.applicantNorm.op('gin_trgm_ops')),
    index('form_submissions_search_idx').using('gin', t.searchVector).with({ fastupdate: false }),
  ],
);

/** Every status change, assignment and comment of a submission: its history. */
export const submissionHistory = pgTable(
  'form_submission_history',
  {
    id: serial('id').primaryKey(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => formSubmissions.id, { onDelete: 'cascade' }),
    fromStatus: smallint('from_status'),
    toStatus: smallint('to_status').notNull(),
    assignedTo: integer('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    assignedGroupId: integer('assigned_group_id').references(() => userGroups.id, { onDelete: 'set null' }),
    comments: text('comments'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    username: text('username'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('form_submission_history_submission_idx').on(t.submissionId)],
);

/** A file a citizen uploaded to a form, waiting for the submission (or draft) that names its token. */
export const formUploads = pgTable(
  'form_uploads',
  {
    id: serial('id').primaryKey(),
    token: text('token').notNull(),
    formId: integer('form_id')
      .notNull()
      .references(() => onlineForms.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    submissionId: integer('submission_id').references(() => formSubmissions.id, { onDelete: 'set null' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('form_uploads_token_idx').on(t.token),
    index('form_uploads_submission_idx').on(t.submissionId),
  ],
);

/** A citizen's unfinished form, reachable only through its private token. */
export const formDrafts = pgTable('form_drafts', {
  token: text('token').primaryKey(),
  formId: integer('form_id')
    .notNull()
    .references(() => onlineForms.id, { onDelete: 'cascade' }),
  values: jsonb('values').$type<Record<string, unknown>>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Public submissions per address (rate limit), kept in the database so every node sees them. */
export const formSubmitAttempts = pgTable(
  'form_submit_attempts',
  {
    id: serial('id').primaryKey(),
    ip: text('ip').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('form_submit_attempts_ip_idx').on(t.ip, t.at)],
);
