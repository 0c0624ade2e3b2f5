import { z } from 'zod';
import { auditFieldsSchema } from './audit.ts';

/** Spec §3 user kind: 1 admin, 2 user. */
export const userKinds = { admin: 1, user: 2 } as const;

export const companyRefSchema = z.object({
  id: z.number().int(),
  companyname: z.string(),
  companytitle: z.string(),
});
export type CompanyRef = z.infer<typeof companyRefSchema>;

export const userSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    active: z.boolean(),
    superAdmin: z.boolean(),
    kind: z.union([z.literal(1), z.literal(2)]),
    scope: z.array(z.string()),
  })
  .extend(auditFieldsSchema.shape);
export type User = z.infer<typeof userSchema>;

export const authenticatedUserSchema = userSchema.extend({
  companies: z.array(companyRefSchema),
  /** Signed in through the identity provider: logout also ends the provider's session. */
  sso: z.boolean(),
});
export type AuthenticatedUser = z.infer<typeof authenticatedUserSchema>;

export const updateAccountSchema = z.object({
  firstname: z.string().trim().min(1).max(100),
  lastname: z.string().trim().min(1).max(100),
  email: z.union([z.email().max(200), z.literal('')]).nullable(),
});
export type UpdateAccountRequest = z.infer<typeof updateAccountSchema>;
