import { z } from 'zod';
import { auditFieldsSchema } from './audit.ts';
import { idSchema } from './db.ts';
import { mydataInvoiceTypes, seriesKinds } from './finance.ts';
import type { EntityCatalog, FieldDef } from './list.ts';
import { decimalString, MONEY_SCALE, PRICE_SCALE, QUANTITY_SCALE, taxKinds } from './money.ts';
import { isoDaySchema } from './time.ts';

/**
 * Commercial documents (παραστατικά): a series, a trader, lines of services or items and
 * taxes by kind. Entry states (spec §3): 0 new, 1 editing, 9 finalized — a finalized document is
 * numbered, immutable and corrected only by a credit note in the series' related series.
 */

export const entryStates = [0, 1, 9] as const;
export const FINALIZED = 9;
/** Spec §3 status: 0 pending, 1 active, 9 cancel. */
export const recordStatuses = [0, 1, 9] as const;
/** myDATA payment methods (paymentMethods-v2.0.1): 1 domestic bank, 2 foreign bank, 3 cash, 4 cheque, 5 on credit, 6 web banking, 7 POS. */
export const paymentMethods = [1, 2, 3, 4, 5, 6, 7] as const;

/** The list's export key (spec §7 `getForEntity?entityName=FIN`). */
export const FINANCE_DOCUMENTS_ENTITY = 'FIN';

const percentSchema = decimalString(2, { min: '0', max: '100' });

export const documentLineInputSchema = z
  .object({
    serviceId: idSchema.nullable(),
    itemId: idSchema.nullable(),
    /** Where an item's stock moves; the item's own warehouse when null. */
    warehouseId: idSchema.nullable(),
    /** The line's text; the service's or item's description when empty. */
    descr: z
      .string()
      .trim()
      .max(300)
      .nullish()
      .transform((v) => (v ? v : null)),
    quantity: decimalString(QUANTITY_SCALE, { positive: true }),
    price: decimalString(PRICE_SCALE, { min: '0' }),
    discount: percentSchema,
    vatPercent: percentSchema,
  })
  .refine((line) => (line.serviceId === null) !== (line.itemId === null), {
    message: 'validation.service_or_item',
    path: ['serviceId'],
  });

export const documentTaxInputSchema = z
  .object({
    kind: z.union(taxKinds.map((k) => z.literal(k))),
    /** A percentage of the net (up to 4 decimals), or null for a fixed amount. */
    percent: decimalString(4, { min: '0', max: '100' }).nullable(),
    amount: decimalString(MONEY_SCALE, { min: '0' }).nullable(),
  })
  .refine((tax) => tax.percent !== null || tax.amount !== null, {
    message: 'validation.required',
    path: ['amount'],
  });

export const saveFinanceDocumentSchema = z.object({
  seriesId: idSchema,
  date: isoDaySchema(),
  traderId: idSchema.nullable(),
  paymentMethod: z.union(paymentMethods.map((k) => z.literal(k))),
  status: z.union(recordStatuses.map((k) => z.literal(k))),
  notes: z
    .string()
    .trim()
    .max(2000)
    .nullish()
    .transform((v) => (v ? v : null)),
  lines: z.array(documentLineInputSchema).min(1).max(500),
  taxes: z.array(documentTaxInputSchema).max(20),
});
export type SaveFinanceDocument = z.infer<typeof saveFinanceDocumentSchema>;

const amount = z.string();

export const financeDocumentSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  seriesId: z.number().int(),
  seriesCode: z.string(),
  seriesDescr: z.string(),
  seriesKind: z.enum(seriesKinds),
  mydataType: z.enum(mydataInvoiceTypes).nullable(),
  printype: z.number().int(),
  copies: z.number().int(),
  debitCredit: z.number().int(),
  number: z.number().int().nullable(),
  year: z.number().int().nullable(),
  date: z.string(),
  traderId: z.number().int().nullable(),
  traderName: z.string().nullable(),
  traderVatnumber: z.string().nullable(),
  paymentMethod: z.number().int(),
  entryState: z.number().int(),
  status: z.number().int(),
  relatedDocumentId: z.number().int().nullable(),
  transformedIntoId: z.number().int().nullable(),
  notes: z.string().nullable(),
  net: amount,
  discount: amount,
  vat: amount,
  gross: amount,
  taxesCharged: amount,
  withheld: amount,
  payable: amount,
  lines: z.array(
    z.object({
      id: z.number().int(),
      serviceId: z.number().int().nullable(),
      itemId: z.number().int().nullable(),
      warehouseId: z.number().int().nullable(),
      descr: z.string(),
      quantity: z.string(),
      price: z.string(),
      discount: z.string(),
      vatPercent: z.string(),
      net: amount,
      vat: amount,
      total: amount,
    }),
  ),
  taxes: z.array(
    z.object({ id: z.number().int(), kind: z.number().int(), percent: z.string().nullable(), amount }),
  ),
  ...auditFieldsSchema.shape,
});
export type FinanceDocument = z.infer<typeof financeDocumentSchema>;

export const financeDocumentListItemSchema = z.object({
  id: z.number().int(),
  seriesCode: z.string(),
  seriesDescr: z.string(),
  seriesKind: z.string(),
  number: z.number().int().nullable(),
  year: z.number().int().nullable(),
  date: z.string(),
  traderName: z.string().nullable(),
  traderVatnumber: z.string().nullable(),
  net: amount,
  vat: amount,
  payable: amount,
  entryState: z.number().int(),
  status: z.number().int(),
});
export type FinanceDocumentListItem = z.infer<typeof financeDocumentListItemSchema>;

const enumOf = (
  id: string,
  labelKey: string,
  values: readonly (string | number)[],
  width: number,
): FieldDef => ({
  id,
  type: 'enum',
  labelKey,
  sortable: true,
  filters: ['eq'],
  exportable: true,
  options: values.map((value) => ({ value: String(value), labelKey: `${labelKey}_${value}` })),
  width,
});
const moneyOf = (id: string, labelKey: string): FieldDef => ({
  id,
  type: 'money',
  labelKey,
  sortable: true,
  filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
  exportable: true,
  width: 120,
});

export const financeDocumentsCatalog = {
  entity: 'financeDocuments',
  titleKey: 'finance.documents.title',
  defaultSort: { field: 'date', desc: true },
  fields: [
    {
      id: 'seriesCode',
      type: 'text',
      labelKey: 'finance.documents.series',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      width: 90,
    },
    {
      id: 'number',
      type: 'number',
      labelKey: 'finance.documents.number',
      sortable: true,
      filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
      exportable: true,
      width: 90,
    },
    {
      id: 'date',
      type: 'date',
      labelKey: 'finance.documents.date',
      sortable: true,
      filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
      exportable: true,
      width: 120,
    },
    enumOf('seriesKind', 'finance.series.kind', seriesKinds, 170),
    {
      id: 'traderName',
      type: 'text',
      labelKey: 'finance.documents.trader',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 240,
    },
    {
      id: 'traderVatnumber',
      type: 'text',
      labelKey: 'finance.documents.vatnumber',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 120,
    },
    moneyOf('net', 'finance.documents.net'),
    moneyOf('vat', 'finance.documents.vat'),
    moneyOf('payable', 'finance.documents.payable'),
    enumOf('entryState', 'finance.documents.entryState', entryStates, 140),
    enumOf('status', 'finance.documents.status', recordStatuses, 120),
  ],
} as const satisfies EntityCatalog;

// ----- transformation (μετασχηματισμός) -----

/** Series kinds whose documents are transformed into invoices. */
export const TRANSFORMABLE_KINDS = ['deliveryNote', 'order'] as const;
/** Series kinds a transformation issues its results in. */
export const TRANSFORMATION_TARGET_KINDS = ['salesInvoice', 'servicesInvoice', 'retailReceipt'] as const;

export const transformationCandidatesQuerySchema = z.object({
  companyid: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  traderId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  from: isoDaySchema().optional(),
  to: isoDaySchema().optional(),
});

export const transformationRequestSchema = z.object({
  /** 1 one to one, 2 one per trader, 3 all in one. */
  mode: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  sourceIds: z.array(idSchema).min(1).max(500),
  targetSeriesId: idSchema,
  date: isoDaySchema(),
});
export type TransformationRequest = z.infer<typeof transformationRequestSchema>;

export const transformationResultSchema = z.object({
  /** The documents created (drafts in the target series); empty in a preview. */
  ids: z.array(z.number().int()),
  documents: z.array(
    z.object({
      traderId: z.number().int().nullable(),
      traderName: z.string().nullable(),
      sourceIds: z.array(z.number().int()),
      sources: z.array(z.string()),
      lines: z.number().int(),
      net: amount,
      vat: amount,
      payable: amount,
    }),
  ),
});
export type TransformationResult = z.infer<typeof transformationResultSchema>;
