import { z } from 'zod';
import type { Language } from './installation.ts';
import type { EntityCatalog, EnumOption, FieldDef } from './list.ts';
import { customFieldTypes } from './settings-tables.ts';

/**
 * Custom fields (πρόσθετα πεδία) of any entity: a company defines them in the settings (per entity),
 * a record keeps their values in one jsonb object keyed by the field's key, and a list shows each as
 * a column `custom.<key>`.
 */

/** A custom field's value: by the field's type (text, number, date, boolean, select = value id). */
export const customFieldValueSchema = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);
export type CustomFieldValue = z.infer<typeof customFieldValueSchema>;

/** The values of a record's custom fields as sent; the server checks them against the definitions. */
export const customFieldValuesSchema = z.record(z.string().max(50), customFieldValueSchema);
export type CustomFieldValues = z.infer<typeof customFieldValuesSchema>;

/** One choice of a select field: a value of the field's custom table. */
export const customFieldChoiceSchema = z.object({ id: z.number().int(), description: z.string() });

/**
 * A custom field as a form or a list needs it (GET /api/<entity>/custom_fields): in order, select
 * fields with their choices, so reading them needs only the entity's own read permission.
 */
export const customFieldDefinitionSchema = z.object({
  key: z.string(),
  labelEl: z.string(),
  labelEn: z.string(),
  type: z.enum(customFieldTypes),
  required: z.boolean(),
  choices: z.array(customFieldChoiceSchema),
});
export type CustomFieldDefinition = z.infer<typeof customFieldDefinitionSchema>;

/** The label of a custom field in a language; the Greek one when the English is empty. */
export function customFieldLabel(
  definition: Pick<CustomFieldDefinition, 'labelEl' | 'labelEn'>,
  language: string,
) {
  return language === 'en' ? definition.labelEn || definition.labelEl : definition.labelEl;
}

// ----- list columns -----

/** A list's column of a custom field is `custom.<key>`; the row carries its value under that id. */
export const customColumnId = (key: string) => `custom.${key}`;

/**
 * The list field of a custom field: text (contains, eq), number and date (comparisons), boolean
 * (eq), select an enum of the table's value ids shown by their descriptions. Hidden until chosen.
 */
export function customFieldColumn(definition: CustomFieldDefinition): FieldDef {
  const base = {
    id: customColumnId(definition.key),
    labelKey: 'list.customField',
    label: { el: definition.labelEl, en: definition.labelEn || definition.labelEl },
    sortable: true,
    exportable: true,
    hiddenByDefault: true,
    width: 160,
  };
  switch (definition.type) {
    case 'number':
      return { ...base, type: 'number', filters: ['eq', 'gt', 'gte', 'lt', 'lte'], width: 120 };
    case 'date':
      return { ...base, type: 'date', filters: ['eq', 'gt', 'gte', 'lt', 'lte'], width: 130 };
    case 'boolean':
      return { ...base, type: 'boolean', filters: ['eq'], width: 110 };
    case 'select':
      return {
        ...base,
        type: 'enum',
        filters: ['eq'],
        options: definition.choices.map((choice) => ({
          value: String(choice.id),
          labelKey: 'list.customField',
          label: choice.description,
        })),
      };
    default:
      return { ...base, type: 'text', filters: ['contains', 'eq'] };
  }
}

/** An entity's catalog with the company's custom fields appended as columns. */
export function withCustomFields(
  catalog: EntityCatalog,
  definitions: CustomFieldDefinition[],
): EntityCatalog {
  if (definitions.length === 0) return catalog;
  return { ...catalog, fields: [...catalog.fields, ...definitions.map(customFieldColumn)] };
}

/** A field's header in a language: its own label (custom fields) or its catalog key translated. */
export function fieldLabel(field: FieldDef, language: Language, translate: (key: string) => string): string {
  return field.label?.[language] ?? translate(field.labelKey);
}

/** An enum option's text: its own label (custom choices) or its catalog key translated. */
export function optionLabel(option: EnumOption, translate: (key: string) => string): string {
  return option.label ?? translate(option.labelKey);
}

/** The label of a value named under the field's `valueLabelPrefix`, or the value itself without one. */
export function namedValueLabel(field: FieldDef, value: string, translate: (key: string) => string): string {
  if (!field.valueLabelPrefix) return value;
  const key = `${field.valueLabelPrefix}.${value}`;
  const label = translate(key);
  return label === key ? value : label;
}
