import { bookTypes, errorKeys, type ProtocolBook, type ProtocolBookRow } from '@protocol/contracts';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { updatedBy } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { FOREIGN_KEY_VIOLATION, pgError, UNIQUE_VIOLATION } from '../../platform/db-errors.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { applyRowTable } from '../../platform/row-table/apply.ts';
import { protocolBooks } from './parametrics.schema.ts';

type BookRow = typeof protocolBooks.$inferSelect;

const toDto = (row: BookRow): ProtocolBook => ({
  id: row.id,
  descr: row.descr,
  year: row.year,
  booktype: {
    id: row.booktype === bookTypes.outgoing ? 2 : 1,
    incoming: row.booktype === bookTypes.incoming,
  },
  isActive: row.isActive,
});

export async function listBooks(db: Db, companyId: number): Promise<ProtocolBook[]> {
  const rows = await db
    .select()
    .from(protocolBooks)
    .where(eq(protocolBooks.companyId, companyId))
    .orderBy(desc(protocolBooks.year), asc(protocolBooks.booktype), asc(protocolBooks.id));
  return rows.map(toDto);
}

/** The row-table save of protocol books, all or nothing. */
export async function saveBooks(
  db: Db,
  principal: Principal,
  companyId: number,
  rows: ProtocolBookRow[],
  requestId: string,
): Promise<ProtocolBook[]> {
  const scope = (id?: number) =>
    and(eq(protocolBooks.companyId, companyId), id === undefined ? undefined : eq(protocolBooks.id, id));
  try {
    await db.transaction(async (tx) => {
      await applyRowTable(tx, rows, {
        existingIds: async (t) =>
          (await t.select({ id: protocolBooks.id }).from(protocolBooks).where(scope())).map((r) => r.id),
        insert: async (t, row) => {
          const [created] = await t
            .insert(protocolBooks)
            .values({
              companyId,
              descr: row.descr,
              year: row.year,
              booktype: row.booktype.id,
              isActive: row.isActive,
              createuser: principal.username,
            })
            .returning({ id: protocolBooks.id });
          await recordAudit(t, {
            entity: 'protocolBook',
            entityId: created?.id ?? 0,
            action: 'create',
            companyId,
            user: principal,
            requestId,
          });
        },
        update: async (t, id, row) => {
          await t
            .update(protocolBooks)
            .set({
              descr: row.descr,
              year: row.year,
              booktype: row.booktype.id,
              isActive: row.isActive,
              ...updatedBy(principal.username),
            })
            .where(scope(id));
        },
        remove: async (t, ids) => {
          await t.delete(protocolBooks).where(and(scope(), inArray(protocolBooks.id, ids)));
          for (const id of ids) {
            await recordAudit(t, {
              entity: 'protocolBook',
              entityId: id,
              action: 'delete',
              companyId,
              user: principal,
              requestId,
            });
          }
        },
        unknownRow: () => notFound(),
      });
    });
  } catch (error) {
    const failure = pgError(error);
    if (failure?.code === UNIQUE_VIOLATION) throw new AppError(409, errorKeys.bookTypesUniquePerYear);
    if (failure?.code === FOREIGN_KEY_VIOLATION) throw new AppError(409, errorKeys.linkedElsewhere);
    throw error;
  }
  return listBooks(db, companyId);
}
