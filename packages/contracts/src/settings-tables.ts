import { z } from 'zod';
import { INT4_MAX, idSchema } from './db.ts';
import { CUSTOM_EXPORT_SETTING_PREFIX, customExportOf } from './exports.ts';
import type { EntityCatalog } from './list.ts';
import { booleanField, numberField, requiredText, rowId, textField } from './settings-fields.ts';

/**
 * The settings tables: reference data edited as row tables. Global
 * tables (banks, VAT) serve every company; the others belong to one company. Each table has a row
 * schema (the row-table save, new rows with a null id), an item schema (what GET answers) and an
 * EntityCatalog (its /search list and exports).
 */

const text = requiredText;
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .transform((value) => (value ? value : null));

// ----- Banks (global) -----

/** ISO 9362 BIC: bank code (4 letters), country (2 letters), location (2), optional branch (3). */
export const BIC_PATTERN = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

export const bankSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  bic: z.string(),
  active: z.boolean(),
});
export type Bank = z.infer<typeof bankSchema>;

export const bankRowSchema = z.object({
  id: rowId,
  name: text(200),
  bic: z.string().trim().toUpperCase().regex(BIC_PATTERN, 'validation.bic'),
  active: z.boolean(),
});
export type BankRow = z.infer<typeof bankRowSchema>;

export const banksCatalog = {
  entity: 'banks',
  titleKey: 'settings.banks.title',
  defaultSort: { field: 'name', desc: false },
  fields: [
    textField('name', 'settings.banks.name', 280),
    textField('bic', 'settings.banks.bic', 160),
    booleanField('active', 'settings.banks.active'),
  ],
} as const satisfies EntityCatalog;

// ----- VAT percentages (global) -----

/** myDATA VAT categories (SimpleTypes VatType, 1–10): 1 24%, 2 13%, 3 6%, 4 17%, 5 9%, 6 4%, 7 0%, 8 without VAT, 9 3%, 10 4%. */
export const MYDATA_VAT_CATEGORY_MIN = 1;
export const MYDATA_VAT_CATEGORY_MAX = 10;
/** A percentage 0–100 with at most 2 decimals, as a decimal string. */
export const PERCENTAGE_PATTERN = /^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/;

export const vatPercentageSchema = z.object({
  id: z.number().int(),
  code: z.number().int(),
  description: z.string(),
  percentage: z.string(),
  active: z.boolean(),
});
export type VatPercentage = z.infer<typeof vatPercentageSchema>;

export const vatPercentageRowSchema = z.object({
  id: rowId,
  code: z
    .number()
    .int('validation.vat_category')
    .min(MYDATA_VAT_CATEGORY_MIN, 'validation.vat_category')
    .max(MYDATA_VAT_CATEGORY_MAX, 'validation.vat_category'),
  description: text(200),
  percentage: z.string().trim().regex(PERCENTAGE_PATTERN, 'validation.percentage'),
  active: z.boolean(),
});
export type VatPercentageRow = z.infer<typeof vatPercentageRowSchema>;

export const vatPercentagesCatalog = {
  entity: 'vatPercentages',
  titleKey: 'settings.vatPercentages.title',
  defaultSort: { field: 'code', desc: false },
  fields: [
    numberField('code', 'settings.vatPercentages.code', 130),
    textField('description', 'settings.vatPercentages.description', 280),
    numberField('percentage', 'settings.vatPercentages.percentage', 120, {
      type: 'money',
      amount: 'percent',
    }),
    booleanField('active', 'settings.vatPercentages.active'),
  ],
} as const satisfies EntityCatalog;

// ----- VAT categories and VAT status (global): code + description -----

export const codedEntrySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  description: z.string(),
  active: z.boolean(),
});
export type CodedEntry = z.infer<typeof codedEntrySchema>;

export const codedEntryRowSchema = z.object({
  id: rowId,
  code: text(20),
  description: text(200),
  active: z.boolean(),
});
export type CodedEntryRow = z.infer<typeof codedEntryRowSchema>;

const codedCatalog = (entity: string, prefix: string) =>
  ({
    entity,
    titleKey: `${prefix}.title`,
    defaultSort: { field: 'code', desc: false },
    fields: [
      textField('code', `${prefix}.code`, 140),
      textField('description', `${prefix}.description`, 300),
      booleanField('active', `${prefix}.active`),
    ],
  }) satisfies EntityCatalog;

/** The VAT regime of a trader (κανονικό, μειωμένο, απαλλασσόμενο, ενδοκοινοτικό, τρίτες χώρες). */
export const vatCategoriesCatalog = codedCatalog('vatCategories', 'settings.vatCategories');
/** The VAT status of a trader (υπόχρεος, μη υπόχρεος, απαλλασσόμενος). */
export const vatStatusesCatalog = codedCatalog('vatStatuses', 'settings.vatStatuses');

// ----- Departments (company) -----

export const departmentSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  description: z.string(),
  parentId: z.number().int().nullable(),
  parentDescription: z.string().nullable(),
  active: z.boolean(),
});
export type Department = z.infer<typeof departmentSchema>;

export const departmentRowSchema = z.object({
  id: rowId,
  code: text(30),
  description: text(200),
  parentId: idSchema.nullable(),
  active: z.boolean(),
});
export type DepartmentRow = z.infer<typeof departmentRowSchema>;

export const departmentsCatalog = {
  entity: 'departments',
  titleKey: 'settings.departments.title',
  defaultSort: { field: 'code', desc: false },
  fields: [
    textField('code', 'settings.departments.code', 130),
    textField('description', 'settings.departments.description', 280),
    textField('parentDescription', 'settings.departments.parent', 240),
    booleanField('active', 'settings.departments.active'),
  ],
} as const satisfies EntityCatalog;

// ----- Addresses (company) -----

export const POSTAL_CODE_PATTERN = /^\d{5}$/;

export const addressSchema = z.object({
  id: z.number().int(),
  street: z.string(),
  number: z.string().nullable(),
  area: z.string().nullable(),
  postalCode: z.string(),
  municipality: z.string().nullable(),
});
export type Address = z.infer<typeof addressSchema>;

export const addressRowSchema = z.object({
  id: rowId,
  street: text(200),
  number: optionalText(20),
  area: optionalText(100),
  postalCode: z.string().trim().regex(POSTAL_CODE_PATTERN, 'validation.postal_code'),
  municipality: optionalText(100),
});
export type AddressRow = z.infer<typeof addressRowSchema>;

export const addressesCatalog = {
  entity: 'addresses',
  titleKey: 'settings.addresses.title',
  defaultSort: { field: 'street', desc: false },
  fields: [
    textField('street', 'settings.addresses.street', 240),
    textField('number', 'settings.addresses.number', 100),
    textField('area', 'settings.addresses.area', 200),
    textField('postalCode', 'settings.addresses.postalCode', 130),
    textField('municipality', 'settings.addresses.municipality', 200),
  ],
} as const satisfies EntityCatalog;

// ----- Custom tables and their values (company) -----

export const customTableSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  valueCount: z.number().int(),
});
export type CustomTable = z.infer<typeof customTableSchema>;

export const customTableRowSchema = z.object({ id: rowId, name: text(100) });
export type CustomTableRow = z.infer<typeof customTableRowSchema>;

export const customTablesCatalog = {
  entity: 'customTables',
  titleKey: 'settings.customTables.title',
  defaultSort: { field: 'name', desc: false },
  fields: [
    textField('name', 'settings.customTables.name', 280),
    numberField('valueCount', 'settings.customTables.valueCount', 130),
  ],
} as const satisfies EntityCatalog;

export const customTableValueSchema = z.object({
  id: z.number().int(),
  customTableId: z.number().int(),
  description: z.string(),
  order: z.number().int(),
});
export type CustomTableValue = z.infer<typeof customTableValueSchema>;

export const customTableValueRowSchema = z.object({
  id: rowId,
  description: text(200),
  order: z.number().int().min(0).max(100_000),
});
export type CustomTableValueRow = z.infer<typeof customTableValueRowSchema>;

export const customTableValuesCatalog = {
  entity: 'customTableValues',
  titleKey: 'settings.customTableValues.title',
  defaultSort: { field: 'order', desc: false },
  fields: [
    numberField('customTableId', 'settings.customTableValues.customTableId', 100, { hiddenByDefault: true }),
    textField('customTableName', 'settings.customTableValues.customTable', 220),
    textField('description', 'settings.customTableValues.description', 280),
    numberField('order', 'settings.customTableValues.order', 100),
  ],
} as const satisfies EntityCatalog;

// ----- Custom fields (company) -----

export const customFieldEntities = ['traders', 'consumers'] as const;
export type CustomFieldEntity = (typeof customFieldEntities)[number];
export const customFieldTypes = ['text', 'number', 'date', 'boolean', 'select'] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];
export const CUSTOM_FIELD_KEY_PATTERN = /^[a-z][a-z0-9_]*$/;

export const customFieldSchema = z.object({
  id: z.number().int(),
  entity: z.enum(customFieldEntities),
  key: z.string(),
  labelEl: z.string(),
  labelEn: z.string(),
  type: z.enum(customFieldTypes),
  customTableId: z.number().int().nullable(),
  customTableName: z.string().nullable(),
  required: z.boolean(),
  order: z.number().int(),
});
export type CustomField = z.infer<typeof customFieldSchema>;

export const customFieldRowSchema = z
  .object({
    id: rowId,
    entity: z.enum(customFieldEntities),
    key: z.string().trim().min(1).max(50).regex(CUSTOM_FIELD_KEY_PATTERN, 'validation.custom_field_key'),
    labelEl: text(100),
    labelEn: text(100),
    type: z.enum(customFieldTypes),
    customTableId: idSchema.nullable(),
    required: z.boolean(),
    order: z.number().int().min(0).max(100_000),
  })
  .superRefine((row, ctx) => {
    if (row.type === 'select' && row.customTableId === null) {
      ctx.addIssue({ code: 'custom', path: ['customTableId'], message: 'validation.custom_table_required' });
    }
  })
  .transform((row) => (row.type === 'select' ? row : { ...row, customTableId: null }));
export type CustomFieldRow = z.infer<typeof customFieldRowSchema>;

export const customFieldsCatalog = {
  entity: 'customFields',
  titleKey: 'settings.customFields.title',
  defaultSort: { field: 'order', desc: false },
  fields: [
    {
      id: 'entity',
      type: 'enum',
      labelKey: 'settings.customFields.entity',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: customFieldEntities.map((value) => ({
        value,
        labelKey: `settings.customFields.entity_${value}`,
      })),
      width: 150,
    },
    textField('key', 'settings.customFields.key', 160),
    textField('labelEl', 'settings.customFields.labelEl', 200),
    textField('labelEn', 'settings.customFields.labelEn', 200),
    {
      id: 'type',
      type: 'enum',
      labelKey: 'settings.customFields.type',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: customFieldTypes.map((value) => ({ value, labelKey: `settings.customFields.type_${value}` })),
      width: 140,
    },
    textField('customTableName', 'settings.customFields.customTable', 200),
    booleanField('required', 'settings.customFields.required'),
    numberField('order', 'settings.customFields.order', 100),
  ],
} as const satisfies EntityCatalog;

// ----- Periodicity rows (company; spec §3 'Periodicity row', §5, §7) -----

/** Spec §9: periodicity in months; periods per year = 12 / months. */
export const periodicityMonths = [1, 2, 3, 4, 6, 12] as const;
export const PERIODICITY_START_YEAR_MIN = 1900;
export const PERIODICITY_START_YEAR_MAX = 2999;
export const periodsPerYear = (months: number) => 12 / months;

export const periodicitySchema = z.object({
  id: z.number().int(),
  periodicityType: z.object({ id: z.number().int() }),
  periods: z.number().int(),
  startyear: z.number().int(),
  startperiod: z.number().int(),
});
export type Periodicity = z.infer<typeof periodicitySchema>;

/** A periodicity row of the save: every rule gives a field error with its own catalog key and params. */
export const periodicityRowSchema = z
  .object({
    id: rowId,
    // The type's id is its months (1, 2, 3, 4, 6, 12), which the refinement names in its message:
    // only a number no integer holds is refused here.
    periodicityType: z.object({ id: z.number().int().max(INT4_MAX) }),
    periods: z.number().int(),
    startyear: z.number().int(),
    startperiod: z.number().int(),
  })
  .superRefine((row, ctx) => {
    const months = row.periodicityType.id;
    const validType = (periodicityMonths as readonly number[]).includes(months);
    if (!validType) {
      ctx.addIssue({
        code: 'custom',
        path: ['periodicityType', 'id'],
        message: 'validation.periodicity_type',
        params: { values: periodicityMonths.join(', ') },
      });
    } else if (row.periods !== periodsPerYear(months)) {
      ctx.addIssue({
        code: 'custom',
        path: ['periods'],
        message: 'validation.periodicity_periods',
        params: { months, periods: periodsPerYear(months) },
      });
    }
    if (row.startyear < PERIODICITY_START_YEAR_MIN || row.startyear > PERIODICITY_START_YEAR_MAX) {
      ctx.addIssue({
        code: 'custom',
        path: ['startyear'],
        message: 'validation.periodicity_startyear',
        params: { min: PERIODICITY_START_YEAR_MIN, max: PERIODICITY_START_YEAR_MAX },
      });
    }
    const max = validType ? periodsPerYear(months) : row.periods;
    if (row.startperiod < 1 || row.startperiod > max) {
      ctx.addIssue({
        code: 'custom',
        path: ['startperiod'],
        message: 'validation.periodicity_startperiod',
        params: { max },
      });
    }
  });
export type PeriodicityRow = z.infer<typeof periodicityRowSchema>;

export const periodicityListItemSchema = z.object({
  id: z.number().int(),
  periodicityType: z.number().int(),
  periods: z.number().int(),
  startyear: z.number().int(),
  startperiod: z.number().int(),
});
export type PeriodicityListItem = z.infer<typeof periodicityListItemSchema>;

export const periodicityCatalog = {
  entity: 'periodicity',
  titleKey: 'settings.periodicity.title',
  defaultSort: { field: 'startyear', desc: true },
  fields: [
    {
      id: 'periodicityType',
      type: 'enum',
      labelKey: 'settings.periodicity.periodicityType',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: periodicityMonths.map((value) => ({
        value: String(value),
        labelKey: `settings.periodicity.months_${value}`,
      })),
      width: 170,
    },
    numberField('periods', 'settings.periodicity.periods', 120),
    numberField('startyear', 'settings.periodicity.startyear', 120),
    numberField('startperiod', 'settings.periodicity.startperiod', 130),
  ],
} as const satisfies EntityCatalog;

// ----- General settings (company; spec §3 'General settings') -----

export type GeneralSettingType = 'integer' | 'boolean' | 'email' | 'text';

/** The settings the product reads, with their types: their values are checked on save. */
export const knownGeneralSettings: Record<string, { type: GeneralSettingType; min?: number; max?: number }> =
  {
    'gen.deya_aa': { type: 'integer', min: 1, max: 99_999 },
    'gen.invoice_due_days': { type: 'integer', min: 0, max: 365 },
    'gen.mydata_enabled': { type: 'boolean' },
    'gen.contact_email': { type: 'email' },
    'gen.company_website': { type: 'text' },
    'doc.max_upload_mb': { type: 'integer', min: 1, max: 2048 },
    'doc.allowed_types': { type: 'text' },
    'readouts.abnormal_multiple': { type: 'integer', min: 2, max: 100 },
    'readouts.max_consumption': { type: 'integer', min: 1, max: 1_000_000 },
  };
export const GENERAL_SETTING_NAME_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Why a value is wrong for a known setting, as a catalog key with params; undefined when fine. */
export function generalSettingValueError(
  parName: string,
  parValue: string | null,
): { key: string; params: Record<string, string | number> } | undefined {
  if (parName.startsWith(CUSTOM_EXPORT_SETTING_PREFIX)) {
    return customExportOf(parValue) ? undefined : { key: 'validation.setting_export', params: {} };
  }
  const known = Object.hasOwn(knownGeneralSettings, parName) ? knownGeneralSettings[parName] : undefined;
  if (!known || parValue === null || parValue === '') return undefined;
  switch (known.type) {
    case 'integer': {
      const min = known.min ?? 0;
      const max = known.max ?? 2_147_483_647;
      const value = Number(parValue);
      if (!/^-?\d+$/.test(parValue) || value < min || value > max)
        return { key: 'validation.setting_integer', params: { min, max } };
      return undefined;
    }
    case 'boolean':
      return parValue === 'true' || parValue === 'false'
        ? undefined
        : { key: 'validation.setting_boolean', params: {} };
    case 'email':
      return EMAIL_PATTERN.test(parValue) ? undefined : { key: 'validation.email', params: {} };
    default:
      return undefined;
  }
}

export const generalSettingRowSchema = z
  .object({
    id: rowId,
    parName: z.string().trim().min(1).max(100).regex(GENERAL_SETTING_NAME_PATTERN, 'validation.setting_name'),
    parValue: z
      .string()
      .trim()
      .max(2000)
      .nullable()
      .transform((value) => (value ? value : null)),
  })
  .superRefine((row, ctx) => {
    const error = generalSettingValueError(row.parName, row.parValue);
    if (error) ctx.addIssue({ code: 'custom', path: ['parValue'], message: error.key, params: error.params });
  });
export type GeneralSettingRow = z.infer<typeof generalSettingRowSchema>;

export const generalSettingListItemSchema = z.object({
  id: z.number().int(),
  parName: z.string(),
  parValue: z.string().nullable(),
});

export const generalSettingsCatalog = {
  entity: 'generalSettings',
  titleKey: 'settings.generalSettings.title',
  defaultSort: { field: 'parName', desc: false },
  fields: [
    textField('parName', 'settings.generalSettings.parName', 260),
    textField('parValue', 'settings.generalSettings.parValue', 320),
  ],
} as const satisfies EntityCatalog;
