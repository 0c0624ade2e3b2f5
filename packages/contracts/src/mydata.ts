import { z } from 'zod';
import { vatCharges } from './billing-bill.ts';
import { mydataInvoiceTypes } from './finance.ts';
import { paymentMethods } from './finance-documents.ts';
import type { EntityCatalog } from './list.ts';
import { isoDaySchema } from './time.ts';

/**
 * myDATA: every issued document is sent to AADE (`SendInvoices`) after it validates
 * against the official XSD; the answer's MARK, UID and QR URL are kept and printed. The parameters
 * per company say where to send and how a document translates into myDATA's codes.
 */

export const mydataEnvironments = ['test', 'production'] as const;
export type MydataEnvironment = (typeof mydataEnvironments)[number];

/** AADE's published addresses (the README of the schemas); a setting, since they may change. */
export const MYDATA_DEFAULT_URLS: Record<MydataEnvironment, string> = {
  test: 'https://mydataapidev.aade.gr',
  production: 'https://mydatapi.aade.gr/myDATA',
};

/**
 * Transmission states: not sent (no attempt yet), sent (MARK kept), failed (AADE or the XSD said
 * no), uncertain (a timeout: AADE may hold it, so it is reconciled before any resend), cancelled.
 */
export const transmissionStates = ['notSent', 'sent', 'failed', 'uncertain', 'cancelled'] as const;
export type TransmissionState = (typeof transmissionStates)[number];

const code = (max: number) => z.number('validation.integer').int('validation.integer').min(1).max(max);
const percent = z
  .string()
  .trim()
  .regex(/^\d{1,3}(\.\d{1,2})?$/, 'validation.decimal_number');

/** Income classification (incomeClassification-v2.0.1): a category and an E3 code. */
export const classificationSchema = z.object({
  category: z
    .string()
    .trim()
    .regex(/^category1_\d{1,2}$/, 'mydata.validation.classificationCategory'),
  type: z
    .string()
    .trim()
    .regex(/^E3_\d{3}(_\d{3})?$/, 'mydata.validation.classificationType')
    .nullable(),
});

export const mydataMappingsSchema = z.object({
  /** VAT percentage → VatType (1 24%, 2 13%, 3 6%, 4 17%, 5 9%, 6 4%, 7 0%, 8 without VAT, 9 3%, 10 4%). */
  vatCategories: z
    .array(z.object({ percent, category: code(10) }))
    .min(1)
    .max(20),
  /** VatExemptionType (1–31) sent with every 0% line. */
  exemptionCause: code(31),
  /** By invoice type; a line of a service listed below uses the service's own. */
  classifications: z
    .array(z.object({ invoiceType: z.string().trim().min(1).max(10), ...classificationSchema.shape }))
    .max(40),
  /** By service code (the service's account decides its E3 code). */
  serviceClassifications: z
    .array(z.object({ serviceCode: z.string().trim().min(1).max(50), ...classificationSchema.shape }))
    .max(200),
  /**
   * A document tax (finance kinds: 1 tax, 2 stamp, 3 withholding, 4 recycling, 5/6 interest) → the
   * category of its myDATA tax type (WithheldType 1–18, StampDutyType 1–4, FeesType 1–22,
   * OtherTaxesType 1–30); a row with a percentage wins over the kind's row without one.
   */
  /**
   * By account code (a line's service's account), the longest matching code first: `70` covers
   * `70.00.01`. A service listed above wins; the invoice type's classification is the fallback.
   */
  accountClassifications: z
    .array(z.object({ accountCode: z.string().trim().min(1).max(50), ...classificationSchema.shape }))
    .max(200)
    .optional(),
  /**
   * A water bill to a consumer with an ΑΦΜ is sent as this type with the consumer as counterpart
   * (retail types name no customer); null sends every bill as its series' type.
   */
  businessBillType: z.enum(mydataInvoiceTypes).nullable().optional(),
  taxCodes: z
    .array(
      z.object({
        kind: z.number('validation.integer').int().min(1).max(6),
        percent: percent.nullable(),
        category: code(30),
      }),
    )
    .max(60),
  /**
   * A finance payment method → myDATA's PaymentMethodType (1–8, 8 IRIS instant payments); a method
   * with no row goes as its own code. Absent in settings saved before it: the defaults apply.
   */
  paymentMethods: z
    .array(
      z.object({
        method: z.union(
          paymentMethods.map((k) => z.literal(k)),
          'validation.integer',
        ),
        type: code(8),
      }),
    )
    .max(20)
    .refine(
      (rows) => new Set(rows.map((r) => r.method)).size === rows.length,
      'mydata.validation.duplicatePaymentMethod',
    )
    .optional(),
  /** The PaymentMethodType a water bill is sent with (5 on credit: a bill is paid after it is issued). */
  billPaymentMethod: code(8).optional(),
  /**
   * A water bill's charge kind, for the type the bill is sent as → its income classification; a
   * bill goes as one line per charge kind and VAT rate (a discount nets into the charge it reduces).
   */
  chargeClassifications: z
    .array(
      z.object({
        charge: z.enum(vatCharges),
        invoiceType: z.enum(mydataInvoiceTypes),
        ...classificationSchema.shape,
      }),
    )
    .max(100)
    .optional(),
});
export type MydataMappings = z.infer<typeof mydataMappingsSchema>;

export const saveMydataSettingsSchema = z.object({
  environment: z.enum(mydataEnvironments),
  testUrl: z.url('validation.url').max(300),
  productionUrl: z.url('validation.url').max(300),
  /** The issuer's branch (αριθμός εγκατάστασης) in the taxis register; 0 for the head office. */
  branch: z.number('validation.integer').int('validation.integer').min(0).max(9999),
  mappings: mydataMappingsSchema,
});
export type SaveMydataSettings = z.infer<typeof saveMydataSettingsSchema>;

export const mydataSettingsSchema = saveMydataSettingsSchema.extend({
  /** Whether the company's AADE user and subscription key are set (companies; never shown back). */
  credentialsSet: z.boolean(),
  /** A demo installation without credentials sends to its local AADE (test environment only). */
  localAade: z.boolean(),
});
export type MydataSettings = z.infer<typeof mydataSettingsSchema>;

export const xsdRules = [
  'missing',
  'unexpected',
  'notInList',
  'outOfRange',
  'tooLong',
  'badFormat',
  'other',
] as const;

/**
 * AADE's code and message; a schema error (`xsd`) also says which kind of rule it broke, the field
 * and the value, so it is shown in the user's language with libxml2's text as the detail.
 */
export const aadeErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  rule: z.enum(xsdRules).optional(),
  field: z.string().nullable().optional(),
  value: z.string().nullable().optional(),
});
export type AadeError = z.infer<typeof aadeErrorSchema>;

/** A document's transmission as its page shows it. */
export const transmissionSchema = z.object({
  documentId: z.number().int(),
  document: z.object({
    seriesCode: z.string(),
    seriesDescr: z.string(),
    number: z.number().int().nullable(),
    year: z.number().int().nullable(),
    date: z.string(),
    invoiceType: z.string().nullable(),
    traderName: z.string().nullable(),
    payable: z.string(),
  }),
  state: z.enum(transmissionStates),
  uid: z.string().nullable(),
  mark: z.string().nullable(),
  qrUrl: z.string().nullable(),
  /** The QR code of `qrUrl` as a PNG data URL, shown on the page as it is printed. */
  qrImage: z.string().nullable(),
  cancellationMark: z.string().nullable(),
  /** AADE's codes, or `xsd` with the broken rule, or `network`. */
  errors: z.array(aadeErrorSchema),
  attempts: z.number().int(),
  sentAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  /** What the buttons may do now. */
  canSend: z.boolean(),
  canCancel: z.boolean(),
  /** Why a sent document may not be cancelled at AADE (a catalog key), else null. */
  cancelRefusal: z.string().nullable(),
});
export type Transmission = z.infer<typeof transmissionSchema>;

const id = z.number().int().positive().max(2_147_483_647);
/** One document, a day's documents; one water bill, a day's bills, or a billing run's bills. */
export const transmitRequestSchema = z.union([
  z.object({ documentId: id }),
  z.object({ day: isoDaySchema() }),
  z.object({ billId: id }),
  z.object({ billDay: isoDaySchema() }),
  z.object({ billIds: z.array(id).min(1).max(20_000) }),
]);
export type TransmitRequest = z.infer<typeof transmitRequestSchema>;

export const MYDATA_DOCUMENTS_ENTITY = 'MYDATA';

/** Where a transmitted document lives: a finance document or a water bill (billing's table). */
export const mydataSources = ['document', 'bill'] as const;
export type MydataSource = (typeof mydataSources)[number];

export const mydataDocumentListItemSchema = z.object({
  id: z.number().int(),
  source: z.enum(mydataSources),
  seriesCode: z.string(),
  number: z.number().int().nullable(),
  year: z.number().int().nullable(),
  date: z.string(),
  invoiceType: z.string().nullable(),
  traderName: z.string().nullable(),
  gross: z.string(),
  state: z.enum(transmissionStates),
  mark: z.string().nullable(),
  /** AADE's codes and messages as one text (exports); the screen words `errors` in the user's language. */
  errorText: z.string().nullable(),
  errors: z.array(aadeErrorSchema),
});
export type MydataDocumentListItem = z.infer<typeof mydataDocumentListItemSchema>;

export const mydataDocumentsCatalog = {
  entity: 'mydataDocuments',
  titleKey: 'mydata.list.title',
  defaultSort: { field: 'date', desc: true },
  fields: [
    {
      id: 'source',
      type: 'enum',
      labelKey: 'mydata.list.source',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: mydataSources.map((value) => ({ value, labelKey: `mydata.source.${value}` })),
      width: 150,
    },
    {
      id: 'seriesCode',
      type: 'text',
      labelKey: 'mydata.list.series',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      width: 90,
    },
    {
      id: 'number',
      type: 'number',
      labelKey: 'mydata.list.number',
      sortable: true,
      filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
      exportable: true,
      width: 90,
    },
    {
      id: 'date',
      type: 'date',
      labelKey: 'mydata.list.date',
      sortable: true,
      filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
      exportable: true,
      width: 120,
    },
    {
      id: 'invoiceType',
      type: 'text',
      labelKey: 'mydata.list.invoiceType',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 90,
    },
    {
      id: 'traderName',
      type: 'text',
      labelKey: 'mydata.list.trader',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 220,
    },
    {
      id: 'gross',
      type: 'money',
      labelKey: 'mydata.list.gross',
      sortable: true,
      filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
      exportable: true,
      width: 110,
    },
    {
      id: 'state',
      type: 'enum',
      labelKey: 'mydata.list.state',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: transmissionStates.map((value) => ({ value, labelKey: `mydata.state.${value}` })),
      width: 130,
    },
    {
      id: 'mark',
      type: 'text',
      labelKey: 'mydata.list.mark',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 160,
    },
    {
      id: 'errorText',
      type: 'text',
      labelKey: 'mydata.list.errors',
      sortable: false,
      filters: ['contains'],
      exportable: true,
      wrap: true,
      width: 320,
    },
  ],
} as const satisfies EntityCatalog;

export const searchMydataSchema = z.object({
  id: z.number().int(),
  mark: z.string(),
  seriesCode: z.string(),
  number: z.number().int().nullable(),
  year: z.number().int().nullable(),
  traderName: z.string().nullable(),
});
