import type { BillCharge, DiscountableCharge, Language } from '@protocol/contracts';
import { billEntryStates } from '@protocol/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { financeSeries } from '../finance/finance.schema.ts';
import { traders } from '../traders/traders.schema.ts';
import { waterConsumers } from '../water/consumers.schema.ts';
import { billingBillLines, billingBills } from './billing.schema.ts';

/*
 * What other modules may ask of billing (see README "Adding a module"): finalized bills with their
 * lines and VAT breakdown (myDATA transmits them), and a hook to print extras on the bill (myDATA's
 * MARK, UID and QR code).
 */

export interface FinalizedBill {
  id: number;
  seriesCode: string;
  seriesDescr: string;
  invoiceType: string | null;
  number: number;
  year: number;
  issueDate: string;
  periodLabel: string;
  consumerCode: string;
  owner: { name: string | null; vatNumber: string | null; country: string | null };
  net: string;
  vatTotal: string;
  vat: { vatPercent: string; net: string; vat: string }[];
  lines: { charge: string; amount: string; vatPercent: string }[];
  /** A credit (kind 4): the bill it credits; its amounts are negative. */
  correctsId: number | null;
}

/** The company's finalized (numbered) bills among `ids`, in the order asked; others are left out. */
export async function finalizedBills(
  db: Db,
  companyId: number,
  ids: readonly number[],
): Promise<FinalizedBill[]> {
  if (ids.length === 0) return [];
  const heads = await db
    .select({
      bill: billingBills,
      seriesCode: financeSeries.code,
      seriesDescr: financeSeries.descr,
      invoiceType: financeSeries.mydataType,
      consumerCode: waterConsumers.code,
      ownerName: traders.fullname,
      ownerVat: traders.vatnumber,
      ownerCountry: traders.country,
    })
    .from(billingBills)
    .innerJoin(financeSeries, eq(financeSeries.id, billingBills.seriesId))
    .innerJoin(waterConsumers, eq(waterConsumers.id, billingBills.consumerId))
    .leftJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .where(
      and(
        eq(billingBills.companyId, companyId),
        inArray(billingBills.id, [...ids]),
        eq(billingBills.entryState, billEntryStates.finalized),
      ),
    );
  const lines =
    heads.length === 0
      ? []
      : await db
          .select({
            billId: billingBillLines.billId,
            charge: billingBillLines.charge,
            amount: billingBillLines.amount,
            vatPercent: billingBillLines.vatPercent,
          })
          .from(billingBillLines)
          .where(
            inArray(
              billingBillLines.billId,
              heads.map((h) => h.bill.id),
            ),
          )
          .orderBy(asc(billingBillLines.billId), asc(billingBillLines.position));
  const byId = new Map(heads.map((h) => [h.bill.id, h]));
  return ids.flatMap((id) => {
    const h = byId.get(id);
    if (!h || h.bill.number === null || h.bill.year === null) return [];
    return [
      {
        id,
        seriesCode: h.seriesCode,
        seriesDescr: h.seriesDescr,
        invoiceType: h.invoiceType,
        number: h.bill.number,
        year: h.bill.year,
        issueDate: h.bill.issueDate,
        periodLabel: h.bill.periodLabel,
        consumerCode: h.consumerCode,
        owner: { name: h.ownerName, vatNumber: h.ownerVat, country: h.ownerCountry },
        net: h.bill.net,
        vatTotal: h.bill.vatTotal,
        vat: h.bill.vatBreakdown,
        lines: lines
          .filter((l) => l.billId === id)
          .map(({ charge, amount, vatPercent }) => ({ charge, amount, vatPercent })),
        correctsId: h.bill.correctsId,
      },
    ];
  });
}

/** The ids of the company's finalized bills issued on a day, in number order. */
export async function finalizedBillsOfDay(db: Db, companyId: number, day: string): Promise<number[]> {
  const rows = await db
    .select({ id: billingBills.id })
    .from(billingBills)
    .where(
      and(
        eq(billingBills.companyId, companyId),
        eq(billingBills.issueDate, day),
        eq(billingBills.entryState, billEntryStates.finalized),
      ),
    )
    .orderBy(asc(billingBills.number));
  return rows.map((r) => r.id);
}

/** What another module prints on a bill below its totals: labelled lines and an optional QR code. */
export interface BillPrintExtra {
  lines: [label: string, value: string][];
  qr: string | null;
}
export type BillPrintHook = (db: Db, billId: number, language: Language) => Promise<BillPrintExtra | null>;

const printHooks = new Map<string, BillPrintHook>();

/** Registered by name, so registering again replaces. */
export function addBillPrintHook(name: string, hook: BillPrintHook): void {
  printHooks.set(name, hook);
}

export async function billPrintExtras(db: Db, billId: number, language: Language): Promise<BillPrintExtra[]> {
  const extras = await Promise.all([...printHooks.values()].map((hook) => hook(db, billId, language)));
  return extras.filter((extra): extra is BillPrintExtra => extra !== null);
}

/** What myDATA needs of a finalized bill beyond `finalizedBills`. */
export interface BillMydataDetails {
  /** The owner's postal address (a foreign counterpart is sent with it). */
  ownerAddress: { street: string | null; postalCode: string | null; city: string | null };
  /** The lines with the charge a discount reduces, so each charge kind goes with its own classification. */
  lines: { charge: BillCharge; target: DiscountableCharge | null; amount: string; vatPercent: string }[];
  /** What has been paid of it: a paid bill was issued and is corrected, never cancelled. */
  paid: string;
  /** Whether a credit (kind 4) corrects it: then it is not cancelled either. */
  credited: boolean;
}

/**
 * For myDATA (added beside `finalizedBills`, which other callers use as it is): the owner's address,
 * the lines with their discount targets and what is paid, of the company's finalized bills among `ids`.
 */
export async function finalizedBillMydataDetails(
  db: Db,
  companyId: number,
  ids: readonly number[],
): Promise<Map<number, BillMydataDetails>> {
  if (ids.length === 0) return new Map();
  const heads = await db
    .select({
      id: billingBills.id,
      paid: billingBills.paid,
      credited: sql<boolean>`EXISTS (SELECT 1 FROM billing_bills c WHERE c.corrects_id = ${billingBills.id})`,
      street: traders.address,
      postalCode: traders.zipcode,
      city: traders.city,
    })
    .from(billingBills)
    .innerJoin(waterConsumers, eq(waterConsumers.id, billingBills.consumerId))
    .leftJoin(traders, eq(traders.id, waterConsumers.ownerId))
    .where(
      and(
        eq(billingBills.companyId, companyId),
        inArray(billingBills.id, [...ids]),
        eq(billingBills.entryState, billEntryStates.finalized),
      ),
    );
  const details = new Map<number, BillMydataDetails>(
    heads.map((h) => [
      h.id,
      {
        ownerAddress: { street: h.street, postalCode: h.postalCode, city: h.city },
        lines: [],
        paid: h.paid,
        credited: h.credited,
      },
    ]),
  );
  if (heads.length === 0) return details;
  const lines = await db
    .select({
      billId: billingBillLines.billId,
      charge: billingBillLines.charge,
      target: billingBillLines.target,
      amount: billingBillLines.amount,
      vatPercent: billingBillLines.vatPercent,
    })
    .from(billingBillLines)
    .where(
      inArray(
        billingBillLines.billId,
        heads.map((h) => h.id),
      ),
    )
    .orderBy(asc(billingBillLines.billId), asc(billingBillLines.position));
  for (const { billId, ...line } of lines) details.get(billId)?.lines.push(line);
  return details;
}

/**
 * What has been paid of the company's bills (the payments module keeps it): a bill's `paid` is what
 * a later run leaves out of the previous balance it carries. One statement for all.
 */
export async function setBillsPaid(
  tx: Tx,
  companyId: number,
  paid: readonly { billId: number; paid: string }[],
): Promise<void> {
  if (paid.length === 0) return;
  await tx.execute(sql`
    UPDATE billing_bills b SET paid = v.paid
      FROM (VALUES ${sql.join(
        paid.map((p) => sql`(${p.billId}::int, ${p.paid}::numeric)`),
        sql`, `,
      )}) AS v(id, paid)
     WHERE b.id = v.id AND b.company_id = ${companyId}`);
}

/** What billing tells another module (payments) in the crediting transaction: a bill was credited. */
export interface BillCredited {
  companyId: number;
  consumerId: number;
  /** The credited bill and its credit (kind 4). */
  billId: number;
  creditId: number;
  /** What the credit takes off: the bill's own charges (net + VAT), positive. */
  amount: string;
  date: string;
  /** The credit's number and period, as the ledger shows it. */
  description: string;
  username: string;
}
/**
 * A module told of credits: `lock` runs first, before billing locks the bill (payments takes the
 * consumer's lock there, in the order its own payments take it, so neither waits on the other in a
 * circle); `credited` runs once the credit is numbered, in the same transaction.
 */
export interface BillCreditHook {
  lock: (tx: Tx, companyId: number, consumerId: number) => Promise<void>;
  credited: (tx: Tx, credited: BillCredited) => Promise<void>;
}

const creditHooks = new Map<string, BillCreditHook>();

/** Registered by name, so registering again replaces (payments closes the credited bill's debt). */
export function addBillCreditHook(name: string, hook: BillCreditHook): void {
  creditHooks.set(name, hook);
}

export async function lockForCredit(tx: Tx, companyId: number, consumerId: number): Promise<void> {
  for (const hook of creditHooks.values()) await hook.lock(tx, companyId, consumerId);
}

export async function billCredited(tx: Tx, credited: BillCredited): Promise<void> {
  for (const hook of creditHooks.values()) await hook.credited(tx, credited);
}
