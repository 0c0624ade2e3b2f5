import {
  Decimal,
  moneyString,
  type Plan,
  type SaveSettlement,
  type Settlement,
  type SettlementCategory,
  type SettlementInstalment,
  type SettlementPreviewRequest,
  settlementErrors,
  settlementStatuses,
  utilityDay,
} from '@protocol/contracts';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { SYSTEM_USER } from '../../platform/audit-columns.ts';
import type { Principal } from '../../platform/auth.ts';
import { settlementPlan, shouldCancel } from '../../platform/domain/settlements.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { translate } from '../../platform/i18n.ts';
import {
  addInstalmentDebts,
  closeDebtsIntoSettlement,
  type Debt,
  debtsByIds,
  openDebts,
  reopenSettlement,
} from '../payments/api.ts';
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import {
  settlementCategories,
  settlementCounters,
  settlementInstalments,
  settlements,
} from './settlements.schema.ts';

/** How the payments module knows a settlement: its debts carry this key. */
export const settlementKey = (id: number) => `settlement:${id}`;
export const settlementIdOfKey = (key: string | null) =>
  key?.startsWith('settlement:') ? Number(key.slice('settlement:'.length)) : null;

const label = (s: { nr: number; year: number }) => `${s.nr}/${s.year}`;

async function categoryOf(tx: Tx | Db, companyId: number, id: number): Promise<SettlementCategory> {
  const [row] = await tx
    .select()
    .from(settlementCategories)
    .where(and(eq(settlementCategories.id, id), eq(settlementCategories.companyId, companyId)));
  if (!row) throw badRequest([{ field: 'categoryId', key: 'validation.invalid', params: {} }]);
  if (!row.active)
    throw badRequest([{ field: 'categoryId', key: settlementErrors.categoryInactive, params: {} }]);
  return row;
}

async function consumerOf(tx: Tx | Db, companyId: number, id: number) {
  const [row] = await tx
    .select({ id: waterConsumers.id, code: waterConsumers.code, name: traders.fullname })
    .from(waterConsumers)
    .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .where(and(eq(waterConsumers.id, id), eq(waterConsumers.companyId, companyId)));
  if (!row) throw badRequest([{ field: 'consumerId', key: 'validation.invalid', params: {} }]);
  return row;
}

/** The selected debts among the consumer's open ones; a debt not open answers 400 on `debtIds`. */
function selected(open: Debt[], ids: readonly number[]): Debt[] {
  const chosen = open.filter((d) => ids.includes(d.id));
  if (chosen.length !== new Set(ids).size) {
    throw badRequest([{ field: 'debtIds', key: 'payments.error.debt_not_open', params: {} }]);
  }
  return chosen;
}

function planOf(
  request: SettlementPreviewRequest,
  category: SettlementCategory,
  debts: { remaining: string; interest: string }[],
  date: string,
): Plan {
  const { plan, errors } = settlementPlan({
    debts: debts.map((d) => d.remaining),
    interest: moneyString(debts.reduce((t, d) => t.plus(d.interest), new Decimal(0))),
    category,
    discountPercent: request.discountPercent,
    downPayment: request.downPayment,
    instalments: request.instalments,
    date,
  });
  if (errors.length > 0) throw badRequest(errors);
  return plan;
}

/** The consumer's open debts a settlement may close (the consumer of the company, else 400). */
export async function debtsToSettle(db: Db, companyId: number, consumerId: number): Promise<Debt[]> {
  return db.transaction(async (tx) => {
    await consumerOf(tx, companyId, consumerId);
    return openDebts(tx, companyId, consumerId);
  });
}

/** The plan the screen shows before saving: computed as the save computes it, nothing written. */
export async function previewSettlement(
  db: Db,
  companyId: number,
  request: SettlementPreviewRequest,
): Promise<Plan> {
  return db.transaction(async (tx) => {
    await consumerOf(tx, companyId, request.consumerId);
    const category = await categoryOf(tx, companyId, request.categoryId);
    const debts = selected(await openDebts(tx, companyId, request.consumerId), request.debtIds);
    return planOf(request, category, debts, utilityDay(new Date()));
  });
}

/** The next number of the company's settlements in `year`: gapless, the counter row locked to commit. */
async function nextNumber(tx: Tx, companyId: number, year: number): Promise<number> {
  const [row] = await tx
    .insert(settlementCounters)
    .values({ companyId, year, last: 1 })
    .onConflictDoUpdate({
      target: [settlementCounters.companyId, settlementCounters.year],
      set: { last: sql`${settlementCounters.last} + 1` },
    })
    .returning({ last: settlementCounters.last });
  if (!row) throw new Error('the settlement counter returned no number');
  return row.last;
}

/**
 * Saves a settlement in one transaction: its number, the debts closed into it (payments locks the
 * consumer, so no payment lands in between), the plan computed on what they owed when closed, and
 * the down payment and instalments as debts with their own due dates and RF codes. Status 0 until
 * the down payment is paid.
 */
export async function createSettlement(
  db: Db,
  principal: Principal,
  companyId: number,
  body: SaveSettlement,
  requestId: string,
): Promise<Settlement> {
  const id = await db.transaction(async (tx) => {
    await consumerOf(tx, companyId, body.consumerId);
    const category = await categoryOf(tx, companyId, body.categoryId);
    const interestOf = new Map(
      selected(await openDebts(tx, companyId, body.consumerId), body.debtIds).map((d) => [d.id, d.interest]),
    );
    const date = utilityDay(new Date());
    const year = Number(date.slice(0, 4));
    const nr = await nextNumber(tx, companyId, year);
    const [row] = await tx
      .insert(settlements)
      .values({
        companyId,
        year,
        nr,
        date,
        consumerId: body.consumerId,
        categoryId: category.id,
        debtsTotal: '0',
        interest: '0',
        discountPercent: body.discountPercent,
        discount: '0',
        amount: '0',
        downPayment: '0',
        installments: body.instalments,
        debts: [],
        comments: body.comments,
        createuser: principal.username,
      })
      .returning({ id: settlements.id });
    if (!row) throw new Error('the settlement was not stored');
    const who = {
      companyId,
      consumerId: body.consumerId,
      settlementKey: settlementKey(row.id),
      username: principal.username,
      date,
    };
    const closed = await closeDebtsIntoSettlement(tx, { ...who, debtIds: body.debtIds });
    const plan = planOf(
      body,
      category,
      closed.debts.map((d) => ({ remaining: d.remaining, interest: interestOf.get(d.id) ?? '0.00' })),
      date,
    );
    const number = label({ nr, year });
    const added = await addInstalmentDebts(tx, {
      ...who,
      instalments: plan.lines.map((line) => ({
        description:
          line.number === 0
            ? translate('el', 'settlements.downPayment', { number })
            : translate('el', 'settlements.instalment', {
                number,
                index: line.number,
                count: body.instalments,
              }),
        dueDate: line.dueDate,
        amount: line.amount,
      })),
    });
    await tx.insert(settlementInstalments).values(
      plan.lines.map((line, index) => ({
        settlementId: row.id,
        number: line.number,
        debtId: added[index]?.id ?? 0,
        dueDate: line.dueDate,
        amount: line.amount,
      })),
    );
    await tx
      .update(settlements)
      .set({
        debtsTotal: plan.debtsTotal,
        interest: plan.interest,
        discount: plan.discount,
        amount: plan.total,
        downPayment: plan.downPayment,
        debts: closed.debts,
      })
      .where(eq(settlements.id, row.id));
    await recordAudit(tx, {
      entity: 'settlements',
      entityId: row.id,
      action: 'create',
      companyId,
      user: principal,
      requestId,
    });
    return row.id;
  });
  return getSettlement(db, companyId, id);
}

/** A settlement with its instalments and their state (paid, open, missed, cancelled). */
export async function getSettlement(db: Db | Tx, companyId: number, id: number): Promise<Settlement> {
  const [row] = await db
    .select({
      s: settlements,
      consumerCode: waterConsumers.code,
      consumerName: traders.fullname,
      categoryDescription: settlementCategories.description,
      toleranceDays: settlementCategories.toleranceDays,
    })
    .from(settlements)
    .innerJoin(waterConsumers, eq(waterConsumers.id, settlements.consumerId))
    .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .innerJoin(settlementCategories, eq(settlementCategories.id, settlements.categoryId))
    .where(and(eq(settlements.id, id), eq(settlements.companyId, companyId)));
  if (!row) throw notFound();
  const { s } = row;
  const lines = await db
    .select()
    .from(settlementInstalments)
    .where(eq(settlementInstalments.settlementId, id))
    .orderBy(asc(settlementInstalments.number));
  const debts = new Map(
    (
      await inTx(db, (tx) =>
        debtsByIds(
          tx,
          companyId,
          lines.map((l) => l.debtId),
        ),
      )
    ).map((d) => [d.id, d]),
  );
  const today = utilityDay(new Date());
  return {
    id: s.id,
    nr: s.nr,
    year: s.year,
    date: s.date,
    status: s.status,
    consumerId: s.consumerId,
    consumerCode: row.consumerCode,
    consumerName: row.consumerName,
    categoryId: s.categoryId,
    categoryDescription: row.categoryDescription,
    debtsTotal: s.debtsTotal,
    interest: s.interest,
    discountPercent: s.discountPercent,
    discount: s.discount,
    amount: s.amount,
    downPayment: s.downPayment,
    installments: s.installments,
    comments: s.comments,
    activatedAt: s.activatedAt?.toISOString() ?? null,
    cancelledAt: s.cancelledAt?.toISOString() ?? null,
    debts: s.debts,
    lines: lines.map((l): SettlementInstalment => {
      const debt = debts.get(l.debtId);
      const paid = debt?.paid ?? '0.00';
      const paidInFull = new Decimal(paid).gte(l.amount);
      const state: SettlementInstalment['state'] = paidInFull
        ? 'paid'
        : debt?.status === 'cancelled'
          ? 'cancelled'
          : l.dueDate < today
            ? 'missed'
            : 'open';
      return {
        number: l.number,
        debtId: l.debtId,
        dueDate: l.dueDate,
        amount: l.amount,
        paid,
        rfCode: debt?.rfCode ?? '',
        state,
      };
    }),
  };
}

/** payments' api reads in a transaction; a plain read opens a short one. */
function inTx<T>(db: Db | Tx, run: (tx: Tx) => Promise<T>): Promise<T> {
  return 'rollback' in db ? run(db as Tx) : (db as Db).transaction(run);
}

/**
 * Told by payments, in the paying transaction, of debts paid in full: a pending settlement whose
 * down payment (instalment 0) is among them becomes active.
 */
export async function activateOnDownPayment(
  tx: Tx,
  paid: { companyId: number; debtId: number; settlementKey: string | null }[],
): Promise<void> {
  const ids = paid.filter((p) => settlementIdOfKey(p.settlementKey) !== null).map((p) => p.debtId);
  if (ids.length === 0) return;
  await tx
    .update(settlements)
    .set({ status: settlementStatuses.active, activatedAt: new Date() })
    .where(
      and(
        eq(settlements.status, settlementStatuses.pending),
        inArray(
          settlements.id,
          tx
            .select({ id: settlementInstalments.settlementId })
            .from(settlementInstalments)
            .where(and(eq(settlementInstalments.number, 0), inArray(settlementInstalments.debtId, ids))),
        ),
      ),
    );
}

/**
 * Cancels a settlement (status 9): its unpaid instalments are cancelled and what they left unpaid
 * returns to the account as one debt due today; what was paid stays paid, the history is kept.
 */
export async function cancelSettlement(
  tx: Tx,
  companyId: number,
  id: number,
  username: string,
): Promise<boolean> {
  const [s] = await tx
    .select()
    .from(settlements)
    .where(and(eq(settlements.id, id), eq(settlements.companyId, companyId)))
    .for('update');
  if (!s) throw notFound();
  if (s.status === settlementStatuses.cancelled) return false;
  const date = utilityDay(new Date());
  await reopenSettlement(tx, {
    companyId,
    consumerId: s.consumerId,
    settlementKey: settlementKey(id),
    username,
    date,
    dueDate: date,
    description: translate('el', 'settlements.reopened', { number: label(s) }),
  });
  await tx
    .update(settlements)
    .set({
      status: settlementStatuses.cancelled,
      cancelledAt: new Date(),
      changeuser: username,
      changedate: new Date(),
    })
    .where(eq(settlements.id, id));
  return true;
}

/**
 * The daily check: every pending or active settlement with more instalments missed than its
 * category tolerates is cancelled, each in its own transaction (a rerun finds it cancelled).
 * Answers how many were cancelled.
 */
export async function cancelMissedSettlements(db: Db, today: string, signal?: AbortSignal): Promise<number> {
  const candidates = await db
    .select({
      id: settlements.id,
      companyId: settlements.companyId,
      toleranceDays: settlementCategories.toleranceDays,
      toleranceInstalments: settlementCategories.toleranceInstalments,
    })
    .from(settlements)
    .innerJoin(settlementCategories, eq(settlementCategories.id, settlements.categoryId))
    .where(
      and(
        inArray(settlements.status, [settlementStatuses.pending, settlementStatuses.active]),
        // Only settlements with an instalment past its due date and the days tolerated.
        sql`EXISTS (SELECT 1 FROM ${settlementInstalments} i WHERE i.settlement_id = ${settlements.id}
              AND i.due_date + ${settlementCategories.toleranceDays} < ${today}::date)`,
      ),
    )
    .orderBy(asc(settlements.id));
  let cancelled = 0;
  for (const c of candidates) {
    if (signal?.aborted) break;
    const done = await db.transaction(async (tx) => {
      // Locked before reading, so a payment or a hand cancel in between is seen.
      const [locked] = await tx
        .select({ status: settlements.status })
        .from(settlements)
        .where(eq(settlements.id, c.id))
        .for('update');
      if (locked?.status === settlementStatuses.cancelled) return false;
      const lines = await tx
        .select()
        .from(settlementInstalments)
        .where(eq(settlementInstalments.settlementId, c.id));
      const debts = new Map(
        (
          await debtsByIds(
            tx,
            c.companyId,
            lines.map((l) => l.debtId),
          )
        ).map((d) => [d.id, d]),
      );
      const state = lines.map((l) => ({
        dueDate: l.dueDate,
        paidInFull: new Decimal(debts.get(l.debtId)?.paid ?? 0).gte(l.amount),
      }));
      if (!shouldCancel(state, c, today)) return false;
      return cancelSettlement(tx, c.companyId, c.id, SYSTEM_USER);
    });
    if (done) cancelled++;
  }
  return cancelled;
}

/** A consumer's settlements, newest first (the consumer card's tab). */
export async function settlementsOfConsumer(db: Db, companyId: number, consumerId: number) {
  const [consumer] = await db
    .select({ id: waterConsumers.id })
    .from(waterConsumers)
    .where(and(eq(waterConsumers.id, consumerId), eq(waterConsumers.companyId, companyId)));
  if (!consumer) throw notFound();
  return db
    .select({
      id: settlements.id,
      number: sql<string>`${settlements.nr} || '/' || ${settlements.year}`,
      date: settlements.date,
      status: settlements.status,
      consumerId: settlements.consumerId,
      consumerCode: waterConsumers.code,
      consumerName: traders.fullname,
      category: settlementCategories.description,
      amount: settlements.amount,
      installments: settlements.installments,
    })
    .from(settlements)
    .innerJoin(waterConsumers, eq(waterConsumers.id, settlements.consumerId))
    .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .innerJoin(settlementCategories, eq(settlementCategories.id, settlements.categoryId))
    .where(and(eq(settlements.companyId, companyId), eq(settlements.consumerId, consumerId)))
    .orderBy(desc(settlements.date), desc(settlements.id));
}
