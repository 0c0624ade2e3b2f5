import { describe, expect, it } from 'vitest';
import { changePasswordSchema, loginRequestSchema } from './account.ts';
import { issueToFieldError } from './errors.ts';
import { bookSummaryQuerySchema } from './protocol.ts';
import { updateAccountSchema } from './users.ts';

const errorsOf = (result: {
  success: boolean;
  error?: { issues: Parameters<typeof issueToFieldError>[0][] };
}) => (result.error?.issues ?? []).map(issueToFieldError);

describe('validation messages are catalog keys both sides share', () => {
  it('a missing or empty field is required', () => {
    expect(errorsOf(loginRequestSchema.safeParse({ password: 'x' }))).toEqual([
      { field: 'username', key: 'validation.required', params: {} },
    ]);
    expect(errorsOf(loginRequestSchema.safeParse({ username: '  ', password: 'x' }))).toEqual([
      { field: 'username', key: 'validation.required', params: {} },
    ]);
  });

  it('too long names the length', () => {
    const long = 'a'.repeat(221);
    expect(
      errorsOf(changePasswordSchema.safeParse({ password: long, confirmedPassword: long })),
    ).toContainEqual({
      field: 'password',
      key: 'validation.max_length',
      params: { length: 220 },
    });
  });

  it('passwords must match and have at least 8 characters', () => {
    expect(
      errorsOf(changePasswordSchema.safeParse({ password: 'abcdefgh', confirmedPassword: 'abcdefgX' })),
    ).toEqual([{ field: 'confirmedPassword', key: 'validation.passwords_mismatch', params: {} }]);
    expect(errorsOf(changePasswordSchema.safeParse({ password: 'abc', confirmedPassword: 'abc' }))).toEqual([
      { field: 'password', key: 'validation.password_too_short', params: {} },
    ]);
    expect(
      changePasswordSchema.safeParse({ password: 'abcdefgh', confirmedPassword: 'abcdefgh' }).success,
    ).toBe(true);
  });

  it('an invalid e-mail is named as such', () => {
    expect(
      errorsOf(updateAccountSchema.safeParse({ firstname: 'Α', lastname: 'Β', email: 'not-an-email' })),
    ).toEqual([{ field: 'email', key: 'validation.email', params: {} }]);
  });

  it('issue 29 item 15: a rule across fields keeps its error key (the book summary’s reversed range)', () => {
    expect(
      errorsOf(bookSummaryQuerySchema.safeParse({ bookId: '1', from: '2026-12-31', to: '2026-01-01' })),
    ).toEqual([{ field: 'to', key: 'error.invalid_date_range', params: {} }]);
  });
});
