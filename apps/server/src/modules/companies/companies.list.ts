import { type CompanyListItem, companiesCatalog } from '@protocol/contracts';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { listSource } from '../../platform/list/source.ts';
import { companies } from './companies.schema.ts';

/** The installation's companies (GET /api/companies/search, super administrator) on the list engine. */
export function companiesList(db: Db) {
  const columns = {
    id: companies.id,
    companyname: companies.companyname,
    companytitle: companies.companytitle,
    vatnumber: companies.vatnumber,
    city: companies.city,
    phone: companies.phone,
    email: companies.email,
    active: companies.active,
  };
  return defineList<CompanyListItem>({
    catalog: companiesCatalog,
    columns,
    id: companies.id,
    ...listSource(db, () => db.select(columns).from(companies).$dynamic()),
  });
}
