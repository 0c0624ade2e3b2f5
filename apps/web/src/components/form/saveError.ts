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

export interface SaveErrorOptions<V extends FieldValues> {
  form: UseFormReturn<V>;
  t: TFunction;
  notify: (message: string, severity: 'error') => void;
  /** Where a server field error belongs in the form; null when nowhere. */
  toForm?: (error: FieldError) => FieldError | null;
  /** Server error keys that name one field without a field error (e.g. a user name taken). */
  keyFields?: Record<string, string>;
}

/**
 * A refused save, as the server answers it (`{status, key, params, message, fieldErrors}`): each field
 * error under its field; the message as a snackbar when no field error was given or one has no field.
 */
export function showSaveError<V extends FieldValues>(
  failure: unknown,
  { form, t, notify, toForm = (error) => error, keyFields = {} }: SaveErrorOptions<V>,
): void {
  if (!isApiError(failure)) {
    notify(errorMessage(t, failure), 'error');
    return;
  }
  const keyField = keyFields[failure.key];
  if (keyField) {
    form.setError(keyField as never, { type: 'server', message: failure.key }, { shouldFocus: true });
    return;
  }
  const mapped = failure.fieldErrors.map(toForm);
  const placed = mapped.filter((error) => error !== null);
  const unmatched = applyFieldErrors(placed, fieldPaths(form.getValues()), form.setError);
  const shown = failure.fieldErrors.length > 0 && placed.length === mapped.length && unmatched.length === 0;
  if (!shown) notify(errorMessage(t, failure), 'error');
}
