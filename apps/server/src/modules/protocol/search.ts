import {
  formatProtocolId,
  type SearchDocument,
  searchCaseSchema,
  searchDocumentSchema,
} from '@protocol/contracts';
import { and, desc, eq, gt, lte, max, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Principal } from '../../platform/auth.ts';
import { defineSearchSource, type SearchText } from '../../platform/search/search.ts';
import { visibleDocuments } from './documents/visibility.ts';
import { cases, documents } from './protocol.schema.ts';

/** "1532" or "1532/2026" as people write a protocol number. */
const PROTOCOL_ID = /^(\d{1,9})(?:\/(\d{4}))?$/;

const DELETED = 9;
/** How many of the newest documents the first, bounded step of a text search reads. */
const RECENT_WINDOW = 50_000;

/**
 * Documents of one kind the asker sees: first those whose protocol number is what was typed, then
 * the text matches, newest first. Deleted drafts are not found; archived documents are.
 *
 * Newest-first text matches in two bounded steps, because the planner cannot tell how common a
 * prefix is: walking the newest ids backwards is fast for a common word and reads the whole table
 * for a rare one, the GIN index the other way round. So the newest RECENT_WINDOW documents are read
 * by id first; only when they hold fewer than `limit` matches — a rare word — the older ones come
 * from the GIN index (`id + 0` keeps the planner off the id order).
 */
async function findDocuments(
  db: Db,
  principal: Principal,
  companyId: number,
  kind: 0 | 1,
  text: SearchText,
  limit: number,
): Promise<SearchDocument[]> {
  const scope = and(
    visibleDocuments(principal, companyId),
    eq(documents.kind, kind),
    ne(documents.state, DELETED),
  );
  const select = (where: SQL | undefined, order: SQL = sql`${documents.id} DESC`) =>
    db
      .select({
        id: documents.id,
        protocolNumber: documents.protocolNumber,
        protocolYear: documents.protocolYear,
        name: documents.name,
        subject: documents.subject,
      })
      .from(documents)
      .where(and(scope, where))
      .orderBy(order)
      .limit(limit);
  const number = PROTOCOL_ID.exec(text.raw);
  const byNumber = number
    ? await select(
        and(
          eq(documents.protocolNumber, Number(number[1])),
          number[2] ? eq(documents.protocolYear, Number(number[2])) : undefined,
        ),
        // The order of documents_protocol_number_idx: never a walk over all ids for a few rows.
        sql`${documents.protocolYear} DESC`,
      )
    : [];
  const matches = text.matches(documents.searchVector);
  const [newest] = await db.select({ id: max(documents.id) }).from(documents);
  const floor = (newest?.id ?? 0) - RECENT_WINDOW;
  const recent = await select(and(matches, gt(documents.id, floor)));
  const older =
    recent.length < limit
      ? await select(and(matches, lte(documents.id, floor)), sql`${documents.id} + 0 DESC`)
      : [];
  const byText = [...recent, ...older];
  const seen = new Set<number>();
  return [...byNumber, ...byText]
    .filter((row) => !seen.has(row.id) && seen.add(row.id))
    .slice(0, limit)
    .map((row) => ({
      id: row.id,
      protocolId: formatProtocolId(row.protocolNumber, row.protocolYear),
      name: row.name,
      subject: row.subject,
    }));
}

/** The protocol's lists of the global search: incoming, outgoing documents and cases. */
export const protocolSearchSources = [
  defineSearchSource({
    key: 'inboxDTOList',
    permission: 'protocol:read',
    item: searchDocumentSchema,
    find: ({ db, principal, companyId, text, limit }) =>
      findDocuments(db, principal, companyId, 0, text, limit),
  }),
  defineSearchSource({
    key: 'outboxDTOList',
    permission: 'protocol:read',
    item: searchDocumentSchema,
    find: ({ db, principal, companyId, text, limit }) =>
      findDocuments(db, principal, companyId, 1, text, limit),
  }),
  // Cases are seen by every protocol reader of the company (as in the cases list).
  defineSearchSource({
    key: 'caseDTOList',
    permission: 'protocol:read',
    item: searchCaseSchema,
    find: ({ db, companyId, text, limit }) =>
      db
        .select({ id: cases.id, code: cases.code, name: cases.name })
        .from(cases)
        .where(and(eq(cases.companyId, companyId), text.matches(cases.searchVector)))
        .orderBy(desc(cases.id))
        .limit(limit),
  }),
];
