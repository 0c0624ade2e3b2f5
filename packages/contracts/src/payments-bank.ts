import { z } from 'zod';
import { idSchema } from './db.ts';
import { isoDaySchema } from './time.ts';

/**
 * The banks' payment files: the layouts (CSV with columns, or the fixed-width records Greek
 * banks send) kept as data, the imported files and the report of each line — matched by its RF code,
 * partly (less or more than the debt; the rest is credit), unmatched (waits for staff to match it to
 * a consumer by hand), invalid (malformed), or already imported (the bank's reference seen before).
 */

export const bankLayoutFormats = ['csv', 'fixed'] as const;
export const bankLayoutFieldNames = ['reference', 'rfCode', 'amount', 'date', 'payer'] as const;
export type BankLayoutFieldName = (typeof bankLayoutFieldNames)[number];
/** Fields every layout must place; the payer is optional. */
export const requiredBankFields: readonly BankLayoutFieldName[] = ['reference', 'rfCode', 'amount', 'date'];
export const bankDateFormats = ['YYYYMMDD', 'DDMMYYYY', 'DD/MM/YYYY', 'DD.MM.YYYY', 'YYYY-MM-DD'] as const;
export type BankDateFormat = (typeof bankDateFormats)[number];

/** The largest bank file accepted (a day of a large utility is well under a megabyte). */
export const BANK_FILE_MAX_BYTES = 20 * 1024 * 1024;

export const bankErrors = {
  fileType: 'bank.error.file_type',
  noFile: 'bank.error.no_file',
  codeTaken: 'bank.error.code_taken',
  layoutInactive: 'bank.error.layout_inactive',
  lineNotUnmatched: 'bank.error.line_not_unmatched',
  noLines: 'bank.error.no_lines',
} as const;

const field = z.object({
  field: z.enum(bankLayoutFieldNames),
  /** CSV: the 1-based column. */
  column: z.number().int().min(1).max(200).nullable().default(null),
  /** Fixed width: the 1-based first character and the length. */
  start: z.number().int().min(1).max(2000).nullable().default(null),
  length: z.number().int().min(1).max(200).nullable().default(null),
});
export type BankLayoutField = z.output<typeof field>;

const layoutBody = z.object({
  code: z.string().trim().min(1).max(20),
  descr: z.string().trim().min(1).max(200),
  format: z.enum(bankLayoutFormats),
  /** CSV: the separator (one character, or "\t"). */
  separator: z.string().min(1).max(2).default(';'),
  headerLines: z.number().int().min(0).max(20).default(0),
  /** Fixed width: only lines starting with this are payments (e.g. "2"); empty: every line. */
  recordPrefix: z.string().max(10).default(''),
  /** The amount is in cents with no decimal point (000000001234 = 12.34). */
  amountInCents: z.boolean().default(false),
  /** The amount's decimal mark is a comma (1.234,56), as Greek files write it. */
  decimalComma: z.boolean().default(false),
  dateFormat: z.enum(bankDateFormats).default('YYYY-MM-DD'),
  fields: z.array(field).min(1).max(10),
  active: z.boolean().default(true),
});

/** A layout as saved: every required field placed once, by column (CSV) or start and length (fixed). */
export const saveBankLayoutSchema = layoutBody.superRefine((layout, ctx) => {
  const names = layout.fields.map((f) => f.field);
  const missing = requiredBankFields.some((name) => !names.includes(name));
  if (missing || new Set(names).size !== names.length)
    ctx.addIssue({ code: 'custom', path: ['fields'], message: 'validation.bank_layout_fields' });
  const unplaced = layout.fields.some((f) =>
    layout.format === 'csv' ? f.column === null : f.start === null || f.length === null,
  );
  if (unplaced) ctx.addIssue({ code: 'custom', path: ['fields'], message: 'validation.bank_layout_fields' });
});
export type SaveBankLayout = z.input<typeof saveBankLayoutSchema>;

export const bankLayoutSchema = layoutBody.extend({ id: z.number().int() });
export type BankLayout = z.infer<typeof bankLayoutSchema>;

/** A new company's layouts: the usual CSV export of e-banking and the fixed-width file of the banks. */
export const defaultBankLayouts: z.output<typeof saveBankLayoutSchema>[] = [
  {
    code: 'CSV',
    descr: 'Αρχείο CSV πληρωμών RF (e-banking)',
    format: 'csv',
    separator: ';',
    headerLines: 1,
    recordPrefix: '',
    amountInCents: false,
    decimalComma: true,
    dateFormat: 'DD/MM/YYYY',
    fields: [
      { field: 'reference', column: 1, start: null, length: null },
      { field: 'date', column: 2, start: null, length: null },
      { field: 'rfCode', column: 3, start: null, length: null },
      { field: 'amount', column: 4, start: null, length: null },
      { field: 'payer', column: 5, start: null, length: null },
    ],
    active: true,
  },
  {
    code: 'FIXED',
    descr: 'Αρχείο σταθερού μήκους τραπεζών (εγγραφές τύπου 2)',
    format: 'fixed',
    separator: ';',
    headerLines: 0,
    recordPrefix: '2',
    amountInCents: true,
    decimalComma: false,
    dateFormat: 'YYYYMMDD',
    fields: [
      { field: 'reference', column: null, start: 2, length: 20 },
      { field: 'date', column: null, start: 22, length: 8 },
      { field: 'rfCode', column: null, start: 30, length: 25 },
      { field: 'amount', column: null, start: 55, length: 15 },
      { field: 'payer', column: null, start: 70, length: 40 },
    ],
    active: true,
  },
];

/**
 * What became of a line: matched (paid its RF's debt exactly), partly (less than the debt, or more:
 * the rest is the consumer's credit, or the RF's debt was already closed), unmatched (waits for manual
 * matching), manual (matched by hand), invalid (malformed: nothing can be paid), duplicate (the bank's
 * reference was imported before: nothing added).
 */
export const bankLineStatuses = ['matched', 'partly', 'unmatched', 'manual', 'invalid', 'duplicate'] as const;
export type BankLineStatus = (typeof bankLineStatuses)[number];
/** Why, each a catalog text `bank.reason.<reason>`. */
export const bankLineReasons = [
  'paid',
  'less',
  'more',
  'closed',
  'unknownRf',
  'badRf',
  'noRf',
  'badAmount',
  'badDate',
  'noReference',
  'short',
  'already',
  'manual',
] as const;
export type BankLineReason = (typeof bankLineReasons)[number];

const money = z.string().regex(/^-?\d+\.\d{2}$/);
const isoDate = isoDaySchema();

export const bankFileSummarySchema = z.object({
  lines: z.number().int(),
  matched: z.number().int(),
  partly: z.number().int(),
  unmatched: z.number().int(),
  manual: z.number().int(),
  invalid: z.number().int(),
  duplicate: z.number().int(),
  /** What the file's lines paid in (matched, partly, manual). */
  paid: money,
});
export type BankFileSummary = z.infer<typeof bankFileSummarySchema>;

export const bankFileSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  layoutCode: z.string(),
  layoutDescr: z.string(),
  state: z.enum(['queued', 'running', 'done', 'failed']),
  error: z.string().nullable(),
  jobId: z.number().int().nullable(),
  createuser: z.string().nullable(),
  createdate: z.string(),
  summary: bankFileSummarySchema.nullable(),
});
export type BankFile = z.infer<typeof bankFileSchema>;

export const bankLineSchema = z.object({
  id: z.number().int(),
  fileId: z.number().int(),
  fileName: z.string(),
  lineNo: z.number().int(),
  bankReference: z.string().nullable(),
  rfCode: z.string().nullable(),
  amount: money.nullable(),
  date: isoDate.nullable(),
  payer: z.string().nullable(),
  status: z.enum(bankLineStatuses),
  reason: z.enum(bankLineReasons).nullable(),
  /** The line as the file wrote it (for a malformed one). */
  raw: z.string(),
  consumerId: z.number().int().nullable(),
  consumerCode: z.string().nullable(),
  ownerName: z.string().nullable(),
  paymentId: z.number().int().nullable(),
  receipt: z.string().nullable(),
  /** What no debt took: the consumer's credit. */
  credit: money.nullable(),
});
export type BankLine = z.infer<typeof bankLineSchema>;

export const bankFileReportSchema = z.object({
  file: bankFileSchema,
  lines: z.array(bankLineSchema),
  /** Lines of the status asked for (all the file's when none), of which `lines` is a page. */
  count: z.number().int(),
});
export type BankFileReport = z.infer<typeof bankFileReportSchema>;

export const bankUnmatchedSchema = z.object({ lines: z.array(bankLineSchema), count: z.number().int() });
export type BankUnmatched = z.infer<typeof bankUnmatchedSchema>;

export const bankImportStartSchema = z.object({ jobId: z.number().int(), fileId: z.number().int() });

/** Staff match an unmatched line to a consumer: its debts as chosen (in order), or the oldest first. */
export const matchBankLineSchema = z.object({
  consumerId: idSchema,
  debtIds: z.array(idSchema).max(500).default([]),
});
export type MatchBankLine = z.input<typeof matchBankLineSchema>;
