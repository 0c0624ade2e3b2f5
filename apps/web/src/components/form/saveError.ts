import type { FieldError } from '@protocol/contracts';
import type { TFunction } from 'i18next';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { isApiError } from '../../lib/api.ts';
import { applyFieldErrors, errorMessage } from '../../lib/errors.ts';

/** Every path of a form's values that holds a value, and each top-level field (e.g. a list of traders). */
export function fieldPaths(values: Record<string, unknown>): string[] {
  const paths: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) walk(child, `${path}.${key}`);
    } else paths.push(path);
  };
  for (const [key, value] of Object.entries(values)) {
    paths.push(key);
    if (value !== null && typeof value === 'object') {
      for (const [child, nested] of Object.entries(value)) walk(nested, `${key}.${child}`);
    }
  }
  return paths;
}

/**
 * A server error key that names one field without a field error (e.g. a user name taken): the field,
 * or the field and the catalog key of what it shows there when the page words it for its records.
 */
export type KeyField = string | { field: string; message: string };

export interface SaveErrorPlacement {
  /** Where a server field error belongs in the form; null when nowhere. */
  toForm?: (error: FieldError) => FieldError | null;
  keyFields?: Record<string, KeyField>;
}

/**
 * Puts a refused save (`{status, key, params, message, fieldErrors}` from the server) under the form's
 * fields. False when its message must be shown too: not the server's answer, no field error given,
 * or one that has no field.
 */
export function placeSaveError<V extends FieldValues>(
  failure: unknown,
  form: UseFormReturn<V>,
  { toForm = (error) => error, keyFields = {} }: SaveErrorPlacement = {},
): boolean {
  if (!isApiError(failure)) return false;
  const keyField = keyFields[failure.key];
  if (keyField) {
    const { field, message } =
      typeof keyField === 'string' ? { field: keyField, message: failure.key } : keyField;
    form.setError(field as never, { type: 'server', message }, { shouldFocus: true });
    return true;
  }
  const mapped = failure.fieldErrors.map(toForm);
  const placed = mapped.filter((error) => error !== null);
  const unmatched = applyFieldErrors(placed, fieldPaths(form.getValues()), form.setError);
  return failure.fieldErrors.length > 0 && placed.length === mapped.length && unmatched.length === 0;
}

export interface SaveErrorOptions<V extends FieldValues> extends SaveErrorPlacement {
  form: UseFormReturn<V>;
  t: TFunction;
  notify: (message: string, severity: 'error') => void;
}

/** A refused save: its errors under their fields, its message as a snackbar when they are not enough. */
export function showSaveError<V extends FieldValues>(
  failure: unknown,
  { form, t, notify, ...placement }: SaveErrorOptions<V>,
): void {
  if (!placeSaveError(failure, form, placement)) notify(errorMessage(t, failure), 'error');
}
