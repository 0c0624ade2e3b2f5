import { searchConsumerSchema } from '@protocol/contracts';
import { desc, eq, or, sql } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import { builtSelect } from '../../db/prepared.ts';
import { defineSearchSource, matchesWords, newestMatches } from '../../platform/search/search.ts';
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from './consumers.schema.ts';

/**
 * The newest consumers the first step reads, fewer than `RECENT_WINDOW`: each is read with its owner
 * (four index pages a consumer, 11 ms for 5,000), and a word missing from them costs the second step
 * well under a millisecond.
 */
const RECENT_CONSUMERS = 1_000;

const companyId = sql.placeholder('companyId');
const limit = sql.placeholder('limit');

const recent = builtSelect((db) => {
  const newest = db
    .select({
      id: waterConsumers.id,
      code: waterConsumers.code,
      ownerId: waterConsumers.ownerId,
      supplyAddress: waterConsumers.supplyAddress,
      searchVector: waterConsumers.searchVector,
    })
    .from(waterConsumers)
    .where(eq(waterConsumers.companyId, companyId))
    .orderBy(desc(waterConsumers.id))
    .limit(RECENT_CONSUMERS)
    .as('newest');
  return db
    .select({
      id: newest.id,
      code: newest.code,
      ownerName: traders.fullname,
      supplyAddress: newest.supplyAddress,
    })
    .from(newest)
    .innerJoin(traders, eq(traders.id, newest.ownerId))
    .where(or(matchesWords(newest.searchVector), matchesWords(traders.searchVector)))
    .orderBy(desc(newest.id))
    .limit(limit)
    .$dynamic();
});

const all = builtSelect((db) => {
  const matching = union(
    db
      .select({ id: waterConsumers.id })
      .from(waterConsumers)
      .where(matchesWords(waterConsumers.searchVector)),
    db
      .select({ id: waterConsumers.id })
      .from(waterConsumers)
      .where(
        sql`${waterConsumers.ownerId} = ANY(ARRAY(${db
          .select({ id: traders.id })
          .from(traders)
          .where(matchesWords(traders.searchVector))}))`,
      ),
  );
  return db
    .select({
      id: waterConsumers.id,
      code: waterConsumers.code,
      ownerName: traders.fullname,
      supplyAddress: waterConsumers.supplyAddress,
    })
    .from(waterConsumers)
    .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .where(
      // The few ids first, each consumer then by its key: as a join the planner hashed them
      // against every consumer of the table (80 ms on 150,000 for 11 matches).
      sql`${waterConsumers.companyId} + 0 = ${companyId} AND ${waterConsumers.id} = ANY(ARRAY(${matching}))`,
    )
    .orderBy(sql`${waterConsumers.id} + 0 DESC`)
    .limit(limit)
    .$dynamic();
});

/**
 * Consumers of the company by code, supply address or their owner's name or ΑΦΜ, newest first (see
 * `newestMatches`). A rare word is looked up in both GIN indexes — the consumers' own vector and
 * their owners' — and the two sets of ids are joined, instead of testing every consumer's owner.
 */
export const consumerSearchSource = defineSearchSource({
  key: 'consumerDTOList',
  permission: 'consumers:read',
  indexes: 'water_consumers',
  item: searchConsumerSchema,
  find: ({ db, companyId, text, limit }) => {
    const values = { companyId, words: text.words, limit };
    return newestMatches(
      limit,
      () => recent(db, values),
      () => all(db, values),
    );
  },
});
