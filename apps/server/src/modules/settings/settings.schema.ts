import { pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { companyIdColumn } from '../companies/companies.schema.ts';

/** Spec §3 general settings: parName/parValue entries per company (gen.deya_aa among them). */
export const generalSettings = pgTable(
  'general_settings',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    parName: text('par_name').notNull(),
    parValue: text('par_value'),
    ...auditColumns(),
  },
  (t) => [uniqueIndex('general_settings_company_name_idx').on(t.companyId, t.parName)],
);
