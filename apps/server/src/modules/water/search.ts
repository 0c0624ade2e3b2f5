import { searchConsumerSchema } from '@protocol/contracts';
import { and, desc, eq, or } from 'drizzle-orm';
import { defineSearchSource } from '../../platform/search/search.ts';
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from './consumers.schema.ts';

/** Consumers of the company by code, supply address or their owner's name or ΑΦΜ. */
export const consumerSearchSource = defineSearchSource({
  key: 'consumerDTOList',
  permission: 'consumers:read',
  indexes: 'water_consumers',
  item: searchConsumerSchema,
  find: ({ db, companyId, text, limit }) =>
    db
      .select({
        id: waterConsumers.id,
        code: waterConsumers.code,
        ownerName: traders.fullname,
        supplyAddress: waterConsumers.supplyAddress,
      })
      .from(waterConsumers)
      .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
      .where(
        and(
          eq(waterConsumers.companyId, companyId),
          or(text.matches(waterConsumers.searchVector), text.matches(traders.searchVector)),
        ),
      )
      .orderBy(desc(waterConsumers.id))
      .limit(limit),
});
