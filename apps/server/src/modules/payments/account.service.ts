import {
  type AccountHolder,
  type ConsumerAccount,
  type ConsumerDebts,
  type LedgerEntry,
  normalizeText,
  normalizeVatNumber,
  paymentsErrors,
  utilityDay,
} from '@protocol/contracts';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { traders } from '../traders/traders.schema.ts';
import { consumerCodeIs, waterConsumers } from '../water/consumers.schema.ts';
import { raiseBillDebts } from './allocation.ts';
import { interestTermsOf, openDebtRows, sumOf, withInterest } from './debts.ts';
import { paymentsDebts, paymentsEntries } from './payments.schema.ts';

/** The consumer's account (καρτέλα): the ledger with its running balance, the debts, the interest. */

const holderColumns = {
  id: waterConsumers.id,
  code: waterConsumers.code,
  ownerName: sql<string>`coalesce(${traders.fullname}, '')`,
  vatNumber: traders.vatnumber,
  supplyAddress: waterConsumers.supplyAddress,
};

async function holderOf(tx: Tx, companyId: number, consumerId: number): Promise<AccountHolder> {
  const [holder] = await tx
    .select(holderColumns)
    .from(waterConsumers)
    .leftJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .where(and(eq(waterConsumers.id, consumerId), eq(waterConsumers.companyId, companyId)));
  if (!holder) throw notFound();
  return holder;
}

/** The ledger lines in order with the running balance (a window sum, in the database). */
export async function ledgerOf(tx: Tx, companyId: number, consumerId: number): Promise<LedgerEntry[]> {
  const rows = await tx
    .select({
      id: paymentsEntries.id,
      date: paymentsEntries.date,
      type: paymentsEntries.type,
      kind: paymentsEntries.kind,
      description: paymentsEntries.description,
      debit: paymentsEntries.debit,
      credit: paymentsEntries.credit,
      paymentId: paymentsEntries.paymentId,
      balance: sql<string>`(sum(${paymentsEntries.debit} - ${paymentsEntries.credit}) OVER (ORDER BY ${paymentsEntries.date}, ${paymentsEntries.id}))::numeric(14,2)::text`,
    })
    .from(paymentsEntries)
    .where(and(eq(paymentsEntries.companyId, companyId), eq(paymentsEntries.consumerId, consumerId)))
    .orderBy(asc(paymentsEntries.date), asc(paymentsEntries.id));
  return rows;
}

/** GET /payments/accounts/:consumerId: everything the Account tab and the statement show. */
export async function accountOf(tx: Tx, companyId: number, consumerId: number): Promise<ConsumerAccount> {
  const consumer = await holderOf(tx, companyId, consumerId);
  const asOf = utilityDay(new Date());
  const terms = await interestTermsOf(tx, companyId);
  const rows = await openDebtRows(tx, companyId, [consumerId]);
  const [debts, entries] = [
    await withInterest(tx, rows, terms, asOf),
    await ledgerOf(tx, companyId, consumerId),
  ];
  return {
    consumer,
    entries,
    debts,
    balance: entries.at(-1)?.balance ?? '0.00',
    due: sumOf(debts.map((d) => d.remaining)),
    interest: sumOf(debts.map((d) => d.interest)),
    interestEnabled: terms !== null,
    asOf,
  };
}

const MAX_CONSUMERS = 20;

/**
 * Finds open debts by consumer code, ΑΦΜ, owner's name (Greek-normalised, accents and case ignored)
 * or RF code; none found is the spec's 404 'No debts found for the given details'.
 */
export async function findDebts(tx: Tx, companyId: number, text: string): Promise<ConsumerDebts[]> {
  const query = text.trim();
  if (query.length < 2) throw new AppError(400, paymentsErrors.noDebts);
  const compact = query.replace(/\s+/g, '').toUpperCase();
  let consumerIds: number[];
  if (/^RF\d{2}[0-9A-Z]+$/.test(compact)) {
    const rows = await tx
      .select({ consumerId: paymentsDebts.consumerId })
      .from(paymentsDebts)
      .where(and(eq(paymentsDebts.companyId, companyId), eq(paymentsDebts.rfCode, compact)));
    consumerIds = rows.map((r) => r.consumerId);
    if (consumerIds.length === 0) {
      // A bill finalized but not yet raised as a debt: raise the company's, then look again.
      await raiseBillDebts(tx, companyId);
      const again = await tx
        .select({ consumerId: paymentsDebts.consumerId })
        .from(paymentsDebts)
        .where(and(eq(paymentsDebts.companyId, companyId), eq(paymentsDebts.rfCode, compact)));
      consumerIds = again.map((r) => r.consumerId);
    }
  } else {
    const norm = normalizeText(query);
    const vat = normalizeVatNumber(query);
    const rows = await tx
      .select({ id: waterConsumers.id })
      .from(waterConsumers)
      .innerJoin(traders, eq(traders.id, waterConsumers.ownerId))
      .where(
        and(
          eq(waterConsumers.companyId, companyId),
          or(
            eq(waterConsumers.codeNorm, norm),
            consumerCodeIs(query),
            /^\d{9}$/.test(vat) ? eq(traders.vatnumber, vat) : undefined,
            sql`${traders.fullnameNorm} LIKE ${`%${norm.replace(/[%_\\]/g, '\\$&')}%`}`,
          ),
        ),
      )
      .orderBy(asc(waterConsumers.codeNorm))
      .limit(MAX_CONSUMERS);
    consumerIds = rows.map((r) => r.id);
  }
  const terms = await interestTermsOf(tx, companyId);
  const asOf = utilityDay(new Date());
  const debts = await withInterest(tx, await openDebtRows(tx, companyId, consumerIds), terms, asOf);
  if (debts.length === 0) throw new AppError(404, paymentsErrors.noDebts);
  const holders = await tx
    .select(holderColumns)
    .from(waterConsumers)
    .leftJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .where(inArray(waterConsumers.id, [...new Set(debts.map((d) => d.consumerId))]))
    .orderBy(asc(waterConsumers.code));
  return holders.map((consumer) => {
    const own = debts.filter((d) => d.consumerId === consumer.id);
    return {
      consumer,
      debts: own,
      due: sumOf(own.map((d) => d.remaining)),
      interest: sumOf(own.map((d) => d.interest)),
    };
  });
}
