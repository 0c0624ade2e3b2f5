import {
  type DiscountPolicy,
  EXTRA_CHARGE_KIND,
  FINALIZED,
  moneyString,
  type VatCharge,
  vatCharges,
} from '@protocol/contracts';
import { and, eq, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { type BillInput, BillingError, type Tariff } from '../../platform/domain/billing.ts';
import { AppError } from '../../platform/errors.ts';
import { periodicities, vatPercentages } from '../settings/settings-tables.schema.ts';
import type { waterConsumers } from '../water/consumers.schema.ts';
import { waterConsumerTransactions } from '../water/meters.schema.ts';
import { waterInvoicePolicies } from '../water/parametrics.schema.ts';
import { billingBills, billingDiscountPolicies, billingPricingPolicies } from './billing.schema.ts';

/**
 * What computing a company's bills needs, loaded once (a billing run computes thousands of bills with
 * these few queries plus one per batch of consumers for their extras and unpaid bills).
 */
export interface BillingContext {
  tariffsByUsage: Map<number, Tariff[]>;
  discounts: DiscountPolicy[];
  invoicePolicies: Map<
    number,
    { months: number; expiredays: number; resourceTax: string; envTax: string; minConsumption: number }
  >;
}

export type BillingConsumer = Pick<
  typeof waterConsumers.$inferSelect,
  | 'id'
  | 'propertyUsageId'
  | 'invoicePolicyId'
  | 'pipeDiameterId'
  | 'sewerageIndicatorId'
  | 'specialRegulationId'
  | 'specialFrom'
  | 'specialTo'
>;

export async function loadBillingContext(tx: Tx, companyId: number): Promise<BillingContext> {
  const vat = new Map(
    (
      await tx.select({ id: vatPercentages.id, percentage: vatPercentages.percentage }).from(vatPercentages)
    ).map((v) => [v.id, v.percentage]),
  );
  const pricing = await tx
    .select()
    .from(billingPricingPolicies)
    .where(and(eq(billingPricingPolicies.companyId, companyId), eq(billingPricingPolicies.active, true)));
  const tariffsByUsage = new Map<number, Tariff[]>();
  for (const p of pricing) {
    const rates = Object.fromEntries(
      vatCharges.map((c) => [c, vat.get(p.vat[c] as number) ?? '0']),
    ) as Record<VatCharge, string>;
    const tariff: Tariff = {
      id: p.id,
      description: p.description,
      fromdate: p.fromdate,
      todate: p.todate,
      baseMonths: p.baseMonths,
      fixedCharges: p.fixedCharges,
      bands: p.bands,
      sewerageMode: p.sewerageMode,
      sewerageValue: p.sewerageValue,
      sewerageIndicatorIds: p.sewerageIndicatorIds,
      specialFees: p.specialFees,
      vat: rates,
    };
    tariffsByUsage.set(p.propertyUsageId, [...(tariffsByUsage.get(p.propertyUsageId) ?? []), tariff]);
  }
  const discounts = (
    await tx
      .select()
      .from(billingDiscountPolicies)
      .where(and(eq(billingDiscountPolicies.companyId, companyId), eq(billingDiscountPolicies.active, true)))
  ).map(
    (d): DiscountPolicy => ({
      id: d.id,
      description: d.description,
      fromdate: d.fromdate,
      todate: d.todate,
      reduction: d.reduction as 1 | -1,
      amountType: d.amountType as 1 | 2,
      calculation: d.calculation as 1 | 2,
      amount: d.amount,
      charges: d.charges,
      specialRegulationIds: d.specialRegulationIds,
    }),
  );
  const policies = await tx
    .select({ policy: waterInvoicePolicies, months: periodicities.periodicityType })
    .from(waterInvoicePolicies)
    .innerJoin(periodicities, eq(periodicities.id, waterInvoicePolicies.periodicityId))
    .where(eq(waterInvoicePolicies.companyId, companyId));
  const invoicePolicies = new Map(
    policies.map(({ policy, months }) => [
      policy.id,
      {
        months,
        expiredays: policy.expiredays,
        resourceTax: policy.resourcetax,
        envTax: policy.envtax,
        minConsumption: policy.minConsumption,
      },
    ]),
  );
  return { tariffsByUsage, discounts, invoicePolicies };
}

export interface ConsumerCharges {
  extras: Map<number, BillInput['extraCharges']>;
  unpaid: Map<number, BillInput['previousBalance']>;
}

/**
 * The unbilled extra charges (kind 5, dated up to the period's end) and the unpaid finalized bills of
 * earlier periods of a batch of consumers, in two queries.
 */
export async function loadConsumerCharges(
  tx: Tx,
  companyId: number,
  consumerIds: number[],
  period: { from: string; to: string },
): Promise<ConsumerCharges> {
  const extras = new Map<number, BillInput['extraCharges']>();
  const unpaid = new Map<number, BillInput['previousBalance']>();
  if (consumerIds.length === 0) return { extras, unpaid };
  // A run's chunk asks for hundreds of consumers: one array parameter, not one parameter each.
  const ids = `{${consumerIds.join(',')}}`;
  const extraRows = await tx
    .select()
    .from(waterConsumerTransactions)
    .where(
      and(
        eq(waterConsumerTransactions.companyId, companyId),
        sql`${waterConsumerTransactions.consumerId} = ANY(${ids}::int[])`,
        eq(waterConsumerTransactions.kind, EXTRA_CHARGE_KIND),
        isNull(waterConsumerTransactions.billedOn),
        lte(waterConsumerTransactions.date, period.to),
      ),
    )
    .orderBy(waterConsumerTransactions.date, waterConsumerTransactions.id);
  for (const row of extraRows) {
    const list = extras.get(row.consumerId) ?? [];
    list.push({
      transactionId: row.id,
      date: row.date,
      description: row.comments ?? '',
      amount: row.amount ?? '0',
    });
    extras.set(row.consumerId, list);
  }
  const bills = await tx
    .select({
      id: billingBills.id,
      consumerId: billingBills.consumerId,
      label: billingBills.periodLabel,
      due: sql<string>`(${billingBills.total} - ${billingBills.paid})::text`,
    })
    .from(billingBills)
    .where(
      and(
        eq(billingBills.companyId, companyId),
        sql`${billingBills.consumerId} = ANY(${ids}::int[])`,
        eq(billingBills.entryState, FINALIZED),
        lt(billingBills.periodFrom, period.from),
        sql`${billingBills.total} > ${billingBills.paid}`,
      ),
    )
    .orderBy(billingBills.periodFrom);
  for (const bill of bills) {
    const list = unpaid.get(bill.consumerId) ?? [];
    list.push({ billId: bill.id, description: bill.label, amount: moneyString(bill.due) });
    unpaid.set(bill.consumerId, list);
  }
  return { extras, unpaid };
}

/** The computation's input for one consumer; a consumer without usage or invoice policy is a 409. */
export function billInputFor(
  context: BillingContext,
  consumer: BillingConsumer,
  charges: ConsumerCharges,
  period: { from: string; to: string },
  consumption: string,
): BillInput & { expiredays: number } {
  const policy =
    consumer.invoicePolicyId === null ? undefined : context.invoicePolicies.get(consumer.invoicePolicyId);
  if (!policy) throw new AppError(409, 'billing.error.no_invoice_policy');
  const tariffs =
    consumer.propertyUsageId === null ? [] : (context.tariffsByUsage.get(consumer.propertyUsageId) ?? []);
  if (tariffs.length === 0) throw new AppError(409, 'billing.error.no_pricing_policy');
  return {
    period: { ...period, months: policy.months },
    consumption,
    consumer: {
      pipeDiameterId: consumer.pipeDiameterId,
      sewerageIndicatorId: consumer.sewerageIndicatorId,
      specialRegulationId: consumer.specialRegulationId,
      specialFrom: consumer.specialFrom,
      specialTo: consumer.specialTo,
    },
    tariffs,
    invoicePolicy: policy,
    discounts: context.discounts,
    extraCharges: charges.extras.get(consumer.id) ?? [],
    previousBalance: charges.unpaid.get(consumer.id) ?? [],
    expiredays: policy.expiredays,
  };
}

/** A computation refusal (no tariff for a day) as the API's 409 with the catalog key. */
export function asAppError(error: unknown): unknown {
  return error instanceof BillingError ? new AppError(409, error.key, error.params) : error;
}
