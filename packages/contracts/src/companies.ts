import { z } from 'zod';
import type { EntityCatalog } from './list.ts';

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

/** Spec §3 Company. */
export const companySchema = z.object({
  id: z.number().int(),
  companyname: z.string(),
  companytitle: z.string(),
  vatnumber: z.string().nullable(),
  credentials: companyCredentialsSchema,
  /** Spec §3 'admusers': the administrators (kind 1) of the company. */
  admusers: z.array(z.number().int()),
});
export type Company = z.infer<typeof companySchema>;

export const saveCompanySchema = z.object({
  companyname: z.string().trim().min(1).max(200),
  companytitle: z.string().trim().min(1).max(300),
  vatnumber: z.string().trim().max(20).nullable(),
  credentials: saveCompanyCredentialsSchema.optional(),
});
export type SaveCompanyRequest = z.infer<typeof saveCompanySchema>;

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
      width: 140,
    },
  ],
} as const satisfies EntityCatalog;
