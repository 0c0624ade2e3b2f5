import { type CustomFieldDefinition, type CustomFieldValues, isIsoDate } from '@protocol/contracts';
import { formatDate } from '../../lib/dates.ts';
import { isShownDate, wireDate } from '../form/dates.ts';

/**
 * Custom field values between the wire and a form: text inputs hold strings (dates DD/MM/YYYY,
 * choices the value id), switches booleans. The server checks the same rules again.
 */
export type CustomFieldFormValues = Record<string, string | boolean>;

/** The stored values of a record as form values, one per definition. */
export function customFieldsToForm(
  definitions: CustomFieldDefinition[],
  stored: CustomFieldValues | undefined,
): CustomFieldFormValues {
  const values: CustomFieldFormValues = {};
  for (const { key, type } of definitions) {
    const value = stored?.[key];
    if (type === 'boolean') values[key] = value === true || value === 'true';
    else if (type === 'date')
      values[key] = typeof value === 'string' && isIsoDate(value) ? formatDate(value) : '';
    else values[key] = value === null || value === undefined ? '' : String(value);
  }
  return values;
}

/** Form values as the request body sends them: by type, blanks as null. */
export function customFieldsToBody(
  definitions: CustomFieldDefinition[],
  values: CustomFieldFormValues | undefined,
): CustomFieldValues {
  const body: CustomFieldValues = {};
  for (const { key, type } of definitions) {
    const value = values?.[key];
    if (type === 'boolean') body[key] = value === true;
    else if (typeof value !== 'string' || !value.trim()) body[key] = null;
    else if (type === 'number' || type === 'select') body[key] = Number(value);
    else if (type === 'date') body[key] = wireDate(value);
    else body[key] = value.trim();
  }
  return body;
}

/**
 * The form's checks of custom fields (required, number, date as shown), reported through `issue`
 * with the field's key: call it from the form schema's superRefine, under the form's own path.
 */
export function checkCustomFieldForm(
  definitions: CustomFieldDefinition[],
  values: Record<string, unknown> | undefined,
  issue: (key: string, message: string) => void,
): void {
  for (const { key, type, required } of definitions) {
    if (type === 'boolean') continue;
    const value = values?.[key];
    const text = typeof value === 'string' ? value.trim() : '';
    if (!text) {
      if (required) issue(key, 'validation.required');
      continue;
    }
    if (type === 'number' && !Number.isFinite(Number(text))) issue(key, 'validation.invalid');
    if (type === 'date' && !isShownDate(text)) issue(key, 'validation.date_shown');
  }
}
