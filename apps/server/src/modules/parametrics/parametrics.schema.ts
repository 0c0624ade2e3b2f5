import { boolean, index, integer, pgTable, serial, smallint, text } from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { companyIdColumn } from '../companies/companies.schema.ts';

/**
 * Protocol books (βιβλία πρωτοκόλλου): one per type (1 incoming, 2 outgoing) and year per company.
 * The uniqueness is a deferred constraint in the migration, so a row-table save may swap years.
 */
export const protocolBooks = pgTable(
  'protocol_books',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    descr: text('descr').notNull(),
    year: integer('year').notNull(),
    booktype: smallint('booktype').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [index('protocol_books_company_idx').on(t.companyId, t.year)],
);
