import { customType, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companyIdColumn } from '../companies/companies.schema.ts';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * A register file uploaded for an import job, on the storage adapter (platform/imports/files.ts:
 * `content` only for files uploaded before migration 0029); the row goes when the job ends.
 */
export const waterImportFiles = pgTable('water_import_files', {
  id: serial('id').primaryKey(),
  companyId: companyIdColumn(),
  storageKey: text('storage_key'),
  content: bytea('content'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
