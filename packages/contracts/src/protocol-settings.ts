import { z } from 'zod';
import { idSchema } from './db.ts';
import type { EntityCatalog } from './list.ts';
import { booleanField, numberField, requiredText, rowId, textField } from './settings-fields.ts';

/**
 * The settings tables of the protocol: document types with their sequence settings
 * (spec §3 'Document type and sequence settings'), subject categories and case types. Company
 * tables, saved as row tables (the whole table in one POST, new rows with a null id), listed on the
 * list engine (/search, exports). Labels: the lists catalog, `settings.documentTypes.*` etc.
 */

const text = requiredText;
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));

// ----- Document types and their sequence settings -----

/**
 * What the web does with the registration receipt after registering a document of the type:
 * 0 nothing, 1 print it automatically, 2 ask whether to print, 3 show it.
 */
export const printTypes = [0, 1, 2, 3] as const;
/** Copies of the receipt printed at once. */
export const MIN_COPIES = 1;
export const MAX_COPIES = 9;
export const MAX_SEQNR = 9999;

export const documentTypeSchema = z.object({
  id: z.number().int(),
  /** The type's code; documents default to the type with code 3 (DEFAULT_DOCUMENT_TYPE_SEQNR). */
  seqnr: z.number().int(),
  descr: z.string(),
  /** Registers a new document of this type in the company's single active book of the right type. */
  autonr: z.boolean(),
  printype: z.number().int(),
  copies: z.number().int(),
  /** The sender's date may not be in the future nor after the registration. */
  checkdates: z.boolean(),
  /** The type a reply (convert to outgoing) gets. */
  relseqid: z.number().int().nullable(),
  relseqDescr: z.string().nullable(),
  active: z.boolean(),
});
export type ProtocolDocumentType = z.infer<typeof documentTypeSchema>;

export const documentTypeRowSchema = z.object({
  id: rowId,
  seqnr: z.number().int().min(1).max(MAX_SEQNR),
  descr: text(200),
  autonr: z.boolean(),
  printype: z.number().int().min(0).max(3),
  copies: z.number().int().min(MIN_COPIES).max(MAX_COPIES),
  checkdates: z.boolean(),
  relseqid: idSchema.nullable(),
  active: z.boolean(),
});
export type DocumentTypeRow = z.infer<typeof documentTypeRowSchema>;

export const documentTypesCatalog = {
  entity: 'documentTypes',
  titleKey: 'settings.documentTypes.title',
  defaultSort: { field: 'seqnr', desc: false },
  fields: [
    numberField('seqnr', 'settings.documentTypes.seqnr', 90),
    textField('descr', 'settings.documentTypes.descr', 260),
    booleanField('autonr', 'settings.documentTypes.autonr', 130),
    {
      id: 'printype',
      type: 'enum',
      labelKey: 'settings.documentTypes.printype',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: printTypes.map((p) => ({
        value: String(p),
        labelKey: `settings.documentTypes.printype_${p}`,
      })),
      width: 170,
    },
    numberField('copies', 'settings.documentTypes.copies', 90),
    booleanField('checkdates', 'settings.documentTypes.checkdates', 130),
    textField('relseqDescr', 'settings.documentTypes.relseqid', 200, { searchable: false }),
    booleanField('active', 'settings.documentTypes.active', 110),
  ],
} as const satisfies EntityCatalog;

// ----- Subject categories -----

export const subjectCategorySchema = z.object({
  id: z.number().int(),
  code: z.string().nullable(),
  descr: z.string(),
  active: z.boolean(),
});
export type SubjectCategory = z.infer<typeof subjectCategorySchema>;

export const subjectCategoryRowSchema = z.object({
  id: rowId,
  code: optionalText(30),
  descr: text(200),
  active: z.boolean(),
});
export type SubjectCategoryRow = z.infer<typeof subjectCategoryRowSchema>;

export const subjectCategoriesCatalog = {
  entity: 'subjectCategories',
  titleKey: 'settings.subjectCategories.title',
  defaultSort: { field: 'descr', desc: false },
  fields: [
    textField('code', 'settings.subjectCategories.code', 120),
    textField('descr', 'settings.subjectCategories.descr', 300),
    booleanField('active', 'settings.subjectCategories.active', 110),
  ],
} as const satisfies EntityCatalog;

// ----- Case types -----

export const caseTypeSchema = z.object({
  id: z.number().int(),
  descr: z.string(),
  active: z.boolean(),
});
export type CaseType = z.infer<typeof caseTypeSchema>;

export const caseTypeRowSchema = z.object({
  id: rowId,
  descr: text(200),
  active: z.boolean(),
});
export type CaseTypeRow = z.infer<typeof caseTypeRowSchema>;

export const caseTypesCatalog = {
  entity: 'caseTypes',
  titleKey: 'settings.caseTypes.title',
  defaultSort: { field: 'descr', desc: false },
  fields: [
    textField('descr', 'settings.caseTypes.descr', 320),
    booleanField('active', 'settings.caseTypes.active', 110),
  ],
} as const satisfies EntityCatalog;
