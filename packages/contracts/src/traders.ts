import { z } from 'zod';
import { auditFieldsSchema } from './audit.ts';
import { customFieldValueSchema, customFieldValuesSchema } from './custom-fields.ts';
import { idParamSchema, idSchema } from './db.ts';
import type { EntityCatalog, FieldDef } from './list.ts';
import { BIC_PATTERN } from './settings-tables.ts';
import { isIsoDate } from './time.ts';

/**
 * Traders (συναλλασσόμενοι, spec §3 Trader): the counterparties of a company. Check digits
 * of the glossary: ΑΦΜ and IBAN (ISO 13616), pure functions shared by the server and the web app.
 */

// ----- ΑΦΜ -----

/**
 * The 9 digits of a Greek VAT number as typed: spaces, dots and dashes removed, an `EL`/`GR` prefix
 * stripped, an old 8-digit number padded with a leading 0. Anything else is returned trimmed, as is.
 */
export function normalizeVatNumber(input: string): string {
  let value = input.replace(/[\s.-]/g, '').toUpperCase();
  if (value.startsWith('EL') || value.startsWith('GR')) value = value.slice(2);
  if (/^\d{8}$/.test(value)) value = `0${value}`;
  return value;
}

/** Glossary 'Check digits': (Σ di·2^(8−i), i = 0…7) mod 11 mod 10 = d8; all zeros is invalid. */
export function isValidVatNumber(input: string): boolean {
  const value = normalizeVatNumber(input);
  if (!/^\d{9}$/.test(value) || value === '000000000') return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(value[i]) * 2 ** (8 - i);
  return (sum % 11) % 10 === Number(value[8]);
}

// ----- IBAN -----

/** Lengths of the IBANs of some countries (SEPA); others are checked by pattern and mod 97 only. */
const IBAN_LENGTHS: Record<string, number> = {
  GR: 27,
  CY: 28,
  DE: 22,
  FR: 27,
  IT: 27,
  ES: 24,
  NL: 18,
  BE: 16,
  AT: 20,
  BG: 22,
  GB: 22,
  IE: 22,
  PT: 25,
  LU: 20,
  CH: 21,
};

/** An IBAN without spaces, upper case. */
export function normalizeIban(input: string): string {
  return input.replace(/\s/g, '').toUpperCase();
}

/** ISO 13616: country, 2 check digits, the account; moved and turned into digits it is 1 mod 97. */
export function isValidIban(input: string): boolean {
  const iban = normalizeIban(input);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const expected = IBAN_LENGTHS[iban.slice(0, 2)];
  if (expected !== undefined && iban.length !== expected) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of moved) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

// ----- the trader -----

/** Spec §3 trader status: 0 pending, 1 active, 9 cancelled. */
export const traderStatuses = [0, 1, 9] as const;
export type TraderStatus = (typeof traderStatuses)[number];

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));

const vatNumberField = z
  .string()
  .nullish()
  .transform((value) => (value ? normalizeVatNumber(value) : null))
  .refine((value) => value === null || isValidVatNumber(value), 'validation.vatnumber');

const emailField = z
  .union([z.email().max(200), z.literal('')])
  .nullish()
  .transform((value) => (value ? value : null));

const dateField = z
  .string()
  .nullish()
  .transform((value) => (value ? value : null))
  .refine((value) => value === null || isIsoDate(value), 'validation.date');

export const traderBankInputSchema = z.object({
  id: idSchema.nullable(),
  iban: z
    .string()
    .trim()
    .min(1)
    .transform(normalizeIban)
    .refine((value) => isValidIban(value), 'validation.iban'),
  bic: z
    .string()
    .trim()
    .toUpperCase()
    .nullish()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || BIC_PATTERN.test(value), 'validation.bic'),
  bankId: idSchema.nullable(),
});

const traderFields = {
  tradercode: optionalText(50),
  vatnumber: vatNumberField,
  /** A legal entity's name; for individuals it is derived, 'lastname firstname'. */
  fullname: optionalText(300),
  /** A legal entity's distinctive title (διακριτικός τίτλος). */
  title: optionalText(300),
  firstname: optionalText(100),
  lastname: optionalText(150),
  fathername: optionalText(100),
  mothername: optionalText(100),
  job: optionalText(200),
  phones: optionalText(100),
  mobile: optionalText(50),
  email: emailField,
  address: optionalText(200),
  city: optionalText(100),
  area: optionalText(100),
  zipcode: optionalText(10),
  doy: optionalText(100),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'validation.country')
    .nullish()
    .transform((value) => value ?? 'GR'),
  vat_category: z
    .number()
    .int()
    .positive()
    .nullish()
    .transform((value) => value ?? null),
  vat_status: z
    .number()
    .int()
    .positive()
    .nullish()
    .transform((value) => value ?? null),
  kepyo: z.boolean().default(false),
  birthday: dateField,
  idnumber: optionalText(30),
  individual: z.boolean().default(true),
  active: z.boolean().default(true),
  status: z
    .union([z.literal(0), z.literal(1), z.literal(9)], { error: 'validation.trader_status' })
    .default(1),
  traderbanks: z.array(traderBankInputSchema).max(50).default([]),
  customFields: customFieldValuesSchema.default({}),
};

/** fullname: individuals 'lastname firstname', legal entities the name typed. */
export function traderFullname(t: {
  individual: boolean;
  firstname: string | null;
  lastname: string | null;
  fullname: string | null;
}): string | null {
  if (!t.individual) return t.fullname;
  const name = [t.lastname, t.firstname].filter(Boolean).join(' ');
  return name || null;
}

/** POST /api/traders and PUT /api/traders/{id}. */
export const saveTraderSchema = z
  .object(traderFields)
  .superRefine((t, ctx) => {
    if (t.individual) {
      if (!t.lastname) ctx.addIssue({ code: 'custom', path: ['lastname'], message: 'validation.required' });
      if (!t.firstname) ctx.addIssue({ code: 'custom', path: ['firstname'], message: 'validation.required' });
    } else if (!t.fullname) {
      ctx.addIssue({ code: 'custom', path: ['fullname'], message: 'validation.required' });
    }
  })
  .transform((t) => ({ ...t, fullname: traderFullname(t) }));
export type SaveTraderRequest = z.input<typeof saveTraderSchema>;
export type SaveTrader = z.output<typeof saveTraderSchema>;

export const traderBankSchema = z.object({
  id: z.number().int(),
  iban: z.string(),
  bic: z.string().nullable(),
  bankId: z.number().int().nullable(),
  bankName: z.string().nullable(),
});

/** Another trader of the company with the same ΑΦΜ: a warning, not an error. */
export const traderDuplicateSchema = z.object({ id: z.number().int(), fullname: z.string().nullable() });
export type TraderDuplicate = z.infer<typeof traderDuplicateSchema>;

export const traderSchema = z
  .object({
    id: z.number().int(),
    companyId: z.number().int(),
    tradercode: z.string().nullable(),
    vatnumber: z.string().nullable(),
    fullname: z.string().nullable(),
    title: z.string().nullable(),
    firstname: z.string().nullable(),
    lastname: z.string().nullable(),
    fathername: z.string().nullable(),
    mothername: z.string().nullable(),
    job: z.string().nullable(),
    phones: z.string().nullable(),
    mobile: z.string().nullable(),
    email: z.string().nullable(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    area: z.string().nullable(),
    zipcode: z.string().nullable(),
    doy: z.string().nullable(),
    country: z.string(),
    vat_category: z.number().int().nullable(),
    vat_status: z.number().int().nullable(),
    kepyo: z.boolean(),
    birthday: z.string().nullable(),
    idnumber: z.string().nullable(),
    individual: z.boolean(),
    active: z.boolean(),
    status: z.number().int(),
    traderbanks: z.array(traderBankSchema),
    customFields: z.record(z.string(), customFieldValueSchema),
    /** Other traders of the company with the same ΑΦΜ. */
    duplicates: z.array(traderDuplicateSchema),
  })
  .extend(auditFieldsSchema.shape);
export type Trader = z.infer<typeof traderSchema>;

/** DELETE /api/traders. */
export const deleteTradersSchema = z.object({ ids: z.array(idSchema).min(1).max(10_000) });

export const mergeableTraderFields = Object.keys(traderFields).filter((key) => key !== 'traderbanks') as [
  Exclude<keyof typeof traderFields, 'traderbanks'>,
  ...Exclude<keyof typeof traderFields, 'traderbanks'>[],
];

/** POST /api/traders/merge: the survivor takes the chosen values and every reference of the merged. */
export const mergeTradersSchema = z
  .object({
    survivorId: idSchema,
    mergedId: idSchema,
    /** The values chosen for the survivor (any trader field but the banks); validated as a whole. */
    values: z.partialRecord(z.enum(mergeableTraderFields), z.unknown()).default({}),
  })
  .refine((m) => m.survivorId !== m.mergedId, { path: ['mergedId'], message: 'validation.merge_same' });
export type MergeTradersRequest = z.input<typeof mergeTradersSchema>;

/** GET /api/traders/lookup: the tax registry's (AADE RgWsPublic2) answer as trader fields. */
export const traderLookupSchema = z.object({
  vatnumber: z.string(),
  fullname: z.string().nullable(),
  title: z.string().nullable(),
  doy: z.string().nullable(),
  doy_descr: z.string().nullable(),
  address: z.string().nullable(),
  addressNumber: z.string().nullable(),
  zipcode: z.string().nullable(),
  area: z.string().nullable(),
  activity: z.string().nullable(),
  legalStatus: z.string().nullable(),
  /** deactivation_flag 1: an active ΑΦΜ; 2: deactivated. */
  active: z.boolean(),
});
export type TraderLookup = z.infer<typeof traderLookupSchema>;

export const traderLookupQuerySchema = z.object({
  vatnumber: z
    .string()
    .transform(normalizeVatNumber)
    .refine((value) => isValidVatNumber(value), 'validation.vatnumber'),
  companyid: idParamSchema.optional(),
});

// ----- the list -----

const textField = (id: string, width: number, extra: Partial<FieldDef> = {}): FieldDef => ({
  id,
  type: 'text',
  labelKey: `traders.field.${id}`,
  sortable: true,
  filters: ['contains', 'eq'],
  exportable: true,
  width,
  ...extra,
});
const booleanField = (id: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  id,
  type: 'boolean',
  labelKey: `traders.field.${id}`,
  sortable: true,
  filters: ['eq'],
  exportable: true,
  width: 100,
  ...extra,
});

/** The traders list (spec §2 /traders): searchable by name, ΑΦΜ or code. */
export const tradersCatalog = {
  entity: 'traders',
  titleKey: 'traders.title',
  defaultSort: { field: 'fullname', desc: false },
  fields: [
    {
      id: 'id',
      type: 'number',
      labelKey: 'traders.field.id',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      hiddenByDefault: true,
      width: 80,
    },
    textField('tradercode', 120, { searchable: true }),
    textField('vatnumber', 120, { searchable: true }),
    textField('fullname', 280, { searchable: true }),
    // The search finds them through fullname ('lastname firstname' of an individual).
    textField('lastname', 180, { hiddenByDefault: true }),
    textField('firstname', 160, { hiddenByDefault: true }),
    textField('fathername', 160, { hiddenByDefault: true }),
    textField('phones', 140),
    textField('mobile', 130),
    textField('email', 200),
    textField('address', 200, { hiddenByDefault: true }),
    textField('city', 140),
    textField('zipcode', 100, { hiddenByDefault: true }),
    textField('doy', 140, { hiddenByDefault: true }),
    booleanField('individual', { hiddenByDefault: true }),
    booleanField('kepyo', { hiddenByDefault: true }),
    booleanField('active'),
    {
      id: 'status',
      type: 'enum',
      labelKey: 'traders.field.status',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: traderStatuses.map((s) => ({ value: String(s), labelKey: `traders.status.${s}` })),
      width: 130,
    },
    {
      id: 'createdate',
      type: 'date',
      labelKey: 'traders.field.createdate',
      sortable: true,
      filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
      exportable: true,
      hiddenByDefault: true,
      width: 140,
    },
  ],
} as const satisfies EntityCatalog;

/** The fields of a traders list row (the catalog's columns; a test holds them equal). */
const traderListFields = [
  'id',
  'tradercode',
  'vatnumber',
  'fullname',
  'lastname',
  'firstname',
  'fathername',
  'phones',
  'mobile',
  'email',
  'address',
  'city',
  'zipcode',
  'doy',
  'individual',
  'kepyo',
  'active',
  'status',
  'createdate',
] as const;

/** The traders list's own fields, typed as the trader's, not declared a second time. */
const traderListItemFields = traderSchema.pick(
  Object.fromEntries(traderListFields.map((field) => [field, true])) as Record<
    (typeof traderListFields)[number],
    true
  >,
);
/** A row of the traders list; the company's custom fields ride along as `custom.<key>` cells. */
export const traderListItemSchema = traderListItemFields.catchall(customFieldValueSchema);
export type TraderListItem = z.infer<typeof traderListItemFields>;
