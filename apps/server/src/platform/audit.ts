import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/client.ts';
import { auditLog } from './audit.schema.ts';

export interface AuditEntry {
  entity: string;
  entityId: string | number;
  action: string;
  companyId?: number | null;
  user?: { userId: number; username: string } | null;
  changes?: Record<string, { before: unknown; after: unknown }>;
  comments?: string;
  requestId?: string;
}

/** Writes one line of the audit trail, in the caller's transaction so it commits with the change. */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await auditInsert(tx, [
    {
      entity: entry.entity,
      entityId: String(entry.entityId),
      action: entry.action,
      companyId: entry.companyId ?? null,
      userId: entry.user?.userId ?? null,
      username: entry.user?.username ?? null,
      changes: entry.changes ?? null,
      comments: entry.comments ?? null,
      requestId: entry.requestId ?? null,
    },
  ]);
}

/**
 * The INSERT of audit lines, not run: a caller makes it part of a larger statement (a CTE), so the
 * lines are written by the statement that makes the change. Values may be SQL expressions.
 */
export function auditInsert(tx: Tx, lines: PgInsertValue<typeof auditLog>[]) {
  return tx.insert(auditLog).values(lines);
}

/** Field-by-field before/after of the keys that changed. */
export function diff<T extends Record<string, unknown>>(before: T, after: Partial<T>) {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value !== undefined && before[key] !== value) changes[key] = { before: before[key], after: value };
  }
  return changes;
}
