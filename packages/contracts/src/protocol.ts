import { z } from 'zod';
import { idParamSchema, idSchema } from './db.ts';
import type { EntityCatalog, FieldDef } from './list.ts';
import { isIsoDate, isoDaySchema } from './time.ts';

/**
 * The protocol: documents with gapless protocol numbers, their attachments, the fourteen
 * document actions, case folders and the protocol book summary. Spec §3 Document, Case; §7.
 */

const id = idSchema;
/** Optional free text: trimmed, empty as null. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));
const dateField = z
  .string()
  .nullish()
  .transform((value) => (value ? value : null))
  .refine((value) => value === null || isIsoDate(value), 'validation.date');

// ----- enumerations -----

/** Spec §3 document kind: 0 incoming (inbox), 1 outgoing (outbox). */
export const documentKinds = [0, 1] as const;
export type DocumentKind = (typeof documentKinds)[number];
/** Which list a document is in: 0 active, 1 archived, 9 deleted (only unregistered drafts). */
export const documentStates = [0, 1, 9] as const;
/** Spec §3 send status of an outgoing document: 0 hold, 1 send, 2 sent, 9 completed. */
export const sendStatuses = [0, 1, 2, 9] as const;
/** Spec §3/§9: a document's type defaults to the type with code (seqnr) 3. */
export const DEFAULT_DOCUMENT_TYPE_SEQNR = 3;
/** Protocol book types (spec §3 Book: booktype.incoming): 1 incoming, 2 outgoing. */
export const BOOK_TYPE_OF_KIND: Record<DocumentKind, 1 | 2> = { 0: 1, 1: 2 };

/** Spec §3 'Document actions', by their actionType.id. */
export const documentActions = {
  edit: 1,
  send: 2,
  charge: 3,
  share: 4,
  return: 5,
  history: 6,
  archive: 7,
  restore: 8,
  sign: 9,
  convertToOutgoing: 10,
  createCase: 11,
  fileTransfer: 12,
  clone: 13,
  delete: 14,
} as const;
export type DocumentActionName = keyof typeof documentActions;
export const documentActionName = (actionId: number): DocumentActionName | undefined =>
  (Object.keys(documentActions) as DocumentActionName[]).find((name) => documentActions[name] === actionId);

/** How an outgoing document was sent. */
export const sendMethods = ['email', 'post', 'hand', 'other'] as const;

/** Protocol number as people write it: 1532/2026. */
export const formatProtocolId = (number: number | null, year: number | null): string | null =>
  number === null || year === null ? null : `${number}/${year}`;

// ----- references inside a document -----

export const selectableSchema = z.object({ id: z.number().int(), descr: z.string() });

export const documentTraderSchema = z.object({
  id: z.number().int(),
  fullname: z.string().nullable(),
  vatnumber: z.string().nullable(),
  email: z.string().nullable(),
});
export type DocumentTrader = z.infer<typeof documentTraderSchema>;

export const operatorRefSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  fullName: z.string(),
});
export type OperatorRef = z.infer<typeof operatorRefSchema>;

export const publicationSchema = z.object({
  /** e.g. 'diavgeia' (Διαύγεια), 'website', 'kimdis'. */
  portal: z.string().trim().min(1).max(60),
  /** The portal's reference, e.g. the ΑΔΑ of Διαύγεια. */
  reference: z.string().trim().min(1).max(100),
  date: dateField,
  url: z
    .union([z.url().max(500), z.literal('')])
    .nullish()
    .transform((value) => (value ? value : null)),
});
export type Publication = z.infer<typeof publicationSchema>;

export const attachmentSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  version: z.number().int(),
  replacesId: z.number().int().nullable(),
  createuser: z.string().nullable(),
  createdate: z.string().nullable(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const signatureSchema = z.object({
  id: z.number().int(),
  user: operatorRefSchema,
  signedAt: z.string(),
  contentHash: z.string(),
  comments: z.string().nullable(),
});

export const documentCaseRefSchema = z.object({ id: z.number().int(), code: z.string(), name: z.string() });

export const documentLinkSchema = z.object({
  id: z.number().int(),
  kind: z.number().int(),
  protocolId: z.string().nullable(),
  subject: z.string(),
});
export type DocumentLink = z.infer<typeof documentLinkSchema>;

/** An action as the asker may (or may not) run it now; `reasonKey` says why not. */
export const documentActionAvailabilitySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  allowed: z.boolean(),
  reasonKey: z.string().nullable(),
});
export type DocumentActionAvailability = z.infer<typeof documentActionAvailabilitySchema>;

// ----- the document -----

/** Create or change a document. Choosing a book on an unregistered document registers it. */
export const saveDocumentSchema = z.object({
  kind: z.union([z.literal(0), z.literal(1)]),
  name: optionalText(500),
  subject: z.string().trim().min(1).max(4000),
  subjectCategoryId: id.nullish(),
  documentTypeId: id.nullish(),
  protocolBookId: id.nullish(),
  protocolIdSender: optionalText(100),
  protocolSendDate: dateField,
  senders: z.array(id).max(50).default([]),
  receivers: z.array(id).max(50).default([]),
  chargedUserId: id.nullish(),
  folder: optionalText(200),
  publications: z.array(publicationSchema).max(20).default([]),
  metadata: z
    .record(z.string().max(60), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
    .default({}),
  comments: optionalText(4000),
});
export type SaveDocumentRequest = z.input<typeof saveDocumentSchema>;
export type SaveDocument = z.output<typeof saveDocumentSchema>;

export const documentSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  kind: z.number().int(),
  name: z.string().nullable(),
  subject: z.string(),
  subjectCategory: selectableSchema.nullable(),
  state: z.number().int(),
  documentType: selectableSchema.extend({ seqnr: z.number().int() }).nullable(),
  protocolBook: z
    .object({ id: z.number().int(), descr: z.string(), year: z.number().int(), booktype: z.number().int() })
    .nullable(),
  protocolNumber: z.number().int().nullable(),
  protocolYear: z.number().int().nullable(),
  /** N/YYYY, or null before registration. */
  protocolId: z.string().nullable(),
  protocolDate: z.string().nullable(),
  protocolIdSender: z.string().nullable(),
  protocolSendDate: z.string().nullable(),
  senders: z.array(documentTraderSchema),
  receivers: z.array(documentTraderSchema),
  createUser: operatorRefSchema.nullable(),
  chargedUser: operatorRefSchema.nullable(),
  chargedGroup: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  folder: z.string().nullable(),
  isOutbox: z.boolean(),
  cloneDocument: z.number().int().nullable(),
  replyTo: documentLinkSchema.nullable(),
  replies: z.array(documentLinkSchema),
  sendStatus: z.number().int(),
  sentAt: z.string().nullable(),
  attachedFilesCount: z.number().int(),
  attachments: z.array(attachmentSchema),
  publications: z.array(publicationSchema),
  signatures: z.array(signatureSchema),
  cases: z.array(documentCaseRefSchema),
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  comments: z.string().nullable(),
  /** Every action with whether the asker may run it now (spec §3 'Document actions'). */
  actions: z.array(documentActionAvailabilitySchema),
  /** The type's registration receipt settings (printype 0 none, 1 print, 2 ask, 3 view; copies). */
  receipt: z.object({ printype: z.number().int(), copies: z.number().int() }).nullish(),
  createuser: z.string().nullable(),
  createdate: z.string().nullable(),
  updateuser: z.string().nullable(),
  updatedate: z.string().nullable(),
  defuser: z.string().nullable(),
  defdate: z.string().nullable(),
  changeuser: z.string().nullable(),
  changedate: z.string().nullable(),
});
export type ProtocolDocument = z.infer<typeof documentSchema>;

// ----- actions (POST /api/document/actions) -----

export const documentActionRequestSchema = z.object({
  actionType: z.object({ id: z.number().int().min(1).max(14) }),
  document: z.object({ id }),
  comments: optionalText(4000),
  /** charge: the operator … */
  userId: id.nullish(),
  /** … or the department (user group) the document is charged to. */
  groupId: id.nullish(),
  /** share: the operators who get read access. */
  userIds: z.array(id).max(200).nullish(),
  /** file transfer: the document that receives the attachments … */
  targetDocumentId: id.nullish(),
  /** … which attachments (all when absent) … */
  attachmentIds: z.array(id).max(500).nullish(),
  /** … and whether they leave this document (move) or stay (copy). */
  move: z.boolean().nullish(),
  /** create case: add to this existing case instead of opening a new one … */
  caseId: id.nullish(),
  /** … or open a new case with these details. */
  case: z
    .object({
      code: optionalText(60),
      name: z.string().trim().min(1).max(500),
      caseTypeId: id.nullish(),
      agencies: optionalText(1000),
    })
    .nullish(),
  /** send: how the outgoing document went out. */
  sendMethod: z.enum(sendMethods).nullish(),
});
export type DocumentActionRequest = z.input<typeof documentActionRequestSchema>;

/** One line of a document's history (its audit trail). */
export const historyEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  /** e.g. created, updated, registered, charge, share, return, sign, attachment_uploaded … */
  action: z.string(),
  username: z.string().nullable(),
  userFullName: z.string().nullable(),
  comments: z.string().nullable(),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })).nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const documentActionResultSchema = z.object({
  document: documentSchema,
  /** clone, convert to outgoing: the new document. */
  createdDocumentId: z.number().int().nullable(),
  /** create case: the case. */
  caseId: z.number().int().nullable(),
  /** history: the timeline, oldest first. */
  history: z.array(historyEntrySchema).nullable(),
  /** edit: the fields of the document that may change now (a registered one keeps kind and book). */
  editable: z.array(z.string()).nullish(),
});
export type DocumentActionResult = z.infer<typeof documentActionResultSchema>;

// ----- lists -----

export const documentListItemSchema = z.object({
  id: z.number().int(),
  kind: z.number().int(),
  state: z.number().int(),
  protocolId: z.string().nullable(),
  protocolNumber: z.number().int().nullable(),
  protocolYear: z.number().int().nullable(),
  protocolDate: z.string().nullable(),
  protocolBook: z.string().nullable(),
  name: z.string().nullable(),
  subject: z.string(),
  correspondents: z.string().nullable(),
  documentType: z.string().nullable(),
  subjectCategory: z.string().nullable(),
  protocolIdSender: z.string().nullable(),
  protocolSendDate: z.string().nullable(),
  chargedUser: z.string().nullable(),
  chargedUserId: z.number().int().nullable(),
  attachedFilesCount: z.number().int(),
  sendStatus: z.number().int(),
  folder: z.string().nullable(),
  createuser: z.string().nullable(),
  createdate: z.string().nullable(),
});
export type DocumentListItem = z.infer<typeof documentListItemSchema>;

const listText = (fieldId: string, width: number, extra: Partial<FieldDef> = {}): FieldDef => ({
  id: fieldId,
  type: 'text',
  labelKey: `documents.field.${fieldId}`,
  sortable: true,
  filters: ['contains', 'eq'],
  exportable: true,
  width,
  ...extra,
});
const listDate = (fieldId: string, width: number, extra: Partial<FieldDef> = {}): FieldDef => ({
  id: fieldId,
  type: 'date',
  labelKey: `documents.field.${fieldId}`,
  sortable: true,
  filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
  exportable: true,
  width,
  ...extra,
});

/** The documents lists: /document (all), /inbox, /outbox and the archived and deleted lists. */
export const documentsCatalog = {
  entity: 'documents',
  titleKey: 'documents.title',
  defaultSort: { field: 'id', desc: true },
  fields: [
    {
      id: 'id',
      type: 'number',
      labelKey: 'documents.field.id',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      hiddenByDefault: true,
      width: 80,
    },
    {
      id: 'kind',
      type: 'enum',
      labelKey: 'documents.field.kind',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: documentKinds.map((k) => ({ value: String(k), labelKey: `documents.kind.${k}` })),
      width: 110,
    },
    listText('protocolId', 140, { filters: ['eq'], searchable: true }),
    {
      id: 'protocolNumber',
      type: 'number',
      labelKey: 'documents.field.protocolNumber',
      sortable: true,
      filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
      exportable: true,
      hiddenByDefault: true,
      width: 100,
    },
    {
      id: 'protocolYear',
      type: 'number',
      labelKey: 'documents.field.protocolYear',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      hiddenByDefault: true,
      width: 90,
    },
    listDate('protocolDate', 170),
    listText('protocolBook', 160, { hiddenByDefault: true }),
    listText('subject', 320, { searchable: true }),
    listText('correspondents', 240, { searchable: true }),
    listText('name', 200, { searchable: true, hiddenByDefault: true }),
    listText('documentType', 150, { hiddenByDefault: true }),
    listText('subjectCategory', 160, { hiddenByDefault: true }),
    listText('protocolIdSender', 130, { searchable: true }),
    listDate('protocolSendDate', 130, { hiddenByDefault: true }),
    listText('chargedUser', 170),
    // The operator's id: what 'charged to me' links filter on (a name may be shared).
    {
      id: 'chargedUserId',
      type: 'number',
      labelKey: 'documents.field.chargedUserId',
      sortable: false,
      filters: ['eq'],
      exportable: false,
      hiddenByDefault: true,
      width: 90,
    },
    {
      id: 'attachedFilesCount',
      type: 'number',
      labelKey: 'documents.field.attachedFilesCount',
      sortable: false,
      filters: [],
      exportable: true,
      width: 90,
    },
    {
      id: 'sendStatus',
      type: 'enum',
      labelKey: 'documents.field.sendStatus',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      hiddenByDefault: true,
      options: sendStatuses.map((s) => ({ value: String(s), labelKey: `documents.sendStatus.${s}` })),
      width: 120,
    },
    listText('folder', 140, { hiddenByDefault: true }),
    listText('createuser', 140, { hiddenByDefault: true }),
    listDate('createdate', 150, { hiddenByDefault: true }),
  ],
} as const satisfies EntityCatalog;

// ----- protocol book summary (/book_summary) -----

export const bookSummaryQuerySchema = z
  .object({
    bookId: idParamSchema,
    from: isoDaySchema(),
    to: isoDaySchema(),
    companyid: idParamSchema.optional(),
  })
  .refine((q) => q.from <= q.to, { message: 'error.invalid_date_range', path: ['to'] });

export const bookSummaryEntrySchema = z.object({
  documentId: z.number().int(),
  protocolNumber: z.number().int(),
  protocolYear: z.number().int(),
  protocolId: z.string(),
  protocolDate: z.string(),
  kind: z.number().int(),
  correspondents: z.string().nullable(),
  subject: z.string(),
  protocolIdSender: z.string().nullable(),
  protocolSendDate: z.string().nullable(),
  charge: z.string().nullable(),
});
export type BookSummaryEntry = z.infer<typeof bookSummaryEntrySchema>;

export const bookSummarySchema = z.object({
  book: z.object({
    id: z.number().int(),
    descr: z.string(),
    year: z.number().int(),
    booktype: z.number().int(),
  }),
  from: z.string(),
  to: z.string(),
  entries: z.array(bookSummaryEntrySchema),
});
export type BookSummary = z.infer<typeof bookSummarySchema>;

// ----- attachments -----

/** General setting: the largest file an operator may attach, in MB (default 20). */
export const ATTACHMENT_MAX_MB_SETTING = 'doc.max_upload_mb';
/** General setting: the file extensions that may be attached, comma separated. */
export const ATTACHMENT_TYPES_SETTING = 'doc.allowed_types';
export const DEFAULT_ATTACHMENT_MAX_MB = 20;
export const DEFAULT_ATTACHMENT_TYPES = [
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'odt',
  'ods',
  'rtf',
  'txt',
  'csv',
  'jpg',
  'jpeg',
  'png',
  'gif',
  'tif',
  'tiff',
  'xml',
  'eml',
  'zip',
  'p7m',
] as const;

/** The extensions of a `doc.allowed_types` value: "pdf, .DOCX; png" → ['pdf', 'docx', 'png']. */
export const parseAttachmentTypes = (value: string): string[] => [
  ...new Set(
    value
      .split(/[\s,;]+/)
      .map((type) => type.trim().replace(/^\.+/, '').toLowerCase())
      .filter((type) => /^[a-z0-9]{1,10}$/.test(type)),
  ),
];

/** One file of a document: its latest version, with the older ones (newest first). */
export const attachmentFileSchema = attachmentSchema.extend({
  /** PDF and images open in the browser (disposition=inline); other types always download. */
  previewable: z.boolean(),
  versions: z.array(attachmentSchema.extend({ previewable: z.boolean() })),
});
export type AttachmentFile = z.infer<typeof attachmentFileSchema>;

/** GET /api/document/{id}/attachments: the files, and the limits an upload must respect. */
export const attachmentListSchema = z.object({
  files: z.array(attachmentFileSchema),
  maxUploadMb: z.number().int(),
  allowedTypes: z.array(z.string()),
});
export type AttachmentList = z.infer<typeof attachmentListSchema>;

/** POST /api/document/{id}/attachments: the stored files, in the order they were sent. */
export const attachmentUploadResultSchema = z.object({ uploaded: z.array(attachmentSchema) });
export type AttachmentUploadResult = z.infer<typeof attachmentUploadResultSchema>;

/** GET /api/document/books?kind=: the active books a document of that kind may be registered in. */
export const documentBookOptionSchema = z.object({
  id: z.number().int(),
  descr: z.string(),
  year: z.number().int(),
  booktype: z.number().int(),
});

// ----- assignees (charge and share pickers) -----

/** A user group (department) of the company a document may be charged to. */
export const assigneeGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Its active operators. */
  memberCount: z.number().int(),
});
export type AssigneeGroup = z.infer<typeof assigneeGroupSchema>;

/**
 * GET /api/document/assignees?companyid=: whom a document may be charged or shared to, readable
 * with protocol:read: the company's active operators and its user groups, by name (Greek-aware).
 */
export const documentAssigneesSchema = z.object({
  operators: z.array(operatorRefSchema),
  groups: z.array(assigneeGroupSchema),
});
export type DocumentAssignees = z.infer<typeof documentAssigneesSchema>;

// ----- registration receipt -----

/** What the web does with the registration receipt after registering (document type's printype). */
export const receiptPrintTypes = { none: 0, print: 1, ask: 2, view: 3 } as const;
