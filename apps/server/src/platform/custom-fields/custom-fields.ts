import {
  type CustomFieldDefinition,
  type CustomFieldValue,
  type CustomFieldValues,
  type FieldError,
  isIsoDate,
} from '@protocol/contracts';
import { jsonb } from 'drizzle-orm/pg-core';

/**
 * Custom fields of any entity: the check of a record's values against the company's definitions
 * (edited in the settings, which load them: `loadCustomFields` in the settings module's api.ts) and
 * the jsonb column that stores them on the entity's own table.
 */

/** The column that keeps a record's custom field values, keyed by the field's key. */
export const customFieldsColumn = () =>
  jsonb('custom_fields').$type<CustomFieldValues>().notNull().default({});

/** A value as stored: trimmed text, blank text as null. */
const normalised = (value: CustomFieldValue | undefined): CustomFieldValue => {
  if (typeof value !== 'string') return value ?? null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
};

/** The catalog key of the error of a value that does not suit its field's type, or null when it does. */
function typeError(definition: CustomFieldDefinition, value: CustomFieldValue): string | null {
  switch (definition.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'validation.number';
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? null : 'validation.date';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'validation.boolean';
    case 'select':
      return typeof value === 'number' && definition.choices.some((choice) => choice.id === value)
        ? null
        : 'validation.invalid';
    default:
      return typeof value === 'string' ? null : 'validation.invalid';
  }
}

/**
 * A record's custom field values checked against the definitions: unknown keys, required fields,
 * types, select values of the field's own table. Errors name `<path>.<key>`; the values returned are
 * what to store (trimmed; blank ones left out).
 */
export function checkCustomFieldValues(
  definitions: CustomFieldDefinition[],
  input: CustomFieldValues,
  path = 'customFields',
): { values: CustomFieldValues; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const invalid = (key: string, error: string) =>
    errors.push({ field: `${path}.${key}`, key: error, params: {} });
  for (const key of Object.keys(input)) {
    if (!definitions.some((d) => d.key === key)) invalid(key, 'validation.invalid');
  }
  const values: CustomFieldValues = {};
  for (const definition of definitions) {
    const value = normalised(input[definition.key]);
    if (value === null) {
      if (definition.required) invalid(definition.key, 'validation.required');
      continue;
    }
    const error = typeError(definition, value);
    if (error) invalid(definition.key, error);
    values[definition.key] = value;
  }
  return { values, errors };
}
