import { Decimal, moneyString, paymentsErrors } from '@protocol/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../db/client.ts';
import { allocate } from '../../platform/domain/payments.ts';
import { AppError } from '../../platform/errors.ts';
import { setBillsPaid } from '../billing/api.ts';
import { billingBillLines, billingBills } from '../billing/billing.schema.ts';
import { availableCredit, spendCredit } from './credit.ts';
import { paymentsAllocations, paymentsDebts, paymentsEntries, paymentsPayments } from './payments.schema.ts';

/**
 * Allocation (εξόφληση) in the caller's transaction: the consumer's payments take turns (an advisory
 * lock per consumer), the debts are locked in due-date order (`FOR UPDATE`, so a second payer waits
 * and then reads what the first paid), each takes what remains of it, and whoever waits on a debt
 * being paid in full (a settlement's down payment) is told in the same transaction.
 */

/** Told, in the paying transaction, of the debts a payment has just paid in full. */
export type DebtPaidHook = (
  tx: Tx,
  paid: { companyId: number; debtId: number; settlementKey: string | null }[],
) => Promise<void>;
const paidHooks = new Map<string, DebtPaidHook>();
export function addDebtPaidHook(name: string, hook: DebtPaidHook): void {
  paidHooks.set(name, hook);
}
/** Tells the hooks of debts paid in full (also by a bank file's set-based allocation). */
export async function debtsPaidInFull(tx: Tx, paid: Parameters<DebtPaidHook>[1]): Promise<void> {
  if (paid.length === 0) return;
  for (const hook of paidHooks.values()) await hook(tx, paid);
}

/** One consumer's payments at a time (the key space 18 is this module's). */
export async function lockConsumer(tx: Tx, consumerId: number): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(18, ${consumerId})`);
}

export interface Allocation {
  debtId: number;
  amount: string;
}

interface OpenDebt {
  id: number;
  amount: string;
  paid: string;
  settlementKey: string | null;
  description: string;
  issueDate: string;
}

/** The consumer's open, unpaid debts, oldest due first, locked for the payer. */
async function lockOpenDebts(tx: Tx, companyId: number, consumerId: number): Promise<OpenDebt[]> {
  return tx
    .select({
      id: paymentsDebts.id,
      amount: paymentsDebts.amount,
      paid: paymentsDebts.paid,
      settlementKey: paymentsDebts.settlementKey,
      description: paymentsDebts.description,
      issueDate: paymentsDebts.issueDate,
    })
    .from(paymentsDebts)
    .where(
      and(
        eq(paymentsDebts.companyId, companyId),
        eq(paymentsDebts.consumerId, consumerId),
        eq(paymentsDebts.status, 'open'),
        sql`${paymentsDebts.paid} < ${paymentsDebts.amount}`,
      ),
    )
    .orderBy(asc(paymentsDebts.dueDate), asc(paymentsDebts.id))
    .for('update');
}

/**
 * Writes allocations on the locked debts, tells the hooks of the debts now paid in full and billing of
 * what is paid of the consumer's bills.
 */
async function settleDebts(
  tx: Tx,
  companyId: number,
  consumerId: number,
  debts: ReadonlyMap<number, OpenDebt>,
  allocations: readonly (Allocation & { paymentId: number; date: string })[],
): Promise<void> {
  await tx
    .insert(paymentsAllocations)
    .values(
      allocations.map((a) => ({ paymentId: a.paymentId, debtId: a.debtId, amount: a.amount, date: a.date })),
    );
  const added = new Map<number, Decimal>();
  for (const a of allocations) added.set(a.debtId, (added.get(a.debtId) ?? new Decimal(0)).plus(a.amount));
  await tx.execute(sql`
    UPDATE payments_debts d SET paid = d.paid + v.amount
      FROM (VALUES ${sql.join(
        [...added].map(([id, amount]) => sql`(${id}::int, ${moneyString(amount)}::numeric)`),
        sql`, `,
      )}) AS v(id, amount)
     WHERE d.id = v.id`);
  const paid = [...added].flatMap(([debtId, amount]) => {
    const debt = debts.get(debtId);
    return debt && new Decimal(debt.paid).plus(amount).gte(debt.amount)
      ? [{ companyId, debtId, settlementKey: debt.settlementKey }]
      : [];
  });
  await debtsPaidInFull(tx, paid);
  await syncBillsPaid(tx, companyId, [consumerId]);
}

/**
 * Pays the consumer's open debts with `amount` dated `date`: the ones in `debtIds` in that order, or
 * all open ones oldest first. Answers the allocations and what was left over (the consumer's credit).
 * A debt named that is not the consumer's open one is a 409 and nothing is written.
 */
export async function payDebts(
  tx: Tx,
  request: {
    companyId: number;
    consumerId: number;
    paymentId: number;
    amount: string;
    date: string;
    debtIds?: readonly number[];
  },
): Promise<{ allocations: Allocation[]; left: string }> {
  const { companyId, consumerId } = request;
  await lockConsumer(tx, consumerId);
  await raiseBillDebts(tx, companyId, [consumerId]);
  const open = await lockOpenDebts(tx, companyId, consumerId);
  const byId = new Map(open.map((d) => [d.id, d]));
  let chosen = open;
  if (request.debtIds && request.debtIds.length > 0) {
    chosen = request.debtIds.map((id) => {
      const debt = byId.get(id);
      if (!debt) throw new AppError(409, paymentsErrors.debtNotOpen, { id });
      return debt;
    });
  }
  const { allocations, left } = allocate(
    chosen.map((d) => ({ id: d.id, remaining: moneyString(new Decimal(d.amount).minus(d.paid)) })),
    request.amount,
  );
  if (allocations.length === 0) return { allocations, left };
  await settleDebts(
    tx,
    companyId,
    consumerId,
    byId,
    allocations.map((a) => ({ ...a, paymentId: request.paymentId, date: request.date })),
  );
  return { allocations, left };
}

/**
 * Raises the debts of finalized bills (state 9, or −2 once carried into a later bill) that have none
 * yet, with their ledger lines, in one statement; concurrent callers meet on the unique bill index
 * and only the inserted rows write ledger lines. A bill's debt is its own period (net + VAT): the
 * earlier bills it carries stay debts of their own, with their own due dates. A consumer in credit
 * (a payment left over, or what was paid of a bill since credited, e.g. before its corrected bill)
 * has it applied to the new debts in the same transaction (`applyCredit`).
 */
export async function raiseBillDebts(
  tx: Tx,
  companyId: number,
  consumerIds?: readonly number[],
): Promise<void> {
  const consumers =
    consumerIds === undefined
      ? sql``
      : sql`AND b.consumer_id IN (${sql.join(
          consumerIds.length === 0 ? [sql`0`] : consumerIds.map((id) => sql`${id}`),
          sql`, `,
        )})`;
  const raisable = sql`
        FROM billing_bills b
       WHERE b.company_id = ${companyId} ${consumers}
         AND b.entry_state IN (9, -2) AND b.number IS NOT NULL
         AND b.total - b.previous_balance > 0
         AND NOT EXISTS (SELECT 1 FROM payments_debts d WHERE d.bill_id = b.id)`;
  // Consumers who may be in credit (a payment's rest, or what was paid of a bill since credited) are
  // locked as a payer locks them, in id order and before their new debts exist: a payer holding one
  // and raising the same bill cannot wait on us while we wait on it.
  const inCredit = rowsOf<{ consumer_id: number }>(
    await tx.execute(sql`
      SELECT DISTINCT b.consumer_id ${raisable}
         AND (EXISTS (SELECT 1 FROM payments_payments p WHERE p.consumer_id = b.consumer_id AND p.unallocated > 0)
              OR EXISTS (SELECT 1 FROM payments_debts c
                          WHERE c.consumer_id = b.consumer_id AND c.status = 'credited' AND c.paid > 0))
       ORDER BY 1`),
  ).map((r) => r.consumer_id);
  for (const id of inCredit) await lockConsumer(tx, id);
  const raised = rowsOf<{ consumer_id: number }>(
    await tx.execute(sql`
    WITH raised AS (
      INSERT INTO payments_debts
        (company_id, consumer_id, source, bill_id, kind, description, issue_date, due_date, amount, rf_code, createuser)
      SELECT b.company_id, b.consumer_id, 'bill', b.id, b.kind,
             b.number || '/' || b.year || ' · ' || b.period_label,
             b.issue_date, b.due_date, b.total - b.previous_balance, b.rf_code, 'billing'
      ${raisable}
      ON CONFLICT (bill_id) DO NOTHING
      RETURNING id, company_id, consumer_id, kind, description, issue_date, amount
    )
    INSERT INTO payments_entries (company_id, consumer_id, date, type, kind, description, debit, debt_id)
    SELECT company_id, consumer_id, issue_date, 'bill', kind, description, amount, id FROM raised
    RETURNING consumer_id`),
  );
  const withNewDebts = new Set(raised.map((r) => r.consumer_id));
  for (const id of inCredit) if (withNewDebts.has(id)) await applyCredit(tx, companyId, id);
}

/**
 * Pays the consumer's open debts, oldest first, with its credit: what its payments left over, and what
 * they paid of bills since credited (credits.ts), less what was returned or already applied. Each
 * (payment, debt) pair is an allocation of that payment and a ledger line "credit applied" with the
 * amount on both sides: the balance already counted the credit. The receipt of the payment stays as
 * it was issued. Called with the consumer locked.
 */
export async function applyCredit(tx: Tx, companyId: number, consumerId: number): Promise<void> {
  // Per payment: its rest, plus what it paid of credited debts (free since the credit's date).
  const payments = rowsOf<{ id: number; receipt: string; left: string; since: string }>(
    await tx.execute(sql`
      SELECT p.id, p.receipt_number || '/' || p.receipt_year AS receipt,
             (p.unallocated + coalesce(c.paid, 0)
               - coalesce((SELECT sum(e.credit) FROM payments_entries e
                            WHERE e.payment_id = p.id AND e.type = 'creditApplied'), 0))::text AS left,
             greatest(p.date, c.since)::text AS since
        FROM payments_payments p
        LEFT JOIN LATERAL (
          SELECT sum(a.amount) AS paid, max(credit.date) AS since
            FROM payments_allocations a
            JOIN payments_debts d ON d.id = a.debt_id AND d.status = 'credited'
            LEFT JOIN LATERAL (
              SELECT max(e.date) AS date FROM payments_entries e
               WHERE e.consumer_id = d.consumer_id AND e.debt_id = d.id AND e.type = 'credit') credit ON true
           WHERE a.payment_id = p.id) c ON true
       WHERE p.consumer_id = ${consumerId} AND (p.unallocated > 0 OR c.paid > 0)
       ORDER BY p.date, p.id`),
  ).map((p) => ({ ...p, id: Number(p.id) }));
  const [returned] = await tx
    .select({ total: sql<string>`coalesce(sum(${paymentsPayments.amount}), 0)::text` })
    .from(paymentsPayments)
    .where(and(eq(paymentsPayments.consumerId, consumerId), eq(paymentsPayments.kind, 17)));
  const sources = availableCredit(
    payments.map((p) => ({ paymentId: p.id, left: p.left })),
    returned?.total ?? '0',
  );
  if (sources.length === 0) return;
  const open = await lockOpenDebts(tx, companyId, consumerId);
  const spent = spendCredit(
    sources,
    open.map((d) => ({ id: d.id, remaining: moneyString(new Decimal(d.amount).minus(d.paid)) })),
  );
  if (spent.length === 0) return;
  const debts = new Map(open.map((d) => [d.id, d]));
  const paymentOf = new Map(payments.map((p) => [p.id, p]));
  const lines = spent.map((s) => {
    const debt = debts.get(s.debtId);
    const payment = paymentOf.get(s.paymentId);
    const issued = debt?.issueDate ?? '';
    // Not before the money came in (or was freed by a credit), nor before the debt was there.
    const date = payment && payment.since > issued ? payment.since : issued;
    return { ...s, date, description: `${payment?.receipt} → ${debt?.description}` };
  });
  await settleDebts(tx, companyId, consumerId, debts, lines);
  await tx.insert(paymentsEntries).values(
    lines.map((l) => ({
      companyId,
      consumerId,
      date: l.date,
      type: 'creditApplied' as const,
      description: l.description,
      debit: l.amount,
      credit: l.amount,
      debtId: l.debtId,
      paymentId: l.paymentId,
    })),
  );
}

/**
 * Tells billing what is paid of the consumers' bills, so its next run carries only what is still
 * owed: a bill's total includes the earlier bills it carried, hence paid = total − (what remains of
 * its own debt + what remains of each bill it carried, recursively).
 */
export async function syncBillsPaid(
  tx: Tx,
  companyId: number,
  consumerIds: readonly number[],
): Promise<void> {
  const bills = await tx
    .select({ id: billingBills.id, total: billingBills.total, paid: billingBills.paid })
    .from(billingBills)
    .where(
      and(
        eq(billingBills.companyId, companyId),
        inArray(billingBills.consumerId, [...consumerIds]),
        inArray(billingBills.entryState, [9, -2]),
      ),
    );
  if (bills.length === 0) return;
  const ids = bills.map((b) => b.id);
  // One after another: a transaction is one connection, which runs one statement at a time.
  const carried = await tx
    .select({ billId: billingBillLines.billId, sourceId: billingBillLines.sourceId })
    .from(billingBillLines)
    .where(and(inArray(billingBillLines.billId, ids), eq(billingBillLines.charge, 'previousBalance')));
  const debts = await tx
    .select({
      billId: paymentsDebts.billId,
      amount: paymentsDebts.amount,
      paid: paymentsDebts.paid,
      status: paymentsDebts.status,
    })
    .from(paymentsDebts)
    .where(inArray(paymentsDebts.billId, ids));
  // A debt closed into a settlement is owed there, not on the bill.
  const own = new Map(
    debts.map((d) => [d.billId, d.status === 'open' ? new Decimal(d.amount).minus(d.paid) : new Decimal(0)]),
  );
  const memo = new Map<number, Decimal>();
  const outstanding = (billId: number, depth = 0): Decimal => {
    const known = memo.get(billId);
    if (known) return known;
    let total = own.get(billId) ?? new Decimal(0);
    if (depth < 100) {
      for (const line of carried) {
        if (line.billId === billId && line.sourceId !== null)
          total = total.plus(outstanding(line.sourceId, depth + 1));
      }
    }
    memo.set(billId, total);
    return total;
  };
  const changed = bills.flatMap((b) => {
    const paid = moneyString(Decimal.max(new Decimal(b.total).minus(outstanding(b.id)), 0));
    return new Decimal(paid).eq(b.paid) ? [] : [{ billId: b.id, paid }];
  });
  await setBillsPaid(tx, companyId, changed);
}
