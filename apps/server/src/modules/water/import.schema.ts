import { customType, integer, pgTable, serial, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.schema.ts';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * A register file uploaded for an import job, read by the job (which may run on another node) and
 * deleted when the job ends (index.ts onJobSettled).
 */
export const waterImportFiles = pgTable('water_import_files', {
  id: serial('id').primaryKey(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  content: bytea('content').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
