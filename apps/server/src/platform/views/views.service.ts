import { errorKeys, type TableView, tableViewSchema, type UserMeta } from '@protocol/contracts';
import { and, asc, eq, isNull, or, type SQL } from 'drizzle-orm';
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

type ViewRow = typeof userMeta.$inferSelect;

/**
 * The views of a list an operator sees in a company (`companyId`, null for an operator of no
 * company): their own personal ones, the company's shared ones and those shared with every company.
 */
function visibleIn(principal: Principal, companyId: number | null): SQL | undefined {
  return or(
    and(eq(userMeta.global, 0), eq(userMeta.userId, principal.userId)),
    and(
      eq(userMeta.global, 1),
      companyId === null
        ? isNull(userMeta.companyId)
        : or(isNull(userMeta.companyId), eq(userMeta.companyId, companyId)),
    ),
  );
}

/**
 * Who may change or delete a view: a personal one its author; a company's shared one an
 * administrator of that company or a super administrator; one shared with every company (a super
 * administrator's) a super administrator only. Throws 403 with the rule broken.
 */
function assertMayChange(principal: Principal, row: ViewRow): void {
  // A personal view is seen by its author only (`visibleIn`).
  if (row.global === 0 || principal.superAdmin) return;
  if (!isAdmin(principal)) throw forbidden(errorKeys.globalViewsAdminOnly);
  // `visibleView` found it in the company in use: a shared view of no company is every company's.
  if (row.companyId === null) throw forbidden(errorKeys.globalViewsSuperAdminOnly);
}

/** The company a view shared now belongs to: every company for a super administrator's, else the one in use. */
function sharedCompany(principal: Principal, companyId: number | null): number | null {
  if (!isAdmin(principal)) throw forbidden(errorKeys.globalViewsAdminOnly);
  if (principal.superAdmin) return null;
  if (companyId === null) throw forbidden(errorKeys.globalViewsAdminOnly);
  return companyId;
}

/** The operator's own views and the shared ones of a list in a company, with `active` set for this operator. */
export async function listViews(
  db: Db,
  principal: Principal,
  metaKey: string,
  companyId: number | null,
): Promise<UserMeta[]> {
  const [rows, [chosen]] = await Promise.all([
    db
      .select()
      .from(userMeta)
      .where(and(eq(userMeta.metaKey, metaKey), visibleIn(principal, companyId)))
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

/** The view `id` of a list as the operator sees it in the company, locked for a change; 404 when not seen. */
async function visibleView(
  tx: Tx,
  principal: Principal,
  meta: { id: number; metaKey: string },
  companyId: number | null,
) {
  const [row] = await tx
    .select()
    .from(userMeta)
    .where(and(eq(userMeta.id, meta.id), eq(userMeta.metaKey, meta.metaKey), visibleIn(principal, companyId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

/**
 * Saves a view (spec §4): a new one, a change to one's own, or to a shared one (`assertMayChange`).
 * Anyone may choose a view they see: the active flag is kept per operator.
 */
export async function saveView(
  db: Db,
  principal: Principal,
  meta: UserMeta,
  companyId: number | null,
): Promise<UserMeta> {
  const view = parseView(meta.metaValue);
  const content = contentOf(view);
  return db.transaction(async (tx) => {
    let id = meta.id;
    if (id === null) {
      const [row] = await tx
        .insert(userMeta)
        .values({
          userId: principal.userId,
          global: meta.global,
          companyId: meta.global === 1 ? sharedCompany(principal, companyId) : null,
          metaKey: meta.metaKey,
          metaValue: content,
          createuser: principal.username,
        })
        .returning({ id: userMeta.id });
      id = row?.id ?? null;
      if (id === null) throw new Error('view insert returned nothing');
    } else {
      const existing = await visibleView(tx, principal, { id, metaKey: meta.metaKey }, companyId);
      if (existing.metaValue !== content || existing.global !== meta.global) {
        assertMayChange(principal, existing);
        // Shared now: it belongs to the company in use (every company's, a super administrator's);
        // personal again: its author's, in no company.
        let owner = existing.companyId;
        if (meta.global === 0) owner = null;
        else if (existing.global === 0) owner = sharedCompany(principal, companyId);
        await tx
          .update(userMeta)
          .set({
            metaValue: content,
            global: meta.global,
            companyId: owner,
            ...updatedBy(principal.username),
          })
          .where(eq(userMeta.id, id));
      }
    }
    await choose(tx, principal, meta.metaKey, id, view.active === 1);
    return { id, global: meta.global, metaKey: meta.metaKey, metaValue: JSON.stringify({ ...view }) };
  });
}

/** Deletes a view the operator sees and may change (`assertMayChange`). */
export async function deleteView(
  db: Db,
  principal: Principal,
  meta: { id: number | null; metaKey: string },
  companyId: number | null,
) {
  const id = meta.id;
  if (id === null) throw notFound();
  await db.transaction(async (tx) => {
    assertMayChange(principal, await visibleView(tx, principal, { id, metaKey: meta.metaKey }, companyId));
    await tx.delete(userMeta).where(eq(userMeta.id, id));
  });
}
