import type {
  DiscountPolicyItem,
  PricingPolicy,
  SaveDiscountPolicy,
  SavePricingPolicy,
} from '@protocol/contracts';
import { and, asc, count, desc, eq, gte, inArray, isNull, lte, ne, or } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Principal } from '../../platform/auth.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { vatPercentages } from '../settings/settings-tables.schema.ts';
import {
  waterPipeDiameters,
  waterPropertyUsages,
  waterSewerageIndicators,
  waterSpecialRegulations,
} from '../water/parametrics.schema.ts';
import { billingDiscountPolicies, billingPricingPolicies } from './billing.schema.ts';

/** Pricing and discount policies: read, create, edit (a policy is never deleted, it is closed by `todate`). */

type PricingRow = typeof billingPricingPolicies.$inferSelect;
type DiscountRow = typeof billingDiscountPolicies.$inferSelect;

const pricingOf = (row: PricingRow, usage: string): PricingPolicy => ({
  id: row.id,
  description: row.description,
  propertyUsageId: row.propertyUsageId,
  propertyUsage: usage,
  fromdate: row.fromdate,
  todate: row.todate,
  baseMonths: row.baseMonths,
  fixedCharges: row.fixedCharges,
  bands: row.bands,
  sewerageMode: row.sewerageMode,
  sewerageValue: row.sewerageValue,
  sewerageIndicatorIds: row.sewerageIndicatorIds,
  specialFees: row.specialFees,
  vat: row.vat,
  active: row.active,
});

const discountOf = (row: DiscountRow): DiscountPolicyItem => ({
  id: row.id,
  description: row.description,
  fromdate: row.fromdate,
  todate: row.todate,
  reduction: row.reduction as 1 | -1,
  amountType: row.amountType as 1 | 2,
  calculation: row.calculation as 1 | 2,
  amount: row.amount,
  charges: row.charges,
  specialRegulationIds: row.specialRegulationIds,
  active: row.active,
});

type Referenced = PgTable & { id: AnyPgColumn; companyId: AnyPgColumn };

/** 400 naming the field when a referenced row is not the company's (or not there at all). */
async function checkReferences(
  tx: Tx,
  companyId: number,
  checks: { field: string; table: Referenced; ids: number[] }[],
) {
  for (const { field, table, ids } of checks) {
    const unique = [...new Set(ids)];
    if (unique.length === 0) continue;
    const [found] = await tx
      .select({ n: count() })
      .from(table as typeof waterPropertyUsages)
      .where(and(eq(table.companyId, companyId), inArray(table.id, unique)));
    if (found?.n !== unique.length) {
      throw badRequest([{ field, key: 'validation.billing_unknown_reference', params: {} }]);
    }
  }
}

async function checkPricing(tx: Tx, companyId: number, body: SavePricingPolicy) {
  await checkReferences(tx, companyId, [
    { field: 'propertyUsageId', table: waterPropertyUsages, ids: [body.propertyUsageId] },
    {
      field: 'fixedCharges',
      table: waterPipeDiameters,
      ids: body.fixedCharges.flatMap((f) => (f.pipeDiameterId === null ? [] : [f.pipeDiameterId])),
    },
    { field: 'sewerageIndicatorIds', table: waterSewerageIndicators, ids: body.sewerageIndicatorIds },
  ]);
  const vatIds = [...new Set(Object.values(body.vat))];
  const vat = await tx
    .select({ id: vatPercentages.id })
    .from(vatPercentages)
    .where(inArray(vatPercentages.id, vatIds));
  if (vat.length !== vatIds.length) {
    throw badRequest([{ field: 'vat', key: 'validation.billing_unknown_reference', params: {} }]);
  }
}

/**
 * Two active pricing policies of one property usage may not be valid on the same day (the bill of a
 * day must have one tariff): a 400 on `fromdate` naming the other policy. A tariff change closes the
 * old policy (its `todate`) before the new one starts.
 */
async function checkOverlap(tx: Tx, companyId: number, id: number | null, body: SavePricingPolicy) {
  if (!body.active) return;
  const [other] = await tx
    .select({ description: billingPricingPolicies.description })
    .from(billingPricingPolicies)
    .where(
      and(
        eq(billingPricingPolicies.companyId, companyId),
        eq(billingPricingPolicies.propertyUsageId, body.propertyUsageId),
        eq(billingPricingPolicies.active, true),
        id === null ? undefined : ne(billingPricingPolicies.id, id),
        body.todate === null ? undefined : lte(billingPricingPolicies.fromdate, body.todate),
        or(isNull(billingPricingPolicies.todate), gte(billingPricingPolicies.todate, body.fromdate)),
      ),
    )
    .limit(1);
  if (other) {
    throw badRequest([
      { field: 'fromdate', key: 'validation.billing_pricing_overlap', params: { policy: other.description } },
    ]);
  }
}

export async function listPricingPolicies(db: Db, companyId: number): Promise<PricingPolicy[]> {
  const rows = await db
    .select({ row: billingPricingPolicies, usage: waterPropertyUsages.description })
    .from(billingPricingPolicies)
    .innerJoin(waterPropertyUsages, eq(waterPropertyUsages.id, billingPricingPolicies.propertyUsageId))
    .where(eq(billingPricingPolicies.companyId, companyId))
    .orderBy(asc(waterPropertyUsages.description), desc(billingPricingPolicies.fromdate));
  return rows.map(({ row, usage }) => pricingOf(row, usage));
}

export async function getPricingPolicy(db: Tx, companyId: number, id: number): Promise<PricingPolicy> {
  const [found] = await db
    .select({ row: billingPricingPolicies, usage: waterPropertyUsages.description })
    .from(billingPricingPolicies)
    .innerJoin(waterPropertyUsages, eq(waterPropertyUsages.id, billingPricingPolicies.propertyUsageId))
    .where(and(eq(billingPricingPolicies.id, id), eq(billingPricingPolicies.companyId, companyId)));
  if (!found) throw notFound();
  return pricingOf(found.row, found.usage);
}

export async function savePricingPolicy(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number | null,
  body: SavePricingPolicy,
  requestId: string,
): Promise<PricingPolicy> {
  return db.transaction(async (tx) => {
    // Another company's policy is not found before anything about the body is said.
    if (id !== null) await getPricingPolicy(tx, companyId, id);
    await checkPricing(tx, companyId, body);
    await checkOverlap(tx, companyId, id, body);
    const values = { ...body, companyId };
    let saved: number;
    if (id === null) {
      const [row] = await tx
        .insert(billingPricingPolicies)
        .values({ ...values, createuser: principal.username })
        .returning({ id: billingPricingPolicies.id });
      saved = row?.id as number;
    } else {
      await tx
        .update(billingPricingPolicies)
        .set({ ...values, updateuser: principal.username, updatedate: new Date() })
        .where(eq(billingPricingPolicies.id, id));
      saved = id;
    }
    await recordAudit(tx, {
      entity: 'billing.pricingPolicy',
      entityId: saved,
      action: id === null ? 'create' : 'update',
      companyId,
      user: principal,
      requestId,
    });
    return getPricingPolicy(tx, companyId, saved);
  });
}

export async function listDiscountPolicies(db: Db, companyId: number): Promise<DiscountPolicyItem[]> {
  const rows = await db
    .select()
    .from(billingDiscountPolicies)
    .where(eq(billingDiscountPolicies.companyId, companyId))
    .orderBy(asc(billingDiscountPolicies.description), desc(billingDiscountPolicies.fromdate));
  return rows.map(discountOf);
}

export async function getDiscountPolicy(db: Tx, companyId: number, id: number): Promise<DiscountPolicyItem> {
  const [row] = await db
    .select()
    .from(billingDiscountPolicies)
    .where(and(eq(billingDiscountPolicies.id, id), eq(billingDiscountPolicies.companyId, companyId)));
  if (!row) throw notFound();
  return discountOf(row);
}

export async function saveDiscountPolicy(
  db: Db,
  principal: Principal,
  companyId: number,
  id: number | null,
  body: SaveDiscountPolicy,
  requestId: string,
): Promise<DiscountPolicyItem> {
  return db.transaction(async (tx) => {
    if (id !== null) await getDiscountPolicy(tx, companyId, id);
    await checkReferences(tx, companyId, [
      { field: 'specialRegulationIds', table: waterSpecialRegulations, ids: body.specialRegulationIds },
    ]);
    const values = { ...body, companyId };
    let saved: number;
    if (id === null) {
      const [row] = await tx
        .insert(billingDiscountPolicies)
        .values({ ...values, createuser: principal.username })
        .returning({ id: billingDiscountPolicies.id });
      saved = row?.id as number;
    } else {
      await tx
        .update(billingDiscountPolicies)
        .set({ ...values, updateuser: principal.username, updatedate: new Date() })
        .where(eq(billingDiscountPolicies.id, id));
      saved = id;
    }
    await recordAudit(tx, {
      entity: 'billing.discountPolicy',
      entityId: saved,
      action: id === null ? 'create' : 'update',
      companyId,
      user: principal,
      requestId,
    });
    return getDiscountPolicy(tx, companyId, saved);
  });
}

/** The VAT settings' active percentages (global), for the policies' VAT choices. */
export function activeVatPercentages(db: Db) {
  return db
    .select({
      id: vatPercentages.id,
      description: vatPercentages.description,
      percentage: vatPercentages.percentage,
    })
    .from(vatPercentages)
    .where(eq(vatPercentages.active, true))
    .orderBy(asc(vatPercentages.code));
}
