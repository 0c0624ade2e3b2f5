import type { HistoryEntry } from '@protocol/contracts';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../../db/client.ts';
import { auditLog } from '../../../platform/audit.schema.ts';
import { users } from '../../users/users.schema.ts';

/**
 * A document's history (spec §3 'history'): the lines of the one audit trail about it (entity
 * 'document'), each with who (username and full name), when, what changed before/after and the
 * comments. Oldest first for one document; a case's timeline reads them newest first.
 */
export async function historyOf(
  tx: Tx,
  documentIds: readonly number[],
  order: 'oldest' | 'newest' = 'oldest',
): Promise<(HistoryEntry & { documentId: number })[]> {
  if (documentIds.length === 0) return [];
  const rows = await tx
    .select({
      id: auditLog.id,
      entityId: auditLog.entityId,
      at: auditLog.at,
      action: auditLog.action,
      username: auditLog.username,
      firstname: users.firstname,
      lastname: users.lastname,
      comments: auditLog.comments,
      changes: auditLog.changes,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.userId))
    .where(
      and(
        eq(auditLog.entity, 'document'),
        inArray(
          auditLog.entityId,
          documentIds.map((id) => String(id)),
        ),
      ),
    )
    .orderBy(
      ...(order === 'oldest' ? [asc(auditLog.at), asc(auditLog.id)] : [desc(auditLog.at), desc(auditLog.id)]),
    );
  return rows.map((row) => ({
    id: row.id,
    documentId: Number(row.entityId),
    at: row.at.toISOString(),
    action: row.action,
    username: row.username,
    userFullName:
      row.firstname !== null || row.lastname !== null
        ? `${row.firstname ?? ''} ${row.lastname ?? ''}`.trim()
        : null,
    comments: row.comments,
    changes: row.changes ?? null,
  }));
}
