import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from './account.ts';
import { auditFieldsSchema } from './audit.ts';
import { validationKeys } from './errors.ts';
import type { EntityCatalog } from './list.ts';

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
    /** The effective permissions: from the operator's groups, kind and super admin flag. */
    scope: z.array(z.string()),
    /** The user groups the operator belongs to. */
    groups: z.array(z.object({ id: z.number().int(), name: z.string(), companyId: z.number().int() })),
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

/** The operators list (spec §2 /users): one catalog for columns, filters, sort and exports. */
export const usersCatalog = {
  entity: 'users',
  titleKey: 'users.title',
  defaultSort: { field: 'lastname', desc: false },
  fields: [
    {
      id: 'id',
      type: 'number',
      labelKey: 'users.field.id',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      hiddenByDefault: true,
      width: 80,
    },
    {
      id: 'username',
      type: 'text',
      labelKey: 'users.field.username',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 160,
    },
    {
      id: 'lastname',
      type: 'text',
      labelKey: 'users.field.lastname',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 180,
    },
    {
      id: 'firstname',
      type: 'text',
      labelKey: 'users.field.firstname',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 160,
    },
    {
      id: 'email',
      type: 'text',
      labelKey: 'users.field.email',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 220,
    },
    {
      id: 'kind',
      type: 'enum',
      labelKey: 'users.field.kind',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: [
        { value: '1', labelKey: 'users.kind.1' },
        { value: '2', labelKey: 'users.kind.2' },
      ],
      width: 140,
    },
    {
      id: 'superAdmin',
      type: 'boolean',
      labelKey: 'users.field.superAdmin',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      hiddenByDefault: true,
      width: 120,
    },
    {
      id: 'active',
      type: 'boolean',
      labelKey: 'users.field.active',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 100,
    },
    {
      id: 'createdate',
      type: 'date',
      labelKey: 'users.field.createdate',
      sortable: true,
      filters: ['eq', 'gte', 'lte'],
      exportable: true,
      width: 140,
    },
  ],
} as const satisfies EntityCatalog;

/** A row of the operators list. */
export const userListItemSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  lastname: z.string(),
  firstname: z.string(),
  email: z.string().nullable(),
  kind: z.union([z.literal(1), z.literal(2)]),
  superAdmin: z.boolean(),
  active: z.boolean(),
  createdate: z.string().nullable(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

/** Creating an operator (spec §3 User: password and its confirmation on create). */
export const createUserSchema = z
  .object({
    username: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[\p{L}\p{N}._@-]+$/u, 'validation.username_chars'),
    password: z.string().min(1).max(PASSWORD_MAX),
    passwordConfirmation: z.string().min(1).max(PASSWORD_MAX),
    firstname: z.string().trim().min(1).max(100),
    lastname: z.string().trim().min(1).max(100),
    email: z.union([z.email().max(200), z.literal('')]).nullable(),
    kind: z.union([z.literal(1), z.literal(2)]),
    superAdmin: z.boolean(),
    active: z.boolean(),
  })
  .superRefine((value, ctx) => {
    if (value.password.length > 0 && value.password.length < PASSWORD_MIN) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: validationKeys.passwordTooShort });
    }
    if (value.password !== value.passwordConfirmation) {
      ctx.addIssue({
        code: 'custom',
        path: ['passwordConfirmation'],
        message: validationKeys.passwordsMismatch,
      });
    }
  });
export type CreateUserRequest = z.infer<typeof createUserSchema>;

/** An admin's edit of an operator: kind, super admin, active and scope besides the names. */
export const updateUserSchema = updateAccountSchema.extend({
  active: z.boolean().optional(),
  kind: z.union([z.literal(1), z.literal(2)]).optional(),
  superAdmin: z.boolean().optional(),
});
export type UpdateUserRequest = z.infer<typeof updateUserSchema>;
