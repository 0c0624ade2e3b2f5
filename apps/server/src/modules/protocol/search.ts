import {
  formatProtocolId,
  type SearchDocument,
  searchCaseSchema,
  searchDocumentSchema,
} from '@protocol/contracts';
import { and, desc, eq, ne, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Principal } from '../../platform/auth.ts';
import { defineSearchSource, type SearchText } from '../../platform/search/search.ts';
import { visibleDocuments } from './documents/visibility.ts';
import { cases, documents } from './protocol.schema.ts';

/** "1532" or "1532/2026" as people write a protocol number. */
const PROTOCOL_ID = /^(\d{1,9})(?:\/(\d{4}))?$/;

const DELETED = 9;

/**
 * Documents of one kind the asker sees: first those whose protocol number is what was typed, then
 * the text matches, newest first. Deleted drafts are not found; archived documents are.
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
  const select = (where: SQL | undefined) =>
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
      .orderBy(desc(documents.id))
      .limit(limit);
  const number = PROTOCOL_ID.exec(text.raw);
  const byNumber = number
    ? await select(
        and(
          eq(documents.protocolNumber, Number(number[1])),
          number[2] ? eq(documents.protocolYear, Number(number[2])) : undefined,
        ),
      )
    : [];
  const byText = await select(text.matches(documents.searchVector));
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
