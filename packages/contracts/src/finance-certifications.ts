import { z } from 'zod';
import { auditFieldsSchema } from './audit.ts';
import type { EntityCatalog } from './list.ts';
import { isoDaySchema } from './time.ts';

/**
 * Income certification (βεβαίωση εσόδων): for a period, the receivables of finalized
 * documents (bills included) gathered per income account; reviewed, finalized (numbered per year),
 * printed and exported. A document is certified once.
 */

/** Series kinds whose documents are income (credit notes subtract). */
export const INCOME_KINDS = [
  'salesInvoice',
  'servicesInvoice',
  'retailReceipt',
  'creditNote',
  'waterBill',
] as const;

const isoDay = isoDaySchema();

export const createCertificationSchema = z
  .object({
    periodFrom: isoDay,
    periodTo: isoDay,
    date: isoDay,
    notes: z
      .string()
      .trim()
      .max(2000)
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .refine((value) => value.periodFrom <= value.periodTo, {
    message: 'validation.period_order',
    path: ['periodTo'],
  });
export type CreateCertification = z.infer<typeof createCertificationSchema>;

const amount = z.string();

export const certificationSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  number: z.number().int().nullable(),
  year: z.number().int().nullable(),
  date: z.string(),
  periodFrom: z.string(),
  periodTo: z.string(),
  entryState: z.number().int(),
  documents: z.number().int(),
  net: amount,
  vat: amount,
  total: amount,
  notes: z.string().nullable(),
  lines: z.array(
    z.object({
      accountId: z.number().int().nullable(),
      accountCode: z.string().nullable(),
      accountDescr: z.string().nullable(),
      documents: z.number().int(),
      net: amount,
      vat: amount,
      total: amount,
    }),
  ),
  ...auditFieldsSchema.shape,
});
export type Certification = z.infer<typeof certificationSchema>;

export const certificationListItemSchema = z.object({
  id: z.number().int(),
  number: z.number().int().nullable(),
  year: z.number().int().nullable(),
  date: z.string(),
  periodFrom: z.string(),
  periodTo: z.string(),
  entryState: z.number().int(),
  documents: z.number().int(),
  total: amount,
});
export type CertificationListItem = z.infer<typeof certificationListItemSchema>;

const dateField = (id: string, labelKey: string) =>
  ({
    id,
    type: 'date',
    labelKey,
    sortable: true,
    filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
    exportable: true,
    width: 120,
  }) as const;

export const certificationsCatalog = {
  entity: 'financeCertifications',
  titleKey: 'finance.certifications.title',
  defaultSort: { field: 'date', desc: true },
  fields: [
    {
      id: 'number',
      type: 'number',
      labelKey: 'finance.certifications.number',
      sortable: true,
      filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
      exportable: true,
      width: 100,
    },
    dateField('date', 'finance.certifications.date'),
    dateField('periodFrom', 'finance.certifications.periodFrom'),
    dateField('periodTo', 'finance.certifications.periodTo'),
    {
      id: 'documents',
      type: 'number',
      labelKey: 'finance.certifications.documents',
      sortable: true,
      filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
      exportable: true,
      width: 110,
    },
    {
      id: 'total',
      type: 'money',
      labelKey: 'finance.certifications.total',
      sortable: true,
      filters: ['eq', 'gt', 'gte', 'lt', 'lte'],
      exportable: true,
      width: 130,
    },
    {
      id: 'entryState',
      type: 'enum',
      labelKey: 'finance.documents.entryState',
      sortable: true,
      filters: ['eq'],
      exportable: true,
      options: [0, 9].map((v) => ({ value: String(v), labelKey: `finance.documents.entryState_${v}` })),
      width: 150,
    },
  ],
} as const satisfies EntityCatalog;
