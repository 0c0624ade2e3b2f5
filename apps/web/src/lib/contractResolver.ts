import { issueToFieldError } from '@protocol/contracts';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { encodeFieldMessage } from './errors.ts';

/** A react-hook-form resolver from a contracts schema, producing catalog keys (issueToFieldError). */
export function contractResolver<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
): Resolver<z.input<S>, unknown, z.output<S>> {
  return async (values) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const fieldError = issueToFieldError(issue);
      if (!errors[fieldError.field]) {
        errors[fieldError.field] = {
          type: issue.code,
          message: encodeFieldMessage(fieldError.key, fieldError.params),
        };
      }
    }
    return { values: {}, errors: errors as FieldErrors<z.input<S>> };
  };
}
