import { issueToFieldError, type LoginRequest, loginRequestSchema } from '@protocol/contracts';
import { encodeFieldMessage } from '../../lib/errors.ts';

export type LoginField = keyof LoginRequest;

/**
 * The contracts' login rules. This module (and zod with it) loads in the background once the
 * sign-in page has painted, so the page's first load stays small.
 */
export function validateLogin(
  values: LoginRequest,
): { ok: true; values: LoginRequest } | { ok: false; errors: Partial<Record<LoginField, string>> } {
  const result = loginRequestSchema.safeParse(values);
  if (result.success) return { ok: true, values: result.data };
  const errors: Partial<Record<LoginField, string>> = {};
  for (const issue of result.error.issues) {
    const fieldError = issueToFieldError(issue);
    const field = fieldError.field as LoginField;
    errors[field] ??= encodeFieldMessage(fieldError.key, fieldError.params);
  }
  return { ok: false, errors };
}
