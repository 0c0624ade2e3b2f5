import { boolean, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { users } from '../users/users.schema.ts';

/** Spec §3 Company: a water utility or municipality using the product. */
export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  companyname: text('companyname').notNull(),
  companytitle: text('companytitle').notNull(),
  vatnumber: text('vatnumber'),
  address: text('address'),
  city: text('city'),
  zipcode: text('zipcode'),
  phone: text('phone'),
  email: text('email'),
  /** An inactive company is closed to its operators (users' live_session leaves it out). */
  active: boolean('active').notNull().default(true),
  /** The company's service credentials, AES-256-GCM encrypted JSON (platform/secrets.ts). */
  credentials: text('credentials'),
  ...auditColumns(),
});

/** The company a company-owned row belongs to; its rows go with it. */
export const companyIdColumn = () =>
  integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' });

/** Which operators work for which company. */
export const companyUsers = pgTable(
  'company_users',
  {
    companyId: companyIdColumn(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] })],
);
