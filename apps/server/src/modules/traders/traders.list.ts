import { type TraderListItem, tradersCatalog } from '@protocol/contracts';
import { eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { listSource } from '../../platform/list/source.ts';
import { loadCustomFields } from '../settings/api.ts';
import { traders } from './traders.schema.ts';

/** The traders of one company. */
export const tradersOfCompany = (companyId: number): SQL => eq(traders.companyId, companyId);

/**
 * The traders list (GET /api/traders/search) on the list engine: search by name, ΑΦΜ or code; the
 * company's custom fields of traders are columns `custom.<key>`.
 */
export function tradersList(db: Db) {
  const columns = {
    id: traders.id,
    tradercode: traders.tradercode,
    vatnumber: traders.vatnumber,
    fullname: traders.fullname,
    lastname: traders.lastname,
    firstname: traders.firstname,
    fathername: traders.fathername,
    phones: traders.phones,
    mobile: traders.mobile,
    email: traders.email,
    address: traders.address,
    city: traders.city,
    zipcode: traders.zipcode,
    doy: traders.doy,
    individual: traders.individual,
    kepyo: traders.kepyo,
    active: traders.active,
    status: traders.status,
    createdate: traders.createdate,
  };
  return defineList<TraderListItem>({
    catalog: tradersCatalog,
    columns: {
      ...columns,
      tradercode: { value: traders.tradercode, normalized: traders.tradercodeNorm },
      vatnumber: { value: traders.vatnumber, normalized: traders.vatnumberNorm },
      fullname: { value: traders.fullname, normalized: traders.fullnameNorm },
      lastname: { value: traders.lastname, normalized: traders.lastnameNorm },
      firstname: { value: traders.firstname, normalized: traders.firstnameNorm },
    },
    customFields: {
      column: traders.customFields,
      definitions: (companyId) => loadCustomFields(db, companyId, 'traders'),
    },
    id: traders.id,
    total: 'estimatedAboveLimit',
    ...listSource(
      db,
      () =>
        db
          .select({ ...columns, customFields: traders.customFields })
          .from(traders)
          .$dynamic(),
      (row) => ({ ...row, createdate: row.createdate?.toISOString() ?? null }),
    ),
  });
}
