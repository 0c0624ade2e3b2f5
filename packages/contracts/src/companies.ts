import { z } from 'zod';
import { auditFieldsSchema } from './audit.ts';
import type { EntityCatalog } from './list.ts';
import { POSTAL_CODE_PATTERN } from './settings-tables.ts';
import { isValidVatNumber, normalizeVatNumber } from './traders.ts';

/**
 * The credentials a company uses for the tax authority's services (myDATA, the VAT-number registry
 * RgWsPublic2) and for e-mail. Stored encrypted; secrets never come back, only whether they are set.
 */
export const companyCredentialsSchema = z.object({
  aadeUsername: z.string().max(200).nullable(),
  aadeSubscriptionKeySet: z.boolean(),
  registryUsername: z.string().max(200).nullable(),
  registryPasswordSet: z.boolean(),
  smtpHost: z.string().max(200).nullable(),
  smtpPort: z.number().int().nullable(),
  smtpUsername: z.string().max(200).nullable(),
  smtpPasswordSet: z.boolean(),
  smtpFrom: z.string().max(200).nullable(),
});
export type CompanyCredentials = z.infer<typeof companyCredentialsSchema>;

/** A secret in a save: absent keeps it, '' clears it, any other text replaces it. */
const secret = z.string().max(500).optional();
const text = z.string().trim().max(200).nullable().optional();

export const saveCompanyCredentialsSchema = z.object({
  aadeUsername: text,
  aadeSubscriptionKey: secret,
  registryUsername: text,
  registryPassword: secret,
  smtpHost: text,
  smtpPort: z.number().int().min(1).max(65535).nullable().optional(),
  smtpUsername: text,
  smtpPassword: secret,
  smtpFrom: z
    .union([z.email().max(200), z.literal('')])
    .nullable()
    .optional(),
});
export type SaveCompanyCredentials = z.infer<typeof saveCompanyCredentialsSchema>;

/** Spec §3 Company: one utility (ΔΕΥΑ) of the installation, with its seat and contact details. */
export const companySchema = z
  .object({
    id: z.number().int(),
    companyname: z.string(),
    companytitle: z.string(),
    vatnumber: z.string().nullable(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    zipcode: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    /** An inactive company is closed to its operators (only the super administrator still sees it). */
    active: z.boolean(),
    credentials: companyCredentialsSchema,
    /** Spec §3 'admusers': the administrators (kind 1) of the company. */
    admusers: z.array(z.number().int()),
  })
  .extend(auditFieldsSchema.shape);
export type Company = z.infer<typeof companySchema>;

/** Absent keeps the stored value (the company's own settings page sends only its names). */
const detail = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value === undefined ? undefined : value || null));

export const saveCompanySchema = z.object({
  companyname: z.string().trim().min(1).max(200),
  companytitle: z.string().trim().min(1).max(300),
  /** ΑΦΜ: 9 digits with its check digit (EL/GR prefix and 8 digits accepted, stored as 9). */
  vatnumber: z
    .string()
    .trim()
    .max(20)
    .nullable()
    .transform((value) => (value ? normalizeVatNumber(value) : null))
    .refine((value) => value === null || isValidVatNumber(value), 'validation.vatnumber'),
  address: detail(200),
  city: detail(100),
  zipcode: detail(5).refine(
    (value) => value === undefined || value === null || POSTAL_CODE_PATTERN.test(value),
    'validation.postal_code',
  ),
  phone: detail(50),
  email: z
    .union([z.email().max(200), z.literal('')])
    .nullish()
    .transform((value) => (value === undefined ? undefined : value || null)),
  /** Super administrator only; absent keeps. */
  active: z.boolean().optional(),
  credentials: saveCompanyCredentialsSchema.optional(),
});
export type SaveCompanyRequest = z.input<typeof saveCompanySchema>;

/** A row of the companies list (GET /api/companies/search, super administrator). */
export const companyListItemSchema = z.object({
  id: z.number().int(),
  companyname: z.string(),
  companytitle: z.string(),
  vatnumber: z.string().nullable(),
  city: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  active: z.boolean(),
});
export type CompanyListItem = z.infer<typeof companyListItemSchema>;

export const companiesCatalog = {
  entity: 'companies',
  titleKey: 'companies.title',
  defaultSort: { field: 'companyname', desc: false },
  fields: [
    {
      id: 'companyname',
      type: 'text',
      labelKey: 'companies.field.companyname',
      sortable: true,
      filters: ['contains'],
      exportable: true,
      searchable: true,
      width: 240,
    },
    {
      id: 'companytitle',
      type: 'text',
      labelKey: 'companies.field.companytitle',
      sortable: true,
      filters: ['contains'],
      exportable: true,
      searchable: true,
      width: 360,
    },
    {
      id: 'vatnumber',
      type: 'text',
      labelKey: 'companies.field.vatnumber',
      sortable: true,
      filters: ['contains', 'eq'],
      exportable: true,
      searchable: true,
      width: 140,
    },
    {
      id: 'city',
      type: 'text',
      labelKey: 'companies.field.city',
      sortable: true,
      filters: ['contains'],
      exportable: true,
      width: 160,
    },
    {
      id: 'phone',
      type: 'text',
      labelKey: 'companies.field.phone',
      sortable: true,
      filters: ['contains'],
      exportable: true,
      hiddenByDefault: true,
      width: 140,
    },
    {
      id: 'email',
      type: 'text',
      labelKey: 'companies.field.email',
      sortable: true,
      filters: ['contains'],
      exportable: true,
      hiddenByDefault: true,
      width: 200,
    },
    {
      id: 'active',
      type: 'boolean',
      labelKey: 'companies.field.active',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      width: 110,
    },
  ],
} as const satisfies EntityCatalog;
