import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, serial, smallint, text } from 'drizzle-orm/pg-core';
import { auditColumns } from '../../platform/audit-columns.ts';
import { customFieldsColumn } from '../../platform/custom-fields/custom-fields.ts';
import { tsvector } from '../../platform/search/tsvector.ts';
import { companyIdColumn } from '../companies/companies.schema.ts';
import { banks, vatCategories, vatStatuses } from '../settings/settings-tables.schema.ts';

/** Spec §3 Trader (συναλλασσόμενος): a counterparty of one company. */
export const traders = pgTable(
  'traders',
  {
    id: serial('id').primaryKey(),
    companyId: companyIdColumn(),
    tradercode: text('tradercode'),
    vatnumber: text('vatnumber'),
    fullname: text('fullname'),
    firstname: text('firstname'),
    lastname: text('lastname'),
    title: text('title'),
    fathername: text('fathername'),
    mothername: text('mothername'),
    job: text('job'),
    phones: text('phones'),
    mobile: text('mobile'),
    email: text('email'),
    address: text('address'),
    city: text('city'),
    area: text('area'),
    zipcode: text('zipcode'),
    doy: text('doy'),
    country: text('country').notNull().default('GR'),
    vatCategoryId: integer('vat_category_id').references(() => vatCategories.id),
    vatStatusId: integer('vat_status_id').references(() => vatStatuses.id),
    kepyo: boolean('kepyo').notNull().default(false),
    birthday: date('birthday', { mode: 'string' }),
    idnumber: text('idnumber'),
    individual: boolean('individual').notNull().default(true),
    active: boolean('active').notNull().default(true),
    status: smallint('status').notNull().default(1),
    /** Values of the company's custom fields (entity 'traders'), keyed by the field's key. */
    customFields: customFieldsColumn(),
    // Greek-normalised copies the list searches, filters and sorts on (see users.schema.ts).
    vatnumberNorm: text('vatnumber_norm').generatedAlwaysAs(sql`norm_text(vatnumber)`),
    tradercodeNorm: text('tradercode_norm').generatedAlwaysAs(sql`norm_text(tradercode)`),
    fullnameNorm: text('fullname_norm').generatedAlwaysAs(sql`norm_text(fullname)`),
    firstnameNorm: text('firstname_norm').generatedAlwaysAs(sql`norm_text(firstname)`),
    lastnameNorm: text('lastname_norm').generatedAlwaysAs(sql`norm_text(lastname)`),
    /** Names, ΑΦΜ and code for the global search, kept by a trigger. */
    searchVector: tsvector('search_vector'),
    ...auditColumns(),
  },
  (t) => [
    index('traders_company_idx').on(t.companyId),
    index('traders_company_vatnumber_idx').on(t.companyId, t.vatnumber),
    index('traders_vatnumber_norm_trgm').using('gin', t.vatnumberNorm.op('gin_trgm_ops')),
    index('traders_tradercode_norm_trgm').using('gin', t.tradercodeNorm.op('gin_trgm_ops')),
    index('traders_fullname_norm_trgm').using('gin', t.fullnameNorm.op('gin_trgm_ops')),
    index('traders_firstname_norm_trgm').using('gin', t.firstnameNorm.op('gin_trgm_ops')),
    index('traders_lastname_norm_trgm').using('gin', t.lastnameNorm.op('gin_trgm_ops')),
    index('traders_fullname_norm_sort').on(t.fullnameNorm, t.id),
    index('traders_search_idx').using('gin', t.searchVector).with({ fastupdate: false }),
  ],
);

/** A trader's bank accounts (spec §3 traderbanks, with BIC). */
export const traderBanks = pgTable(
  'trader_banks',
  {
    id: serial('id').primaryKey(),
    traderId: integer('trader_id')
      .notNull()
      .references(() => traders.id, { onDelete: 'cascade' }),
    iban: text('iban').notNull(),
    bic: text('bic'),
    bankId: integer('bank_id').references(() => banks.id),
    ...auditColumns(),
  },
  (t) => [index('trader_banks_trader_idx').on(t.traderId)],
);
