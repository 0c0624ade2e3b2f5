import type { DocumentActionName } from '@protocol/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { concurrently, rowsOf, type Tx } from '../../../db/client.ts';
import type { Principal } from '../../../platform/auth.ts';
import { AppError } from '../../../platform/errors.ts';
import { userGroupMembers } from '../../users/groups.schema.ts';
import { caseDocuments, documentAssignments, documentSignatures } from '../protocol.schema.ts';
import { ASSIGNMENT_KIND, type DocumentRow } from './documents.common.ts';
import { attachmentHashes, contentHashOf } from './documents.hash.ts';
import { actionAvailability, type DocumentFacts, reasonKeys } from './documents.rules.ts';

/*
 * What the action rules (documents.rules.ts, pure) need to know about a document and the asker, read
 * from the database, and the guard that turns a refusal into 403 or 409.
 */

/** Whether the operator is the current chargee, and whether a charge is active (one query). */
export async function chargeFacts(tx: Tx, principal: Principal, row: DocumentRow) {
  const result = await tx.execute(sql`
    SELECT
      EXISTS (SELECT 1 FROM ${documentAssignments}
              WHERE ${documentAssignments.documentId} = ${row.id}
                AND ${documentAssignments.kind} = ${ASSIGNMENT_KIND.charge}
                AND ${documentAssignments.endedAt} IS NULL) AS "active",
      EXISTS (SELECT 1 FROM ${userGroupMembers}
              WHERE ${userGroupMembers.groupId} = ${row.chargedGroupId ?? -1}
                AND ${userGroupMembers.userId} = ${principal.userId}) AS "member"`);
  const [facts] = rowsOf<{ active: boolean; member: boolean }>(result);
  return {
    hasActiveCharge: Boolean(facts?.active),
    isChargee: row.chargedUserId === principal.userId || Boolean(facts?.member),
  };
}

/** What the action rules need about a document and the asker (three small queries). */
export async function documentFacts(tx: Tx, principal: Principal, row: DocumentRow): Promise<DocumentFacts> {
  const [charge, hashes, inCase] = await concurrently(tx, [
    () => chargeFacts(tx, principal, row),
    () => attachmentHashes(tx, row.id),
    () =>
      tx
        .select({ id: caseDocuments.caseId })
        .from(caseDocuments)
        .where(eq(caseDocuments.documentId, row.id))
        .limit(1),
  ]);
  const hash = contentHashOf(row, hashes);
  const signed = await tx
    .select({ id: documentSignatures.id })
    .from(documentSignatures)
    .where(
      and(
        eq(documentSignatures.documentId, row.id),
        eq(documentSignatures.userId, principal.userId),
        eq(documentSignatures.contentHash, hash),
      ),
    )
    .limit(1);
  return {
    ...charge,
    inCase: inCase.length > 0,
    attachmentsCount: hashes.length,
    signedByMe: signed.length > 0,
  };
}

/** 403 (who) or 409 (the document's state) with the rule's reason key when the action is refused. */
export function assertAction(
  principal: Principal,
  name: DocumentActionName,
  row: DocumentRow,
  facts: DocumentFacts,
): void {
  const verdict = actionAvailability(principal, name, row, facts);
  if (verdict.allowed || verdict.reasonKey === null) return;
  const who: string[] = [reasonKeys.notAllowed, reasonKeys.writeOrChargee, reasonKeys.notChargee];
  throw new AppError(who.includes(verdict.reasonKey) ? 403 : 409, verdict.reasonKey, { action: name });
}
