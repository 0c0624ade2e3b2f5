import { z } from 'zod';
import { idSchema } from './db.ts';
import { importReportSchema } from './imports.ts';
import type { EntityCatalog, FieldDef } from './list.ts';
import { type AmountKind, decimalString, PRICE_SCALE } from './money.ts';
import { booleanField, requiredText, rowId, textField } from './settings-fields.ts';

/**
 * Finance, master data: the accounting plan, services, warehouses and warehouse items,
 * and the document series. Codes are checked here (account mask, EAN-13, CPV) so the server and the
 * forms apply one rule. Labels: `finance.*` in the lists catalog.
 */

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));

const enumField = (id: string, labelKey: string, values: readonly number[], width = 150): FieldDef => ({
  id,
  type: 'enum',
  labelKey,
  sortable: true,
  filters: ['eq'],
  exportable: true,
  options: values.map((value) => ({ value: String(value), labelKey: `${labelKey}_${value}` })),
  width,
});

const moneyField = (id: string, labelKey: string, width = 120, amount: AmountKind = 'money'): FieldDef => ({
  id,
  type: 'money',
  amount,
  labelKey,
  sortable: true,
  filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
  exportable: true,
  width,
});

// ----- enumerations (spec §3) -----

/** Account kinds: 1 income, 2 expenses, 3 fund, 9 other. */
export const accountKinds = [1, 2, 3, 9] as const;
/** Warehouse types: 1 normal, 2 consumables, 3 damaged, 4 other. */
export const warehouseTypes = [1, 2, 3, 4] as const;
/** Print modes of a series: 0 none, 1 automatic after finalize, 2 ask, 3 view. */
export const financePrintModes = [0, 1, 2, 3] as const;
/** Debit (1) or credit (2): a credit note reverses what its related series charged. */
export const debitCredit = [1, 2] as const;
/** Transformation modes: 1 one to one, 2 one per trader, 3 all in one. */
export const transformationModes = [1, 2, 3] as const;

/**
 * What documents of a series are. `waterBill` is the series the water billing issues its bills in,
 * so every financial list, export and transmission covers the bills too.
 */
export const seriesKinds = [
  'salesInvoice',
  'servicesInvoice',
  'retailReceipt',
  'creditNote',
  'deliveryNote',
  'goodsReceipt',
  'order',
  'paymentReceipt',
  'waterBill',
] as const;
export type SeriesKind = (typeof seriesKinds)[number];

/** myDATA invoice types a series may map to (SimpleTypes InvoiceType; the glossary's list). */
export const mydataInvoiceTypes = ['1.1', '2.1', '5.1', '5.2', '8.2', '11.1', '11.2', '11.4'] as const;

// ----- account codes and the mask -----

/** Spec §5: the account mask is at most 30 characters. */
export const ACCOUNT_MASK_MAX = 30;
/** Separators a mask may use between its levels. */
const MASK_SEPARATORS = '.-/';

/**
 * A mask is levels of X joined by one separator each: `XX.XX.XX.XXXX`. Null when valid, else the
 * message key of what is wrong.
 */
export function accountMaskError(mask: string): string | null {
  if (mask.length === 0) return 'validation.required';
  if (mask.length > ACCOUNT_MASK_MAX) return 'validation.mask_too_long';
  const escaped = MASK_SEPARATORS.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&');
  if (!new RegExp(`^X+([${escaped}]X+)*$`).test(mask)) return 'validation.mask_invalid';
  return null;
}

/** The lengths of the code at each level of the mask: `XX.XX.XXX` → [2, 5, 9]. */
export function maskLevels(mask: string): number[] {
  const levels: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i] !== 'X') levels.push(i);
  levels.push(mask.length);
  return levels;
}

/**
 * Whether a code follows the mask down to one of its levels: digits or letters where the mask has X,
 * the mask's separator elsewhere, cut at a level's end (`61`, `61.00` and `61.00.001` fit `XX.XX.XXX`).
 */
export function codeFitsMask(code: string, mask: string): boolean {
  if (!maskLevels(mask).includes(code.length)) return false;
  for (let i = 0; i < code.length; i++) {
    const m = mask[i];
    const c = code[i] ?? '';
    if (m === 'X' ? !/^[0-9A-Z]$/.test(c) : c !== m) return false;
  }
  return true;
}

/** The level (1-based) of a code that fits the mask. */
export const codeLevel = (code: string, mask: string): number => maskLevels(mask).indexOf(code.length) + 1;

/** The code of the account one level up (`61.00.001` → `61.00`), null at the top level. */
export function parentCode(code: string, mask: string): string | null {
  const levels = maskLevels(mask);
  const index = levels.indexOf(code.length);
  return index > 0 ? code.slice(0, levels[index - 1]) : null;
}

/**
 * Every account's nearest ancestor among the given codes, by the code's prefixes (the hierarchy of the
 * accounting plan): a missing middle level is skipped, so `61.00.001` hangs under `61` if `61.00` is absent.
 */
export function accountParents(codes: readonly string[], mask: string): Map<string, string | null> {
  const known = new Set(codes);
  const parents = new Map<string, string | null>();
  for (const code of codes) {
    let parent = parentCode(code, mask);
    while (parent !== null && !known.has(parent)) parent = parentCode(parent, mask);
    parents.set(code, parent);
  }
  return parents;
}

// ----- EAN-13 and CPV -----

/** Glossary: EAN-13 weights 1,3,1,3… on the first 12 digits; the check digit makes the sum a multiple of 10. */
export function ean13CheckDigit(first12: string): number {
  let total = 0;
  for (let i = 0; i < 12; i++) total += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (total % 10)) % 10;
}

export function isValidEan13(code: string): boolean {
  return /^\d{13}$/.test(code) && ean13CheckDigit(code.slice(0, 12)) === Number(code[12]);
}

/**
 * The CPV code's format, `NNNNNNNN-N` (eight digits, a dash, a check digit). The check digit's
 * algorithm is not published with the vocabulary we hold, and the official list is not shipped in
 * the reference data, so only the format is checked.
 */
export const CPV_PATTERN = /^\d{8}-\d$/;
export const isValidCpvFormat = (code: string): boolean => CPV_PATTERN.test(code);

// ----- finance settings -----

export const financeSettingsSchema = z.object({
  accountMask: z
    .string()
    .trim()
    .superRefine((mask, ctx) => {
      const error = accountMaskError(mask);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
});
export type FinanceSettings = z.infer<typeof financeSettingsSchema>;
export const DEFAULT_ACCOUNT_MASK = 'XX.XX.XX.XXXX';

// ----- accounting plan -----

export const accountSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  descr: z.string(),
  kind: z.number().int(),
  /** 0 analytic (takes entries), 1 aggregate (sums its children). */
  aggregate: z.number().int(),
  /** The nearest ancestor's code by the mask's prefixes. */
  parentCode: z.string().nullable(),
  level: z.number().int(),
  active: z.boolean(),
});
export type Account = z.infer<typeof accountSchema>;

export const accountRowSchema = z.object({
  id: rowId,
  code: requiredText(30).transform((value) => value.toUpperCase()),
  descr: requiredText(200),
  kind: z.union(accountKinds.map((k) => z.literal(k))),
  aggregate: z.union([z.literal(0), z.literal(1)]),
  active: z.boolean(),
});
export type AccountRow = z.infer<typeof accountRowSchema>;

export const accountsCatalog = {
  entity: 'financeAccounts',
  titleKey: 'finance.accounts.title',
  defaultSort: { field: 'code', desc: false },
  fields: [
    textField('code', 'finance.accounts.code', 160),
    textField('descr', 'finance.accounts.descr', 320),
    enumField('kind', 'finance.accounts.kind', accountKinds, 140),
    enumField('aggregate', 'finance.accounts.aggregate', [0, 1], 140),
    textField('parentCode', 'finance.accounts.parentCode', 140, {
      searchable: false,
      sortable: false,
      filters: [],
    }),
    booleanField('active', 'finance.accounts.active', 100),
  ],
} as const satisfies EntityCatalog;

/** One row of an accounting plan import (Excel: code, description, kind, aggregate). */
export const accountImportRowSchema = accountRowSchema.omit({ id: true, active: true });

// ----- services -----

export const vatPercentSchema = decimalString(2, { min: '0', max: '100' });

export const serviceSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  descr: z.string(),
  unit: z.string().nullable(),
  price: z.string(),
  vatPercent: z.string(),
  vatCategory: z.number().int().nullable(),
  accountId: z.number().int().nullable(),
  accountCode: z.string().nullable(),
  active: z.boolean(),
});
export type Service = z.infer<typeof serviceSchema>;

export const serviceRowSchema = z.object({
  id: rowId,
  code: requiredText(30),
  descr: requiredText(200),
  unit: optionalText(20),
  price: decimalString(PRICE_SCALE, { min: '0' }),
  vatPercent: vatPercentSchema,
  /** myDATA VAT category (1 = 24%, 2 = 13%, … 7 = 0% with exemption, 8 = without VAT). */
  vatCategory: z.number().int().min(1).max(9).nullable(),
  /** The income account its sales are certified under (an analytic account). */
  accountId: idSchema.nullable(),
  active: z.boolean(),
});
export type ServiceRow = z.infer<typeof serviceRowSchema>;

export const servicesCatalog = {
  entity: 'financeServices',
  titleKey: 'finance.services.title',
  defaultSort: { field: 'code', desc: false },
  fields: [
    textField('code', 'finance.services.code', 120),
    textField('descr', 'finance.services.descr', 300),
    textField('unit', 'finance.services.unit', 90, { searchable: false }),
    moneyField('price', 'finance.services.price', 120, 'price'),
    moneyField('vatPercent', 'finance.services.vatPercent', 100, 'percent'),
    textField('accountCode', 'finance.services.account', 160, { searchable: false }),
    booleanField('active', 'finance.services.active', 100),
  ],
} as const satisfies EntityCatalog;

// ----- warehouses and items -----

export const warehouseSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  descr: z.string(),
  type: z.number().int(),
  active: z.boolean(),
});
export type Warehouse = z.infer<typeof warehouseSchema>;

export const warehouseRowSchema = z.object({
  id: rowId,
  code: requiredText(20),
  descr: requiredText(200),
  type: z.union(warehouseTypes.map((k) => z.literal(k))),
  active: z.boolean(),
});
export type WarehouseRow = z.infer<typeof warehouseRowSchema>;

export const warehousesCatalog = {
  entity: 'financeWarehouses',
  titleKey: 'finance.warehouses.title',
  defaultSort: { field: 'code', desc: false },
  fields: [
    textField('code', 'finance.warehouses.code', 120),
    textField('descr', 'finance.warehouses.descr', 300),
    enumField('type', 'finance.warehouses.type', warehouseTypes, 160),
    booleanField('active', 'finance.warehouses.active', 100),
  ],
} as const satisfies EntityCatalog;

export const itemStockSchema = z.object({
  warehouseId: z.number().int(),
  warehouseDescr: z.string(),
  /** What the documents moved: in minus out. */
  quantity: z.string(),
});

/** One item's stock in one warehouse (GET /api/finance/stock). */
export const stockRowSchema = z.object({
  itemId: z.number().int(),
  code: z.string(),
  descr: z.string(),
  unit: z.string().nullable(),
  warehouseId: z.number().int(),
  warehouseDescr: z.string(),
  quantity: z.string(),
});
export type StockRow = z.infer<typeof stockRowSchema>;

export const itemSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  descr: z.string(),
  barcode: z.string().nullable(),
  cpv: z.string().nullable(),
  unit: z.string().nullable(),
  purchasePrice: z.string(),
  salePrice: z.string(),
  vatPercent: z.string(),
  accountId: z.number().int().nullable(),
  /** The warehouse its documents move stock in unless a line says otherwise. */
  warehouseId: z.number().int().nullable(),
  group1: z.string().nullable(),
  group2: z.string().nullable(),
  group3: z.string().nullable(),
  group4: z.string().nullable(),
  /** Stock over all warehouses (documents only). */
  quantity: z.string(),
  active: z.boolean(),
});
export type Item = z.infer<typeof itemSchema>;

const barcodeField = z
  .string()
  .trim()
  .nullish()
  .transform((value) => (value ? value : null))
  .refine((value) => value === null || isValidEan13(value), 'validation.ean13');
const cpvField = z
  .string()
  .trim()
  .nullish()
  .transform((value) => (value ? value : null))
  .refine((value) => value === null || isValidCpvFormat(value), 'validation.cpv');

export const itemRowSchema = z.object({
  id: rowId,
  code: requiredText(30),
  descr: requiredText(200),
  barcode: barcodeField,
  cpv: cpvField,
  unit: optionalText(20),
  purchasePrice: decimalString(PRICE_SCALE, { min: '0' }),
  salePrice: decimalString(PRICE_SCALE, { min: '0' }),
  vatPercent: vatPercentSchema,
  accountId: idSchema.nullable(),
  warehouseId: idSchema.nullable(),
  group1: optionalText(60),
  group2: optionalText(60),
  group3: optionalText(60),
  group4: optionalText(60),
  active: z.boolean(),
});
export type ItemRow = z.infer<typeof itemRowSchema>;

export const itemsCatalog = {
  entity: 'financeItems',
  titleKey: 'finance.items.title',
  defaultSort: { field: 'code', desc: false },
  fields: [
    textField('code', 'finance.items.code', 110),
    textField('descr', 'finance.items.descr', 260),
    textField('barcode', 'finance.items.barcode', 140),
    textField('cpv', 'finance.items.cpv', 120),
    textField('unit', 'finance.items.unit', 80, { searchable: false }),
    moneyField('purchasePrice', 'finance.items.purchasePrice', 120, 'price'),
    moneyField('salePrice', 'finance.items.salePrice', 120, 'price'),
    moneyField('quantity', 'finance.items.quantity', 100, 'quantity'),
    textField('group1', 'finance.items.group1', 120, { hiddenByDefault: true }),
    textField('group2', 'finance.items.group2', 120, { hiddenByDefault: true }),
    textField('group3', 'finance.items.group3', 120, { hiddenByDefault: true }),
    textField('group4', 'finance.items.group4', 120, { hiddenByDefault: true }),
    booleanField('active', 'finance.items.active', 100),
  ],
} as const satisfies EntityCatalog;

// ----- document series -----

export const seriesSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  descr: z.string(),
  kind: z.enum(seriesKinds),
  /** Numbered automatically at finalize (gapless per series and year). */
  autonr: z.boolean(),
  /** Order of the series in the document form's list. */
  seqnr: z.number().int(),
  printype: z.number().int(),
  copies: z.number().int(),
  /** A document's date may not be earlier than the last finalized one's in the series. */
  checkdates: z.boolean(),
  /** The series credit notes of its documents are issued in. */
  relseqid: z.number().int().nullable(),
  debitCredit: z.number().int(),
  mydataType: z.enum(mydataInvoiceTypes).nullable(),
  /** Whether its documents move stock (delivery notes and invoices of items). */
  movesStock: z.boolean(),
  active: z.boolean(),
});
export type Series = z.infer<typeof seriesSchema>;

export const seriesRowSchema = z.object({
  id: rowId,
  code: requiredText(10).transform((value) => value.toUpperCase()),
  descr: requiredText(200),
  kind: z.enum(seriesKinds),
  autonr: z.boolean(),
  seqnr: z.number().int().min(0).max(9999),
  printype: z.union(financePrintModes.map((k) => z.literal(k))),
  copies: z.number().int().min(1).max(9),
  checkdates: z.boolean(),
  relseqid: idSchema.nullable(),
  debitCredit: z.union([z.literal(1), z.literal(2)]),
  mydataType: z.enum(mydataInvoiceTypes).nullable(),
  movesStock: z.boolean(),
  active: z.boolean(),
});
export type SeriesRow = z.infer<typeof seriesRowSchema>;

export const seriesCatalog = {
  entity: 'financeSeries',
  titleKey: 'finance.series.title',
  defaultSort: { field: 'seqnr', desc: false },
  fields: [
    textField('code', 'finance.series.code', 90),
    textField('descr', 'finance.series.descr', 240),
    {
      ...enumField('kind', 'finance.series.kind', [], 170),
      options: seriesKinds.map((k) => ({ value: k, labelKey: `finance.series.kind_${k}` })),
    },
    booleanField('autonr', 'finance.series.autonr', 110),
    enumField('printype', 'finance.series.printype', financePrintModes, 150),
    booleanField('checkdates', 'finance.series.checkdates', 120),
    textField('mydataType', 'finance.series.mydataType', 100, { searchable: false }),
    booleanField('active', 'finance.series.active', 100),
  ],
} as const satisfies EntityCatalog;

/** What the accounting plan's import job answers (its `result`): a dry run writes nothing. */
export const accountImportResultSchema = importReportSchema.extend({
  created: z.number().int(),
  updated: z.number().int(),
});
export type AccountImportResult = z.infer<typeof accountImportResultSchema>;
/** The largest accounting plan file accepted (an .xlsx of a few thousand accounts is far smaller). */
export const ACCOUNT_IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** POST /api/finance/accounts/import answers the queued job (GET /api/jobs/{id}). */
export const accountImportStartSchema = z.object({ jobId: z.number().int() });
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
