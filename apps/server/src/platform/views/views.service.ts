import { errorKeys, type TableView, tableViewSchema, type UserMeta } from '@protocol/contracts';
import { and, asc, eq, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { updatedBy } from '../audit-columns.ts';
import type { Principal } from '../auth.ts';
import { AppError, forbidden, notFound } from '../errors.ts';
import { userMeta, userMetaActive } from './views.schema.ts';

const isAdmin = (p: Principal) => p.kind === 1 || p.superAdmin;

function parseView(metaValue: string): TableView {
  let json: unknown;
  try {
    json = JSON.parse(metaValue);
  } catch {
    throw new AppError(400, errorKeys.badData, {}, [
      { field: 'metaValue', key: 'validation.invalid', params: {} },
    ]);
  }
  const parsed = tableViewSchema.safeParse(json);
  if (!parsed.success) {
    throw new AppError(400, errorKeys.badData, {}, [
      { field: 'metaValue', key: 'validation.invalid', params: {} },
    ]);
  }
  return parsed.data;
}

/** The view as stored: without the per-operator active flag. */
const contentOf = (view: TableView) => JSON.stringify({ ...view, active: 0 });

/** The operator's own views and the shared ones of a list, with `active` set for this operator. */
export async function listViews(db: Db, principal: Principal, metaKey: string): Promise<UserMeta[]> {
  const [rows, [chosen]] = await Promise.all([
    db
      .select()
      .from(userMeta)
      .where(
        and(eq(userMeta.metaKey, metaKey), or(eq(userMeta.userId, principal.userId), eq(userMeta.global, 1))),
      )
      .orderBy(asc(userMeta.id)),
    db
      .select({ id: userMetaActive.metaId })
      .from(userMetaActive)
      .where(and(eq(userMetaActive.userId, principal.userId), eq(userMetaActive.metaKey, metaKey))),
  ]);
  return rows.map((row) => {
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(row.metaValue);
    } catch {
      value = {};
    }
    return {
      id: row.id,
      global: row.global === 1 ? 1 : 0,
      metaKey: row.metaKey,
      metaValue: JSON.stringify({ ...value, active: row.id === chosen?.id ? 1 : 0 }),
    };
  });
}

async function choose(tx: Tx, principal: Principal, metaKey: string, id: number, active: boolean) {
  if (active) {
    await tx
      .insert(userMetaActive)
      .values({ userId: principal.userId, metaKey, metaId: id })
      .onConflictDoUpdate({ target: [userMetaActive.userId, userMetaActive.metaKey], set: { metaId: id } });
  } else {
    await tx
      .delete(userMetaActive)
      .where(
        and(
          eq(userMetaActive.userId, principal.userId),
          eq(userMetaActive.metaKey, metaKey),
          eq(userMetaActive.metaId, id),
        ),
      );
  }
}

/**
 * Saves a view (spec §4): a new one, a change to one's own, or to a shared one (admins only).
 * Anyone may choose a shared view: the active flag is kept per operator.
 */
export async function saveView(db: Db, principal: Principal, meta: UserMeta): Promise<UserMeta> {
  const view = parseView(meta.metaValue);
  const content = contentOf(view);
  return db.transaction(async (tx) => {
    let id = meta.id;
    if (id === null) {
      if (meta.global === 1 && !isAdmin(principal)) throw forbidden(errorKeys.globalViewsAdminOnly);
      const [row] = await tx
        .insert(userMeta)
        .values({
          userId: principal.userId,
          global: meta.global,
          metaKey: meta.metaKey,
          metaValue: content,
          createuser: principal.username,
        })
        .returning({ id: userMeta.id });
      id = row?.id ?? null;
      if (id === null) throw new Error('view insert returned nothing');
    } else {
      const [existing] = await tx
        .select()
        .from(userMeta)
        .where(and(eq(userMeta.id, id), eq(userMeta.metaKey, meta.metaKey)));
      const visible = existing && (existing.userId === principal.userId || existing.global === 1);
      if (!existing || !visible) throw notFound();
      const changed = existing.metaValue !== content || existing.global !== meta.global;
      if (changed) {
        const own = existing.userId === principal.userId && existing.global === 0;
        const mayChangeShared = isAdmin(principal);
        if (!own && !mayChangeShared) throw forbidden(errorKeys.globalViewsAdminOnly);
        if (meta.global === 1 && existing.global === 0 && !mayChangeShared) {
          throw forbidden(errorKeys.globalViewsAdminOnly);
        }
        await tx
          .update(userMeta)
          .set({ metaValue: content, global: meta.global, ...updatedBy(principal.username) })
          .where(eq(userMeta.id, id));
      }
    }
    await choose(tx, principal, meta.metaKey, id, view.active === 1);
    return { id, global: meta.global, metaKey: meta.metaKey, metaValue: JSON.stringify({ ...view }) };
  });
}

/** Deletes one's own view, or a shared one (admins only). */
export async function deleteView(db: Db, principal: Principal, meta: { id: number | null; metaKey: string }) {
  if (meta.id === null) throw notFound();
  const [existing] = await db
    .select()
    .from(userMeta)
    .where(and(eq(userMeta.id, meta.id), eq(userMeta.metaKey, meta.metaKey)));
  if (!existing || (existing.userId !== principal.userId && existing.global !== 1)) throw notFound();
  if (existing.global === 1 && !isAdmin(principal)) throw forbidden(errorKeys.globalViewsAdminOnly);
  await db.delete(userMeta).where(eq(userMeta.id, meta.id));
}
