import { z } from 'zod';
import { validationKeys } from './errors.ts';

/** Spec §9: passwords at most 220 characters; we require the advised minimum of 8. */
export const PASSWORD_MAX = 220;
export const PASSWORD_MIN = 8;

export const loginRequestSchema = z.object({
  username: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(PASSWORD_MAX),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({ jwttoken: z.string() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const changePasswordSchema = z
  .object({
    /** Required when operators change their own password (a stolen session is not enough). */
    currentPassword: z.string().max(PASSWORD_MAX).optional(),
    password: z.string().min(1).max(PASSWORD_MAX),
    confirmedPassword: z.string().min(1).max(PASSWORD_MAX),
  })
  .superRefine((value, ctx) => {
    if (value.password.length > 0 && value.password.length < PASSWORD_MIN) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: validationKeys.passwordTooShort });
    }
    if (value.password !== value.confirmedPassword) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmedPassword'],
        message: validationKeys.passwordsMismatch,
      });
    }
  });
export type ChangePasswordRequest = z.infer<typeof changePasswordSchema>;

/** The own password's change: the current one is asked for too. */
export const changeOwnPasswordSchema = changePasswordSchema.superRefine((value, ctx) => {
  if (!value.currentPassword) {
    ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: validationKeys.required });
  }
});

/** Single sign-on: the query string the identity provider sent back to `/login`. */
export const ssoCallbackSchema = z.object({ callbackParams: z.string().min(1).max(4000) });
export const ssoCallbackResponseSchema = z.object({ jwttoken: z.string(), returnTo: z.string() });
