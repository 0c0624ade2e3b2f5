import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  smallint,
  text,
} from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { companyIdColumn } from '../companies/companies.schema.ts';

/*
 * The settings tables. Uniqueness (names, codes) is a deferred constraint added in the
 * migration, so a row-table save may swap two rows' names; a violation is a 409.
 */

/** Banks (τράπεζες), global reference data: name and ISO 9362 BIC. */
export const banks = pgTable('banks', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  bic: text('bic').notNull(),
  active: boolean('active').notNull().default(true),
  ...auditColumns(),
});

/** VAT percentages (ποσοστά ΦΠΑ), global: the myDATA VAT category and its rate. */
export const vatPercentages = pgTable('vat_percentages', {
  id: serial('id').primaryKey(),
  code: smallint('code').notNull(),
  description: text('description').notNull(),
  percentage: numeric('percentage', { precision: 5, scale: 2 }).notNull(),
  active: boolean('active').notNull().default(true),
  ...auditColumns(),
});

/** VAT categories (κατηγορίες ΦΠΑ): the VAT regime of a trader, global. */
export const vatCategories = pgTable('vat_categories', {
  id: serial('id').primaryKey(),
  code: text('code').notNull(),
  description: text('description').notNull(),
  active: boolean('active').notNull().default(true),
  ...auditColumns(),
});

/** VAT status (καθεστώς ΦΠΑ) of a trader, global. */
export const vatStatuses = pgTable('vat_statuses', {
  id: serial('id').primaryKey(),
  code: text('code').notNull(),
  description: text('description').notNull(),
  active: boolean('active').notNull().default(true),
  ...auditColumns(),
});

/** Departments (τμήματα) of a company: organisation units documents can be charged to. */
export const departments = pgTable(
  'departments',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    code: text('code').notNull(),
    description: text('description').notNull(),
    parentId: integer('parent_id').references((): AnyPgColumn => departments.id),
    active: boolean('active').notNull().default(true),
    ...auditColumns(),
  },
  (t) => [index('departments_parent_idx').on(t.parentId)],
);

/** Addresses (διευθύνσεις) of a company. */
export const addresses = pgTable(
  'addresses',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    street: text('street').notNull(),
    number: text('number'),
    area: text('area'),
    postalCode: text('postal_code').notNull(),
    municipality: text('municipality'),
    ...auditColumns(),
  },
  (t) => [index('addresses_company_idx').on(t.companyId)],
);

/** Custom tables (πίνακες τιμών) of a company: the values of custom select fields. */
export const customTables = pgTable('custom_tables', {
  id: serial('id').primaryKey(),
  companyId: companyIdColumn(),
  name: text('name').notNull(),
  ...auditColumns(),
});

export const customTableValues = pgTable(
  'custom_table_values',
  {
    id: serial('id').primaryKey(),
    customTableId: integer('custom_table_id')
      .notNull()
      .references(() => customTables.id, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    order: integer('sort_order').notNull().default(0),
    ...auditColumns(),
  },
  (t) => [index('custom_table_values_table_idx').on(t.customTableId)],
);

/** Custom fields (πρόσθετα πεδία) of traders or consumers, per company. */
export const customFields = pgTable(
  'custom_fields',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    entity: text('entity').notNull(),
    key: text('key').notNull(),
    labelEl: text('label_el').notNull(),
    labelEn: text('label_en').notNull(),
    type: text('type').notNull(),
    customTableId: integer('custom_table_id').references(() => customTables.id),
    required: boolean('required').notNull().default(false),
    order: integer('sort_order').notNull().default(0),
    ...auditColumns(),
  },
  (t) => [index('custom_fields_table_idx').on(t.customTableId)],
);

/** Periodicity rows (spec §3) of a company's water service: months, periods, start. */
export const periodicities = pgTable(
  'periodicities',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    periodicityType: smallint('periodicity_type').notNull(),
    periods: smallint('periods').notNull(),
    startyear: integer('startyear').notNull(),
    startperiod: smallint('startperiod').notNull(),
    ...auditColumns(),
  },
  (t) => [index('periodicities_company_idx').on(t.companyId)],
);
