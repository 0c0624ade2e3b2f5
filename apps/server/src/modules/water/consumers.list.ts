import { type ConsumerListItem, consumersCatalog } from '@protocol/contracts';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { defineList } from '../../platform/list/list.ts';
import { listSource } from '../../platform/list/source.ts';
import { loadCustomFields } from '../settings/api.ts';
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from './consumers.schema.ts';
import { waterPropertyUsages, waterRoutes, waterSectors } from './parametrics.schema.ts';

export const consumersOfCompany = (companyId: number): SQL => eq(waterConsumers.companyId, companyId);

/**
 * The consumers list (GET /api/protocol/consumers/search) on the list engine: the owner's name is
 * the trader's own (its normalised, trigram-indexed column), so a renamed trader is found by the new name.
 */
export function consumersList(db: Db) {
  const columns = {
    id: waterConsumers.id,
    code: waterConsumers.code,
    ownerName: traders.fullname,
    ownerVatnumber: traders.vatnumber,
    supplyAddress: waterConsumers.supplyAddress,
    sectorCode: waterSectors.code,
    routeCode: waterRoutes.code,
    routePosition: waterConsumers.routePosition,
    usage: waterPropertyUsages.description,
    status: waterConsumers.status,
    connectionDate: waterConsumers.connectionDate,
  };
  const source = listSource(db, () =>
    db
      .select({ ...columns, customFields: waterConsumers.customFields })
      .from(waterConsumers)
      .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
      .leftJoin(waterSectors, eq(waterSectors.id, waterConsumers.sectorId))
      .leftJoin(waterRoutes, eq(waterRoutes.id, waterConsumers.routeId))
      .leftJoin(waterPropertyUsages, eq(waterPropertyUsages.id, waterConsumers.propertyUsageId))
      .$dynamic(),
  );
  return defineList<ConsumerListItem>({
    catalog: consumersCatalog,
    columns: {
      ...columns,
      code: { value: waterConsumers.code, normalized: waterConsumers.codeNorm, key: waterConsumers.codeKey },
      ownerName: { value: traders.fullname, normalized: traders.fullnameNorm },
      ownerVatnumber: { value: traders.vatnumber, normalized: traders.vatnumberNorm },
      supplyAddress: { value: waterConsumers.supplyAddress, normalized: waterConsumers.supplyAddressNorm },
      connectionDate: { day: sql`${waterConsumers.connectionDate}` },
    },
    customFields: {
      column: waterConsumers.customFields,
      definitions: (companyId) => loadCustomFields(db, companyId, 'consumers'),
    },
    id: waterConsumers.id,
    total: 'estimatedAboveLimit',
    ...source,
  });
}
