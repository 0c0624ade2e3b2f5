import {
  formatProtocolId,
  type SearchDocument,
  searchCaseSchema,
  searchDocumentSchema,
} from '@protocol/contracts';
import { and, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Principal } from '../../platform/auth.ts';
import {
  defineSearchSource,
  newestMatches,
  RECENT_WINDOW,
  type SearchText,
} from '../../platform/search/search.ts';
import { visibilityCondition, visibleDocuments } from './documents/visibility.ts';
import { cases, documents } from './protocol.schema.ts';

/** "1532" or "1532/2026" as people write a protocol number. */
const PROTOCOL_ID = /^(\d{1,9})(?:\/(\d{4}))?$/;

const DELETED = 9;

/**
 * Documents of one kind the asker sees: first those whose protocol number is what was typed, then
 * the text matches, newest first (`newestMatches`; the GIN step reads 200 matches in 1M documents in
 * 1 ms, 50 ms if the planner ANDs them with the company's whole list index).
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
  const fields = {
    id: documents.id,
    protocolNumber: documents.protocolNumber,
    protocolYear: documents.protocolYear,
    name: documents.name,
    subject: documents.subject,
  };
  const select = (where: SQL | undefined, order: SQL) =>
    db.select(fields).from(documents).where(and(scope, where)).orderBy(order).limit(limit);
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
  const newest = db
    .select({ ...fields, searchVector: documents.searchVector })
    .from(documents)
    .where(scope)
    .orderBy(desc(documents.id))
    .limit(RECENT_WINDOW)
    .as('newest');
  const byText = await newestMatches(
    limit,
    () =>
      db
        .select({
          id: newest.id,
          protocolNumber: newest.protocolNumber,
          protocolYear: newest.protocolYear,
          name: newest.name,
          subject: newest.subject,
        })
        .from(newest)
        .where(text.matches(newest.searchVector))
        .orderBy(desc(newest.id))
        .limit(limit),
    () =>
      db
        .select(fields)
        .from(documents)
        .where(
          and(
            sql`${documents.companyId} + 0 = ${companyId}`,
            visibilityCondition(principal),
            // Nor a bitmap AND with the half of the list index of that kind (30 ms on 1,000,000).
            sql`${documents.kind} + 0 = ${kind}`,
            ne(documents.state, DELETED),
            text.matches(documents.searchVector),
          ),
        )
        .orderBy(sql`${documents.id} + 0 DESC`)
        .limit(limit),
  );
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
    indexes: 'documents',
    item: searchDocumentSchema,
    find: ({ db, principal, companyId, text, limit }) =>
      findDocuments(db, principal, companyId, 0, text, limit),
  }),
  defineSearchSource({
    key: 'outboxDTOList',
    permission: 'protocol:read',
    indexes: 'documents',
    item: searchDocumentSchema,
    find: ({ db, principal, companyId, text, limit }) =>
      findDocuments(db, principal, companyId, 1, text, limit),
  }),
  // Cases are seen by every protocol reader of the company (as in the cases list).
  defineSearchSource({
    key: 'caseDTOList',
    permission: 'protocol:read',
    indexes: 'cases',
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
