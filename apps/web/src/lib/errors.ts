import type { FieldError } from '@protocol/contracts';
import type { TFunction } from 'i18next';
import { isApiError } from './api.ts';

type Params = Record<string, string | number>;

/** The translated text of any error: the catalog key with its params, else the error's own message. */
export function errorMessage(t: TFunction, error: unknown): string {
  if (isApiError(error)) return t(error.key, { ...error.params, defaultValue: error.message });
  if (error instanceof Error && error.message) return error.message;
  return t('error.server');
}

/**
 * react-hook-form keeps one string per field error; we keep the catalog key and its params in it
 * (`key` or `key?{json}`) so the text is translated when shown, in the current language.
 */
export function encodeFieldMessage(key: string, params: Params = {}): string {
  return Object.keys(params).length > 0 ? `${key}?${JSON.stringify(params)}` : key;
}

export function fieldMessage(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  const at = message.indexOf('?');
  if (at < 0) return t(message, { defaultValue: message });
  const key = message.slice(0, at);
  let params: Params = {};
  try {
    params = JSON.parse(message.slice(at + 1)) as Params;
  } catch {
    params = {};
  }
  return t(key, { ...params, defaultValue: key });
}

/** Puts the server's field errors under their fields; returns those that match no field. */
export function applyFieldErrors(
  fieldErrors: FieldError[],
  fields: readonly string[],
  setError: (field: never, error: { type: string; message: string }) => void,
): FieldError[] {
  const unmatched: FieldError[] = [];
  for (const fieldError of fieldErrors) {
    if (fields.includes(fieldError.field)) {
      setError(fieldError.field as never, {
        type: 'server',
        message: encodeFieldMessage(fieldError.key, fieldError.params),
      });
    } else unmatched.push(fieldError);
  }
  return unmatched;
}
