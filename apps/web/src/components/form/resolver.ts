import { type FieldError, issueToFieldError } from '@protocol/contracts';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { encodeFieldMessage } from '../../lib/errors.ts';

/** Errors nested by path ('traderbanks.0.iban' → traderbanks[0].iban), the shape react-hook-form reads. */
export function nest(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, error] of Object.entries(flat)) {
    const parts = path.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) {
      node[part] = (node[part] as Record<string, unknown> | undefined) ?? {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts[parts.length - 1] as string] = error;
  }
  return out;
}

/** The first error of each field, as react-hook-form keeps them (the message is the catalog key). */
function toFieldErrors<T extends FieldValues>(errors: FieldError[]): FieldErrors<T> {
  const flat: Record<string, { type: string; message: string }> = {};
  for (const error of errors) {
    flat[error.field] ??= { type: 'validation', message: encodeFieldMessage(error.key, error.params) };
  }
  return nest(flat) as FieldErrors<T>;
}

/** A resolver that checks the form's values with a contracts schema as they are. */
export function contractResolver<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
): Resolver<z.input<S>, unknown, z.output<S>> {
  return async (values) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors = toFieldErrors(result.error.issues.map(issueToFieldError));
    return { values: {}, errors: errors as FieldErrors<z.input<S>> };
  };
}

/**
 * How a form meets its contract: the request body it sends, checked with the contract's own save
 * schema (the one the server checks), so both sides apply the same rules.
 */
export interface FormContract<V extends FieldValues, B> {
  schema: z.ZodType<unknown, B>;
  toBody: (values: V) => B;
  /** Where an error of the body (or of the server) belongs in the form; null when nowhere. */
  mapError?: (error: FieldError) => FieldError | null;
  /** Rules of the form alone, that no request can express (e.g. a secret to replace needs a value). */
  check?: (values: V) => FieldError[];
}

/** Forms show dates DD/MM/YYYY (spec §5): the contract's YYYY-MM-DD message would mislead. */
const shownDate = (error: FieldError): FieldError =>
  error.key === 'validation.date' ? { ...error, key: 'validation.date_shown' } : error;

/** An error of the request body or of the server, as the form shows it; null when it has no field. */
export function formError<V extends FieldValues, B>(
  contract: FormContract<V, B>,
  error: FieldError,
): FieldError | null {
  const mapped = contract.mapError ? contract.mapError(error) : error;
  return mapped && shownDate(mapped);
}

/** The resolver of a FormContract: the body's errors under the fields they came from. */
export function bodyResolver<V extends FieldValues, B>(contract: () => FormContract<V, B>): Resolver<V> {
  return async (values) => {
    const current = contract();
    const result = await current.schema.safeParseAsync(current.toBody(values));
    const errors = [
      ...(result.success ? [] : result.error.issues.map(issueToFieldError)),
      ...(current.check?.(values) ?? []),
    ]
      .map((error) => formError(current, error))
      .filter((error) => error !== null);
    if (errors.length === 0) return { values, errors: {} };
    return { values: {}, errors: toFieldErrors<V>(errors) };
  };
}
