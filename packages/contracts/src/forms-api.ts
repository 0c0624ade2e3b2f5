import { z } from 'zod';
import { auditFieldsSchema } from './audit.ts';
import { idSchema } from './db.ts';
import { submissionValuesSchema } from './forms-values.ts';

/** Online forms: the statuses a submission moves through and the API shapes of forms and submissions. */

// ----- submissions: statuses and transitions -----

/** Spec §3: 0 open, 1 confirmed, 2 in progress, 3 resolved, 4 closed, 5 reopened, 6 duplicate. */
export const submissionStatuses = [0, 1, 2, 3, 4, 5, 6] as const;
export type SubmissionStatus = (typeof submissionStatuses)[number];

/** What a review desk may do next from each status (spec §4 leaves them to us; the server enforces). */
export const submissionTransitions: Record<SubmissionStatus, readonly SubmissionStatus[]> = {
  0: [1, 2, 4, 6],
  1: [2, 3, 4, 6],
  2: [3, 4],
  3: [4, 5],
  4: [5],
  5: [2, 3, 4],
  6: [5],
};

export function canMoveSubmission(from: number, to: number): boolean {
  return (submissionTransitions[from as SubmissionStatus] ?? []).includes(to as SubmissionStatus);
}

// ----- the form's settings and the API shapes -----

/** A form's publication status: 0 draft (only staff see it), 1 published. */
export const formStatuses = [0, 1] as const;
/** Spec §3 form languages: 0 Greek, 1 English. */
export const formLanguages = [0, 1] as const;
/** Spec §3 save methods: 0 insert into the database, 1 also send an e-mail. */
export const formSaveMethods = [0, 1] as const;
/** Spec §3 submit methods: 0 ajax, 1 form data. */
export const formSubmitMethods = [0, 1] as const;

const optionalText = (max: number) => z.string().trim().max(max).nullable().default(null);
const optionalUrl = z
  .string()
  .trim()
  .max(2000)
  .regex(/^(https?:\/\/|\/)[^\s]*$/, 'validation.url')
  .nullable()
  .default(null);
const decimalAmount = z
  .string()
  .trim()
  .regex(/^\d{1,9}(\.\d{1,2})?$/, 'validation.decimal')
  .nullable()
  .default(null);

/** The generated public id of a form (`/forms/{form_id}`). */
export const FORM_ID_PATTERN = /^[a-z0-9][a-z0-9-]{2,63}$/;

/** The body of PUT /api/onlineForms (spec §7): the form with `api` as JSON text, parentForm as its id. */
export const saveFormSchema = z
  .object({
    id: idSchema.nullable().default(null),
    form_id: z.string().trim().toLowerCase().regex(FORM_ID_PATTERN, 'dynamicForms.form_id'),
    title: z.string().trim().min(1).max(300),
    language: z.union([z.literal(0), z.literal(1)]).default(0),
    description: optionalText(5000),
    submitMethod: z.union([z.literal(0), z.literal(1)]).default(0),
    saveMethod: z.union([z.literal(0), z.literal(1)]).default(0),
    /** Where save method 1 sends each submission. */
    mailTo: z
      .string()
      .trim()
      .max(300)
      .regex(/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/, 'validation.email')
      .nullable()
      .default(null),
    successNote: optionalText(5000),
    errorNote: optionalText(5000),
    successUrl: optionalUrl,
    errorUrl: optionalUrl,
    status: z.union([z.literal(0), z.literal(1)]).default(0),
    assign_to: idSchema.nullable().default(null),
    is_online: z.boolean().default(false),
    is_payment: z.boolean().default(false),
    /** The fee a payment form asks for (euro, decimal string). */
    fee: decimalAmount,
    auto_nr: z.boolean().default(false),
    book: idSchema.nullable().default(null),
    disabled: z.boolean().default(false),
    readonly: z.boolean().default(false),
    printurl: optionalUrl,
    parentForm: idSchema.nullable().default(null),
    api: z.string().max(900_000),
  })
  .refine((f) => !f.auto_nr || f.book !== null, { message: 'validation.required', path: ['book'] })
  .refine((f) => f.saveMethod === 0 || f.mailTo !== null, {
    message: 'validation.required',
    path: ['mailTo'],
  })
  .refine((f) => !f.is_payment || f.fee !== null, { message: 'validation.required', path: ['fee'] });
export type SaveForm = z.input<typeof saveFormSchema>;

const zeroOrOne = z.union([z.literal(0), z.literal(1)]);

export const onlineFormSchema = z.object({
  id: idSchema.nullable(),
  form_id: z.string(),
  title: z.string(),
  language: zeroOrOne,
  description: z.string().nullable(),
  submitMethod: zeroOrOne,
  saveMethod: zeroOrOne,
  mailTo: z.string().nullable(),
  successNote: z.string().nullable(),
  errorNote: z.string().nullable(),
  successUrl: z.string().nullable(),
  errorUrl: z.string().nullable(),
  status: zeroOrOne,
  assign_to: z.number().int().nullable(),
  is_online: z.boolean(),
  is_payment: z.boolean(),
  fee: z.string().nullable(),
  auto_nr: z.boolean(),
  book: z.number().int().nullable(),
  disabled: z.boolean(),
  readonly: z.boolean(),
  printurl: z.string().nullable(),
  parentForm: z.number().int().nullable(),
  api: z.string(),
  /** The published version of the structure submissions are made with now (0 before publishing). */
  version: z.number().int(),
  audit: auditFieldsSchema.nullable(),
});
export type OnlineForm = z.infer<typeof onlineFormSchema>;

/** The form as a citizen's browser needs it (no staff settings). */
export const publicFormSchema = z.object({
  form_id: z.string(),
  title: z.string(),
  language: z.number().int(),
  description: z.string().nullable(),
  successNote: z.string().nullable(),
  errorNote: z.string().nullable(),
  successUrl: z.string().nullable(),
  errorUrl: z.string().nullable(),
  is_payment: z.boolean(),
  fee: z.string().nullable(),
  /** Shown for reading only: no submissions (spec §3 'readonly'). */
  readonly: z.boolean(),
  version: z.number().int(),
  api: z.string(),
  companyName: z.string(),
});
export type PublicForm = z.infer<typeof publicFormSchema>;

/** A citizen's submission: the values, and the honeypot field a person never fills. */
export const publicSubmitSchema = z.object({
  values: submissionValuesSchema,
  website: z.string().max(500).optional(),
  /** A draft is kept for later under its private token instead of being submitted. */
  draft: z.boolean().default(false),
  draftToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{32,64}$/)
    .optional(),
});

export const publicSubmitResultSchema = z.object({
  /** Submitted: the submission's reference; a draft: its private token. */
  reference: z.string().nullable(),
  draftToken: z.string().nullable(),
  protocolNumber: z.string().nullable(),
  fee: z.string().nullable(),
  rfCode: z.string().nullable(),
  successNote: z.string().nullable(),
  successUrl: z.string().nullable(),
  /**
   * The private token of the submission's receipt PDF (a registered submission's; null otherwise).
   * The PDF is drawn after the answer, by a job: `receipts/{receipt}` says when it is ready.
   */
  receipt: z.string().nullable(),
});
export type PublicSubmitResult = z.infer<typeof publicSubmitResultSchema>;

/** Whether a submission's receipt PDF is ready to download. */
export const publicReceiptSchema = z.object({ ready: z.boolean() });
export type PublicReceipt = z.infer<typeof publicReceiptSchema>;

export const submissionHistorySchema = z.object({
  id: z.number().int(),
  fromStatus: z.number().int().nullable(),
  toStatus: z.number().int(),
  assignedTo: z.number().int().nullable(),
  assignedGroupId: z.number().int().nullable(),
  comments: z.string().nullable(),
  userId: z.number().int().nullable(),
  userName: z.string().nullable(),
  createdAt: z.string(),
});

export const submissionSchema = z.object({
  id: z.number().int(),
  formId: z.number().int(),
  formTitle: z.string(),
  formVersion: z.number().int(),
  /** The structure (JSON text) of the version the citizen filled in. */
  api: z.string(),
  reference: z.string(),
  values: submissionValuesSchema,
  status: z.number().int(),
  allowedStatuses: z.array(z.number().int()),
  assignedTo: z.number().int().nullable(),
  assignedGroupId: z.number().int().nullable(),
  duplicateOf: z.number().int().nullable(),
  documentId: z.number().int().nullable(),
  protocolNumber: z.string().nullable(),
  caseId: z.number().int().nullable(),
  traderId: z.number().int().nullable(),
  rfCode: z.string().nullable(),
  fee: z.string().nullable(),
  submittedAt: z.string(),
  /** The form's own print address ({id} and {reference} are filled in), else the built-in PDF. */
  printurl: z.string().nullable(),
  history: z.array(submissionHistorySchema),
});
export type Submission = z.infer<typeof submissionSchema>;

/** PUT /api/onlineForms/submissions: the whole submission; status changes carry a comment. */
export const saveSubmissionSchema = z
  .object({
    id: idSchema,
    values: submissionValuesSchema,
    status: z.number().int().min(0).max(6),
    assignedTo: idSchema.nullable().default(null),
    /** A group (department) of the company; its members are notified. */
    assignedGroupId: idSchema.nullable().default(null),
    duplicateOf: idSchema.nullable().default(null),
    caseId: idSchema.nullable().default(null),
    comments: z.string().trim().max(4000).nullable().default(null),
  })
  .refine((s) => s.status !== 6 || s.duplicateOf !== null, {
    message: 'validation.required',
    path: ['duplicateOf'],
  })
  .refine((s) => s.duplicateOf === null || s.duplicateOf !== s.id, {
    message: 'validation.invalid',
    path: ['duplicateOf'],
  });
export type SaveSubmission = z.input<typeof saveSubmissionSchema>;
