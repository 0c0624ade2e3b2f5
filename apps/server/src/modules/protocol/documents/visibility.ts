import { and, eq, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import type { Principal } from '../../../platform/auth.ts';
import { notFound } from '../../../platform/errors.ts';
import { userGroupMembers } from '../../users/groups.schema.ts';
import { documentAssignments, documents } from '../protocol.schema.ts';
import type { DocumentRow } from './documents.common.ts';
import { isProtocolWriter } from './documents.rules.ts';

/*
 * Who sees which document: the one visibility rule every read of documents (the answer, the lists,
 * cases, actions, attachments, the receipt) goes through, and the row of a document the asker may see.
 */

/** The groups (departments) the operator belongs to, as a subquery. */
const groupsOf = (userId: number | Placeholder) =>
  sql`(SELECT ${userGroupMembers.groupId} FROM ${userGroupMembers} WHERE ${userGroupMembers.userId} = ${userId})`;

/**
 * Which documents the operator may see, as a condition on `documents` (undefined: all of the
 * company). protocol:write and above see everything; protocol:read sees what they created, what is
 * or was charged to them or to one of their groups, and what is shared with them or their groups.
 */
export function visibilityCondition(principal: Principal): SQL | undefined {
  return isProtocolWriter(principal) ? undefined : readerVisibility(principal.userId);
}

/**
 * What a protocol:read operator `me` sees (`visibilityCondition`); `me` may be a placeholder, for a
 * statement built once.
 */
export function readerVisibility(me: number | Placeholder): SQL {
  return or(
    eq(documents.createUserId, me),
    eq(documents.chargedUserId, me),
    sql`${documents.chargedGroupId} IN ${groupsOf(me)}`,
    sql`EXISTS (SELECT 1 FROM ${documentAssignments} WHERE ${documentAssignments.documentId} = ${documents.id} AND (${documentAssignments.userId} = ${me} OR ${documentAssignments.groupId} IN ${groupsOf(me)}))`,
  ) as SQL;
}

/** Whether the operator may see this document of the company in use (the visibility rule). */
async function isVisibleTo(tx: Tx, principal: Principal, row: { id: number }): Promise<boolean> {
  const condition = visibilityCondition(principal);
  if (!condition) return true;
  const found = await tx
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.id, row.id), condition));
  return found.length > 0;
}

/** The documents of one company that the asker sees (the documents core's visibility rule). */
export function visibleDocuments(principal: Principal, companyId: number): SQL {
  return and(eq(documents.companyId, companyId), visibilityCondition(principal)) as SQL;
}

export async function getDocumentRow(tx: Tx, id: number): Promise<DocumentRow | undefined> {
  const [row] = await tx.select().from(documents).where(eq(documents.id, id));
  return row;
}

/** The document row locked for the rest of the transaction (SELECT … FOR UPDATE). */
export async function lockDocument(tx: Tx, id: number): Promise<DocumentRow | undefined> {
  const [row] = await tx.select().from(documents).where(eq(documents.id, id)).for('update');
  return row;
}

/**
 * The row of a document of the company in use that the operator may see, locked when asked; 404
 * otherwise — never 403, so a document's existence is not revealed.
 */
export async function visibleDocumentRow(
  tx: Tx,
  principal: Principal,
  companyId: number,
  id: number,
  options: { lock?: boolean } = {},
): Promise<DocumentRow> {
  const row = options.lock ? await lockDocument(tx, id) : await getDocumentRow(tx, id);
  if (!row || row.companyId !== companyId) throw notFound();
  if (!(await isVisibleTo(tx, principal, row))) throw notFound();
  return row;
}
