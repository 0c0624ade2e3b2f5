import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import type { Principal } from '../../../platform/auth.ts';
import { notify } from '../../notifications/api.ts';
import { documentAssignments, documents } from '../protocol.schema.ts';
import { ASSIGNMENT_KIND, type DocumentRow } from './documents.common.ts';

/*
 * The charge a save names (chargedUserId) and the notification it sends the chargee; the charge,
 * share and return actions have their own in the actions service.
 */

/** Charges the document to an operator (a save naming chargedUserId): ends the current charge, notifies. */
export async function chargeOnSave(
  tx: Tx,
  principal: Principal,
  row: Pick<DocumentRow, 'id' | 'companyId' | 'subject'>,
  userId: number,
): Promise<void> {
  await tx
    .update(documentAssignments)
    .set({ endedAt: new Date() })
    .where(
      and(
        eq(documentAssignments.documentId, row.id),
        eq(documentAssignments.kind, ASSIGNMENT_KIND.charge),
        isNull(documentAssignments.endedAt),
      ),
    );
  await tx
    .insert(documentAssignments)
    .values({ documentId: row.id, kind: ASSIGNMENT_KIND.charge, userId, byUserId: principal.userId });
  await tx
    .update(documents)
    .set({ chargedUserId: userId, chargedGroupId: null })
    .where(eq(documents.id, row.id));
  await notify(tx, chargedNotification(principal, row, userId));
}

export const chargedNotification = (
  principal: Principal,
  row: Pick<DocumentRow, 'id' | 'companyId' | 'subject'>,
  userId: number,
) => ({
  companyId: row.companyId,
  userIds: [userId],
  senderId: principal.userId,
  messageKey: 'documents.notification.charged',
  params: { subject: row.subject },
  entity: 'document',
  entityId: row.id,
});
